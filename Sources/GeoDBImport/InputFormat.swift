// Recognises an input file's format from its first bytes, never from its name.
import Foundation
import GeoDB

/// The input formats geodb imports.
public enum InputFormat: String, Sendable {
    case osmPBF = "osm.pbf"
    case osmXML = "osm.xml"
    case osmXMLGzip = "osm.xml.gz"
    case osmXMLBzip2 = "osm.xml.bz2"
    /// A GeoNames dump: 19 tab-separated columns, no header.
    case geonames = "geonames"
    /// Delimited text with a header row.
    case csv = "csv"
    /// A GeoNames countryInfo.txt-style table (a `#ISO` header): country names for the dumps beside it.
    case countryTable = "geonames.countries"
    /// A GeoNames admin1CodesASCII.txt-style table: subdivision names for the dumps beside it.
    case admin1Table = "geonames.admin1"
    /// GeoNames alternateNamesV2.txt / alternateNames.txt (or a per-country file of them): names with their
    /// languages for the places of the dumps beside it (`AlternateNamesReader`).
    case alternateNames = "geonames.alternatenames"

    public var isOSM: Bool { self == .osmPBF || self == .osmXML || self == .osmXMLGzip || self == .osmXMLBzip2 }
    /// Lookup tables fill in names for the places of other files; they are not sources of places.
    public var isLookupTable: Bool { self == .countryTable || self == .admin1Table }
    /// Gazetteer sources: their places may be linked to places of other sources.
    public var isGazetteer: Bool { self == .geonames || self == .csv }
    /// Timezone boundaries: a GeoJSON FeatureCollection whose first feature has a `tzid` property.
    case timezoneGeoJSON = "timezone.geojson"
    /// US house number ranges from TIGER, as Nominatim preprocesses them (`TigerFiles`): a CSV file with the
    /// header `from;to;interpolation;street;city;state;postcode;geometry`, plain or gzip, a directory of
    /// them, or a .tar.gz of them.
    case tiger = "tiger"

    /// Looks at the start of the file; throws a clear error for empty, unreadable and unknown files.
    public static func detect(path: String) throws -> InputFormat {
        if let files = TigerFiles.directoryFiles(path) {
            // A directory is an input only as a folder of TIGER files (as `nominatim add-data --tiger-data` takes them).
            guard let first = files.first, (try? detect(path: first)) == .tiger else {
                throw GeoDBError(.fileNotFound, "\(path) is a directory, not a file to import nor a directory of TIGER CSV files")
            }
            return .tiger
        }
        try GeoDBError.requireFile(path, kind: "file to import")
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw GeoDBError(.fileNotFound, exists ? "\(path): cannot be read (permissions?)" : "\(path): no such file")
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: headSize)) ?? Data())
        guard !head.isEmpty else { throw GeoDBError.badInput(file: path, at: .byteOffset(0), "empty file") }
        if isPBF(head) { return .osmPBF }
        if head.starts(with: [0x1f, 0x8b]) {
            let inflated = (try? TigerFiles.inflatedHead(of: path, count: headSize)) ?? []
            return TigerFiles.isTiger(inflatedHead: inflated) ? .tiger : .osmXMLGzip
        }
        if head.starts(with: Array("BZh".utf8)) { return .osmXMLBzip2 }
        if isOSMXML(head) { return .osmXML }
        if GeoJSONReader.looksLikeFeatureCollection(head) { return try TimeZoneImport.detect(path) }
        if let format = detectText(head, complete: head.count < headSize) { return format }
        throw GeoDBError(.unknownFormat, "\(path): unknown format (expected OSM PBF, OSM XML, a GeoNames dump or alternate names file, CSV with a header row, TIGER CSV or timezone GeoJSON)",
                         remedy: "check the file; geodb recognises formats by content, not by name")
    }

    /// Bytes read to recognise a file: enough for several GeoNames lines and countryInfo.txt's comments.
    static let headSize = 64 * 1024

    /// GeoNames dumps and tables, then CSV: judged on the first complete line of the head (UTF-8 text, no
    /// NUL); a dump with bad rows further on is still a dump (they are reported as bad rows).
    static func detectText(_ head: [UInt8], complete: Bool) -> InputFormat? {
        var bytes = head[...]
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) { bytes = bytes.dropFirst(3) }
        guard !bytes.contains(0) else { return nil }
        var lines = bytes.split(separator: 0x0a, omittingEmptySubsequences: false)
            .map { $0.last == 0x0d ? $0.dropLast() : $0 }
        if !complete && lines.count > 1 { lines.removeLast() }   // cut off by the head
        lines.removeAll { $0.isEmpty }
        guard let first = lines.first else { return nil }
        if TigerFiles.startsWithHeader(first) { return .tiger }
        let tab: UInt8 = 0x09

        if first.first == UInt8(ascii: "#") {
            let comments = lines.prefix { $0.first == UInt8(ascii: "#") }
            if comments.contains(where: { $0.starts(with: Array("#ISO".utf8)) }) { return .countryTable }
        }
        func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] { line.split(separator: tab, omittingEmptySubsequences: false) }
        func number(_ field: ArraySlice<UInt8>, _ parse: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            field.withUnsafeBufferPointer(parse)
        }
        let f = fields(first)
        if f.count == GeoNamesReader.columnCount && number(f[0], { ByteNumber.int($0) != nil })
            && number(f[4], { ByteNumber.double($0) != nil }) && number(f[5], { ByteNumber.double($0) != nil }) {
            return .geonames
        }
        if AlternateNamesReader.columnCounts.contains(f.count) && AlternateNamesReader.looksLikeRow(f) {
            return .alternateNames
        }
        if f.count == 4 && number(f[0], GazetteerLookups.isAdminCode) && number(f[3], { ByteNumber.int($0) != nil }) {
            return .admin1Table
        }
        guard String(validating: first, as: UTF8.self) != nil,
              first.withUnsafeBufferPointer({ CSVDialect.detectDelimiter($0) }) != nil else { return nil }
        return .csv
    }

    /// A PBF file starts with a 4-byte big-endian header length, then a BlobHeader whose type is "OSMHeader".
    static func isPBF(_ head: [UInt8]) -> Bool {
        guard head.count >= 16 else { return false }
        let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard length > 0, length < 64 * 1024, head[4] == 0x0a, Int(head[5]) == 9 else { return false }
        return Array(head[6..<min(15, head.count)]) == Array("OSMHeader".utf8)
    }

    /// XML (after an optional BOM and whitespace) with an `<osm` root in the first bytes.
    static func isOSMXML(_ head: [UInt8]) -> Bool {
        let bytes = textStart(head)
        guard bytes.first == UInt8(ascii: "<") else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("<osm") && !text.hasPrefix("<!DOCTYPE html")
    }

    /// The bytes after an optional UTF-8 byte order mark and whitespace.
    static func textStart(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var bytes = head[...]
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) { bytes = bytes.dropFirst(3) }
        return bytes.drop { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
    }
}
