// Reads GeoNames dumps (allCountries.txt, cities500.txt, FI.txt, …): 19 tab-separated columns, no header
// (https://download.geonames.org/export/dump/readme.txt), streamed line by line from bytes.
import Foundation
import GeoDB

/// How GeoNames feature classes and codes become geodb kinds and importance.
enum GeoNamesFeature {
    /// The kind of a row: A (countries, subdivisions), P (settlements, by code and population),
    /// T.ISL* (islands), L.AREA/RGN/LCTY (localities); everything else (airports, parks, mountains, …) a POI.
    static func kind(featureClass: String, code: String, population: Int64) -> PlaceKind {
        switch featureClass {
        case "A":
            switch code {
            case "PCLI", "PCLD", "PCLF", "PCLS", "PCLIX", "PCL", "TERR": return .country
            case "ADM1": return .state
            case "ADM2": return .county
            default: return .boundary
            }
        case "P":
            switch code {
            case "PPLC": return .city
            case "PPLX": return .suburb
            case "PPLL": return .hamlet
            case "PPLH", "PPLQ", "PPLW", "PPLCH": return .locality   // historical, abandoned, destroyed
            default:
                if population >= 100_000 { return .city }
                if population >= 10_000 || code == "PPLA" || code == "PPLG" { return .town }
                return .village
            }
        case "T" where code.hasPrefix("ISL") || code == "ATOL": return .island
        case "L" where code == "AREA" || code == "RGN" || code == "LCTY": return .locality
        default: return .poi
        }
    }

    /// Extra importance for capitals and seats of administration, which searches expect first.
    static func importanceBonus(code: String) -> Double {
        switch code {
        case "PPLC": return 0.1
        case "PPLA", "PPLG": return 0.05
        case "PPLA2": return 0.03
        case "PPLA3", "PPLA4": return 0.01
        default: return 0
        }
    }
}

/// Streams a GeoNames dump into a `PlaceSink`; bad rows are skipped with a warning (or fatal with `strict`).
public final class GeoNamesReader {
    public let path: String
    public private(set) var stats = RecordStats()
    /// Called after each chunk of the file with the counts so far.
    public var onProgress: ((RecordStats) -> Void)?
    /// Bytes read at a time (tests make it tiny to put records across chunk boundaries).
    var chunkSize = ChunkedFileReader.defaultChunkSize
    /// The names of alternate names files given with the dump, attached to each place before it is handed on.
    var alternateNames: AlternateNameStore?
    private let lookups: GazetteerLookups
    private let badRows: BadRows

    /// The columns of the dump, in order.
    enum Column: Int {
        case geonameID, name, asciiName, alternateNames, latitude, longitude, featureClass, featureCode, countryCode, cc2
        case admin1, admin2, admin3, admin4, population, elevation, dem, timezone, modificationDate
    }

    static let columnCount = 19

    public init(path: String, lookups: GazetteerLookups = GazetteerLookups(), strict: Bool = false) {
        self.path = path
        self.lookups = lookups
        badRows = BadRows(file: path, strict: strict)
    }

    package func read(into sink: PlaceSink) throws {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(Self.columnCount + 1)
        let progress = { [self] (bytes: Int) in
            stats.bytesRead = bytes
            onProgress?(stats)
        }
        try ChunkedFileReader(path: path, chunkSize: chunkSize).readLines(progress: progress) { line, number in
            guard !line.isEmpty else { return }
            stats.rows += 1
            splitFields(line, separator: 0x09, limit: Self.columnCount + 1, into: &fields)
            if let place = try record(line, fields, number) { try sink.add(place) }
        }
    }

    /// The geonameids of a dump (its first column; rows without one are left out), cheaply: the places
    /// alternate names files are read for before the dump is.
    static func geonameIDs(path: String) throws -> [Int64] {
        var ids: [Int64] = []
        try ChunkedFileReader(path: path).readLines { line, _ in
            let end = line.firstIndex(of: 0x09) ?? line.count
            if let id = ByteNumber.int(line.slice(0..<end)), id > 0 { ids.append(id) }
        }
        return ids
    }

    /// The name, the ASCII name when it differs, and the comma-separated alternate names, each once
    /// (compared as bytes, before any String is made).
    static func names(_ line: UnsafeBufferPointer<UInt8>, name: Range<Int>, ascii: Range<Int>,
                      alternates: Range<Int>) -> [PlaceName] {
        guard let base = line.baseAddress else { return [] }
        var distinct = DistinctRanges(base: base, first: name)
        distinct.insert(ascii)
        let asciiCount = distinct.ranges.count - 1
        var start = alternates.lowerBound
        for i in alternates.lowerBound...alternates.upperBound where i == alternates.upperBound || line[i] == UInt8(ascii: ",") {
            // An alternate name longer than a value may be is left out (the row's other names are kept).
            if ValueLimits.fits(utf8: line.slice(start..<i)) { distinct.insert(start..<i) }
            start = i + 1
        }
        return distinct.ranges.enumerated().map { i, range in
            PlaceName(name: line.string(range), type: i == 0 ? "name" : i <= asciiCount ? "ascii_name" : "alt_name")
        }
    }

    /// The distinct non-empty byte strings of a line, as ranges in the order first seen. A row has a few
    /// names and each new one is compared with those kept; past `linearLimit` they are found by the hash
    /// of their bytes instead (comparing with all was quadratic: 86 s for one row of 400,000 names).
    struct DistinctRanges {
        static let linearLimit = 16
        let base: UnsafePointer<UInt8>
        private(set) var ranges: [Range<Int>]
        /// Indexes into `ranges` by the hash of their bytes, once there are more than `linearLimit`.
        private var byHash: [Int: [Int]] = [:]

        init(base: UnsafePointer<UInt8>, first: Range<Int>) {
            self.base = base
            ranges = [first]
        }

        mutating func insert(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            func same(_ index: Int) -> Bool {
                ranges[index].count == range.count && memcmp(base + ranges[index].lowerBound, base + range.lowerBound, range.count) == 0
            }
            if ranges.count < Self.linearLimit {
                if ranges.indices.contains(where: same) { return }
            } else {
                if byHash.isEmpty { for index in ranges.indices { byHash[hash(ranges[index]), default: []].append(index) } }
                let key = hash(range)
                if byHash[key]?.contains(where: same) == true { return }
                byHash[key, default: []].append(ranges.count)
            }
            ranges.append(range)
        }

        private func hash(_ range: Range<Int>) -> Int {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
            return hasher.finalize()
        }
    }

    /// The place of one row, or nil when the row is skipped.
    private func record(_ line: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>], _ number: Int) throws -> PlaceRecord? {
        guard fields.count == Self.columnCount else {
            try badRows.skip(line: number, .badFields, "\(fields.count) tab-separated fields, GeoNames rows have 19", stats: &stats)
            return nil
        }
        func bytes(_ column: Column) -> UnsafeBufferPointer<UInt8> { line.slice(fields[column.rawValue]) }
        func text(_ column: Column) -> String? {
            let range = fields[column.rawValue]
            return range.isEmpty ? nil : line.string(range)
        }
        if let long = fields.indices.first(where: { $0 != Column.alternateNames.rawValue && !ValueLimits.fits(utf8: line.slice(fields[$0])) }) {
            try badRows.skip(line: number, .tooLong, "field \(long + 1) is longer than the \(ValueLimits.maxValueCharacters) characters "
                             + "a value may have", stats: &stats)
            return nil
        }
        guard let id = ByteNumber.int(bytes(.geonameID)), id > 0 else {
            try badRows.skip(line: number, .badID, "geonameid '\(text(.geonameID) ?? "")' is not a number", stats: &stats)
            return nil
        }
        guard let name = text(.name) else {
            try badRows.skip(line: number, .noName, "geonameid \(id) has no name", stats: &stats)
            return nil
        }
        guard let coordinate = try badRows.coordinate(lat: bytes(.latitude), lon: bytes(.longitude), line: number,
                                                      stats: &stats) else { return nil }

        let names = Self.names(line, name: fields[Column.name.rawValue], ascii: fields[Column.asciiName.rawValue],
                               alternates: fields[Column.alternateNames.rawValue])
        let featureClass = text(.featureClass) ?? ""
        let code = text(.featureCode) ?? ""
        let population = ByteNumber.int(bytes(.population)).flatMap { $0 > 0 ? $0 : nil }
        let kind = GeoNamesFeature.kind(featureClass: featureClass, code: code, population: population ?? 0)
        let countryCode = text(.countryCode)
        let admin1 = text(.admin1)
        var address = Address(countryCode: countryCode)
        if let countryCode {
            address.country = lookups.countries[countryCode]
            if let admin1 { address.state = lookups.admin1[countryCode + "." + admin1] }
        }

        let feature = featureClass.isEmpty ? nil : code.isEmpty ? featureClass : featureClass + "." + code
        var tags: [(key: String, value: String)] = []
        if let feature { tags.append(("feature_code", feature)) }
        for (key, column) in [("admin1_code", Column.admin1), ("admin2_code", .admin2), ("admin3_code", .admin3),
                              ("admin4_code", .admin4), ("cc2", .cc2), ("elevation", .elevation)] {
            if let value = text(column) { tags.append((key, value)) }
        }
        if let dem = text(.dem), dem != "-9999" { tags.append(("dem", dem)) }
        if let modified = text(.modificationDate) {
            tags.append(("modified", modified))
            if modified > (stats.newestModification ?? "") { stats.newestModification = modified }
        }

        var place = PlaceRecord(
            sourceRef: String(id), kind: kind, category: feature.map { "geonames=" + $0 }, name: name, names: names,
            coordinate: coordinate,
            importance: Importance.of(kind: kind, population: population, bonus: GeoNamesFeature.importanceBonus(code: code)),
            population: population, address: address, tags: tags, timezone: text(.timezone))
        try alternateNames?.attach(to: &place, geonameID: id)
        return place
    }
}
