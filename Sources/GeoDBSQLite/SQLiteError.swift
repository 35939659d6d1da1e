// The one error type of the SQLite layer: every failing result code becomes one of these.
import CSQLite

/// A failed SQLite call: the extended result code, SQLite's own message and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (e.g. `SQLITE_CONSTRAINT_UNIQUE` = 2067).
    public let code: Int32
    /// SQLite's message for the failure (`sqlite3_errmsg`).
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`code & 0xff`), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xff }

    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        var text = "SQLite error \(code) (\(name)): \(message)"
        if let sql { text += " — in: \(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql)" }
        return text
    }
}
