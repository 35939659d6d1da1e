// `geodb search` (free text, autocomplete, structured, hierarchical) and `geodb lookup`.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find places by name or address: free text, as-you-type, structured or town → street → number.",
            discussion: """
                Free text: geodb search DB "Aleksanterinkatu 52"; add --autocomplete while the last word is unfinished.
                A coordinate ("60.1699, 24.9384" or 60°10'12"N 24°56'18"E) answers that point.
                Structured: --street, --housenumber, --city, --postcode. Hierarchical: --town alone lists towns;
                with --street, streets in the town; with --housenumber too, the numbers on that street.
                --street with --crossing lists the streets crossing it.
                """)

        @Argument(help: "The database file.")
        var database: String

        @Argument(help: "What to look for.")
        var text: String?

        @Flag(help: "The last word is a prefix (as-you-type).")
        var autocomplete = false

        @Option(help: "Prefer places near lat,lon (a bias, not a filter).")
        var near: String?

        @Option(help: "Only inside min lon,min lat,max lon,max lat.")
        var bbox: String?

        @Option(help: "Only in this country (ISO code, e.g. FI).")
        var country: String?

        @Option(help: "Only these kinds (city, street, address, poi, …); repeatable or comma-separated.")
        var kind: [String] = []

        @Option(help: "Only these categories (as in `geodb nearby`).")
        var category: String?

        @Option(help: "Results (1 … 100).")
        var limit = 10

        @Option(help: "Show names in this language when known (e.g. sv).")
        var lang: String?

        @Option(help: "Structured: street name.")
        var street: String?

        @Option(help: "Structured: house number.")
        var housenumber: String?

        @Option(help: "Structured: city.")
        var city: String?

        @Option(help: "Structured: postcode.")
        var postcode: String?

        @Option(help: "Hierarchical: the town to search in.")
        var town: String?

        @Flag(help: "With --street: the streets crossing it.")
        var crossing = false

        @Flag(help: "Print a JSON array.")
        var json = false

        @Flag(help: "Print a GeoJSON FeatureCollection.")
        var geojson = false

        func validate() throws {
            let structured = street != nil || housenumber != nil || city != nil || postcode != nil || town != nil
            if text == nil && !structured { throw ValidationError("give a text to search for, or --street/--town/…") }
            if text != nil && structured { throw ValidationError("give either a text or structured options, not both") }
            if crossing && street == nil { throw ValidationError("--crossing needs --street") }
        }

        func run() throws {
            let db = try GeoDatabase(path: database)
            var options = SearchOptions()
            options.limit = limit
            options.autocomplete = autocomplete
            options.near = try near.map { try NearArgument.parse($0) }
            options.bbox = try bbox.map { try BoxArgument.parse($0) }
            options.countryCode = country
            options.kinds = kind.flatMap(CommaList.items)
            options.categories = try category.map { try CategoryFilter.resolve(CommaList.items($0)) }
            options.language = lang
            options.includeHierarchy = true   // one process per query: the lookup cost does not matter here
            let results: [PlaceResult]
            if let text {
                results = try db.search(text, options: options)
            } else if crossing, let street {
                results = try db.crossings(of: street, town: town, options: options)
            } else if let town {
                results = try db.hierarchical(town: town, street: street, housenumber: housenumber, options: options)
            } else {
                results = try db.structuredSearch(street: street, housenumber: housenumber, city: city,
                                                  postcode: postcode, options: options)
            }
            if json {
                print(try Format.json(results))
            } else if geojson {
                print(try GeoJSONOutput.featureCollection(results))
            } else if results.isEmpty {
                print("no results")
            } else {
                print(ResultTable.render(results, showMatch: true))
            }
        }
    }

    struct Lookup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Everything about one place: names, address, category, tags, geometry, source.")

        @Argument(help: "The database file.")
        var database: String

        @Argument(help: "The place: its id (42) or its source id (n123, w45, r6, geonames:658225, csv:stores.csv:17).")
        var place: String

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let details = try GeoDatabase(path: database).lookup(place)
            if json {
                print(try Format.json(details))
                return
            }
            let p = details.place
            var lines = ["\(p.name ?? p.displayName)  (\(p.kind)\(p.categoryID.map { ", " + $0 } ?? ""))",
                         "  id \(p.id), source \(details.source) \(p.sourceRef), category \(p.category ?? "-")",
                         String(format: "  at %.7f, %.7f", p.lat, p.lon),
                         "  address: \(p.displayName)"]
            if !details.names.isEmpty {
                lines.append("  names:")
                lines += details.names.map { "    \($0.name)  (\($0.type)\($0.lang.map { ":" + $0 } ?? ""))" }
            }
            if !p.tags.isEmpty {
                lines.append("  tags:")
                lines += p.tags.sorted { $0.key < $1.key }.map { "    \($0.key)=\($0.value)" }
            }
            if let g = details.geometry { lines.append("  geometry: \(g)") }
            print(lines.joined(separator: "\n"))
        }
    }
}

/// Results as a GeoJSON FeatureCollection of points.
enum GeoJSONOutput {
    static func featureCollection(_ results: [PlaceResult]) throws -> String {
        struct Feature: Encodable {
            let type = "Feature"
            let geometry: Point
            let properties: PlaceResult
        }
        struct Point: Encodable {
            let type = "Point"
            let coordinates: [Double]
        }
        struct Collection: Encodable {
            let type = "FeatureCollection"
            let features: [Feature]
        }
        return try Format.json(Collection(features: results.map {
            Feature(geometry: Point(coordinates: [$0.lon, $0.lat]), properties: $0)
        }))
    }
}
