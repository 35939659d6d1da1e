// Which record of which source a place came from, and its category as that source wrote it: the one home
// of the texts results show for them ("n123", "geonames:658225", "csv:stores.csv:17"; "amenity=cafe"), which
// lookup, the servers and export used to take apart by prefix each in their own way.

/// A place's record in its source, written so it names one record across every source a database holds.
///
/// ```swift
/// let ref = SourceReference("w45")             // .osm, record "w45"
/// ref?.osmObject                               // ("way", 45)
/// SourceReference("csv:stores.csv:17")?.file   // "stores.csv"
/// ```
public struct SourceReference: Hashable, Sendable, CustomStringConvertible, Codable {
    public enum Format: String, Sendable {
        /// OSM: the record is `n123`, `w45` or `r6`.
        case osm
        /// GeoNames: the record is the geonameid.
        case geonames
        /// A CSV file: the record is its id column's value or its line number.
        case csv
    }

    public let format: Format
    /// The CSV file's name (what `source.name` holds); nil for the other formats.
    public let file: String?
    /// The record's id within its source (`place.source_ref`).
    public let record: String

    public init(format: Format, file: String? = nil, record: String) {
        self.format = format
        self.file = format == .csv ? file : nil
        self.record = record
    }

    /// Reads "n123", "geonames:658225", "csv:stores.csv:17"; nil for any other text.
    public init?(_ text: String) {
        if text.hasPrefix("geonames:") {
            let record = text.dropFirst("geonames:".count)
            guard !record.isEmpty else { return nil }
            self.init(format: .geonames, record: String(record))
        } else if text.hasPrefix("csv:") {
            // The file name may hold colons; the record is after the last one.
            let rest = text.dropFirst("csv:".count)
            guard let colon = rest.lastIndex(of: ":"), colon > rest.startIndex else { return nil }
            self.init(format: .csv, file: String(rest[..<colon]), record: String(rest[rest.index(after: colon)...]))
        } else {
            guard let letter = text.first, "nwr".contains(letter), let id = Int64(text.dropFirst()), id > 0 else { return nil }
            self.init(format: .osm, record: text)
        }
    }

    /// How results show it, and what `lookup` takes back.
    public var description: String {
        switch format {
        case .osm: record
        case .geonames: "geonames:\(record)"
        case .csv: "csv:\(file ?? ""):\(record)"
        }
    }

    /// `node`/`way`/`relation` and the OSM id of a record from OSM; nil for GeoNames and CSV records.
    public var osmObject: (type: String, id: Int64)? {
        guard format == .osm, let letter = record.first, let id = Int64(record.dropFirst()) else { return nil }
        switch letter {
        case "n": return ("node", id)
        case "w": return ("way", id)
        case "r": return ("relation", id)
        default: return nil
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let reference = SourceReference(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a source id: \(text.prefix(80))"))
        }
        self = reference
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A place's category as its source wrote it: an OSM tag (`amenity=cafe`), GeoNames' feature code
/// (`geonames=PPLA`) or a CSV's free text (`Coffee shop`).
///
/// ```swift
/// SourceCategory("amenity=cafe").osmTag   // ("amenity", "cafe")
/// ```
public struct SourceCategory: Hashable, Sendable, CustomStringConvertible, Codable {
    /// As written.
    public let text: String

    public init(_ text: String) { self.text = text }

    /// The OSM key and value, when the category is an OSM tag (not GeoNames' `geonames=…`, not free text).
    public var osmTag: (key: String, value: String)? {
        // By bytes: searching Characters walks grapheme clusters, and '=' is one byte (asked per POI by the
        // import's addresses pass and hierarchy).
        let bytes = text.utf8
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals > bytes.startIndex, !text.hasPrefix("geonames=") else { return nil }
        return (String(text[..<equals]), String(text[bytes.index(after: equals)...]))
    }

    public var description: String { text }

    public init(from decoder: Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
