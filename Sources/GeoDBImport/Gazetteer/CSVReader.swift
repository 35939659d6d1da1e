// Reads CSV lists of places or POIs (RFC 4180: quoted fields with delimiters, quotes and line breaks;
// CRLF or LF; UTF-8 with or without BOM; delimiter , ; tab | detected or given), streamed from bytes.
import GeoDB

/// Which CSV columns hold what. Nil columns are found by their header names (`CSVRole.synonyms`).
public struct CSVOptions: Sendable {
    /// The field separator; nil: detected from the header line.
    public var delimiter: UInt8?
    public var nameColumn: String?
    public var latColumn: String?
    public var lonColumn: String?
    public var idColumn: String?
    public var categoryColumn: String?
    /// Keep rows without a name when they have a category (as OSM keeps unnamed ATMs and toilets).
    /// Rows with a house number are addresses and never need a name.
    public var keepUnnamed = false

    public init() {}

    /// Parses a delimiter as given on a command line: one character, or "tab" / "\t".
    public static func delimiter(_ text: String) -> UInt8? {
        switch text {
        case "tab", "\\t", "\t", "TAB": return 0x09
        default:
            let bytes = Array(text.utf8)
            guard bytes.count == 1, bytes[0] != UInt8(ascii: "\""), bytes[0] != 0x0a, bytes[0] != 0x0d else { return nil }
            return bytes[0]
        }
    }
}

/// What a column of a CSV file means.
enum CSVRole: CaseIterable {
    case name, latitude, longitude, id, category, kind
    case housenumber, street, postcode, city, state, country, countryCode, timezone, population

    /// Header names recognised for the role, best first (compared lower-cased and trimmed).
    var synonyms: [String] {
        switch self {
        case .name: return ["name", "title", "label"]
        case .latitude: return ["lat", "latitude", "y"]
        case .longitude: return ["lon", "lng", "long", "longitude", "x"]
        case .id: return ["id"]
        case .category: return ["category", "type", "kind"]
        // A `kind` column beside a category column (as `geodb export` writes): the geodb kind of the row.
        case .kind: return ["kind"]
        case .housenumber: return ["housenumber", "house_number", "addr:housenumber", "street_number"]
        case .street: return ["street", "addr:street"]
        case .postcode: return ["postcode", "postal_code", "zip", "zipcode", "zip_code", "addr:postcode"]
        case .city: return ["city", "addr:city"]
        case .state: return ["state", "region", "province", "addr:state"]
        case .country: return ["country", "addr:country"]
        case .countryCode: return ["country_code", "countrycode", "cc"]
        case .timezone: return ["timezone", "time_zone", "tz"]
        case .population: return ["population"]
        }
    }

    var label: String {
        switch self {
        case .latitude: return "latitude"
        case .longitude: return "longitude"
        default: return "\(self)"
        }
    }

    /// The `CSVOptions` field that names this column, in backticks (as library messages name options).
    var option: String {
        switch self {
        case .name: return "`nameColumn`"
        case .latitude: return "`latColumn`"
        case .longitude: return "`lonColumn`"
        case .id: return "`idColumn`"
        default: return "`categoryColumn`"
        }
    }
}

/// The meaning of each column of one file, from its header row and the options.
struct CSVColumns {
    let headers: [String]
    private(set) var index: [CSVRole: Int] = [:]
    /// Columns with no role: kept as tags of the place.
    private(set) var tagColumns: [Int] = []

    init(headers: [String], options: CSVOptions, file: String, line: Int) throws {
        self.headers = headers
        let keys = headers.map { $0.lowercased() }
        let given: [CSVRole: String?] = [.name: options.nameColumn, .latitude: options.latColumn,
                                         .longitude: options.lonColumn, .id: options.idColumn,
                                         .category: options.categoryColumn]
        for role in CSVRole.allCases {
            if let wanted = given[role] ?? nil {
                guard let column = keys.firstIndex(of: wanted.lowercased().trimmingCharacters(in: .whitespaces)) else {
                    throw GeoDBError(.invalidArgument,
                                     "\(file): no column '\(wanted)' (\(role.option)) in the header; its columns are: \(headers.joined(separator: ", "))")
                }
                index[role] = column
            } else if let column = role.synonyms.lazy.compactMap({ keys.firstIndex(of: $0) })
                        .first(where: { !index.values.contains($0) }) {
                index[role] = column
            }
        }
        for role in [CSVRole.name, .latitude, .longitude] where index[role] == nil {
            throw GeoDBError(.badInput,
                             "\(file): \(InputLocation.line(line)): no \(role.label) column in the header (looked for \(role.synonyms.joined(separator: ", ")))",
                             remedy: "a CSV file needs a header row; name the column with \(role.option)")
        }
        let used = Set(index.values)
        tagColumns = headers.indices.filter { !used.contains($0) && !headers[$0].isEmpty }
    }
}

/// The records of a CSV file, streamed from bytes: RFC 4180 quoting (delimiters, quotes and line breaks
/// inside quoted fields), CRLF or LF, a UTF-8 BOM skipped, the delimiter given or detected from the first
/// line. Shared by the place reader and `geodb timezone --batch`.
package final class CSVRecords {
    package let path: String
    /// The delimiter used (given or detected), once the first line is read.
    package private(set) var delimiter: UInt8?
    /// Bytes read at a time (tests make it tiny to put records across chunk boundaries).
    var chunkSize = ChunkedFileReader.defaultChunkSize
    // The fields of the current record, unquoted, end to end; `fieldEnds[i]` ends field i.
    private var fieldBytes: [UInt8] = []
    private var fieldEnds: [Int] = []

    private static let quote = UInt8(ascii: "\""), lf: UInt8 = 0x0a, cr: UInt8 = 0x0d

    /// The records of the file at `path` (`/dev/stdin` reads standard input); `delimiter` nil: detected.
    package init(path: String, delimiter: UInt8? = nil) {
        self.path = path
        self.delimiter = delimiter
    }

    /// Calls `body` with the line number of each record that is not blank, in order, the header row
    /// included; the record's fields are read with `field(_:)` while `body` runs. `progress` gets the
    /// bytes read so far after each chunk.
    package func read(progress: ((Int) -> Void)? = nil, _ body: (_ line: Int) throws -> Void) throws {
        var line = 1
        var atStart = true
        try ChunkedFileReader(path: path, chunkSize: chunkSize).read(progress: progress) { bytes, atEnd in
            var position = 0
            if atStart {
                guard bytes.count >= 3 || atEnd else { return 0 }
                if bytes.starts(with: [0xef, 0xbb, 0xbf]) { position = 3 }
                if delimiter == nil {
                    guard let header = Self.firstLine(bytes, from: position, atEnd: atEnd) else { return 0 }
                    delimiter = CSVDialect.detectDelimiter(header)
                    guard delimiter != nil else {
                        throw GeoDBError(.badInput, "\(path): line 1: no delimiter (, ; tab |) in the header line",
                                         remedy: "a CSV file needs a header row naming its columns; set `delimiter` if it uses another one")
                    }
                }
                atStart = false
            }
            while position < bytes.count {
                guard let (end, lineBreaks, quoted) = try scanRecord(bytes, from: position, atEnd: atEnd, line: line) else { break }
                let recordLine = line
                line += 1 + lineBreaks
                position = end
                if fieldEnds == [0] && !quoted { continue }   // a blank line
                try body(recordLine)
            }
            return position
        }
    }

    /// Fields in the current record.
    package var fieldCount: Int { fieldEnds.count }

    /// The first line from `start` (up to LF or CR), or nil when the buffer ends before it does.
    static func firstLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, atEnd: Bool) -> UnsafeBufferPointer<UInt8>? {
        guard let end = bytes[start...].firstIndex(where: { $0 == lf || $0 == cr }) else {
            return atEnd ? bytes.slice(start..<bytes.count) : nil
        }
        return bytes.slice(start..<end)
    }

    /// Reads the record at `start` into `fieldBytes`/`fieldEnds`. Returns where the next record starts,
    /// how many line breaks lay inside quoted fields, and whether any field was quoted; nil when the
    /// buffer ends inside the record (more bytes needed).
    private func scanRecord(_ b: UnsafeBufferPointer<UInt8>, from start: Int, atEnd: Bool,
                            line: Int) throws -> (end: Int, lineBreaks: Int, quoted: Bool)? {
        fieldBytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        let n = b.count
        let delimiter = self.delimiter ?? UInt8(ascii: ",")
        var i = start, lineBreaks = 0, quoted = false
        while true {
            if i < n && b[i] == Self.quote {
                quoted = true
                let openedOn = line + lineBreaks
                i += 1
                while true {
                    guard i < n else {
                        guard atEnd else { return nil }
                        throw GeoDBError.badInput(file: path, at: .line(openedOn),
                                                  "quoted field not closed: the \" opened here has no closing \"")
                    }
                    let c = b[i]
                    if c == Self.quote {
                        if i + 1 < n && b[i + 1] == Self.quote {   // "" is a quote inside a quoted field
                            fieldBytes.append(Self.quote)
                            i += 2
                            continue
                        }
                        if i + 1 == n && !atEnd { return nil }    // cannot tell "" from " yet
                        i += 1
                        break
                    }
                    if c == Self.lf { lineBreaks += 1 }
                    fieldBytes.append(c)
                    i += 1
                }
            }
            // An unquoted field, or anything between a closing quote and the delimiter (kept, leniently).
            let run = i
            while i < n {
                let c = b[i]
                if c == delimiter || c == Self.lf || c == Self.cr { break }
                i += 1
            }
            if i > run { fieldBytes.append(contentsOf: b.slice(run..<i)) }
            fieldEnds.append(fieldBytes.count)
            guard i < n else { return atEnd ? (n, lineBreaks, quoted) : nil }
            if b[i] == delimiter {
                i += 1
                continue
            }
            if b[i] == Self.cr {
                if i + 1 < n {
                    i += b[i + 1] == Self.lf ? 2 : 1
                } else {
                    guard atEnd else { return nil }
                    i += 1
                }
            } else {
                i += 1
            }
            return (i, lineBreaks, quoted)
        }
    }

    /// Field `i` of the current record, spaces trimmed when asked; nil when empty.
    package func field(_ i: Int, trimmed: Bool = true) -> String? {
        fieldBytes.withUnsafeBufferPointer { bytes in
            var start = i == 0 ? 0 : fieldEnds[i - 1], end = fieldEnds[i]
            if trimmed {
                while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
                while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            }
            return start == end ? nil : bytes.string(start..<end)
        }
    }

    /// Calls `body` with the bytes of field `i` of the current record, untrimmed.
    package func withBytes<T>(ofField i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try fieldBytes.withUnsafeBufferPointer { bytes in
            try body(bytes.slice((i == 0 ? 0 : fieldEnds[i - 1])..<fieldEnds[i]))
        }
    }
}

/// Streams a CSV file into a `PlaceSink`; bad rows are skipped with a warning (or fatal with `strict`).
public final class CSVReader {
    public let path: String
    public private(set) var stats = RecordStats()
    /// Called after each chunk of the file with the counts so far.
    public var onProgress: ((RecordStats) -> Void)?
    /// Bytes read at a time (tests make it tiny to put records across chunk boundaries).
    var chunkSize: Int {
        get { records.chunkSize }
        set { records.chunkSize = newValue }
    }
    /// The delimiter used (given or detected), once the header is read.
    public var delimiter: UInt8? { records.delimiter }
    private let records: CSVRecords
    private let options: CSVOptions
    private let lookups: GazetteerLookups
    private let badRows: BadRows

    public init(path: String, options: CSVOptions = CSVOptions(), lookups: GazetteerLookups = GazetteerLookups(),
                strict: Bool = false) {
        self.path = path
        self.options = options
        self.lookups = lookups
        badRows = BadRows(file: path, strict: strict)
        records = CSVRecords(path: path, delimiter: options.delimiter)
    }

    package func read(into sink: PlaceSink) throws {
        var columns: CSVColumns?
        let progress = { [self] (bytes: Int) in
            stats.bytesRead = bytes
            onProgress?(stats)
        }
        try records.read(progress: progress) { line in
            guard let columns else {
                columns = try CSVColumns(headers: (0..<records.fieldCount).map { records.field($0) ?? "" },
                                         options: options, file: path, line: line)
                return
            }
            stats.rows += 1
            if let place = try record(columns, line) { try sink.add(place) }
        }
        if columns == nil {
            throw GeoDBError.badInput(file: path, at: .line(1), "no header row: the file has no lines")
        }
    }

    private func field(_ role: CSVRole, of columns: CSVColumns) -> String? {
        columns.index[role].flatMap { records.field($0) }
    }

    /// The place of the current record, or nil when it is skipped.
    private func record(_ columns: CSVColumns, _ line: Int) throws -> PlaceRecord? {
        guard records.fieldCount == columns.headers.count else {
            try badRows.skip(line: line, .badFields, "\(records.fieldCount) fields, the header has \(columns.headers.count)",
                             stats: &stats)
            return nil
        }
        if let long = (0..<records.fieldCount).first(where: { i in !records.withBytes(ofField: i) { ValueLimits.fits(utf8: $0) } }) {
            let characters = records.withBytes(ofField: long) { $0.lazy.filter { $0 & 0xc0 != 0x80 }.count }
            try badRows.skip(line: line, .tooLong, "column '\(columns.headers[long])' holds \(characters) characters, "
                             + "more than the \(ValueLimits.maxValueCharacters) a value may have", stats: &stats)
            return nil
        }
        let name = field(.name, of: columns), housenumber = field(.housenumber, of: columns)
        guard name != nil || housenumber != nil || (options.keepUnnamed && field(.category, of: columns) != nil) else {
            let column = columns.headers[columns.index[.name] ?? 0]
            try badRows.skip(line: line, .noName, "no name (column '\(column)' is empty)", stats: &stats)
            return nil
        }
        let coordinate = try records.withBytes(ofField: columns.index[.latitude] ?? 0) { lat in
            try records.withBytes(ofField: columns.index[.longitude] ?? 0) { lon in
                try badRows.coordinate(lat: lat, lon: lon, line: line, stats: &stats)
            }
        }
        guard let coordinate else { return nil }

        var kind = name == nil && housenumber != nil ? PlaceKind.address : .poi
        var category: String?
        if let value = field(.category, of: columns) {
            // Kept as written (free text like "Coffee shop", or an OSM tag like "amenity=cafe"): the
            // taxonomy maps either; a value naming a kind ("city", "town") also sets the kind.
            if let named = PlaceKind(rawValue: value.lowercased()), named != .coordinate { kind = named }
            category = value
        }
        if let value = field(.kind, of: columns), let named = PlaceKind(rawValue: value.lowercased()), named != .coordinate { kind = named }
        var address = Address(housenumber: housenumber, street: field(.street, of: columns),
                              postcode: field(.postcode, of: columns), city: field(.city, of: columns),
                              state: field(.state, of: columns))
        // A two-letter country is a code ("FI"), anything else a name ("Finland"), in either column.
        for value in [field(.countryCode, of: columns), field(.country, of: columns)].compactMap({ $0 }) {
            if let code = CountryCode.parse(value) {
                address.countryCode = address.countryCode ?? code
            } else {
                address.country = address.country ?? value
            }
        }
        if address.country == nil, let code = address.countryCode { address.country = lookups.countries[code] }
        let population = field(.population, of: columns).flatMap { text in
            text.utf8.withContiguousStorageIfAvailable { ByteNumber.int($0) } ?? nil
        }
        let tags = columns.tagColumns.compactMap { i in records.field(i).map { (key: columns.headers[i], value: $0) } }
        return PlaceRecord(
            sourceRef: field(.id, of: columns) ?? String(line), kind: kind, category: category, name: name,
            names: name.map { [PlaceName(name: $0, type: "name")] } ?? [], coordinate: coordinate,
            importance: Importance.of(kind: kind, population: population), population: population,
            address: address, tags: tags, timezone: field(.timezone, of: columns))
    }
}

/// CSV dialect detection, shared by the reader and format detection.
enum CSVDialect {
    static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// The candidate delimiter occurring most often outside quotes in `line` (ties: , ; tab |); nil when none does.
    static func detectDelimiter(_ line: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var counts = [Int](repeating: 0, count: delimiters.count)
        var inQuotes = false
        for byte in line {
            if byte == UInt8(ascii: "\"") { inQuotes.toggle(); continue }
            guard !inQuotes, let i = delimiters.firstIndex(of: byte) else { continue }
            counts[i] += 1
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }),
              counts[best] > 0 else { return nil }
        return delimiters[best]
    }
}
