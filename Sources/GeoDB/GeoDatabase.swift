// The entry point for reading a geodb database: opens it read-only and checks its schema version.
import Foundation
import GeoDBSQLite

/// A geodb database opened for queries. Queries never write.
///
/// ```swift
/// let db = try GeoDatabase(path: "helsinki.sqlite")
/// print(try db.info().placeCount)
/// ```
public final class GeoDatabase {
    public let path: String
    let connection: Connection

    /// Opens `path` read-only. `immutable` promises the file never changes while open (no locking).
    public init(path: String, immutable: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw GeoDBError(.fileNotFound, "\(path): no such file")
        }
        self.path = path
        do {
            connection = try Connection(path: path, mode: .readOnly(immutable: immutable))
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        try Schema.checkVersion(of: connection)
    }
}
