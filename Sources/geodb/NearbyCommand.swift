// `geodb nearby` and `geodb categories`: category search around a point or in a box, and the taxonomy.
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

        @Argument(help: "The database file.")
        var database: String

        @Argument(parsing: .allUnrecognized,
                  help: ArgumentHelp("Latitude and longitude of the centre (negative values as written: -44.0 -176.5).",
                                     valueName: "lat lon"))
        var position: [String] = []

        @Option(help: "Categories, comma-separated.")
        var category: String?

        @Option(help: "Radius in metres (1 … 100000).")
        var radius: Double = 500

        @Option(help: "A box instead of a radius: min lon,min lat,max lon,max lat.")
        var bbox: String?

        @Option(help: "With --bbox: sort by distance from lat,lon instead of the box's centre.")
        var near: String?

        @Option(help: "Only places whose name has words starting like these.")
        var name: String?

        @Option(help: "Places per page (1 … 1000).")
        var limit = 10

        @Option(help: "Continue after this cursor (printed with the previous page).")
        var after: String?

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if bbox == nil {
                _ = try PointArgument.parse(position, command: "nearby")
            } else if !position.isEmpty {
                throw ValidationError("give either LAT LON or --bbox, not both")
            }
        }

        func run() throws {
            let db = try GeoDatabase(path: database)
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
            if json {
                print(try Format.json(page))
                return
            }
            if page.places.isEmpty {
                print(bbox == nil ? "nothing within \(Format.count(Int(radius))) m" : "nothing in the box")
                return
            }
            print(ResultTable.render(page.places))
            if let next = page.nextCursor { print("more: --after \(next)") }
        }

    }

    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the category taxonomy with place counts.")

        @Argument(help: "The database file.")
        var database: String

        @Flag(help: "Print JSON.")
        var json = false

        @Flag(help: "Also list categories without places.")
        var all = false

        func run() throws {
            let categories = try GeoDatabase(path: database).categories().filter { all || $0.placesWithChildren > 0 }
            if json {
                print(try Format.json(categories))
                return
            }
            print(Format.table([["category", "label", "places", "synonyms"]] + categories.map { c in
                [String(repeating: "  ", count: c.depth) + c.id, c.label, Format.count(c.placesWithChildren),
                 c.synonyms.prefix(4).joined(separator: ", ")]
            }, indent: 0))
        }
    }
}

/// Places as an aligned table for the terminal: rank, distance, name, kind or category, address, position.
enum ResultTable {
    static func render(_ places: [PlaceResult], showMatch: Bool = false) -> String {
        let showDistance = places.contains { $0.distanceM != nil }
        var header = ["#"] + (showDistance ? ["distance"] : []) + ["name", showMatch ? "kind" : "category", "address"]
        if showMatch { header += ["lat, lon", "match"] }
        var rows = [header]
        for (i, p) in places.enumerated() {
            let address = [[p.address["street"], p.address["housenumber"]].compactMap { $0 }.joined(separator: " "),
                           p.address["city"] ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
            var row = [String(i + 1)] + (showDistance ? [p.distanceM.map(distance) ?? ""] : [])
            row += [p.name ?? p.displayName, showMatch ? p.categoryID.map { "\(p.kind) (\($0))" } ?? p.kind
                        : p.categoryID ?? p.category ?? p.kind, address]
            if showMatch { row += [String(format: "%.5f, %.5f", p.lat, p.lon), p.match ?? ""] }
            rows.append(row)
        }
        return Format.table(rows, indent: 0)
    }

    static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }
}
