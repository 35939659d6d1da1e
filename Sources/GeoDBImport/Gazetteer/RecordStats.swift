// What a reader of text rows (GeoNames, CSV, alternate names, importance files) did with the rows of a file,
// and how it reports bad rows.
import GeoDB

/// Why a row was skipped.
public enum RowProblem: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case noName = "no_name"
    case badCoordinates = "bad_coordinates"
    case badFields = "bad_field_count"
    case badID = "bad_id"
    case tooLong = "value_too_long"
    /// An importance file's row whose importance is no number from 0 to 1.
    case badImportance = "bad_importance"
    /// A TIGER row whose house numbers are none (or too many for its line).
    case badHouseNumbers = "bad_house_numbers"
    /// A TIGER row whose geometry is no line.
    case badGeometry = "bad_geometry"
    /// A TIGER row with no OSM street near its line to be parented to (Nominatim drops those too).
    case noStreet = "no_street"

    /// How the summary says it: "3 without a name".
    public var description: String {
        switch self {
        case .noName: return "without a name"
        case .badCoordinates: return "with invalid coordinates"
        case .badFields: return "with a wrong number of fields"
        case .badID: return "with an invalid id"
        case .tooLong: return "with a value longer than \(ValueLimits.maxValueCharacters) characters"
        case .badImportance: return "with an importance that is not a number from 0 to 1"
        case .badHouseNumbers: return "with house numbers that are none"
        case .badGeometry: return "with a geometry that is no line"
        case .noStreet: return "with no OSM street near"
        }
    }
}

/// Rows read, skipped and why, for one gazetteer file. Places imported and linked are the writer's counts.
public struct RecordStats: Sendable {
    /// Data rows (not the header, not blank lines).
    public var rows = 0
    public var skipped: [RowProblem: Int] = [:]
    /// The first bad-row messages ("file: line n: what; row skipped"), at most `BadRows.maxWarnings`.
    public var warnings: [String] = []
    public var bytesRead = 0
    /// Newest GeoNames modification date (YYYY-MM-DD), when the file has them.
    public var newestModification: String?

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    public init() {}
}

/// Skips a bad row with a warning, or throws on it with `--strict`.
struct BadRows {
    static let maxWarnings = 20
    let file: String
    let strict: Bool

    func skip(line: Int, _ problem: RowProblem, _ what: String, stats: inout RecordStats) throws {
        if strict { throw GeoDBError.badInput(file: file, at: .line(line), what) }
        stats.skipped[problem, default: 0] += 1
        if stats.warnings.count < Self.maxWarnings {
            stats.warnings.append("\(file): \(InputLocation.line(line)): \(what); row skipped")
        }
    }

    /// Checks a latitude/longitude field pair: numbers within ±90 / ±180; else skips the row and returns nil.
    func coordinate(lat: UnsafeBufferPointer<UInt8>, lon: UnsafeBufferPointer<UInt8>, line: Int,
                    stats: inout RecordStats) throws -> Coordinate? {
        guard let latitude = try degrees(lat, "latitude", limit: 90, line: line, stats: &stats),
              let longitude = try degrees(lon, "longitude", limit: 180, line: line, stats: &stats) else { return nil }
        return Coordinate(lat: latitude, lon: longitude)
    }

    private func degrees(_ bytes: UnsafeBufferPointer<UInt8>, _ label: String, limit: Double, line: Int,
                         stats: inout RecordStats) throws -> Double? {
        guard let value = ByteNumber.double(bytes) else {
            let text = String(decoding: bytes, as: UTF8.self)
            try skip(line: line, .badCoordinates, text.isEmpty ? "\(label) is empty" : "\(label) '\(text)' is not a number",
                     stats: &stats)
            return nil
        }
        guard abs(value) <= limit else {
            try skip(line: line, .badCoordinates, "\(label) \(value) is out of range (±\(Int(limit)))", stats: &stats)
            return nil
        }
        return value
    }
}
