// Databases made or changed by someone else: a view in place of a table, a trigger, another schema
// version, coordinates off the globe. Each is built by editing a fresh SampleData import with SQL, and
// each is refused or reported in one line (exit 1), never run or trapped on.
import Foundation
import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct UntrustedDatabaseTests {
    /// A copy of SampleData's Helsinki with timezones, changed by `sql` (on a connection that is not
    /// defensive and fires triggers: as its author's sqlite3 shell would).
    static func edited(_ sql: String, in scratch: ScratchDirectory) throws -> String {
        let path = scratch.path("edited.sqlite")
        try FileManager.default.copyItem(atPath: try TestDatabases.helsinkiWithTimeZones(), toPath: path)
        try Connection(path: path, mode: .create).execute(sql)
        return path
    }

    /// One line on standard error, exit status 1, nothing on standard output.
    static func refusal(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try runGeodb(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stdout)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        return result.stderr
    }

    static let queries = [["search", "Stockmann"], ["search", "--town", "Helsinki"], ["nearby", "60.1685", "24.9415"],
                          ["lookup", "1892"], ["reverse", "60.1685", "24.9415"], ["inspect"], ["inspect", "--check"]]

    @Test(arguments: [
        ("PRAGMA foreign_keys = OFF; DROP TABLE source; CREATE VIEW source AS SELECT 1 AS id, 'made up' AS name, 'csv' AS format",
         "not a geodb database (source is a view, not a table)"),
        ("PRAGMA foreign_keys = OFF; DROP TABLE place; CREATE VIEW place AS SELECT 1 AS id, 'poi' AS kind, 'made up' AS name",
         "not a geodb database (place is a view, not a table"),
        ("CREATE TRIGGER spy AFTER INSERT ON place BEGIN DELETE FROM meta; END",
         "not a geodb database (trigger spy on place is not geodb's)"),
        ("CREATE INDEX idx_place_name ON place(name)", "not a geodb database (index idx_place_name on place is not geodb's)"),
        // Without its whole-name keys search would read no exact name first, and silently rank worse.
        ("DROP TABLE place_name_key", "not a geodb database (table place_name_key is missing"),
    ])
    func aChangedSchemaIsRefusedBeforeAnyQuery(sql: String, expected: String) throws {
        let scratch = try ScratchDirectory()
        let db = try Self.edited(sql, in: scratch)
        let error = #expect(throws: GeoDBError.self) { _ = try GeoDatabase(path: db) }
        #expect(error?.code == .notAGeoDatabase)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        for query in Self.queries {
            let stderr = try Self.refusal([query[0], db] + query.dropFirst())
            #expect(stderr.contains(expected), "\(query): \(stderr)")
        }
    }

    /// A place whose `source_id` names no source (a file edited by hand) is shown as a record of OSM's, as a place of
    /// a source of another format would be, each time it is read: the reader remembers sources per session, and
    /// remembers that one has none.
    @Test func aPlaceWhoseSourceIsGoneReadsAsOSMs() throws {
        let scratch = try ScratchDirectory()
        let path = try Self.edited("PRAGMA foreign_keys = OFF; UPDATE place SET source_id = 999 WHERE id = 1892", in: scratch)
        let db = try GeoDatabase(path: path)
        for _ in 0..<2 {
            let place = try #require(try db.search("Stockmann").first { $0.id == 1892 })
            #expect(place.sourceRef?.format == .osm, "\(place.sourceRef?.description ?? "nil")")
        }
        let result = try runGeodb(["lookup", path, "1892"])
        #expect(result.status == 0 && result.stdout.contains("Stockmann"), "\(result.stderr)")
    }

    /// Output grows with what it shows: a 10× wider value takes at most a generous multiple of the time
    /// (a category of 5,000 characters over 1,000 table rows took 187 s, a name of 100,000 control
    /// characters minutes: both quadratic in the value).
    @Test func wideAndControlCharacterValuesPrintInProportion() throws {
        func seconds(_ arguments: [String], _ sql: String, showing shown: String) throws -> Double {
            let scratch = try ScratchDirectory()
            let db = try Self.edited(sql, in: scratch)
            let start = Date()
            let result = try runGeodb([arguments[0], db] + arguments.dropFirst())
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(shown))
            return Date().timeIntervalSince(start)
        }
        for (arguments, sql, shown) in [
            (["nearby", "60.1685", "24.9415", "--limit", "200"],
             // One wide cell: every other row is padded to its width.
             """
             DELETE FROM place_category; UPDATE place SET category = printf('%.*c', WIDTH, 'x') WHERE id = (SELECT id FROM place
             WHERE kind = 'poi' ORDER BY (lat - 60.1685) * (lat - 60.1685) + (lon - 24.9415) * (lon - 24.9415) LIMIT 1)
             """, "xxxxxxxxxx"),
            (["lookup", "1892"], "UPDATE place SET name = printf('%.*c', WIDTH, char(1)) WHERE id = 1892", #"\u{1}\u{1}"#),
        ] {
            let small = try seconds(arguments, sql.replacingOccurrences(of: "WIDTH", with: "2000"), showing: shown)
            let large = try seconds(arguments, sql.replacingOccurrences(of: "WIDTH", with: "20000"), showing: shown)
            #expect(large < 30 * max(small, 0.05), "\(arguments): \(small) s, 10× the value \(large) s")
        }
    }

    /// The file's own triggers never run during an append: it is refused before it is copied.
    @Test func appendRefusesADatabaseWithTriggers() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.edited("""
            CREATE TABLE loot(x); CREATE TRIGGER grab AFTER INSERT ON place BEGIN INSERT INTO loot VALUES (new.name); END;
            """, in: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let csv = scratch.path("more.csv")
        try "name,lat,lon\nExtra,60.17,24.94\n".write(toFile: csv, atomically: false, encoding: .utf8)
        let stderr = try Self.refusal(["import", csv, "--append", db])
        #expect(stderr.contains("not a geodb database (trigger grab on place is not geodb's; table loot is not geodb's)"), "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(scratch.contents() == ["edited.sqlite", "more.csv"])
    }

    /// The damage `inspect --check` finds refuses an append (it would copy it into the new file), named
    /// by its check; the file stays as it was.
    @Test func appendRefusesADatabaseThatFailsItsChecks() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.edited("DELETE FROM place_rtree WHERE id = 1892", in: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let csv = scratch.path("more.csv")
        try "name,lat,lon\nExtra,60.17,24.94\n".write(toFile: csv, atomically: false, encoding: .utf8)
        let stderr = try Self.refusal(["import", csv, "--append", db])
        #expect(stderr.contains("edited.sqlite: fails its check 'place = place_rtree; every named place has a place_fts row'"), "\(stderr)")
        #expect(stderr.contains("geodb adds nothing to a damaged database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(scratch.contents() == ["edited.sqlite", "more.csv"])
    }

    /// A file another SQLite tool left in WAL journal mode is read (as immutable: no `-shm` or `-wal` file
    /// made beside it) while its `-wal` file is empty, and refused with what to run while it holds changes.
    @Test func aFileInWALModeIsReadOrRefusedWithTheRemedy() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.edited("PRAGMA journal_mode = WAL", in: scratch)
        for query in Self.queries + [["export", "--format", "csv", "-o", scratch.path("out.csv")]] {
            let result = try runGeodb([query[0], db] + query.dropFirst())
            #expect(result.status == 0, "\(query): \(result.stderr)")
        }
        #expect(scratch.contents() == ["edited.sqlite", "out.csv"])

        let writer = try Connection(path: db, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode = WAL; UPDATE place SET name = 'Uusi' WHERE id = 1892")
        let stderr = try Self.refusal(["search", db, "Stockmann"])
        #expect(stderr.contains("edited.sqlite: cannot open: it is in WAL journal mode and \(db)-wal holds changes not yet written into it; "
                                + "run sqlite3 \(db) 'PRAGMA journal_mode=DELETE' where you may write the file"), "\(stderr)")
        withExtendedLifetime(writer) {}
    }

    @Test func aFutureSchemaVersionIsRefused() throws {
        let scratch = try ScratchDirectory()
        let future = Schema.version + 1
        let db = try Self.edited("UPDATE meta SET value = '\(future)' WHERE key = 'schema_version'; PRAGMA user_version = \(future)", in: scratch)
        let stderr = try Self.refusal(["search", db, "Stockmann"])
        #expect(stderr.contains("has geodb schema version \(future) (user_version \(future)); this geodb reads version \(Schema.version)"))
    }

    /// Coordinates that no import writes (a damaged or edited file): named in the error, not trapped on
    /// while converting them.
    @Test(arguments: [
        ("UPDATE place SET lat = 1e10 WHERE id = 1892", "place 1892 has latitude 10000000000.0, longitude 24.9414577: outside ±90/±180"),
        ("UPDATE place SET lat = 9e999 WHERE id = 1892", "place 1892 has latitude inf, longitude 24.9414577: outside ±90/±180"),
        ("UPDATE place SET lon = -2.19e160 WHERE id = 1892", "place 1892 has latitude 60.1685416, longitude -2.19e+160: outside ±90/±180"),
    ])
    func coordinatesOffTheGlobeAreReported(sql: String, expected: String) throws {
        let scratch = try ScratchDirectory()
        let db = try Self.edited(sql, in: scratch)
        for arguments in [["search", db, "Stockmann"], ["lookup", db, "1892"], ["reverse", db, "60.1685", "24.9415"],
                          ["export", db, "--format", "csv", "-o", scratch.path("out.csv")],
                          ["export", db, "--geometry", "full", "-o", scratch.path("out.geojson")]] {
            let stderr = try Self.refusal(arguments)
            #expect(stderr.contains("\(db): \(expected)"), "\(arguments[0]): \(stderr)")
        }
        #expect(try runGeodb(["inspect", db, "--check"]).stdout.contains("FAIL  coordinates valid and inside their boxes"))
        #expect(scratch.contents() == ["edited.sqlite"])   // no export left behind
    }

    /// `inspect --check` only reads: it passes while another connection holds the write lock (which the
    /// FTS5 check, an INSERT command, needed when it ran on the file itself), and leaves the file as it was.
    @Test func checkOnlyReads() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: try TestDatabases.helsinki(), toPath: db)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let writer = try Connection(path: db, mode: .readWrite)
        try writer.execute("BEGIN IMMEDIATE")
        let check = try runGeodb(["inspect", db, "--check"])
        try writer.execute("ROLLBACK")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("ok  fts5 integrity-check(place_fts)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
