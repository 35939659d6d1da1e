// The database layout, compiled in from Schema/*.sql, and the version check every reader runs.
import Foundation
import GeoDBSQLite

/// The geodb database schema. `Schema/*.sql` is its only definition.
package enum Schema {
    /// Bumped on any change a reader could notice (docs/SCHEMA.md, "Version policy").
    package static let version: Int64 = 4

    /// Files whose names start with "9" hold secondary indexes, created after the bulk load.
    static func isIndexFile(_ name: String) -> Bool { name.hasPrefix("9") }

    /// Creates every table of an empty database and records the schema version.
    package static func createTables(in db: Connection) throws {
        for file in SchemaFiles.all where !isIndexFile(file.name) {
            try db.execute(file.sql)
        }
        try db.execute("PRAGMA user_version = \(version)")
        try db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?)").run([.text(String(version))])
    }

    /// The tables an import builds in a scratch database beside the output (`FullTextBuilder`): the search
    /// tables (`place_fts`, `search_word`, `search_token`) and the place R*Trees (`place_rtree`, `area_rtree`).
    package static func createScratchTables(in db: Connection) throws {
        for file in SchemaFiles.all where file.name.hasSuffix("_search.sql") || file.name.hasSuffix("_spatial.sql") {
            try db.execute(file.sql)
        }
    }

    /// Creates the secondary indexes (after loading, which is faster than updating them per row).
    package static func createIndexes(in db: Connection) throws {
        for file in SchemaFiles.all where isIndexFile(file.name) {
            try db.execute(file.sql)
        }
    }

    /// Throws unless the file at `path` is a geodb database of this schema version (opened read-only to check).
    package static func checkVersion(ofFileAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw GeoDBError(.fileNotFound, "\(path): no such file") }
        let db: Connection
        do {
            db = try Connection(path: path, mode: .readOnly())
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        try checkVersion(of: db)
    }

    /// Throws unless `db` is a geodb database of this schema version.
    package static func checkVersion(of db: Connection) throws {
        let hasMeta: Int64?
        do {
            hasMeta = try db.scalarInt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(db.path) is not an SQLite database (\(error.message))")
        }
        let stored: String?, userVersion: Int64
        do {
            stored = hasMeta == nil ? nil : try db.scalarText("SELECT value FROM meta WHERE key = 'schema_version'")
            userVersion = try db.scalarInt("PRAGMA user_version") ?? 0
        } catch let error as SQLiteError {
            throw GeoDBError.database(path: db.path, purpose: "read the schema version", error)
        }
        guard let stored else {
            throw GeoDBError(.notAGeoDatabase, "\(db.path) is not a geodb database (no meta table)",
                             remedy: "create one with geodb's importer")
        }
        guard stored == String(version), userVersion == version else {
            throw GeoDBError(.schemaVersionMismatch,
                             "\(db.path) has geodb schema version \(stored) (user_version \(userVersion)); this geodb reads version \(version)",
                             remedy: "re-import the data with this geodb, or use the geodb that wrote it")
        }
    }
}
