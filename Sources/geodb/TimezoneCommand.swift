// `geodb timezone`: the IANA zone, UTC offset, daylight saving time and local time at a point, or for
// every point of a CSV file.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBImport

extension GeoDBCommand {
    struct Timezone: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timezone",
            abstract: "The timezone at a point: IANA id, UTC offset, daylight saving time, local time.",
            discussion: """
                The database needs timezone boundaries: geodb import timezones.geojson -o tz.sqlite.
                Negative coordinates are written as they are: geodb timezone tz.sqlite -44.0 -176.5.
                Where no polygon contains the point, the nearest zone within 12 nautical miles answers, else \
                the nautical zone of the longitude (Etc/GMT±N). Where zones overlap, the smallest polygon wins.
                --batch reads CSV with lat and lon columns (a header naming them, or the first two columns) \
                and writes one CSV row per point.
                """)

        @Argument(help: "The database file.")
        var database: String

        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Latitude and longitude in degrees.", valueName: "lat lon"))
        var position: [String] = []

        @Option(help: "The instant for offset and local time, ISO 8601 (2026-07-01T12:00:00Z, …+03:00, or 2026-07-01 for midnight UTC); default now.")
        var at: String?

        @Flag(help: "Print as JSON.")
        var json = false

        @Flag(help: "List every zone whose polygons contain the point (overlapping zones).")
        var all = false

        @Option(help: "A CSV file of points ('-' for standard input); writes CSV to standard output.")
        var batch: String?

        func validate() throws {
            if batch != nil {
                guard position.isEmpty else { throw ValidationError("give either --batch FILE or lat lon, not both") }
            } else {
                _ = try coordinate()
            }
            _ = try instant()
        }

        func coordinate() throws -> Coordinate {
            let coordinate = try PointArgument.parse(position, command: "timezone")
            guard coordinate.isValid else {
                throw ValidationError("latitude must be within ±90 and longitude within ±180 (got \(position[0]) \(position[1]))")
            }
            return coordinate
        }

        func instant() throws -> Date {
            guard let at else { return Date() }
            let full = ISO8601DateFormatter()
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let day = ISO8601DateFormatter()
            day.formatOptions = [.withFullDate]
            guard let date = full.date(from: at) ?? fractional.date(from: at) ?? day.date(from: at) else {
                throw ValidationError("--at '\(at)' is not an ISO 8601 time such as 2026-07-01T12:00:00Z")
            }
            return date
        }

        func run() throws {
            let date = try instant()
            if let batch {
                try runBatch(batch, date: date)
                return
            }
            let coordinate = try coordinate()
            let answer = try TimeZoneLookup(path: database).timeZone(at: coordinate, date: date)
            if json {
                print(try Format.json(TimeZoneReport(coordinate: coordinate, answer: answer)))
            } else {
                print(Self.describe(answer, all: all))
            }
        }

        static func describe(_ a: TimeZoneAnswer, all: Bool) -> String {
            var rows: [[String]] = []
            if let offset = a.utcOffsetSeconds, let dst = a.isDST {
                rows.append(["UTC offset", ISO8601Text.offset(offset) + (dst ? ", daylight saving time" : ", standard time")])
                if let abbreviation = a.abbreviation { rows.append(["abbreviation", abbreviation]) }
                if let local = a.localTime { rows.append(["local time", local]) }
                if let next = a.nextTransition {
                    rows.append(["next transition", ISO8601Text.utc(next) + (a.nextUTCOffsetSeconds.map { " (to \(ISO8601Text.offset($0)))" } ?? "")])
                }
            } else {
                rows.append(["clock", "unknown: \(a.tzid) is not in this system's tz database"])
            }
            switch a.source {
            case .polygon: rows.append(["found by", "polygon"])
            case .nearest:
                let km = String(format: "%.1f km", (a.distanceMeters ?? 0) / 1000)
                rows.append(["found by", "nearest zone, \(km) away (no polygon contains the point)"])
            case .ocean:
                rows.append(["found by", "longitude: nautical zone (no zone within \(Int(TimeZoneLookup.nearestRadius / 1000)) km)"])
            }
            if all {
                rows.append(["candidates", a.candidates.isEmpty ? "none" : a.candidates.joined(separator: ", ")])
            } else if a.candidates.count > 1 {
                rows.append(["overlap", "\(a.candidates.count) zones contain the point (--all lists them)"])
            }
            return a.tzid + "\n" + Format.table(rows)
        }

        /// Reads points from CSV and writes a CSV row per point, in order.
        private func runBatch(_ path: String, date: Date) throws {
            let lookup = try TimeZoneLookup(path: database, loading: .eager)
            let input = try CSVPoints(path: path)
            var out = OutputBuffer()
            out.write("lat,lon,tzid,utc_offset_seconds,dst,abbreviation,local_time,source\n")
            while let point = try input.next() {
                let a = try lookup.timeZone(at: point.coordinate, date: date)
                let fields = [point.latText, point.lonText, a.tzid, a.utcOffsetSeconds.map(String.init) ?? "",
                              a.isDST.map { $0 ? "true" : "false" } ?? "", a.abbreviation ?? "", a.localTime ?? "", a.source.rawValue]
                out.write(fields.map(CSVPoints.quoted).joined(separator: ",") + "\n")
            }
            out.flush()
        }

        static func describe(_ s: TimeZoneImportStats) -> [String] {
            [
                "  \(s.name) (timezone.geojson, \(Format.bytes(s.sizeBytes))): \(Format.count(s.zones)) zones, \(Format.count(s.polygons)) polygons (\(Format.count(s.holes)) holes), \(Format.count(s.vertices)) vertices"
                    + (s.degenerateRings > 0 ? "; \(Format.count(s.degenerateRings)) degenerate rings dropped" : ""),
                "    grid to level \(s.gridLevel) (1/\(1 << s.gridLevel)°): \(Format.count(s.gridCells)) cells inside one zone, \(Format.count(s.gridBorderCells)) border cells; read \(Format.seconds(s.readSeconds)), grid \(Format.seconds(s.gridSeconds))",
            ]
        }
    }
}

/// A timezone answer as JSON.
struct TimeZoneReport: Encodable {
    var lat: Double
    var lon: Double
    var tzid: String
    var source: String
    var distanceM: Double?
    var candidates: [String]
    var at: String
    var knownToSystem: Bool
    var utcOffsetSeconds: Int?
    var utcOffset: String?
    var dst: Bool?
    var abbreviation: String?
    var localTime: String?
    var nextTransition: String?
    var nextUtcOffsetSeconds: Int?

    init(coordinate: Coordinate, answer a: TimeZoneAnswer) {
        lat = coordinate.lat
        lon = coordinate.lon
        tzid = a.tzid
        source = a.source.rawValue
        distanceM = a.distanceMeters.map { ($0 * 10).rounded() / 10 }
        candidates = a.candidates
        at = ISO8601Text.utc(a.date)
        knownToSystem = a.knownToSystem
        utcOffsetSeconds = a.utcOffsetSeconds
        utcOffset = a.utcOffsetSeconds.map(ISO8601Text.offset)
        dst = a.isDST
        abbreviation = a.abbreviation
        localTime = a.localTime
        nextTransition = a.nextTransition.map(ISO8601Text.utc)
        nextUtcOffsetSeconds = a.nextUTCOffsetSeconds
    }
}

/// The timezone part of `geodb import --json`.
struct TimeZoneImportReport: Encodable {
    var name: String, sizeBytes: Int, zones: Int, polygons: Int, holes: Int, vertices: Int, degenerateRings: Int
    var gridLevel: Int, gridCells: Int, gridBorderCells: Int, readSeconds: Double, gridSeconds: Double

    init(_ s: TimeZoneImportStats) {
        name = s.name; sizeBytes = s.sizeBytes; zones = s.zones; polygons = s.polygons; holes = s.holes
        vertices = s.vertices; degenerateRings = s.degenerateRings; gridLevel = s.gridLevel; gridCells = s.gridCells
        gridBorderCells = s.gridBorderCells; readSeconds = s.readSeconds; gridSeconds = s.gridSeconds
    }
}

/// Points from a CSV file with lat and lon columns: named in a header, or the first two columns.
final class CSVPoints {
    struct Point {
        var coordinate: Coordinate
        var latText: String
        var lonText: String
    }

    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private let name: String
    private var line = 0
    private var columns: (lat: Int, lon: Int)?
    private var buffer = [CChar](repeating: 0, count: 1 << 16)

    init(path: String) throws {
        name = path == "-" ? "standard input" : path
        ownsFile = path != "-"
        guard let file = ownsFile ? fopen(path, "r") : fdopen(STDIN_FILENO, "r") else {
            throw GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    deinit { if ownsFile { fclose(file) } }

    func next() throws -> Point? {
        while let text = readLine() {
            let fields = Self.split(text)
            if fields.allSatisfy({ $0.isEmpty }) { continue }
            if columns == nil {
                if fields.count >= 2, Double(fields[0]) != nil, Double(fields[1]) != nil {
                    columns = (0, 1)
                } else {
                    let names = fields.map { $0.lowercased() }
                    guard let lat = names.firstIndex(where: { ["lat", "latitude"].contains($0) }),
                          let lon = names.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) }) else {
                        throw GeoDBError.badInput(file: name, at: .line(line), "no lat and lon columns (a header naming them, or numbers in the first two columns)")
                    }
                    columns = (lat, lon)
                    continue
                }
            }
            guard let (latIndex, lonIndex) = columns, latIndex < fields.count, lonIndex < fields.count,
                  let lat = Double(fields[latIndex]), let lon = Double(fields[lonIndex]) else {
                throw GeoDBError.badInput(file: name, at: .line(line), "expected a latitude and longitude, got '\(text)'")
            }
            let coordinate = Coordinate(lat: lat, lon: lon)
            guard coordinate.isValid else {
                throw GeoDBError.badInput(file: name, at: .line(line), "latitude \(lat), longitude \(lon) is out of range")
            }
            return Point(coordinate: coordinate, latText: fields[latIndex], lonText: fields[lonIndex])
        }
        return nil
    }

    private func readLine() -> String? {
        var bytes: [UInt8] = []
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let chunk = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            bytes += chunk
            if chunk.last == 0x0a { break }
        }
        guard !bytes.isEmpty else { return nil }
        line += 1
        while let last = bytes.last, last == 0x0a || last == 0x0d { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Fields of a CSV line; double-quoted fields may hold commas and doubled quotes.
    static func split(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var characters = line.makeIterator()
        while let c = characters.next() {
            switch c {
            case "\"" where quoted:
                quoted = false
            case "\"" where field.isEmpty:
                quoted = true
            case "," where !quoted:
                fields.append(field.trimmingCharacters(in: .whitespaces))
                field = ""
            default:
                field.append(c)
            }
        }
        fields.append(field.trimmingCharacters(in: .whitespaces))
        return fields
    }

    static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}

/// Standard output through one large buffer (print() per line is slow for big batches).
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func write(_ text: String) {
        bytes += text.utf8
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
