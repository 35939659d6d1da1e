// What opening a database checks before any query runs: that it is a geodb database of this schema version
// and that its tables, indexes and virtual tables are exactly geodb's own (with or without the whole of each
// optional part: the standard geometry of `import --wkb`, the entrances older files lack). Files come from anywhere, and a
// view in place of a table, or a trigger, would run its author's SQL inside geodb's queries.
import Foundation
import GeoDBSQLite

extension Schema {
    /// Throws unless the file at `path` is a geodb database of this version and layout (opened read-only).
    package static func check(fileAt path: String) throws {
        try GeoDBError.requireFile(path, kind: "database file")
        let db: Connection
        do {
            db = try Connection(path: path, mode: .readOnly())
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        try check(db)
    }

    /// Throws unless `db` is a geodb database of this schema version whose schema objects are geodb's own:
    /// `schemaVersionMismatch` for another version, `notAGeoDatabase` naming what differs otherwise.
    package static func check(_ db: Connection) throws {
        let objects: [SchemaObject]
        do {
            objects = try SchemaObject.all(in: db)
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(db.path) is not an SQLite database (\(error.message))")
        }
        // The version first, so that another geodb's file gets its remedy; read only from a real table.
        guard objects.contains(where: { $0.name == "meta" && $0.type == "table" }) else {
            throw GeoDBError(.notAGeoDatabase, "\(db.path) is not a geodb database (no meta table)",
                             remedy: "create one with geodb's importer")
        }
        let stored: String?, userVersion: Int64
        do {
            stored = try db.scalarText("SELECT value FROM meta WHERE key = 'schema_version'")
            userVersion = try db.scalarInt("PRAGMA user_version") ?? 0
        } catch let error as SQLiteError {
            throw GeoDBError.database(path: db.path, purpose: "read the schema version", error)
        }
        guard stored == String(version), userVersion == version else {
            throw GeoDBError(.schemaVersionMismatch,
                             "\(db.path) has geodb schema version \(stored ?? "none") (user_version \(userVersion)); this geodb reads version \(version)",
                             remedy: "re-import the data with this geodb, or use the geodb that wrote it")
        }
        // Each optional part is there whole or not at all: any of its objects asks for all of them.
        func differences(from expected: (required: [SchemaObject], optionalParts: [[SchemaObject]])) -> [String] {
            let present = expected.optionalParts.filter { part in objects.contains { found in part.contains { $0.name == found.name } } }
            return SchemaObject.differences(objects, from: expected.required + present.joined())
        }
        // The objects `Schema/*.sql` made when it was generated first: a file of them needs no schema built in
        // memory; any other is judged by the schema this SQLite builds.
        guard !differences(from: generated).isEmpty else { return }
        let differences = differences(from: try expected.get())
        guard differences.isEmpty else {
            let shown = differences.prefix(3).joined(separator: "; ") + (differences.count > 3 ? "; and \(differences.count - 3) more" : "")
            throw GeoDBError(.notAGeoDatabase, "\(db.path) is not a geodb database (\(shown))",
                             remedy: "it was changed after geodb wrote it; import the data again")
        }
    }

    /// What `sqlite_schema` holds in every database of this version, and what each `*.optional.sql` file adds to
    /// it, a part per file: made once per process, in memory, from the same `Schema/*.sql`, so that the comparison
    /// follows the schema files and this SQLite. One database for both (the index files index required tables
    /// only): made twice, the tables' creation was a fifth of the instructions of a run of the CLI. Asked only for
    /// a file that differs from `generated`.
    private static let expected = Result<(required: [SchemaObject], optionalParts: [[SchemaObject]]), any Error>(catching: {
        let db = try Connection(path: ":memory:", mode: .create)
        try createRequiredTables(in: db)
        try createIndexes(in: db)
        let required = try SchemaObject.all(in: db)
        var parts: [[SchemaObject]] = []
        var before = Set(required.map(\.name))
        for file in SchemaFiles.all where isOptionalFile(file.name) {
            try db.execute(file.sql)
            let objects = try SchemaObject.all(in: db)
            parts.append(objects.filter { !before.contains($0.name) })
            before = Set(objects.map(\.name))
        }
        return (required, parts)
    })
}

extension Schema {
    /// `expected` as `Schema/*.sql` made it when it was generated (`SchemaObjects.generated.swift`, written by
    /// `Tools/generate/generate-schema-objects.py`; a test fails while it differs from `expected`): building
    /// the schema in memory, even once, was half of the instructions of a one-query run (29 of 59 M).
    fileprivate static let generated = (
        required: generatedRequiredObjects.map(SchemaObject.init),
        optionalParts: generatedOptionalObjects.map { $0.map(SchemaObject.init) }
    )

    /// Whether `expected` (what this SQLite makes of `Schema/*.sql`) is `generated`.
    static func generatedObjectsAreThisSQLites() throws -> Bool {
        let built = try expected.get()
        func same(_ a: [SchemaObject], _ b: [SchemaObject]) -> Bool {
            SchemaObject.differences(a, from: b).isEmpty && SchemaObject.differences(b, from: a).isEmpty
        }
        return same(built.required, generated.required) && built.optionalParts.count == generated.optionalParts.count
            && zip(built.optionalParts, generated.optionalParts).allSatisfy(same)
    }
}

extension SchemaObject {
    /// A row as the generated schema holds it (its SQL normalized as read).
    init(_ row: (type: String, name: String, table: String, sql: String?)) {
        self.init(type: row.type, name: row.name, table: row.table, sql: row.sql.map(Self.normalized))
    }
}

/// One row of `sqlite_schema`.
struct SchemaObject: Sendable {
    /// "table", "index", "view" or "trigger".
    var type: String
    var name: String
    /// The table an index or trigger belongs to (a table's own name for a table).
    var table: String
    /// The SQL that made it, without comments and with runs of white space made one space; nil for the
    /// indexes SQLite makes for PRIMARY KEY and UNIQUE constraints.
    var sql: String?

    static func all(in db: Connection) throws -> [SchemaObject] {
        try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema").rows { row in
            SchemaObject(type: row.text(0) ?? "", name: row.text(1) ?? "", table: row.text(2) ?? "",
                         sql: row.text(3).map(normalized))
        }
    }

    /// What differs between `found` and `expected`, one phrase each, what could run SQL first ("place is a
    /// view, not a table", "trigger t on place is not geodb's"). The tables FTS5 and R*Tree make for their
    /// storage are compared by name and type only: their SQL is SQLite's, and may change between SQLite
    /// versions. `sqlite_stat1` and `sqlite_stat4` (ANALYZE's) may be there or not.
    static func differences(_ found: [SchemaObject], from expected: [SchemaObject]) -> [String] {
        let virtualTables = expected.filter { $0.sql?.hasPrefix("CREATE VIRTUAL TABLE") == true }.map(\.name)
        func isStorage(_ object: SchemaObject) -> Bool {
            object.type == "table" && virtualTables.contains { object.name.hasPrefix($0 + "_") }
        }
        let expectedByName = Dictionary(expected.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var runsSQL: [String] = [], other: [String] = []
        for object in found {
            guard let wanted = expectedByName[object.name] else {
                if object.type == "table" && ["sqlite_stat1", "sqlite_stat4"].contains(object.name) { continue }
                let text = "\(object.type) \(object.name)\(object.table == object.name ? "" : " on \(object.table)") is not geodb's"
                if object.type == "view" || object.type == "trigger" { runsSQL.append(text) } else { other.append(text) }
                continue
            }
            if object.type != wanted.type {
                runsSQL.append("\(object.name) is a \(object.type), not a \(wanted.type)")
            } else if object.table != wanted.table {
                other.append("\(object.type) \(object.name) belongs to \(object.table), not \(wanted.table)")
            } else if !isStorage(wanted) && object.sql != wanted.sql {
                other.append("\(object.type) \(object.name) is not defined as geodb defines it")
            }
        }
        let names = Set(found.map(\.name))
        for object in expected where !names.contains(object.name) {
            other.append("\(object.type) \(object.name) is missing")
        }
        return runsSQL + other
    }

    /// `sql` without comments, white space runs made one space (outside quotes), trimmed: a comment edited in
    /// a schema file does not make older files of the same version look foreign.
    static func normalized(_ sql: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(sql.utf8)
        var i = 0
        var pendingSpace = false
        func emit(_ byte: UInt8) {
            if pendingSpace && !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(byte)
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
                while i < bytes.count && bytes[i] != 0x0a { i += 1 }
                pendingSpace = true
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i + 1 < bytes.count && !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
                pendingSpace = true
            case 0x20, 0x09, 0x0a, 0x0d:
                pendingSpace = true
                i += 1
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                // A quoted name or string, copied as it is up to its closing quote.
                let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                emit(byte)
                i += 1
                while i < bytes.count {
                    out.append(bytes[i])
                    i += 1
                    if out.last == closing { break }
                }
            default:
                emit(byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
