// Reads Nominatim's preprocessed TIGER CSV files (`from;to;interpolation;street;city;state;postcode;geometry`,
// one address range of a US street per row) into interpolation places parented to the OSM streets of the
// import, as `nominatim add-data --tiger-data` adds them.
import Foundation
import GeoDB

/// Reads a TIGER input's rows (`TigerFiles`): first only their lines' cells, so that the streets near them
/// can be loaded (`TigerStreets`), then the rows themselves, each parented to a street and handed over as a
/// place of kind `interpolation`, category `tiger:interpolation=all|odd|even`, whose source id is the
/// parent's way (`w396009653`): what Nominatim shows for a TIGER result.
final class TigerReader {
    let files: TigerFiles
    let strict: Bool
    private(set) var stats = RecordStats()
    var onProgress: ((RecordStats) -> Void)?

    /// Nominatim drops ranges of more than this many numbers on a line shorter than `minimumSpacing` degrees
    /// per number ("road too short for number range").
    static let suspiciousNumbers = 500
    static let minimumSpacing = 0.000001
    /// The highest house number a range may have (as `InterpolationLine` reads them).
    static let highestNumber = 1_000_000

    init(files: TigerFiles, strict: Bool) {
        self.files = files
        self.strict = strict
    }

    /// One row, read.
    private struct Row {
        var from: Int, to: Int
        var scheme: String
        var street: String
        var postcode: String?
        var line: [Point7]
    }

    /// The cells (`TigerStreets.cell`) around the input's lines: where its lines may find their streets.
    /// `progress` gets the input's bytes read on disk so far.
    func cellsAround(progress: @escaping (Int) -> Void) throws -> Set<Int64> {
        var cells = Set<Int64>()
        try forEachRow(reporting: false, progress: progress) { row, _, _ in TigerStreets.addCells(around: row.line, to: &cells) }
        return cells
    }

    /// Reads the rows into `sink`, each parented by `streets`; rows no street is near are counted and left
    /// out, as Nominatim leaves them out.
    func read(parentingWith streets: TigerStreets, into sink: PlaceSink) throws {
        stats = RecordStats()
        try forEachRow(reporting: true, progress: { [weak self] offset in
            guard let self else { return }
            self.stats.bytesRead = offset
            self.onProgress?(self.stats)
        }) { row, file, line in
            guard let parent = streets.parent(of: row.line, named: row.street) else {
                stats.skipped[.noStreet, default: 0] += 1
                if stats.warnings.count < BadRows.maxWarnings {
                    stats.warnings.append("\(file): \(InputLocation.line(line)): no OSM street within \(TigerStreets.anyReach)° of the line; row skipped")
                }
                return
            }
            let geometry = Geometry.lineStrings([row.line])
            let middle = LineMath.point(along: row.line, fraction: 0.5) ?? row.line[0]
            try sink.add(PlaceRecord(
                sourceRef: parent.ref, kind: .interpolation, category: "\(InterpolationLine.tigerKey)=\(row.scheme)",
                name: nil, names: [], coordinate: middle.coordinate, boundingBox: geometry.boundingBox,
                address: Address(housenumber: "\(row.from)-\(row.to)", street: parent.street, postcode: row.postcode),
                geometry: geometry))
        }
    }

    /// Calls `body` with each good row, its file's name and its line number; bad rows are counted in `stats`
    /// and reported (thrown with `strict`) when `reporting`, passed over quietly when not.
    private func forEachRow(reporting: Bool, progress: @escaping (Int) -> Void, _ body: (Row, String, Int) throws -> Void) throws {
        var fields: [Range<Int>] = []
        var quiet = RecordStats()
        try files.forEachFile(progress: progress) { file, source in
            let bad = BadRows(file: file, strict: strict && reporting)
            try ChunkedFileReader(path: file, source: source).readLines { bytes, line in
                if line == 1 {
                    guard TigerFiles.startsWithHeader(ArraySlice(bytes)) else {
                        throw GeoDBError.badInput(file: file, at: .line(1), "not a TIGER file: the first line must be the header "
                                                  + String(decoding: TigerFiles.header, as: UTF8.self))
                    }
                    return
                }
                guard !bytes.isEmpty else { return }
                let row: Row?
                if reporting {
                    stats.rows += 1
                    row = try Self.parse(bytes, line: line, fields: &fields, bad: bad, stats: &stats)
                } else {
                    row = try Self.parse(bytes, line: line, fields: &fields, bad: bad, stats: &quiet)
                }
                if let row { try body(row, file, line) }
            }
        }
    }

    /// A row's fields checked; nil (counted as bad) when one is not what a TIGER row holds.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, fields: inout [Range<Int>], bad: BadRows,
                              stats: inout RecordStats) throws -> Row? {
        splitFields(bytes, separator: UInt8(ascii: ";"), into: &fields)
        guard fields.count == 8 else {
            try bad.skip(line: line, .badFields, "\(fields.count) fields, expected 8 (from;to;interpolation;street;city;state;postcode;geometry)", stats: &stats)
            return nil
        }
        func text(_ i: Int) -> String { bytes.string(fields[i]).trimmingCharacters(in: .whitespaces) }
        guard let from = ByteNumber.int(bytes.slice(fields[0])), let to = ByteNumber.int(bytes.slice(fields[1])),
              (0...Int64(highestNumber)).contains(from), (0...Int64(highestNumber)).contains(to) else {
            try bad.skip(line: line, .badHouseNumbers, "house numbers '\(text(0))' to '\(text(1))' are not numbers from 0 to \(highestNumber)", stats: &stats)
            return nil
        }
        guard let points = parseLineString(bytes.slice(fields[7])) else {
            try bad.skip(line: line, .badGeometry, "geometry is not a LINESTRING of two or more lon lat points", stats: &stats)
            return nil
        }
        // Anything but odd and even is every number (Nominatim's rule).
        let scheme = ["odd", "even"].contains(text(2)) ? text(2) : "all"
        let low = Int(min(from, to)), high = Int(max(from, to))
        let numbers = Double(high - low) / (scheme == "all" ? 1 : 2)
        let length = LineMath.planarLength(points) / 1e7
        if numbers > Double(suspiciousNumbers), length / numbers < minimumSpacing {
            try bad.skip(line: line, .badHouseNumbers, "\(Int(numbers)) house numbers on a line of \(String(format: "%.7f", length))°, too short for them", stats: &stats)
            return nil
        }
        let postcode = text(6)
        return Row(from: Int(from), to: Int(to), scheme: scheme, street: text(3), postcode: postcode.isEmpty ? nil : postcode, line: points)
    }

    /// The points of "LINESTRING(lon lat,lon lat,…)" (any case, spaces around); nil for anything else or a
    /// point off the globe. Read from the bytes: a row is mostly its line.
    static func parseLineString(_ bytes: UnsafeBufferPointer<UInt8>) -> [Point7]? {
        let space = UInt8(ascii: " ")
        var start = 0, end = bytes.count
        while start < end && bytes[start] == space { start += 1 }
        while end > start && bytes[end - 1] == space { end -= 1 }
        let prefix = lineStringPrefix
        guard end - start > prefix.count + 1, bytes[end - 1] == UInt8(ascii: ")"),
              zip(prefix, bytes[start..<(start + prefix.count)]).allSatisfy({ $0 == (($1 >= 0x61 && $1 <= 0x7a) ? $1 - 0x20 : $1) })
        else { return nil }
        var points: [Point7] = []
        var pair = start + prefix.count
        let close = end - 1
        while pair < close {
            var comma = pair
            while comma < close && bytes[comma] != UInt8(ascii: ",") { comma += 1 }
            var first = pair
            while first < comma && bytes[first] == space { first += 1 }
            var gap = first
            while gap < comma && bytes[gap] != space { gap += 1 }
            guard let lon = ByteNumber.double(bytes.slice(first..<gap)), let lat = ByteNumber.double(bytes.slice(gap..<comma)),
                  let point = Point7(rounding: lat * 1e7, lon * 1e7) else { return nil }
            points.append(point)
            pair = comma + 1
        }
        return points.count >= 2 ? points : nil
    }

    private static let lineStringPrefix = Array("LINESTRING(".utf8)
}
