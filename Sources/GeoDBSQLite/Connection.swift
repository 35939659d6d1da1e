// A connection to one SQLite database file; every result code is checked.
import CSQLite
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One open SQLite connection. Not thread-safe: use one connection per thread.
///
/// ```swift
/// let db = try Connection(path: "places.sqlite", mode: .readOnly)
/// let n = try db.scalarInt("SELECT count(*) FROM place")
/// ```
public final class Connection {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read-only. `immutable` promises SQLite that nobody changes the file while it is open
        /// (no locking at all; only for files that really never change).
        case readOnly(immutable: Bool = false)
        /// Read-write; the file must exist.
        case readWrite
        /// Read-write, creating the file when missing.
        case create

        /// Whether the file exists before the connection opens it (and so may have been made by anyone).
        var opensExistingFile: Bool {
            if case .create = self { return false }
            return true
        }
    }

    /// The raw handle, for callers that need a C API the layer does not wrap.
    public let handle: OpaquePointer
    /// The file this connection opened.
    public let path: String

    public init(path: String, mode: Mode) throws {
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var filename = path
        switch mode {
        case .readOnly(let immutable):
            flags |= SQLITE_OPEN_READONLY
            if try immutable || Self.isWALWithoutPendingChanges(path) {
                filename = "file:\(Connection.uriEscaped(path))?immutable=1"
            }
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE
        case .create:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        if !filename.hasPrefix("file:") { filename = "file:\(Connection.uriEscaped(path))" }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(filename, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        do {
            try applySafeguards(existingFile: mode.opensExistingFile)
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
    }

    /// Whether the file is in WAL journal mode (its header's bytes 18 and 19 are 2, as another SQLite tool
    /// may leave it) with nothing in its `-wal` file, so that the file itself holds the whole database.
    /// Such a file is read as immutable: a read-only connection would otherwise need to create a `-shm`
    /// file beside it (failing as "disk I/O error" where the user may not write). Throws when the `-wal`
    /// file holds changes: reading without them would give an old or broken database.
    static func isWALWithoutPendingChanges(_ path: String) throws -> Bool {
        guard let file = fopen(path, "rb") else { return false }   // sqlite3_open_v2 says why
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 20)
        guard fread(&header, 1, 20, file) == 20, header[18] == 2, header[19] == 2,
              header.starts(with: Array("SQLite format 3".utf8)) else { return false }
        var wal = stat()
        if stat(path + "-wal", &wal) == 0 && wal.st_size > 0 {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "it is in WAL journal mode and \(path)-wal holds "
                              + "changes not yet written into it; run `sqlite3 \(path) 'PRAGMA journal_mode=DELETE'` where you may write the file")
        }
        return true
    }

    /// The longest text `Statement.text` returns; a longer value is cut there. Connections that read
    /// files from elsewhere set it (`ValueLimits.maxReadTextBytes`), so that a crafted value cannot
    /// multiply into every answer naming it; the importer's own connections leave it unbounded.
    public var maxTextBytes = Int.max

    /// The longest text or blob a connection reads or writes, in bytes: well above geodb's largest values
    /// (a country's or a timezone's polygon, a few MiB), far below SQLite's default of 1 GB, so that a
    /// value in a crafted file cannot make one read allocate that much.
    public static let maxValueBytes: Int32 = 128 << 20
    /// The longest SQL statement, in bytes: geodb's own are at most a few KiB.
    public static let maxSQLBytes: Int32 = 1 << 20

    /// SQLite's defences, set on every connection: functions in a schema's views, triggers, CHECK
    /// constraints and defaults run only when harmless (`trusted_schema` off), and values and statements
    /// are capped. A connection to a file that already exists (possibly made by someone else) is also
    /// defensive (no writes to shadow tables, `sqlite_dbpage` or the schema) and fires no trigger and
    /// expands no view: SQLite runs only geodb's own SQL, whatever the file holds.
    private func applySafeguards(existingFile: Bool) throws {
        var options = [(SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)]
        if existingFile {
            options += [(SQLITE_DBCONFIG_DEFENSIVE, true), (SQLITE_DBCONFIG_ENABLE_TRIGGER, false),
                        (SQLITE_DBCONFIG_ENABLE_VIEW, false)]
        }
        for (option, on) in options {
            let rc = geodb_sqlite_db_config_flag(handle, option, on ? 1 : 0)
            guard rc == SQLITE_OK else {
                throw SQLiteError(code: rc, message: "cannot set SQLite's safeguard \(option) on \(path) (SQLite \(Self.libraryVersion))")
            }
        }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.maxValueBytes)
        sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, Self.maxSQLBytes)
    }

    /// Lets `shouldStop` end a running statement: SQLite calls it every `instructions` steps of its virtual
    /// machine, and when it returns true the statement fails with SQLITE_INTERRUPT. For capping what a
    /// query on a file from elsewhere may cost; nil removes it.
    public func setInterruptCheck(every instructions: Int32 = 10_000, _ shouldStop: (() -> Bool)?) {
        interruptCheck = shouldStop.map(InterruptCheck.init)
        guard let interruptCheck else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        sqlite3_progress_handler(handle, instructions, { context in
            guard let context else { return 0 }
            return Unmanaged<InterruptCheck>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(interruptCheck).toOpaque())
    }

    /// Makes the statement running on this connection (from another thread) fail with SQLITE_INTERRUPT
    /// as soon as it can. Safe to call from any thread while the connection is open; does nothing to
    /// statements started after the running ones have all ended (`setInterruptCheck` covers those).
    public func interrupt() {
        sqlite3_interrupt(handle)
    }

    /// The closure of `setInterruptCheck`, kept alive while SQLite holds a pointer to it.
    private final class InterruptCheck {
        let shouldStop: () -> Bool
        init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
    }
    private var interruptCheck: InterruptCheck?

    /// Runs `body` with SQLite's defensive mode off, for the few things geodb does to its own files that
    /// the mode forbids: writing FTS5 and R*Tree shadow tables directly (bulk loads, copying finished search
    /// tables in) and `journal_mode = OFF` on a private copy being appended to. Back on afterwards, when it
    /// was on before.
    public func withDefensiveModeOff<T>(_ body: () throws -> T) throws -> T {
        var was: Int32 = 0
        _ = geodb_sqlite_db_config_get(handle, SQLITE_DBCONFIG_DEFENSIVE, &was)
        guard was != 0 else { return try body() }
        _ = geodb_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 0)
        defer { _ = geodb_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1) }
        return try body()
    }

    /// Adds the FTS5 auxiliary function `geodb_phrase_columns(table)` to this connection: for each row a
    /// MATCH gives, a blob of one byte per phrase of the expression (in the order written) whose bit c says
    /// the phrase occurs in column c (shim.h).
    public func addPhraseColumnsFunction() throws {
        let rc = geodb_register_phrase_columns(handle)
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, message: "cannot add an FTS5 function to \(path) (SQLite \(Self.libraryVersion))")
        }
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows (DDL, PRAGMAs, transactions).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Attaches the database file at `path` read-only as schema `name` (`ATTACH … AS name`); a file in WAL
    /// mode as a read-only connection opens it.
    public func attachReadOnly(_ path: String, as name: String) throws {
        let immutable = try Self.isWALWithoutPendingChanges(path) ? "&immutable=1" : ""
        try prepare("ATTACH DATABASE ? AS \(name)").run([.text("file:\(Connection.uriEscaped(path))?mode=ro\(immutable)")])
    }

    /// Compiles one statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    public func scalarInt(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(values)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int(0)
    }

    /// The first column of the first row as text, or nil when there is no row or it is NULL.
    public func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Runs `body` inside `BEGIN … COMMIT`, rolling back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the most recent successful INSERT.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// False inside a transaction (after BEGIN), true otherwise.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Configures SQLite for a program's queries: no memory statistics, which take a global mutex on every
    /// allocation (4 % of an import), and no bulk allocation to start each page cache, which every
    /// temporary b-tree of a statement paid (a third of a popular search's time, in the kernel: see the
    /// shim). Process-wide: for programs, not libraries, to call before anything opens a database (later
    /// it does nothing). The geodb and geodb-bench programs do.
    public static func configureForPrograms() {
        _ = geodb_sqlite_disable_memstatus()
        _ = geodb_sqlite_no_initial_page_cache()
    }

    /// The library version of the SQLite actually linked, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Whether SQLite was compiled with an option, e.g. "ENABLE_FTS5".
    public static func isCompiled(with option: String) -> Bool { sqlite3_compileoption_used(option) != 0 }

    func error(sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Escapes the characters a `file:` URI gives meaning to, so any path opens as written.
    static func uriEscaped(_ path: String) -> String {
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                bytes += Array(("%" + String(byte, radix: 16, uppercase: true)).utf8)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
