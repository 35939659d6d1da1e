// What is at a path the caller means to read or write as a file: a missing file and a directory are
// refused at once, in one line, before any work (SQLite would say "disk I/O error" about a directory, and
// an import or export would only fail at its final rename).
import Foundation

extension GeoDBError {
    /// Throws `fileNotFound` unless a file (not a directory) is at `path`; `kind` names what was expected
    /// ("database file", "input file").
    package static func requireFile(_ path: String, kind: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GeoDBError(.fileNotFound, "\(path): no such file")
        }
        if isDirectory.boolValue { throw GeoDBError(.fileNotFound, "\(path) is a directory, not a \(kind)") }
    }

    /// Throws `fileExists` when a directory is at `path`, where an output file is to be written (and
    /// `force` could only replace a file).
    package static func refuseDirectory(asOutput path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw GeoDBError(.fileExists, "\(path) is a directory, not a file to write", remedy: "give a file name")
        }
    }
}
