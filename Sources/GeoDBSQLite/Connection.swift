// A connection to one SQLite database file; every result code is checked.
import CSQLite

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
            if immutable { filename = "file:\(Connection.uriEscaped(path))?immutable=1" }
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

    /// Turns off SQLite's memory statistics, which take a global mutex on every allocation (4 % of an
    /// import). Process-wide: for programs, not libraries, to call before anything opens a database
    /// (later it does nothing). The geodb and geodb-bench programs do.
    public static func disableMemoryStatistics() {
        _ = geodb_sqlite_disable_memstatus()
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
