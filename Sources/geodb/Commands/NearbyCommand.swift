// `geodb nearby`: category search around a point or in a box, nearest first, paged with a cursor.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Nearby: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Places of a category around a point (--radius) or in a box (--bbox), nearest first, paged.",
            discussion: """
                Categories: a taxonomy id (cafe), a parent (food_and_drink: all its children), a synonym (coffee) \
                or a raw OSM tag (amenity=cafe). Several, comma-separated, are an OR. Without --category: every \
                named POI. Distances are great-circle metres. --limit is at most 1000; --after takes the cursor \
                a previous page printed.
                """)

        @OptionGroup var database: DatabaseArgument

        @Argument(parsing: .allUnrecognized,
                  help: ArgumentHelp("Latitude and longitude of the centre (negative values as written: -44.0 -176.5).",
                                     valueName: "lat lon"))
        var position: [String] = []

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

        func validate() throws {
            if bbox == nil {
                _ = try PointArgument.parse(position, command: "nearby")
            } else if !position.isEmpty {
                throw ValidationError("give either LAT LON or --bbox, not both")
            }
        }

        func run() throws {
            let db = try database.open()
            let filter = try CategoryFilter.resolve(category.map(CommaList.items) ?? [])
            let page: PlacePage
            if let bbox {
                let box = try BoxArgument.parse(bbox)
                let center = try near.map { try NearArgument.parse($0) }
                page = try db.places(in: box, near: center, filter: filter, name: name, limit: limit, after: after)
            } else {
                page = try db.places(near: try PointArgument.parse(position, command: "nearby"), radius: radius,
                                     filter: filter, name: name, limit: limit, after: after)
            }
            if output.json {
                print(try Format.json(page))
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
