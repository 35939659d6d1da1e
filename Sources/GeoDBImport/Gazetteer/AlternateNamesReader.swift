// Reads GeoNames alternate names files (alternateNamesV2.txt, the older alternateNames.txt, the per-country
// files of alternatenames/): one name of a place a line, with its language and flags, tab-separated, no
// header (https://download.geonames.org/export/dump/readme.txt); streamed from bytes like the dumps.
import Foundation
import GeoDB

/// One name of a place as an alternate names file gives it.
struct AlternateName: Equatable {
    /// The isolanguage column as written: an ISO 639 code ("de", "zh-CN", "fr_1793"), a pseudo-code
    /// ("abbr", "wkdt", …) or "".
    var code: String
    var name: String
    var flags: Flags

    /// The file's isPreferredName, isShortName, isColloquial and isHistoric columns.
    struct Flags: OptionSet, Equatable {
        let rawValue: Int64
        static let preferred = Flags(rawValue: 1)
        static let short = Flags(rawValue: 2)
        static let colloquial = Flags(rawValue: 4)
        static let historic = Flags(rawValue: 8)
    }

    /// What the isolanguage column makes of the value.
    enum Kind: Equatable {
        /// A name in a language (an ISO 639 code of 2 or 3 letters, maybe with a region or variant after '-'
        /// or '_').
        case language(String)
        /// 'abbr': an abbreviation of the name.
        case abbreviation
        /// 'wkdt': the place's Wikidata id.
        case wikidata
        /// Postal codes ('post'), airport and other codes ('iata', 'icao', 'faac', 'tcid', 'unlc'), web
        /// pages ('link'): values that are not names.
        case notAName
        /// No code, or one of 4 letters or more not listed above ('piny', 'phon'): a name without a language.
        case unlabelled
    }

    static let codesOfNonNames: Set<String> = ["post", "iata", "icao", "faac", "tcid", "unlc", "link"]

    static func kind(ofCode code: String) -> Kind {
        if code == "abbr" { return .abbreviation }
        if code == "wkdt" { return .wikidata }
        if codesOfNonNames.contains(code) { return .notAName }
        return isLanguage(code) ? .language(code) : .unlabelled
    }

    var kind: Kind { Self.kind(ofCode: code) }

    /// "de", "haw", "zh-CN", "zh-Hant", "fr_1793".
    static func isLanguage(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        let letters = bytes.prefix { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }.count
        guard letters == 2 || letters == 3 else { return false }
        guard letters < bytes.count else { return true }
        let rest = bytes[(letters + 1)...]
        return (bytes[letters] == UInt8(ascii: "-") || bytes[letters] == UInt8(ascii: "_")) && !rest.isEmpty && rest.count <= 8
            && rest.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0) }
    }
}

/// What one alternate names file gave: rows read, rows for places not imported, values that are no names,
/// bad rows.
public struct AlternateNamesFileStats: Sendable {
    public var name: String
    public var sizeBytes: Int
    /// Rows read, bad rows skipped by reason and the first warnings about them.
    public var records = RecordStats()
    /// Rows naming a place that no GeoNames dump of this import has (the whole file names millions).
    public var otherPlaces = 0
    /// Rows whose value is no name (postal codes, airport and other codes, links).
    public var notNames = 0
}

/// Streams an alternate names file, handing over the rows of the places asked for; bad rows are skipped
/// with a warning naming the file and line (fatal with `strict`).
final class AlternateNamesReader {
    let path: String
    private(set) var stats: AlternateNamesFileStats
    var onProgress: ((AlternateNamesFileStats) -> Void)?
    /// Bytes read at a time (tests make it tiny to put rows across chunk boundaries).
    var chunkSize = ChunkedFileReader.defaultChunkSize
    private let badRows: BadRows

    /// The columns, in order; alternateNames.txt has the first 8, alternateNamesV2.txt adds `from` and `to`
    /// (the years a name was used, which geodb does not keep).
    enum Column: Int {
        case alternateNameID, geonameID, code, name, preferred, short, colloquial, historic, from, to
    }

    static let columnCounts = 8...10

    init(path: String, strict: Bool) {
        self.path = path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        stats = AlternateNamesFileStats(name: (path as NSString).lastPathComponent, sizeBytes: size)
        badRows = BadRows(file: path, strict: strict)
    }

    /// Calls `body` with the geonameid and name of each good row whose geonameid `wanted` accepts and whose
    /// value is a name or a Wikidata id.
    func read(wanted: (Int64) -> Bool, into body: (Int64, AlternateName) throws -> Void) throws {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(Self.columnCounts.upperBound + 1)
        let progress = { [self] (bytes: Int) in
            stats.records.bytesRead = bytes
            onProgress?(stats)
        }
        try ChunkedFileReader(path: path, chunkSize: chunkSize).readLines(progress: progress) { line, number in
            guard !line.isEmpty else { return }
            stats.records.rows += 1
            splitFields(line, separator: 0x09, limit: Self.columnCounts.upperBound + 1, into: &fields)
            guard Self.columnCounts.contains(fields.count) else {
                return try badRows.skip(line: number, .badFields, "\(fields.count) tab-separated fields, alternate names rows have 8 or 10",
                                        stats: &stats.records)
            }
            func bytes(_ column: Column) -> UnsafeBufferPointer<UInt8> { line.slice(fields[column.rawValue]) }
            guard let id = ByteNumber.int(bytes(.geonameID)), id > 0 else {
                return try badRows.skip(line: number, .badID, "geonameid '\(line.string(fields[Column.geonameID.rawValue]))' is not a number",
                                        stats: &stats.records)
            }
            guard wanted(id) else { return stats.otherPlaces += 1 }
            let code = line.string(fields[Column.code.rawValue])
            guard AlternateName.kind(ofCode: code) != .notAName else { return stats.notNames += 1 }
            let name = fields[Column.name.rawValue]
            guard !name.isEmpty else { return try badRows.skip(line: number, .noName, "geonameid \(id) has an empty name", stats: &stats.records) }
            guard ValueLimits.fits(utf8: line.slice(name)) else {
                return try badRows.skip(line: number, .tooLong, "the name is longer than the \(ValueLimits.maxValueCharacters) characters "
                                        + "a value may have", stats: &stats.records)
            }
            var flags: AlternateName.Flags = []
            for (column, flag) in [(Column.preferred, AlternateName.Flags.preferred), (.short, .short), (.colloquial, .colloquial),
                                   (.historic, .historic)] where Self.isSet(bytes(column)) {
                flags.insert(flag)
            }
            try body(id, AlternateName(code: code, name: line.string(name), flags: flags))
        }
    }

    /// GeoNames writes "1" for a flag that is set and nothing for one that is not.
    private static func isSet(_ field: UnsafeBufferPointer<UInt8>) -> Bool { field.count == 1 && field[0] == UInt8(ascii: "1") }

    /// Whether a line split at tabs into `fields` (8 to 10 of them) is an alternate names row: two ids, a
    /// short code without spaces, a name, flags that are empty, 0 or 1.
    static func looksLikeRow(_ fields: [ArraySlice<UInt8>]) -> Bool {
        func isID(_ field: ArraySlice<UInt8>) -> Bool { field.withUnsafeBufferPointer { ByteNumber.int($0).map { $0 > 0 } ?? false } }
        let code = fields[Column.code.rawValue]
        return isID(fields[Column.alternateNameID.rawValue]) && isID(fields[Column.geonameID.rawValue])
            && code.count <= 16 && !code.contains(0x20) && !fields[Column.name.rawValue].isEmpty
            && fields[Column.preferred.rawValue...Column.historic.rawValue].allSatisfy { $0.isEmpty || $0 == [0x30] || $0 == [0x31] }
    }
}
