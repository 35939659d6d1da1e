// A prepared statement: bind, step, read columns; every result code is checked.
import CSQLite

/// A value to bind or read, for the convenience APIs (hot loops bind typed values directly).
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One compiled statement, reusable with `reset()`. Belongs to the connection that made it.
public final class Statement {
    public let sql: String
    let connection: Connection
    let handle: OpaquePointer
    /// Bind text and blobs by copying them into memory the statement keeps until `reset()` (SQLITE_STATIC),
    /// not by SQLite's copy (SQLITE_TRANSIENT), which mallocs for each value and frees at the next bind: for
    /// statements run very often with many texts. An import's inserts bind ~13 texts per place; the mallocs
    /// and frees were ~3 % of its instructions (callgrind). Off by default: queries bind a few values, and
    /// with it on, some runs of the search benchmark were 60 % slower (2 of 14, against none without).
    public var copiesBoundValues = false
    /// The copies of `copiesBoundValues`. (Exclusivity unchecked: a statement is used by one thread, and the
    /// run-time checks on these were most of the cost of copying.)
    @exclusivity(unchecked) private var chunks: [UnsafeMutableRawBufferPointer] = []
    /// The chunk being filled, and how much of it is.
    @exclusivity(unchecked) private var chunk = 0
    @exclusivity(unchecked) private var chunkUsed = 0
    /// Longer values are left to SQLite to copy.
    private static let largestCopied = 4096

    init(connection: Connection, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw connection.error(sql: sql) }
        self.connection = connection
        self.sql = sql
        self.handle = stmt
    }

    deinit {
        sqlite3_finalize(handle)
        for chunk in chunks { chunk.deallocate() }
    }

    // MARK: binding (1-based indexes, as in SQLite)

    public func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    public func bind(_ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text, or NULL for nil.
    public func bind(_ index: Int32, _ value: String?) throws {
        guard let value else { return try bindNull(index) }
        // Native strings hand over their UTF-8 bytes with a length: no C-string copy, no strlen.
        let rc = value.utf8.withContiguousStorageIfAvailable { bindBytes(index, UnsafeRawBufferPointer($0), text: true) }
            ?? sqlite3_bind_text(handle, index, value, -1, geodb_sqlite_transient())
        try check(rc)
    }

    /// Binds `bytes` as text or a blob: copied into `chunks` when short, else by SQLite.
    private func bindBytes(_ index: Int32, _ bytes: UnsafeRawBufferPointer, text: Bool) -> Int32 {
        // Without bytes: "" for text, and for a blob nil (which SQLite binds as NULL, as it always did here).
        var pointer = bytes.baseAddress ?? (text ? UnsafeRawPointer(("" as StaticString).utf8Start) : nil)
        var destructor = geodb_sqlite_transient()
        if copiesBoundValues, let base = bytes.baseAddress, bytes.count <= Self.largestCopied {
            pointer = UnsafeRawPointer(copyForBinding(base, count: bytes.count))
            destructor = geodb_sqlite_static()
        }
        return text ? sqlite3_bind_text(handle, index, pointer?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), destructor)
            : sqlite3_bind_blob(handle, index, pointer, Int32(bytes.count), destructor)
    }

    /// A copy of `count` bytes at `base` that stays until `reset()`.
    private func copyForBinding(_ base: UnsafeRawPointer, count: Int) -> UnsafeMutableRawPointer {
        while chunk < chunks.count && chunks[chunk].count - chunkUsed < count {
            chunk += 1
            chunkUsed = 0
        }
        if chunk == chunks.count {
            // 512 bytes first, doubling up to 16 KiB: a statement gets what the values it binds need.
            chunks.append(.allocate(byteCount: max(count, 512 << min(chunks.count, 5)), alignment: 8))
        }
        let copy = chunks[chunk].baseAddress! + chunkUsed
        copy.copyMemory(from: base, byteCount: count)
        chunkUsed += count
        return copy
    }

    /// Binds an integer, or NULL for nil.
    public func bind(_ index: Int32, _ value: Int64?) throws {
        guard let value else { return try bindNull(index) }
        try bind(index, value)
    }

    /// Binds a blob, or NULL for nil.
    public func bind(_ index: Int32, _ value: [UInt8]?) throws {
        guard let value else { return try bindNull(index) }
        try check(value.withUnsafeBytes { bindBytes(index, $0, text: false) })
    }

    public func bindNull(_ index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds all values in order, starting at parameter 1.
    public func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: try bindNull(index)
            case .integer(let v): try bind(index, v)
            case .real(let v): try bind(index, v)
            case .text(let v): try bind(index, v)
            case .blob(let v): try bind(index, v)
            }
        }
    }

    // MARK: running

    /// Advances to the next row: true when a row is available, false when done.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(sql: sql)
        }
    }

    /// Resets the statement so it can run again, clearing its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        chunk = 0   // nothing refers to the copies any more
        chunkUsed = 0
    }

    /// Binds `values`, runs the statement to completion and resets it.
    public func run(_ values: [SQLiteValue] = []) throws {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    /// Binds `values` and returns every row, each read by `row`; resets the statement after. Inlinable, so
    /// that callers in other modules get it specialized: unspecialized, every row's append looked up the
    /// array's generic metadata (6 % of "Si" typed on tiled ×400, which reads 17,000 names).
    @inlinable
    public func rows<T>(_ values: [SQLiteValue] = [], _ row: (Statement) throws -> T) throws -> [T] {
        defer { reset() }
        try bind(values)
        var out: [T] = []
        while try step() { out.append(try row(self)) }
        return out
    }

    // MARK: columns (0-based indexes, as in SQLite)

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    public func int(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column as text, or nil when it is NULL; cut at the connection's `maxTextBytes` (at a character
    /// boundary) when longer.
    public func text(_ index: Int32) -> String? {
        guard let bytes = cutText(index) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column's text as `text` reads it, appended to `bytes` as UTF-8 (to make a String of later, or
    /// never); false when it is NULL.
    public func appendText(_ index: Int32, to bytes: inout [UInt8]) -> Bool {
        guard let text = cutText(index) else { return false }
        bytes.append(contentsOf: text)
        return true
    }

    /// The column's text bytes, cut at the connection's `maxTextBytes` (at a character boundary).
    private func cutText(_ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let cString = sqlite3_column_text(handle, index) else { return nil }
        var count = Int(sqlite3_column_bytes(handle, index))
        if count > connection.maxTextBytes {
            count = connection.maxTextBytes
            while count > 0 && cString[count] & 0xc0 == 0x80 { count -= 1 }   // not inside a character
        }
        return UnsafeBufferPointer(start: cString, count: count)
    }

    /// The column's text as its UTF-8 bytes, valid until the statement steps or resets; nil when it is NULL:
    /// to look at a value before (or instead of) making a String of it.
    public func textBytes(_ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let cString = sqlite3_column_text(handle, index) else { return nil }
        return UnsafeBufferPointer(start: cString, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// The column as bytes, or nil when it is NULL.
    public func blob(_ index: Int32) -> [UInt8]? {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer = sqlite3_column_blob(handle, index) else { return isNull(index) ? nil : [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as any value.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(text(index) ?? "")
        case SQLITE_BLOB: return .blob(blob(index) ?? [])
        default: return .null
        }
    }

    private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw connection.error(sql: sql) }
    }
}
