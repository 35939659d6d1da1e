// The database layout, compiled in from Schema/*.sql (what opening a file checks: SchemaCheck.swift).
import GeoDBSQLite

/// The geodb database schema. `Schema/*.sql` is its only definition.
package enum Schema {
    /// Bumped on any change a reader could notice (docs/SCHEMA.md, "Version policy").
    package static let version: Int64 = 17

    /// Files whose names start with "9" hold secondary indexes, created after the bulk load.
    static func isIndexFile(_ name: String) -> Bool { name.hasPrefix("9") }

    /// Files ending ".optional.sql" hold what a file of this version may lack: what an import makes only
    /// when asked (`place_wkb`), or what files written before it was added lack (`place_entrance`). A file
    /// has all of such a file's objects or none (`SchemaCheck`).
    static func isOptionalFile(_ name: String) -> Bool { name.hasSuffix(".optional.sql") }

    /// The optional `place_wkb` table, its view and their OGC metadata (`geodb import --wkb`).
    static let standardGeometryFile = "800_place_wkb.optional.sql"

    /// `place_entrance`: made by every import, missing from version 10 files written before it.
    static let entrancesFile = "810_place_entrance.optional.sql"

    /// Creates every table of an empty database, `place_entrance` included, and records the schema version.
    package static func createTables(in db: Connection) throws {
        try createRequiredTables(in: db)
        try createEntrances(in: db)
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

    /// The tables every file of this version has.
    static func createRequiredTables(in db: Connection) throws {
        for file in SchemaFiles.all where !isIndexFile(file.name) && !isOptionalFile(file.name) {
            try db.execute(file.sql)
        }
    }

    /// Creates `place_entrance` (an import appending to a file written before entrances were kept adds it).
    package static func createEntrances(in db: Connection) throws {
        for file in SchemaFiles.all where file.name == entrancesFile { try db.execute(file.sql) }
    }

    /// Whether the database has `place_entrance`: without it, its places have no entrances.
    package static func hasEntrances(_ db: Connection) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'place_entrance'") == 1
    }

    /// Creates `place_wkb`, the view `place_wkb_named` and the OGC `geometry_columns` and `spatial_ref_sys`
    /// that describe them (docs/SCHEMA.md, "Standard geometry").
    package static func createStandardGeometry(in db: Connection) throws {
        for file in SchemaFiles.all where file.name == standardGeometryFile { try db.execute(file.sql) }
    }

    /// Whether the database has the optional standard geometry (`place_wkb`).
    package static func hasStandardGeometry(_ db: Connection) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'place_wkb'") == 1
    }

    /// Creates the secondary indexes (after loading, which is faster than updating them per row).
    package static func createIndexes(in db: Connection) throws {
        for file in SchemaFiles.all where isIndexFile(file.name) {
            try db.execute(file.sql)
        }
    }

    /// Creates the secondary index `name` of the index files now, ahead of the others: for a phase of the load
    /// that looks rows up by it. `createIndexes` leaves it as it is.
    package static func createIndex(named name: String, in db: Connection) throws {
        let statement = SchemaFiles.all.filter { isIndexFile($0.name) }
            .flatMap { $0.sql.split(separator: ";") }
            .first { $0.contains("INDEX IF NOT EXISTS \(name) ON") }
        guard let statement else { throw GeoDBError(.database, "geodb's schema has no index \(name)") }
        try db.execute(String(statement))
    }

    /// The ordinary tables of `schema` (a database name: "main", an attached one) holding the virtual tables
    /// `virtualTables` (FTS5 and R*Tree shadow tables), and their external content tables: what copying
    /// such tables from one database to another copies.
    package static func storageTables(of virtualTables: [String], schema: String, in db: Connection) throws -> [String] {
        var names: [String] = []
        let rows = try db.prepare("SELECT name, sql FROM \(schema).sqlite_schema WHERE type = 'table' ORDER BY name")
        while try rows.step() {
            guard let name = rows.text(0), !(rows.text(1) ?? "").hasPrefix("CREATE VIRTUAL") else { continue }
            if virtualTables.contains(where: { name.hasPrefix($0 + "_") }) { names.append(name) }
        }
        if virtualTables.contains("search_token") { names.append("search_word") }
        return names
    }
}
