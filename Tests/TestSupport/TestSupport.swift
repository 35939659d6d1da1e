// Shared by the test targets: where the sample data is, scratch directories, the built binary.
import Foundation

public enum TestPaths {
    /// The package's root directory (this file is Tests/TestSupport/TestSupport.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public static func sampleData(_ name: String) -> String { root.appendingPathComponent("SampleData/\(name)").path }

    public static func fixture(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }

    /// The geodb executable built beside the test bundle.
    public static var geodbBinary: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `<build>/geodbPackageTests.xctest`; on macOS a bundle inside <build>.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("geodb").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/geodb").path
    }
}

/// A fresh directory under the system's temporary directory, removed on `remove()`, when released, and at the
/// latest when the test process exits.
public final class ScratchDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("geodb-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        Self.removeAtExit(url.path)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Files in the directory, for checking that no temporary file was left behind.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }

    /// Every directory is also removed when the test process exits: one held by a `static let` (the databases
    /// a suite shares) is never deinitialized, and each run left ~230 MB in /tmp before.
    private static func removeAtExit(_ path: String) {
        processDirectoriesLock.lock()
        defer { processDirectoriesLock.unlock() }
        if processDirectories.isEmpty {
            atexit {
                for path in ScratchDirectory.processDirectories { try? FileManager.default.removeItem(atPath: path) }
            }
        }
        processDirectories.append(path)
    }

    nonisolated(unsafe) private static var processDirectories: [String] = []
    private static let processDirectoriesLock = NSLock()
}

/// The result of running a program.
public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the built geodb with `arguments` and waits for it; relative paths are taken from `directory`
/// (default: the test process's).
public func runGeodb(_ arguments: [String], binary: String = TestPaths.geodbBinary, in directory: String? = nil) throws -> ProcessResult {
    try runProgram(binary, arguments, in: directory)
}

/// Runs `program` with `arguments` and waits for it.
public func runProgram(_ program: String, _ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting, so a large output cannot fill the pipe and block the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
}

/// The letters of Latin-1, Latin Extended-A and -B, IPA Extensions, Greek and Cyrillic, upper and lower
/// case: what the normalization walks (every one must fold to ASCII and be found typed in ASCII).
public let latinGreekCyrillicLetters: [Unicode.Scalar] = [0xC0...0x2AF, 0x370...0x3FF, 0x400...0x4FF].flatMap { range in
    range.compactMap(Unicode.Scalar.init).filter { Character($0).isLetter }
}
