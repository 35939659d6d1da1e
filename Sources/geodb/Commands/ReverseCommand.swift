// `geodb reverse`: the address (or street, POI, area) at a point.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Reverse: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reverse",
            abstract: "What is at a point: the nearest address, else street, else POI or place, with its hierarchy.",
            discussion: "Several databases answer as one (geodb reverse country.sqlite world.sqlite 47.14 9.52): the files "
                + "whose places reach the point are asked, nearest answers first, ids across the files.")

        @OptionGroup var database: DatabaseArgument

        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("More databases, then latitude and longitude: LAT LON or LAT,LON (negative values as written).",
                                                                valueName: "database… lat lon"))
        var position: [String] = []

        @OptionGroup var options: Options

        /// The options, apart from the positionals (`OptionsOnly` reports an unknown one among them).
        struct Options: ParsableArguments {
            @Option(help: ArgumentHelp("Granularity: address, street, poi, suburb, city, state, country; or a feature layer: natural (peaks, "
                                       + "rivers, lakes, woods), railway (stations), manmade (parks, land use, bridges, towers)."))
            var kind = "address"

            @Option(parsing: .unconditional, help: "Search radius in metres (default: 50 for addresses, 500 for streets and POIs, … 2000 km for countries).")
            var radius: Double?

            @Option(parsing: .unconditional, help: "Nearest candidates to list (1 … 100).")
            var limit = 1

            @Option(help: "Show names in this language when known, and the country in it (e.g. de; a list falls back in order: de-CH,de;q=0.9,en).")
            var lang: String?

            @OptionGroup var output: JSONOption
        }

        func validate() throws {
            let rest = MoreDatabases.split(position).rest
            try OptionsOnly<Options>.rejectOptions(in: rest)
            _ = try PointArgument.parse(rest, command: "reverse")
            var reverse = ReverseOptions()
            do { try reverse.setKind(options.kind) } catch { throw CLIMessages.usageError(error) }
        }

        func run() async throws {
            let (more, rest) = MoreDatabases.split(position)
            let point = try PointArgument.parse(rest, command: "reverse")
            let (kind, radius) = (self.options.kind, self.options.radius)
            var options = ReverseOptions()
            try options.setKind(kind)
            options.radius = radius
            options.limit = self.options.limit
            options.includeTimeZone = true
            options.language = self.options.lang
            let results: [ReverseResult]
            if more.isEmpty {
                let file = try database.open()
                SwappedCoordinates.warn(point, extents: [try await file.read { try $0.extent() }].compactMap { $0 })
                results = try await file.reverse(at: point, options: options)
            } else {
                let files = try database.open(with: more)
                SwappedCoordinates.warn(point, extents: files.members.compactMap(\.info.boundingBox))
                results = try await files.reverse(at: point, options: options).map { found in
                    var result = found.result
                    result.place = GeoDatabaseSet.MemberPlace(member: found.member, place: result.place).placeWithGlobalID
                    return result
                }
            }
            if self.options.output.json {
                print(JSON.object([("results", .array(results.map { ResultJSON.reverse($0) }))]).indented())
                return
            }
            guard !results.isEmpty else {
                // An address query falls back to streets and then to POIs and places up to 5 km.
                let reach = options.layers.isEmpty ? max(radius ?? options.level.defaultRadius, options.level == .address ? 5_000 : 0)
                    : radius ?? ReverseLevel.poi.defaultRadius
                Terminal.show("nothing within \(Format.count(Int(reach))) m, and no area contains the point")
                return
            }
            for r in results {
                let p = r.place
                // How it was found, when not simply near: interpolated, the area around the point, the nearest
                // settlement of a database without areas.
                let how = [MatchClass.interpolated, .area, .nearest].contains(p.match) ? ", " + (p.match?.rawValue ?? "") : ""
                Terminal.show("\(p.displayName)  (\(p.kind.rawValue)\(how), \(ResultTable.distance(p.distanceM ?? 0)))")
                var rows = p.address.parts.map { [$0.part.rawValue, $0.value] }
                if let water = r.water { rows.append(["water", water]) }
                if !r.areasOfInterest.isEmpty { rows.append(["areas of interest", r.areasOfInterest.joined(separator: "; ")]) }
                Terminal.show(Format.table(rows, indent: 2))
                Terminal.show("  hierarchy from \(r.hierarchySource.rawValue); \(p.sourceRef?.description ?? "-") at \(String(format: "%.7f, %.7f", p.lat, p.lon))"
                      + (r.timezone.map { "; time zone \($0)" } ?? ""))
            }
        }
    }
}
