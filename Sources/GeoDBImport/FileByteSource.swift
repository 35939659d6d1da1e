// A file's bytes as they are read, decompressed on the way when it is gzip or bzip2 (never written out
// first: a small .gz may expand to gigabytes). OSM XML and the text formats (GeoNames, CSV, importance
// files) read through it.
import CBzip2
import CZlib
import Foundation
import GeoDB

/// The bytes of a plain, gzip or bzip2 file, decompressed as they are read. Errors name the file and
/// about where in it the data went wrong.
final class FileByteSource {
    /// How the file is compressed.
    enum Compression {
        case none, gzip, bzip2
    }

    private enum Reader {
        case plain(UnsafeMutablePointer<FILE>)
        case gzip(gzFile)
        case bzip2(Bzip2Reader)
    }

    private let reader: Reader
    private let path: String
    private var closed = false

    init(path: String, compression: Compression) throws {
        self.path = path
        switch compression {
        case .gzip:
            guard let file = gzopen(path, "rb") else { throw Self.cannotOpen(path) }
            gzbuffer(file, 1 << 20)
            reader = .gzip(file)
        case .bzip2:
            reader = .bzip2(try Bzip2Reader(path: path))
        case .none:
            guard let file = fopen(path, "rb") else { throw Self.cannotOpen(path) }
            reader = .plain(file)
        }
    }

    private static func cannotOpen(_ path: String) -> GeoDBError {
        GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
    }

    var isCompressed: Bool {
        if case .plain = reader { return false }
        return true
    }

    /// Bytes of the file (compressed, when it is) read so far.
    var fileOffset: Int {
        switch reader {
        case .plain(let file): return ftell(file)
        case .gzip(let file): return Int(gzoffset(file))
        case .bzip2(let bzip2): return bzip2.bytesRead
        }
    }

    /// Fills `buffer` from its start with the next bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch reader {
        case .plain(let file):
            let n = fread(buffer.baseAddress, 1, buffer.count, file)
            if n == 0 && ferror(file) != 0 { throw GeoDBError(.io, "\(path): read failed: \(String(cString: strerror(errno)))") }
            return n
        case .gzip(let file):
            let n = Int(gzread(file, buffer.baseAddress, UInt32(min(buffer.count, Int(Int32.max)))))
            var status: Int32 = Z_OK
            _ = gzerror(file, &status)
            if n < 0 || (n == 0 && status != Z_OK) {
                let what = status == Z_BUF_ERROR ? "the file ends inside gzip data (truncated file?)" : "corrupt gzip data"
                throw GeoDBError.badInput(file: path, at: .byteOffset(Int(gzoffset(file))), what)
            }
            return n
        case .bzip2(let bzip2):
            return try bzip2.read(into: buffer)
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        switch reader {
        case .plain(let file): fclose(file)
        case .gzip(let file): gzclose(file)
        case .bzip2(let bzip2): bzip2.close()
        }
    }
}

/// A bzip2 file decompressed as it is read. Several bzip2 streams one after the other (as pbzip2 and
/// lbzip2 write them) are one file.
final class Bzip2Reader {
    static let bufferSize = 1 << 20
    private let path: String
    private let file: UnsafeMutablePointer<FILE>
    private let compressed = UnsafeMutablePointer<CChar>.allocate(capacity: bufferSize)
    private var stream = bz_stream()
    /// Compressed bytes read from the file.
    private(set) var bytesRead = 0
    /// Input fed to the current stream before its end.
    private var inStream = false
    private var atEnd = false
    private var closed = false

    init(path: String) throws {
        guard let file = fopen(path, "rb") else {
            compressed.deallocate()
            throw GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.file = file
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
            fclose(file)
            compressed.deallocate()
            throw GeoDBError(.io, "\(path): cannot start bzip2")
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        BZ2_bzDecompressEnd(&stream)
        fclose(file)
        compressed.deallocate()
    }

    deinit { close() }

    private func bad(_ what: String) -> GeoDBError {
        GeoDBError.badInput(file: path, at: .byteOffset(bytesRead - Int(stream.avail_in)), what)
    }

    /// Fills `buffer` with the next decompressed bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !atEnd, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            if stream.avail_in == 0 {
                let n = fread(compressed, 1, Self.bufferSize, file)
                if ferror(file) != 0 { throw GeoDBError(.io, "\(path): read failed: \(String(cString: strerror(errno)))") }
                if n == 0 {
                    if inStream { throw bad("file ends inside a bzip2 stream (truncated file?)") }
                    atEnd = true
                    return 0
                }
                stream.next_in = compressed
                stream.avail_in = UInt32(n)
                bytesRead += n
            }
            inStream = true
            stream.next_out = out.assumingMemoryBound(to: CChar.self)
            stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
            let rc = BZ2_bzDecompress(&stream)
            let produced = Int(UInt32(min(buffer.count, Int(UInt32.max))) - stream.avail_out)
            if rc == BZ_STREAM_END {
                // Another stream may follow: start afresh on the input left over.
                let (next, left) = (stream.next_in, stream.avail_in)
                BZ2_bzDecompressEnd(&stream)
                stream = bz_stream()
                guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw bad("cannot restart bzip2") }
                (stream.next_in, stream.avail_in) = (next, left)
                inStream = false
            } else if rc != BZ_OK {
                throw bad(rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data" : "corrupt bzip2 data (libbz2 error \(rc))")
            }
            if produced > 0 { return produced }
        }
    }
}
