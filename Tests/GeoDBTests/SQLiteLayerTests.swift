// The SQLite layer: every failure becomes an SQLiteError with code, message and SQL; values round-trip.
import Foundation
import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct SQLiteLayerTests {
    /// A connection to an existing file: no trigger fires, shadow tables are written only with defensive mode
    /// lifted, functions in the schema run only when harmless, values are capped.
    @Test func safeguardsOfAConnectionToAnExistingFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("t.sqlite")
        try Connection(path: path, mode: .create).execute("""
            CREATE TABLE t(x); CREATE TABLE log(x); CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.x); END;
            CREATE VIRTUAL TABLE f USING fts5(x);
            """)
        let db = try Connection(path: path, mode: .readWrite)
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(try db.scalarInt("SELECT count(*) FROM log") == 0)
        #expect(try db.scalarInt("PRAGMA trusted_schema") == 0)
        #expect(throws: SQLiteError.self) { try db.execute("DELETE FROM f_data") }
        try db.withDefensiveModeOff { try db.execute("DELETE FROM f_docsize") }
        #expect(throws: SQLiteError.self) { try db.execute("DELETE FROM f_data") }   // defensive again
        let tooBig = #expect(throws: SQLiteError.self) { _ = try db.scalarInt("SELECT length(zeroblob(200000000))") }
        #expect(tooBig?.primaryCode == 18)   // SQLITE_TOOBIG
    }

    @Test func interruptCheckStopsAStatement() throws {
        let db = try Connection(path: ":memory:", mode: .create)
        var calls = 0
        db.setInterruptCheck(every: 1000) { calls += 1; return calls > 3 }
        let error = #expect(throws: SQLiteError.self) {
            _ = try db.scalarInt("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) FROM c")
        }
        #expect(error?.primaryCode == 9)   // SQLITE_INTERRUPT
        db.setInterruptCheck(nil)
        #expect(try db.scalarInt("SELECT 1") == 1)
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let db = try Connection(path: ":memory:", mode: .create)
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELEC oops") }
        #expect(error?.primaryCode == 1)  // SQLITE_ERROR
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC oops")
        #expect(error?.description.contains("SQLITE") == false)
        #expect(error?.description.contains("oops") == true)
    }

    @Test func constraintViolationHasExtendedCode() throws {
        let db = try Connection(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)")
        let insert = try db.prepare("INSERT INTO t(v) VALUES (?)")
        try insert.run([.text("a")])
        let error = #expect(throws: SQLiteError.self) { try insert.run([.text("a")]) }
        #expect(error?.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.sql == "INSERT INTO t(v) VALUES (?)")
    }

    @Test func valuesRoundTrip() throws {
        let db = try Connection(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE t(a, b, c, d, e)")
        let values: [SQLiteValue] = [.integer(Int64.min), .real(60.1699), .text("Töölö ✓"), .blob([0, 1, 255]), .null]
        try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)").run(values)
        let rows = try db.prepare("SELECT * FROM t").rows { row in (0..<5).map { row.value(Int32($0)) } }
        #expect(rows == [values])
    }

    @Test func boundTextAndBlobsSurviveUntilReset() throws {
        // With `copiesBoundValues`, short bound values are copied into chunks the statement keeps until
        // `reset()`, longer ones by SQLite: many values filling several chunks, re-binds before a step, a reused statement and values
        // on both sides of the limit must all store what was bound.
        let db = try Connection(path: ":memory:", mode: .create)
        let columns = 40
        try db.execute("CREATE TABLE t(" + (0..<columns).map { "c\($0)" }.joined(separator: ", ") + ")")
        let insert = try db.prepare("INSERT INTO t VALUES (" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")")
        insert.copiesBoundValues = true
        var generator = SplitMix(seed: 7)
        let rows: [[SQLiteValue]] = (0..<4).map { row in
            (0..<columns).map { column in
                let length = [0, 1, 15, 16, 500, 1_000, 4_096, 4_097, 9_000][Int(generator.next() % 9)]
                let byte = UInt8(ascii: "a") + UInt8((row * columns + column) % 26)
                if column % 3 == 0 { return .blob(Array(repeating: byte, count: length)) }
                return column % 7 == 0 ? .null : .text(String(repeating: "Ö" + String(UnicodeScalar(byte)), count: length / 3))
            }
        }
        for row in rows {
            try insert.bind(1, "overwritten before the step")
            try insert.run(row)
        }
        let read = try db.prepare("SELECT * FROM t ORDER BY rowid").rows { row in (0..<columns).map { row.value(Int32($0)) } }
        #expect(read.count == rows.count)
        for (r, row) in zip(read, rows).enumerated() {
            for c in row.0.indices {
                let same = row.0[c] == row.1[c]   // not in the #expect: a failure would print kilobytes
                #expect(same, "row \(r), column \(c)")
            }
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("ro.sqlite")
        try Connection(path: path, mode: .create).execute("CREATE TABLE t(x)")
        let db = try Connection(path: path, mode: .readOnly())
        let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.primaryCode == 8)  // SQLITE_READONLY
    }

    @Test func pathsWithURICharactersOpenAsWritten() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("a%20b?c#d.sqlite")
        try Connection(path: path, mode: .create).execute("CREATE TABLE t(x)")
        #expect(scratch.contents() == ["a%20b?c#d.sqlite"])
        let immutable = try Connection(path: path, mode: .readOnly(immutable: true))
        #expect(try immutable.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try Connection(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE t(x)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func missingFileIsAnErrorNamingIt() throws {
        let error = #expect(throws: SQLiteError.self) {
            _ = try Connection(path: "/nonexistent/dir/x.sqlite", mode: .readOnly())
        }
        #expect(error?.message.contains("/nonexistent/dir/x.sqlite") == true)
    }
}
