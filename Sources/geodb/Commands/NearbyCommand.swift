// `geodb nearby`: category search around a point or in a box, nearest first, paged with a cursor.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nearby",
            abstract: "Places of a category around a point (--radius) or in a box (--bbox), nearest first, paged.",
            discussion: """
                Categories: a taxonomy id (cafe), a parent (food_and_drink: all its children), a synonym (coffee) \
                or a raw OSM tag (amenity=cafe). Several, comma-separated, are an OR. Without --category: every \
                named POI. Distances are great-circle metres. --limit is at most 1000; --after takes the cursor \
                a previous page printed. Several databases answer as one (geodb nearby a.sqlite b.sqlite LAT LON): the \
                files that reach the point, nearest first, ids across the files (pages: raise --limit).
                """)

        @OptionGroup var database: DatabaseArgument

        @Argument(parsing: .allUnrecognized,
                  help: ArgumentHelp("More databases, then latitude and longitude of the centre: LAT LON or LAT,LON "
                                     + "(negative values as written: -44.0 -176.5).", valueName: "database… lat lon"))
        var position: [String] = []

        @OptionGroup var options: Options

        /// The options, apart from the positionals (`OptionsOnly` reports an unknown one among them).
        struct Options: ParsableArguments {
            @Option(help: "Categories, comma-separated.")
            var category: String?

            @Option(parsing: .unconditional, help: "Radius in metres (1 … 100000).")
            var radius: Double = 500

            @Option(parsing: .unconditional, help: "A box instead of a radius: min lon,min lat,max lon,max lat.")
            var bbox: String?

            @Option(parsing: .unconditional, help: "With --bbox: sort by distance from lat,lon instead of the box's centre.")
            var near: String?

            @Option(help: "Only places whose name has words starting like these.")
            var name: String?

            @Option(parsing: .unconditional, help: "Places per page (1 … 1000).")
            var limit = 10

            @Option(help: "Continue after this cursor (printed with the previous page).")
            var after: String?

            @OptionGroup var output: JSONOption
        }

        func validate() throws {
            let (more, rest) = MoreDatabases.split(position)
            let (bbox, after) = (options.bbox, options.after)
            try OptionsOnly<Options>.rejectOptions(in: rest)
            try CategoryArgument.validate(options.category)
            if bbox == nil {
                _ = try PointArgument.parse(rest, command: "nearby")
            } else if !rest.isEmpty {
                throw ValidationError("give either LAT LON or --bbox, not both")
            }
            if !more.isEmpty && after != nil { throw ValidationError("--after pages nearby in one database; with several, raise --limit") }
        }

        func run() async throws {
            let (more, rest) = MoreDatabases.split(position)
            let (category, radius, bbox, near, name, limit, after) = (options.category, options.radius, options.bbox, options.near,
                                                                      options.name, options.limit, options.after)
            let filter = try CategoryFilter.resolve(category.map(CommaList.items) ?? [])
            let box = try bbox.map { try BoxArgument.parse($0) }
            let center = box == nil ? try PointArgument.parse(rest, command: "nearby") : try near.map { try NearArgument.parse($0) }
            let page: PlacePage
            if !more.isEmpty {
                let files = try database.open(with: more)
                if box == nil, let center { SwappedCoordinates.warn(center, extents: files.members.compactMap(\.info.boundingBox)) }
                let found = try await files.nearby(center: center, radius: radius, box: box, filter: filter, name: name, offset: 0,
                                                   limit: limit)
                page = PlacePage(places: found.places.map(\.placeWithGlobalID), nextCursor: nil)
            } else if let box {
                page = try await database.open().read { [center, filter, name, limit, after] in
                    try $0.places(in: box, near: center, filter: filter, name: name, limit: limit, after: after)
                }
            } else {
                let file = try database.open()
                SwappedCoordinates.warn(center!, extents: [try await file.read { try $0.extent() }].compactMap { $0 })
                page = try await file.places(near: center!, radius: radius, filter: filter, name: name, limit: limit, after: after)
            }
            if options.output.json {
                print(ResultJSON.page(page.places.map { ResultJSON.place($0) }, next: page.nextCursor).indented())
                return
            }
            if page.places.isEmpty {
                Terminal.show(bbox == nil ? "nothing within \(Format.count(Int(radius))) m" : "nothing in the box")
                return
            }
            Terminal.show(ResultTable.render(page.places))
            if let next = page.nextCursor { Terminal.show("more: --after \(next)") }
        }
    }
}
