// Reads an importance file in Nominatim's format (`wikimedia-importance.csv.gz`, made by its
// wikipedia-wikidata project, read by `nominatim refresh --wiki-data`): gzip or plain text, a tab-separated
// header naming the columns, then a Wikipedia article a line — or a redirect to one, with the article's
// values — with its `language`, `title` (underscores for spaces), `importance` (0…1: how much Wikipedia links
// to and reads it) and `wikidata_id`. Streamed: the world's file has tens of millions of lines.
import Foundation
import GeoDB

/// What an importance file gave an import (`ImportSummary.importanceFile`).
public struct ImportanceFileStats: Sendable {
    public var name: String
    public var sizeBytes: Int
    /// Rows read, bad rows skipped by reason and the first warnings about them.
    public var records = RecordStats()
    /// Places of the import with a `wikidata` or `wikipedia` tag (their own, or a record's merged into them):
    /// what the file was read for. With none the file is not read.
    public var taggedPlaces = 0
    /// Places the file has a row for: by their Wikidata id, and (the others) by their Wikipedia article.
    public var matchedByWikidata = 0
    public var matchedByTitle = 0
    /// Matched places whose importance the file's value raised (`Importance.withWikipedia`).
    public var raised = 0
}

/// Streams the rows of an importance file. The header is checked when the reader is made, so that a file
/// of another kind fails the import before its long part; bad rows are skipped with a warning naming the
/// file and line (fatal with `strict`).
final class ImportanceFileReader {
    /// One row, its texts as bytes of the reader's buffer (valid during the call only).
    struct Row {
        var language: UnsafeBufferPointer<UInt8>
        var title: UnsafeBufferPointer<UInt8>
        /// 0…1.
        var importance: Double
        /// The number of its `wikidata_id` (Q1844 → 1844); nil when the row has none.
        var wikidata: UInt64?
    }

    /// The columns geodb reads, by their names in the header; others (`type`: article or redirect) are
    /// passed over, wherever they stand.
    enum Column: String, CaseIterable {
        case language, title, importance, wikidataID = "wikidata_id"
    }

    let path: String
    private(set) var stats: ImportanceFileStats
    var onProgress: ((ImportanceFileStats) -> Void)?
    /// Bytes read at a time (tests make it tiny to put rows across chunk boundaries).
    var chunkSize = ChunkedFileReader.defaultChunkSize
    private let compression: FileByteSource.Compression
    /// Where each column is in a row, and how many fields a row has: as many as the header.
    private let columns: (language: Int, title: Int, importance: Int, wikidata: Int)
    private let fieldCount: Int
    private let badRows: BadRows

    /// How much of the file's start is read for its header: a real one is 45 bytes.
    static let headerLimit = 64 * 1024

    /// Opens `path` and reads its header; throws when the file is not an importance file.
    init(path: String, strict: Bool) throws {
        try GeoDBError.requireFile(path, kind: "importance file")
        self.path = path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        stats = ImportanceFileStats(name: (path as NSString).lastPathComponent, sizeBytes: size)
        badRows = BadRows(file: path, strict: strict)
        compression = try Self.compression(of: path)
        let header = try Self.header(path: path, compression: compression)
        var positions: [Column: Int] = [:]
        for (index, name) in header.enumerated() {
            if let column = Column(rawValue: name), positions[column] == nil { positions[column] = index }
        }
        guard let language = positions[.language], let title = positions[.title], let importance = positions[.importance],
              let wikidata = positions[.wikidataID] else {
            let missing = Column.allCases.filter { positions[$0] == nil }.map { "'\($0.rawValue)'" }
            throw GeoDBError(.unknownFormat, "\(path): not an importance file: its first line has no column \(missing.joined(separator: ", "))",
                             remedy: "give Nominatim's wikimedia-importance.csv.gz, or a file of its tab-separated columns with their header "
                                + "(language, type, title, importance, wikidata_id), gzip or plain")
        }
        columns = (language, title, importance, wikidata)
        fieldCount = header.count
    }

    /// Gzip by its first bytes, else plain text.
    private static func compression(of path: String) throws -> FileByteSource.Compression {
        let file = try FileByteSource(path: path, compression: .none)
        defer { file.close() }
        var magic = [UInt8](repeating: 0, count: 2)
        let count = try magic.withUnsafeMutableBytes { try file.read(into: $0) }
        return count == 2 && magic == [0x1f, 0x8b] ? .gzip : .none
    }

    /// The first line's fields (tab-separated, without a UTF-8 byte order mark), read from at most the first
    /// `headerLimit` bytes: a file whose first line is longer is no importance file.
    private static func header(path: String, compression: FileByteSource.Compression) throws -> [String] {
        let file = try FileByteSource(path: path, compression: compression)
        defer { file.close() }
        var head = [UInt8](repeating: 0, count: headerLimit)
        var filled = 0
        while filled < head.count, !head[..<filled].contains(0x0a) {
            let count = try head.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            guard count > 0 else { break }
            filled += count
        }
        guard filled > 0 else { throw GeoDBError.badInput(file: path, at: .byteOffset(0), "empty file (an importance file has a header line)") }
        var line = head[..<filled].prefix { $0 != 0x0a }
        if line.last == 0x0d { line = line.dropLast() }
        if line.starts(with: [0xef, 0xbb, 0xbf]) { line = line.dropFirst(3) }
        return line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with each good row, in file order.
    func read(_ body: (Row) throws -> Void) throws {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(fieldCount + 1)
        let (language, title, importance, wikidata) = columns
        let progress = { [self] (bytes: Int) in
            stats.records.bytesRead = bytes
            onProgress?(stats)
        }
        try ChunkedFileReader(path: path, chunkSize: chunkSize, compression: compression).readLines(progress: progress) { line, number in
            guard number > 1, !line.isEmpty else { return }   // the header was read at the start
            stats.records.rows += 1
            splitFields(line, separator: 0x09, limit: fieldCount + 1, into: &fields)
            guard fields.count == fieldCount else {
                return try badRows.skip(line: number, .badFields, "\(fields.count) tab-separated fields, the header has \(fieldCount)",
                                        stats: &stats.records)
            }
            guard let value = Self.importance(line.slice(fields[importance])), (0...1).contains(value) else {
                return try badRows.skip(line: number, .badImportance, "importance '\(line.string(fields[importance]))' is not a number from 0 to 1",
                                        stats: &stats.records)
            }
            let id = line.slice(fields[wikidata])
            let item = WikimediaReference.wikidataNumber(id)
            guard item != nil || id.isEmpty else {
                return try badRows.skip(line: number, .badID, "wikidata_id '\(line.string(fields[wikidata]))' is not a Wikidata id (Q and digits)",
                                        stats: &stats.records)
            }
            try body(Row(language: line.slice(fields[language]), title: line.slice(fields[title]), importance: value, wikidata: item))
        }
    }

    /// The importance column's number. The file writes 17 significant digits ("0.43022716262754107"), more
    /// than `ByteNumber.double` converts on its fast path, and its slow path (a String per row) was 4 of the 5 s
    /// that 5 M rows took: digits and one point are read here, the 18th digit and later dropped (a change
    /// below 1e-16); any other form (an exponent, a sign, spaces) goes to `ByteNumber.double`.
    private static func importance(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var significant = 0, fractionDigits = 0, digits = 0
        var seenPoint = false
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                guard significant < 17 else {
                    if seenPoint { continue }
                    return ByteNumber.double(bytes)
                }
                if mantissa > 0 || byte != 0x30 { significant += 1 }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                return ByteNumber.double(bytes)
            }
        }
        guard digits > 0, fractionDigits < powersOfTen.count else { return digits > 0 ? ByteNumber.double(bytes) : nil }
        return Double(mantissa) / powersOfTen[fractionDigits]
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }
}
