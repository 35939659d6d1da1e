// `geodb timezone`: the IANA zone, UTC offset, daylight saving time and local time at a point, or for
// every point of a CSV file.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBImport

extension GeoDBCommand {
    struct Timezone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timezone",
            abstract: "The timezone at a point: IANA id, UTC offset, daylight saving time, local time.",
            discussion: """
                The database needs timezone boundaries: geodb import timezones.geojson -o tz.sqlite.
                Negative coordinates are written as they are: geodb timezone tz.sqlite -44.0 -176.5.
                Where no polygon contains the point, the nearest zone within 12 nautical miles answers, else \
                the nautical zone of the longitude (Etc/GMT±N). Where zones overlap, the smallest polygon wins.
                --batch reads CSV with lat and lon columns (a header naming them, or the first two columns) \
                and writes one CSV row per point. Several databases: the zone from the file with timezones whose \
                polygons hold the point (--batch: the first file with timezones).
                """)

        @OptionGroup var database: DatabaseArgument

        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("More databases, then latitude and longitude in degrees: LAT LON or LAT,LON.",
                                                                valueName: "database… lat lon"))
        var position: [String] = []

        @OptionGroup var options: Options

        /// The options, apart from the positionals (`OptionsOnly` reports an unknown one among them).
        struct Options: ParsableArguments {
            @Option(help: "The instant for offset and local time, ISO 8601 (2026-07-01T12:00:00Z, …+03:00, or 2026-07-01 for midnight UTC); default now.")
            var at: String?

            @OptionGroup var output: JSONOption

            @Flag(help: "List every zone whose polygons contain the point (overlapping zones).")
            var all = false

            @Option(help: "A CSV file of points ('-' for standard input); writes CSV to standard output.")
            var batch: String?
        }

        func validate() throws {
            let rest = MoreDatabases.split(position).rest
            try OptionsOnly<Options>.rejectOptions(in: rest)
            if options.batch != nil {
                guard rest.isEmpty else { throw ValidationError("give either --batch FILE or lat lon, not both") }
            } else {
                _ = try PointArgument.parse(rest, command: "timezone")
            }
            _ = try instant()
        }

        func instant() throws -> Date {
            guard let at = options.at else { return Date() }
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

        func run() async throws {
            let date = try instant()
            let (more, rest) = MoreDatabases.split(position)
            if let batch = options.batch {
                // The first of the files that has timezones (a file without them says so, as alone).
                let paths = [database.path] + more
                let withZones = try paths.first { try GeoDatabase(path: $0).hasTimeZones } ?? database.path
                try runBatch(batch, database: withZones, date: date)
                return
            }
            let coordinate = try PointArgument.parse(rest, command: "timezone")
            let answer: TimeZoneAnswer
            if more.isEmpty {
                let lookup = try TimeZoneLookup(path: database.path)
                SwappedCoordinates.warn(coordinate, extents: [try database.open().withSession { try $0.extent() }].compactMap { $0 })
                answer = try lookup.timeZone(at: coordinate, date: date)
            } else {
                let files = try database.open(with: more)
                SwappedCoordinates.warn(coordinate, extents: files.members.compactMap(\.info.boundingBox))
                guard let found = try await files.timeZone(at: coordinate, date: date) else {
                    throw GeoDBError(.invalidArgument, "none of these databases has timezones",
                                     remedy: "import timezone boundaries: geodb import timezones.geojson -o tz.sqlite")
                }
                answer = found
            }
            if options.output.json {
                print(ResultJSON.timeZone(answer, at: coordinate).indented())
            } else {
                Terminal.show(TimeZoneReport.describe(answer, all: options.all))
            }
        }

        /// Reads points from CSV and writes a CSV row per point, in order. A row that is not a point gets a
        /// row of its own with source `error` (the output stays row for row with the input) and a warning;
        /// the command then fails with the count.
        private func runBatch(_ path: String, database: String, date: Date) throws {
            let lookup = try TimeZoneLookup(path: database, loading: .eager)
            var out = OutputBuffer()
            var badRows = 0
            out.write("lat,lon,tzid,utc_offset_seconds,dst,abbreviation,local_time,source\n")
            func write(_ fields: [String]) { out.write(fields.map(CSVText.quoted).joined(separator: ",") + "\n") }
            try BatchPoints(path: path).forEach({ point in
                let a = try lookup.timeZone(at: point.coordinate, date: date)
                write([point.latText, point.lonText, a.tzid, a.utcOffsetSeconds.map(String.init) ?? "",
                       a.isDST.map { $0 ? "true" : "false" } ?? "", a.abbreviation ?? "", a.localTime ?? "", a.source.rawValue])
            }, bad: { lat, lon, error in
                badRows += 1
                if badRows <= Self.maxWarnings { Terminal.status("warning: \(error.message)\n") }
                write([lat, lon, "", "", "", "", "", "error"])
            })
            out.flush()
            if badRows > 0 {
                throw GeoDBError(.badInput, "\(path == "-" ? "standard input" : path): \(Format.count(badRows)) "
                                 + "row\(badRows == 1 ? " is" : "s are") not a point (answered with source 'error')")
            }
        }

        /// Bad rows warned about one by one; the rest are counted.
        static let maxWarnings = 20
    }
}
