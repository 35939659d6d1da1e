// FTS5's tokenizers run on text outside any table, through the FTS5 API (shim.h): the tokens an index
// makes of a text, as the index itself makes them.
import CSQLite
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An FTS5 tokenizer as a table's `tokenize` option names it ("unicode61 remove_diacritics 2"), run on text
/// outside any table. A query builder asks it where the index splits a word: FTS5's tables of letters, marks
/// and separators are its own (a Unicode version of their own), and no copy of them could be sure to agree.
///
/// ```swift
/// let tokenizer = FullTextTokenizer("unicode61 remove_diacritics 2")
/// try tokenizer.tokens("Hel'sinki")   // ["hel", "sinki"]
/// ```
public struct FullTextTokenizer: Sendable {
    /// The tokenizer's name, then its arguments.
    public let specification: [String]

    /// `specification` as a `tokenize` option writes it: words separated by spaces, unquoted.
    public init(_ specification: String) {
        self.specification = specification.split(separator: " ").map(String.init)
    }

    /// The tokens of `text`, folded as the tokenizer folds them (FTS5_TOKENIZE_QUERY), in order.
    public func tokens(_ text: String) throws -> [String] {
        let api = try Self.api.get()
        final class Collected { var tokens: [String] = [] }
        let collected = Collected()
        let name = specification.first ?? "unicode61"
        let arguments = specification.dropFirst().map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var argumentPointers = arguments.map { UnsafePointer($0) }
        let rc = withExtendedLifetime(collected) {
            text.utf8CString.withUnsafeBufferPointer { bytes in
                geodb_fts5_tokenize(api.pointer, name, &argumentPointers, Int32(argumentPointers.count), bytes.baseAddress,
                                    Int32(bytes.count - 1), Unmanaged.passUnretained(collected).toOpaque()) { context, token, length in
                    guard let context, let token else { return }
                    let buffer = UnsafeRawBufferPointer(start: token, count: Int(length))
                    Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().tokens.append(String(decoding: buffer, as: UTF8.self))
                }
            }
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, message: "FTS5 tokenizer '\(specification.joined(separator: " "))' failed on \(text.prefix(40))")
        }
        return collected.tokens
    }

    /// The FTS5 API of a private in-memory connection, open for the process's life (the API belongs to it).
    /// Its tokenizers keep no state between calls: each call makes its own instance.
    private struct API: @unchecked Sendable {
        let connection: OpaquePointer
        let pointer: UnsafeMutablePointer<fts5_api>
    }

    private static let api: Result<API, SQLiteError> = {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            if let db { sqlite3_close_v2(db) }
            return .failure(SQLiteError(code: rc, message: "cannot open an in-memory database for FTS5's tokenizers"))
        }
        guard let pointer = geodb_fts5_api(db) else {
            sqlite3_close_v2(db)
            return .failure(SQLiteError(code: SQLITE_ERROR, message: "this SQLite (\(Connection.libraryVersion)) has no FTS5 API"))
        }
        return .success(API(connection: db, pointer: pointer))
    }()
}
