// The connection every query engine of a session reads through: statements prepared once and reused,
// and SQLite's failures turned into GeoDBErrors that name the file and what the SQL was for.
import Foundation
import GeoDBSQLite
import Synchronization

/// One read-only connection and its prepared statements, for one thread at a time.
final class DatabaseReader {
    /// The database file.
    let path: String
    let connection: Connection
    private var statements: [StatementKey: Statement] = [:]
    /// How long one call that reads (`rows`, `first`, `reading`, …) may run, in seconds: every query
    /// answers in milliseconds, and a file made to be slow (a crafted index) must not hold a thread for
    /// good. Exports (`forEach`) have no limit.
    var timeLimit = 60.0
    /// When the outermost reading call running now must end.
    private let deadline = Deadline()

    /// Opens `path` read-only and checks that it is a geodb database of this schema version whose schema is
    /// geodb's own (`Schema.check`: no view in place of a table, no trigger). The
    /// connection keeps SQLite's shared lock from its first read until it closes (`locking_mode =
    /// EXCLUSIVE`): no lock and file check per query (measured: a third of a nearest-place query).
    init(path: String, immutable: Bool) throws {
        try GeoDBError.requireFile(path, kind: "database file")
        self.path = path
        do {
            connection = try Connection(path: path, mode: .readOnly(immutable: immutable))
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        connection.maxTextBytes = ValueLimits.maxReadTextBytes
        // No memory-mapped reads (mmap_size 0, whatever SQLite was built with): a file written over in place or truncated
        // while open (`cp`, `rsync --inplace`) would kill the process with SIGBUS at the first page past its
        // new end; read() returns a short read, which SQLite reports as an error. Measured with geodb-bench
        // (search, reverse, nearby; 3,000 queries each, 3 interleaved runs, Helsinki 1.9 MB and Liechtenstein
        // 7 MB) against mmap_size 1 GiB: the same CPU time within 3 % (Liechtenstein reverse 1.18 s vs 1.14 s,
        // search 2.45 s vs 2.53 s), sys time +0.02 s at most; cache_size 16 or 64 MiB instead of 2 MB changed
        // nothing either, so SQLite's default page cache stays. On cities500 (214 MB) autocomplete's median is
        // 7-10 % slower than mapped (137 vs 128 µs; a 16 MiB cache did not win it back): a file opened
        // `immutable` (its user promises nobody changes it, as an app shipping it read-only can) is still mapped.
        try reading("open") {
            try connection.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA mmap_size = \(immutable ? 1 << 30 : 0)")
        }
        try Schema.check(connection)
        try reading("open") { try connection.addPhraseColumnsFunction() }
        connection.setInterruptCheck { [deadline] in deadline.hasPassed || deadline.cancelled.load(ordering: .relaxed) }
    }

    /// Reads through a connection its owner opened and keeps open: an import's own file, which its writer
    /// holds locked (the time zones its hierarchy phase looks up).
    init(connection: Connection) {
        path = connection.path
        self.connection = connection
    }

    /// Stops the query running on this reader, from any thread: its statement fails at once
    /// (`sqlite3_interrupt`), and every reading call after it throws `.interrupted` until `resume()`, so a
    /// query whose statement had just finished stops at its next one.
    func cancel() {
        deadline.cancelled.store(true, ordering: .relaxed)
        connection.interrupt()
    }

    /// Lets queries run again after `cancel()`.
    func resume() {
        deadline.cancelled.store(false, ordering: .relaxed)
    }

    /// Every row of `sql` with `values` bound, each read by `row`. The statement is prepared once per
    /// session; `purpose` says what it is for in the error when SQLite fails.
    func rows<T>(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ row: (Statement) throws -> T) throws -> [T] {
        try reading(Self.tracesStatements ? Self.traced(purpose, values) : purpose) { try statement(sql).rows(values, row) }
    }

    /// The first row of `sql`, read by `row`, or nil when there is none.
    func first<T>(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ row: (Statement) throws -> T) throws -> T? {
        try reading(Self.tracesStatements ? Self.traced(purpose, values) : purpose) {
            let statement = try statement(sql)
            defer { statement.reset() }
            try statement.bind(values)
            return try statement.step() ? try row(statement) : nil
        }
    }

    /// Calls `body` with each row of `sql` as it is read, without keeping them (exports of whole databases).
    /// The statement is not kept: such queries run once.
    func forEach(_ purpose: String, _ sql: String, _ values: [SQLiteValue] = [], _ body: (Statement) throws -> Void) throws {
        try reading(purpose, timeLimit: nil) {
            let statement = try connection.prepare(sql)
            try statement.bind(values)
            while try statement.step() { try body(statement) }
        }
    }

    /// Runs `body`, turning a failing SQLite call into `GeoDBError.database` naming the file and `purpose`,
    /// and stopping its statements once it has run `timeLimit` seconds (the outermost call's limit counts).
    func reading<T>(_ purpose: String, _ body: () throws -> T) throws -> T {
        try reading(purpose, timeLimit: timeLimit, body)
    }

    private func reading<T>(_ purpose: String, timeLimit: Double?, _ body: () throws -> T) throws -> T {
        let outermost = !deadline.isSet
        if outermost { deadline.start(seconds: timeLimit) }
        defer { if outermost { deadline.clear() } }
        do {
            if deadline.cancelled.load(ordering: .relaxed) { throw SQLiteError(code: 9, message: "interrupted") }
            return Self.tracesStatements ? try traced(purpose, body) : try body()
        } catch let error as SQLiteError {
            // SQLITE_INTERRUPT; or, from a virtual table whose own statement was interrupted (the R*Tree: a map
            // of the world stopped by the time limit), SQLITE_ERROR with SQLite's text for it.
            let interrupted = error.primaryCode == 9 || (error.primaryCode == 1 && error.message == "interrupted")
            if interrupted, deadline.cancelled.load(ordering: .relaxed) {
                throw GeoDBError(.interrupted, "\(path): \(purpose): cancelled")
            }
            if interrupted, let timeLimit, deadline.hasPassed {
                throw GeoDBError(.database, "\(path): \(purpose): stopped after \(String(format: "%g", timeLimit)) s",
                                 remedy: "no query on a geodb database takes so long: the file may be damaged or made to be slow")
            }
            throw GeoDBError.database(path: path, purpose: purpose, error)
        }
    }

    /// `GEODB_TRACE_STATEMENTS=1` in the environment: every reading call's time and purpose on standard error
    /// ("µs purpose"), to see which statements a query's time goes to; perf's call stacks stop at SQLite
    /// (Tools/README.md, "Where a query's time goes").
    private static let tracesStatements = ProcessInfo.processInfo.environment["GEODB_TRACE_STATEMENTS"] == "1"

    /// A traced statement's purpose with the texts bound to it (its FTS5 expressions, its lists of ids), cut short.
    private static func traced(_ purpose: String, _ values: [SQLiteValue]) -> String {
        let texts = values.compactMap { value -> String? in
            guard case .text(let text) = value, !text.isEmpty else { return nil }
            return text.count > 120 ? text.prefix(120) + "…" : text
        }
        return texts.isEmpty ? purpose : purpose + " [" + texts.joined(separator: " | ") + "]"
    }

    private func traced<T>(_ purpose: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1_000
            FileHandle.standardError.write(Data("\(micros) \(purpose)\n".utf8))
        }
        return try body()
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
        let key = StatementKey(sql)
        if let statement = statements[key] { return statement }
        let statement = try connection.prepare(sql)
        statements[key] = statement
        return statement
    }
}

/// The SQL of a prepared statement as the key of the reader's cache, hashed by its length and its first and last
/// bytes: a String hashes every scalar it has, and looking up the 600 bytes of a candidate query that way was 3,100
/// instructions, 3 % of a search of 14 statements. Statements of one shape differ near an end (a LIMIT, the filters
/// of the options, a list of placeholders) or in length; equal keys compare the whole text.
private struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    func hash(into hasher: inout Hasher) {
        // The same bytes however the String is stored (`withUTF8` copies one that is not contiguous: none of ours).
        var sql = sql
        sql.withUTF8 { bytes in
            let ends = min(bytes.count, Self.endBytes)
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(ends))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(ends))))
        }
    }

    /// How many bytes of each end are hashed.
    private static let endBytes = 32
}

/// The end of the time a reading call may take, which SQLite's interrupt check looks at.
private final class Deadline {
    /// Uptime in nanoseconds; 0 while no call runs, `UInt64.max` for a call without a limit. (One thread
    /// at a time: the reader's.)
    private var end: UInt64 = 0
    /// Set from another thread by `DatabaseReader.cancel()`: the end is now, for this call and those after
    /// it until `resume()`.
    let cancelled = Atomic<Bool>(false)

    var isSet: Bool { end != 0 }
    var hasPassed: Bool { end != 0 && DispatchTime.now().uptimeNanoseconds > end }

    func start(seconds: Double?) {
        end = seconds.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(min(max(0, $0), 1e9) * 1e9) } ?? UInt64.max
    }

    func clear() { end = 0 }
}
