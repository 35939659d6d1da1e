// The connection every query engine of a session reads through: statements prepared once and reused,
// and SQLite's failures turned into GeoDBErrors that name the file and what the SQL was for.
import Foundation
import GeoDBSQLite

/// One read-only connection and its prepared statements, for one thread at a time.
final class DatabaseReader {
    /// The database file.
    let path: String
    let connection: Connection
    private var statements: [String: Statement] = [:]

    /// Opens `path` read-only and checks that it is a geodb database of this schema version whose schema is
    /// geodb's own (`Schema.check`: no view in place of a table, no trigger). The
    /// connection keeps SQLite's shared lock from its first read until it closes (`locking_mode =
    /// EXCLUSIVE`): no lock and file check per query (measured: a third of a nearest-place query).
    init(path: String, immutable: Bool) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw GeoDBError(.fileNotFound, "\(path): no such file") }
        self.path = path
        do {
            connection = try Connection(path: path, mode: .readOnly(immutable: immutable))
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        // Memory-mapped reads: no read() system call and copy per page for a file that is only read.
        try reading("open") { try connection.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA mmap_size = 1073741824") }
        try Schema.check(connection)
    }

    /// Every row of `sql` with `values` bound, each read by `row`. The statement is prepared once per
    /// session; `purpose` says what it is for in the error when SQLite fails.
    func rows<T>(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ row: (Statement) throws -> T) throws -> [T] {
        try reading(purpose) { try statement(sql).rows(values, row) }
    }

    /// The first row of `sql`, read by `row`, or nil when there is none.
    func first<T>(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ row: (Statement) throws -> T) throws -> T? {
        try reading(purpose) {
            let statement = try statement(sql)
            defer { statement.reset() }
            try statement.bind(values)
            return try statement.step() ? try row(statement) : nil
        }
    }

    /// Calls `body` with each row of `sql` as it is read, without keeping them (exports of whole databases).
    /// The statement is not kept: such queries run once.
    func forEach(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ body: (Statement) throws -> Void) throws {
        try reading(purpose) {
            let statement = try connection.prepare(sql)
            try statement.bind(values)
            while try statement.step() { try body(statement) }
        }
    }

    /// Runs `body`, turning a failing SQLite call into `GeoDBError.database` naming the file and `purpose`.
    func reading<T>(_ purpose: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw GeoDBError.database(path: path, purpose: purpose, error)
        }
    }

    /// Runs `body` in one read transaction, so that SQLite takes its file lock and checks the file (for a
    /// hot journal, a changed size) once for all of the query's statements instead of once per statement:
    /// that was a third of a nearest-place query, in fcntl and stat calls. Nested calls share the outer one.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        guard connection.isAutocommit else { return try body() }
        try reading("begin a read transaction") { try statement("BEGIN").run() }
        defer {
            // A read transaction must not outlive the call (it would pin this session to one snapshot).
            if !connection.isAutocommit, (try? statement("COMMIT").run()) == nil { try? connection.execute("ROLLBACK") }
        }
        return try body()
    }

    /// The prepared statement for `sql`, compiled once and reused.
    private func statement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }
}
