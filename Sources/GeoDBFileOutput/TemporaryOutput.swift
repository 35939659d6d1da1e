// Output files written whole or not at all: built in a temporary file beside the output, renamed into
// place when complete, removed on failure or when the process is interrupted. Imports and exports use it.
import Foundation
import GeoDB

/// The temporary file an import or export writes, beside its output so the final rename stays on one
/// file system; removed on Ctrl-C or when not committed.
///
/// ```swift
/// let temporary = TemporaryOutput(for: "out.gpkg", sideFiles: ["-journal"])
/// defer { temporary.discard() }
/// try write(to: temporary.path)
/// try temporary.commit()
/// ```
public final class TemporaryOutput {
    /// The temporary file: `.<output name>.tmp-<pid>` beside the output.
    public let path: String
    /// The file it becomes.
    public let output: String
    private var committed = false
    /// The file and the side files its writer may leave (SQLite journals, scratch files): removed on
    /// failure and on Ctrl-C.
    private let files: [String]

    /// A temporary file for `output`; `sideFiles` are the suffixes (appended to `path`) of other files
    /// its writer may create beside it.
    public init(for output: String, sideFiles: [String] = []) {
        self.output = output
        let url = URL(fileURLWithPath: output)
        let path = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
        self.path = path
        files = [path] + sideFiles.map { path + $0 }
        InterruptCleanup.register(files)
    }

    /// Starts writing what the file holds so far to disk, on a thread of its own, so that the fsync in
    /// `commit()` waits only for what is written after. That fsync is disk time at the very end of an
    /// import: 56–265 ms on the tiled ×20 extract (23 MB), 2–14 ms when started after the bulk load and
    /// after the search tables (×20, median of 9 interleaved runs: 1.51 → 1.43 s).
    public func startWriteback() {
        let path = self.path
        let thread = Thread { Self.flush(path, dataOnly: true) }
        thread.name = "geodb-writeback"
        thread.start()
    }

    /// Flushes the closed database to disk and renames it into place (atomically replacing any old output).
    public func commit() throws {
        Self.flush(path)
        guard rename(path, output) == 0 else {
            throw GeoDBError(.io, "cannot move \(path) to \(output): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    /// Writes the file at `path` to disk (with `dataOnly`, without waiting for its metadata); nothing when it
    /// is gone (a failed import removed it while a writeback was starting).
    private static func flush(_ path: String, dataOnly: Bool = false) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        _ = dataOnly ? fdatasync(fd) : fsync(fd)
        close(fd)
    }

    /// Starts from a copy of `existing` (appending): the original stays untouched until `commit()`.
    public func copy(from existing: String) throws {
        unlink(path)
        do {
            try FileManager.default.copyItem(atPath: existing, toPath: path)
        } catch {
            throw GeoDBError(.io, "cannot copy \(existing) to \(path): \(error.localizedDescription)")
        }
    }

    /// Removes the temporary file (and any side files) unless it was committed.
    public func discard() {
        InterruptCleanup.unregister()
        guard !committed else { return }
        for file in files { unlink(file) }
    }
}
