// `geodb search`: free text, autocomplete, structured, hierarchical and crossings.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find places by name or address: free text, as-you-type, structured or town → street → number.",
            discussion: """
                Free text: geodb search DB "Aleksanterinkatu 52"; add --autocomplete while the last word is unfinished.
                A coordinate ("60.1699, 24.9384" or 60°10'12"N 24°56'18"E) answers that point.
                Structured: --street, --housenumber, --city, --postcode. Hierarchical: --town alone lists towns;
                with --street, streets in the town; with --housenumber too, the numbers on that street.
                --street with --crossing lists the streets crossing it.
                Several databases answer as one (geodb search country.sqlite world.sqlite Vaduz): results merged by \
                score, a place two files share shown once, ids across the files.
                """)

        @OptionGroup var database: DatabaseArgument

        @Argument(help: ArgumentHelp("More databases, then what to look for.", valueName: "database… text"))
        var words: [String] = []

        /// The databases after the first, and the text.
        var parts: (more: [String], text: String?) {
            get throws {
                let (more, rest) = MoreDatabases.split(words)
                guard rest.count <= 1 else {
                    try UnknownOption.reject(Search.self, name: "search", extra: Array(rest.dropFirst()))
                    throw ValidationError("give the text as one argument (in quotes): geodb search DB \"\(rest.joined(separator: " "))\"")
                }
                return (more, rest.first)
            }
        }

        @Flag(help: "The last word is a prefix (as-you-type).")
        var autocomplete = false

        @Option(parsing: .unconditional, help: "Prefer places near lat,lon (a bias, not a filter).")
        var near: String?

        @Option(parsing: .unconditional, help: "Only inside min lon,min lat,max lon,max lat.")
        var bbox: String?

        @Option(help: "Only in this country (ISO code, e.g. FI).")
        var country: String?

        @Option(help: "Only these kinds (city, street, address, poi, …); repeatable or comma-separated.")
        var kind: [String] = []

        @Option(help: "Only these categories (as in `geodb nearby`).")
        var category: String?

        @Option(parsing: .unconditional, help: "Results (1 … 100).")
        var limit = 10

        @Option(help: "Free text: continue after this cursor (printed with the previous page; 500 results in all).")
        var after: String?

        @Option(help: "Show names in this language when known (e.g. sv; a list falls back in order: de-CH,de;q=0.9,en).")
        var lang: String?

        @Option(help: "Structured: street name.")
        var street: String?

        @Option(help: "Structured: house number.")
        var housenumber: String?

        @Option(help: "Structured: city.")
        var city: String?

        @Option(help: "Structured: postcode (with --street alone: the streets of that name in it).")
        var postcode: String?

        @Option(help: "Hierarchical: the town to search in.")
        var town: String?

        @Flag(help: "With --street: the streets crossing it.")
        var crossing = false

        @OptionGroup var output: JSONOption

        @Flag(help: "Print a GeoJSON FeatureCollection.")
        var geojson = false

        @Flag(help: "Free text: show the readings of the text tried and why each result ranks where it does.")
        var explain = false

        func validate() throws {
            let (more, text) = try parts
            let structured = street != nil || housenumber != nil || city != nil || postcode != nil || town != nil
            if text == nil && !structured {
                // A text starting with '-' is taken for an option: the usual `--` makes it a text.
                throw ValidationError("give a text to search for, or --street/--town/… (a text starting with '-' goes after --: geodb search DB -- -text)")
            }
            if text != nil && structured { throw ValidationError("give either a text or structured options, not both") }
            if crossing && street == nil { throw ValidationError("--crossing needs --street") }
            if output.json && geojson { throw ValidationError("give either --json or --geojson, not both") }
            if after != nil && text == nil { throw ValidationError("--after pages a free-text search: give the text too") }
            _ = try KindList.parse(kind)
            try CategoryArgument.validate(category)
            if explain && (text == nil || !more.isEmpty || geojson) {
                throw ValidationError("--explain explains a free-text search of one database (with --json or a table)")
            }
            if !more.isEmpty {
                if after != nil { throw ValidationError("--after pages a search of one database; with several, raise --limit") }
            }
        }

        func run() async throws {
            let (more, text) = try parts
            var options = SearchOptions()
            options.limit = limit
            options.autocomplete = autocomplete
            options.near = try near.map { try NearArgument.parse($0) }
            options.bbox = try bbox.map { try BoxArgument.parse($0) }
            options.countryCode = country
            options.kinds = try KindList.parse(kind)
            options.categories = try category.map { try CategoryFilter.resolve(CommaList.items($0)) }
            options.language = lang
            if explain, let text {
                let asked = options
                let (places, why) = try await database.open().read { try $0.explainSearch(text, options: asked) }
                if output.json {
                    print(ResultJSON.page(places.map { ResultJSON.place($0) }, next: nil,
                                          explain: [ResultJSON.explanation(why, file: URL(fileURLWithPath: database.path).lastPathComponent)]).indented())
                } else {
                    Terminal.show(places.isEmpty ? "no results" : ResultTable.render(places, showMatch: true))
                    Terminal.show(ExplainedSearch.describe(why))
                }
                return
            }
            let results: [PlaceResult]
            var next: String?
            if !more.isEmpty {
                let files = try database.open(with: more)
                let found = if let text {
                    try await files.search(text, options: options, offset: 0, limit: limit).places
                } else if crossing, let street {
                    try await files.crossings(of: street, town: town, options: options)
                } else if let town {
                    try await files.hierarchical(town: town, street: street, housenumber: housenumber, options: options)
                } else {
                    try await files.structuredSearch(street: street, housenumber: housenumber, city: city, postcode: postcode,
                                                     options: options)
                }
                results = found.map(\.placeWithGlobalID)
            } else if let text {
                let page = try await database.open().read { [options, after] in try $0.searchPage(text, options: options, after: after) }
                (results, next) = (page.places, page.nextCursor)
            } else if crossing, let street {
                results = try await database.open().read { [town, options] in try $0.crossings(of: street, town: town, options: options) }
            } else if let town {
                results = try await database.open().read { [street, housenumber, options] in
                    try $0.hierarchical(town: town, street: street, housenumber: housenumber, options: options)
                }
            } else {
                results = try await database.open().read { [street, housenumber, city, postcode, options] in
                    try $0.structuredSearch(street: street, housenumber: housenumber, city: city, postcode: postcode, options: options)
                }
            }
            if output.json {
                print(ResultJSON.page(results.map { ResultJSON.place($0) }, next: next).indented())
            } else if geojson {
                print(GeoJSONOutput.featureCollection(results))
                // The output stays a FeatureCollection; where the next page starts goes beside it.
                if let next { Terminal.status("more: --after \(next)\n") }
            } else if results.isEmpty {
                Terminal.show("no results")
            } else {
                Terminal.show(ResultTable.render(results, showMatch: true))
                if let next { Terminal.show("more: --after \(next)") }
            }
        }
    }
}

/// `search --explain` as text.
enum ExplainedSearch {
    /// The readings tried, then each result's reading and score = name points + place points.
    static func describe(_ why: SearchExplanation) -> String {
        var rows = [["reading", "candidates"]] + why.attempts.map { [$0.reading.rawValue, Format.count($0.candidates)] }
        var lines = ["readings tried:", Format.table(rows)]
        rows = [["#", "name", "reading", "match", "score", "= name", "+ place"]]
        for (i, r) in why.results.enumerated() {
            let points = [r.score, r.nameScore, r.placeScore].map { $0.map { String(format: "%.3f", $0) } ?? "" }
            rows.append([String(i + 1), r.name, r.reading.rawValue, r.match?.rawValue ?? ""] + points)
        }
        lines += ["results:", Format.table(rows)]
        return lines.joined(separator: "\n")
    }
}
