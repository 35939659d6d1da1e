// Forward geocoding: free text (or as-you-type text) in, ranked places out. Typo-tolerant, safe with
// any input: user text only ever reaches FTS5 as quoted words. The scores are SearchRanking's.
import Foundation

/// Free-text search over the search tables, ranked by `SearchRanking`.
final class ForwardSearch {
    private let db: DatabaseReader
    private let index: SearchIndex
    private let places: PlaceReader
    private let nearby: NearbySearch

    init(db: DatabaseReader, index: SearchIndex, places: PlaceReader, nearby: NearbySearch) {
        self.db = db
        self.index = index
        self.places = places
        self.nearby = nearby
    }

    /// Places matching `text`, best first.
    func search(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        let text = String(text.prefix(256))
        if let point = CoordinateParser.parse(text) { return try coordinateResult(point, options: options) }
        if let category = try categoryPlaces(text, options: options) { return category }
        let query = ParsedQuery(text)
        guard !query.words.isEmpty || !query.numbers.isEmpty else { return [] }

        var ranked = try rankedCandidates(query, words: query.words.map { [$0] }, options: options, forced: nil)
        // A postcode, or its beginning ("949" lists 9490–9498): the postcode places, before the places there.
        if query.words.isEmpty, query.numbers.count == 1, let code = query.numberText {
            Self.merge(try postcodeCandidates(code, options: options), into: &ranked)
        }
        // "Name, Town": words naming where a place is match the areas it lies in, the others the place.
        Self.merge(try placedCandidates(query, words: query.words.map { [$0] }, options: options, forced: nil), into: &ranked)
        // A house number the street does not have ("Austrasse 10", "Austrasse 10, Vaduz"): the street there
        // (or an interpolated position), marked; other streets' 10s are not what was meant, nor typos.
        var fallback: [PlaceResult] = []
        if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == .exact && $0.kind != .street }) {
            fallback = try numberFallback(query, options: options)
        }
        // Typos: when exact and prefix matching find too little, let long words match words 1–2 edits away.
        // While the user is typing, prefix matches are enough to show: only none at all suggests a typo.
        let tooFew = options.autocomplete ? ranked.isEmpty : ranked.count < min(options.limit, 3)
        if tooFew && fallback.isEmpty && !ranked.contains(where: { $0.match == .exact }) {
            let fuzzyWords = try query.words.enumerated().map { i, word in
                try [word] + index.similarWords(to: word, typing: options.autocomplete && i == query.words.count - 1)
            }
            if fuzzyWords.contains(where: { $0.count > 1 }) {
                var fuzzy = try rankedCandidates(query, words: fuzzyWords, options: options, forced: .fuzzy)
                Self.merge(try placedCandidates(query, words: fuzzyWords, options: options, forced: .fuzzy), into: &fuzzy)
                let seen = Set(ranked.map(\.id))
                ranked += fuzzy.filter { !seen.contains($0.id) }
                // "Austrase 10" where Austrasse has no 10: the street, spelt as its nearest indexed words.
                if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == .exact }) {
                    var corrected = query
                    corrected.words = fuzzyWords.map { $0.count > 1 ? $0[1] : $0[0] }
                    fallback = try numberFallback(corrected, options: options)
                }
            }
        }
        ranked.sort { ($0.score, -$0.id) > ($1.score, -$1.id) }
        // Full results only for those shown: reading a place (tags JSON and all) costs more than ranking it.
        let shown = Dictionary(ranked.prefix(options.limit).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found = try places.results(ids: ranked.prefix(options.limit).map(\.id)).map { place in
            var place = place
            place.score = shown[place.id]?.score
            place.match = shown[place.id]?.match
            place.distanceM = shown[place.id]?.distanceM
            if let (point, town) = shown[place.id]?.shownIn {
                (place.lat, place.lon) = (point.lat, point.lon)
                place.address["city"] = town
                place.displayName = AddressFormat.displayName(name: place.name, kind: place.kind, address: place.address)
            }
            return place
        }
        if !fallback.isEmpty {
            found += fallback.filter { f in !found.contains { $0.id == f.id } }
            found.sort { ($0.score ?? 0, -$0.id) > ($1.score ?? 0, -$1.id) }
        }
        var results = try places.localized(Array(found.prefix(options.limit)), language: options.language)
        for i in results.indices {
            results[i].highlights = Highlighter.ranges(in: results[i].displayName, words: query.words, numbers: query.numbers,
                                                       lastIsPrefix: options.autocomplete)
        }
        if options.autocomplete, let offered = categorySuggestion(text, options: options) {
            // Second, so that the place the text most likely names stays first.
            results.insert(offered, at: min(1, results.count))
        }
        return Array(results.prefix(options.limit))
    }

    /// While typing a category word ("coff", "pharm"): the category itself, as a result of kind `category`
    /// (at `near`, else the centre of `bbox`, else 0, 0). Nil for text of fewer than 3 letters or that
    /// starts no category word.
    private func categorySuggestion(_ text: String, options: SearchOptions) -> PlaceResult? {
        let typed = text.trimmingCharacters(in: .whitespaces)
        guard typed.count >= 3, options.kinds.isEmpty || options.kinds.contains(.category), options.categories == nil,
              let id = Taxonomy.standard.categories(startingWith: typed).first,
              let category = Taxonomy.standard.category(id) else { return nil }
        let point = options.near ?? options.bbox.map { Coordinate(lat: ($0.minLat + $0.maxLat) / 2, lon: ($0.minLon + $0.maxLon) / 2) }
        return PlaceResult(id: 0, sourceRef: "category:" + id, kind: .category, category: nil, categoryID: id,
                           name: category.label, displayName: category.label + " (category)", lat: point?.lat ?? 0,
                           lon: point?.lon ?? 0, distanceM: nil, address: [:], tags: [:], score: nil, match: .category)
    }

    /// A text naming a category ("restaurant", "cafes", "pharmacy near Vaduz", "atm Monaco"): the places of
    /// that category near `near` or in `bbox` (nearest first), in the named town (nearest its centre first),
    /// within 1 km of the named place ("cafe near Senaatintori"), or else the most important ones. Nil when
    /// the text is no such phrase, or nothing of the category is there, so it is searched as names.
    private func categoryPlaces(_ text: String, options: SearchOptions) throws -> [PlaceResult]? {
        guard options.kinds.isEmpty || options.kinds.contains(.poi), options.categories == nil,
              let category = CategoryText(text) else { return nil }
        var found: [PlaceResult]
        if let placeText = category.place {
            var anchorOptions = options
            anchorOptions.limit = 1
            if category.placeIsTown { anchorOptions.kinds = Array(StructuredSearch.townReach.keys) }
            guard let anchor = try search(placeText, options: anchorOptions).first,
                  !category.placeIsTown || anchor.match == .exact else { return nil }
            if let reach = StructuredSearch.townReach[anchor.kind] {
                let around = try nearby.places(near: anchor.coordinate, radius: reach, filter: category.filter, name: nil,
                                               limit: NearbySearch.maxPageSize, after: nil).places
                found = Array(try TownScope(anchor, places: places, db: db).filter(around).prefix(options.limit))
            } else {
                found = try nearby.places(near: anchor.coordinate, radius: 1_000, filter: category.filter, name: nil,
                                          limit: options.limit, after: nil).places
            }
        } else if let box = options.bbox {
            found = try nearby.places(in: box, near: options.near, filter: category.filter, name: nil, limit: options.limit,
                                      after: nil).places
        } else if let near = options.near {
            found = try nearby.places(near: near, radius: 10_000, filter: category.filter, name: nil, limit: options.limit,
                                      after: nil).places
        } else {
            found = try places.results(ids: try index.mostImportant(of: category.filter, options: options, limit: options.limit))
        }
        guard !found.isEmpty else { return nil }
        return found.map { var p = $0; p.match = .category; return p }
    }

    /// Postcode places whose code is `code` or, from three characters, starts with it; in code order after
    /// the exact one.
    private func postcodeCandidates(_ code: String, options: SearchOptions) throws -> [RankedCandidate] {
        var postcodes = options
        postcodes.kinds = [.postcode]
        guard let match = FTSQuery.groups([[code.count >= 3 ? code + "*" : code]], column: "name") else { return [] }
        return try index.candidates(match: match, options: postcodes, limit: 100)
            .sorted { ($0.postcode ?? "", $0.id) < ($1.postcode ?? "", $1.id) }
            .enumerated().map { order, place in
                let exact = place.postcode.map(TextNormalizer.fold) == code
                // Above the places that merely lie in the postcode (their score is a prefix match's).
                let score = SearchRanking.weight(of: exact ? .exact : .prefix) + SearchRanking.postcodeBonus * 3 - Double(order) / 1000
                return RankedCandidate(id: place.id, kind: place.kind, score: score, match: exact ? .exact : .prefix,
                                       distanceM: options.near.map { $0.distance(to: place.coordinate) })
            }
    }

    /// Adds `found` to `ranked`, a place found twice keeping its better score.
    private static func merge(_ found: [RankedCandidate], into ranked: inout [RankedCandidate]) {
        var index = Dictionary(ranked.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for candidate in found {
            if let i = index[candidate.id] {
                if candidate.score > ranked[i].score { ranked[i] = candidate }
            } else {
                index[candidate.id] = ranked.count
                ranked.append(candidate)
            }
        }
    }

    /// The ways to read the query as "what, where": the words of a trailing part (after the last comma;
    /// without commas, the last one or two words, or the first) naming areas, the others the place.
    private static func readings(of query: ParsedQuery) -> [(what: Range<Int>, where: Range<Int>)] {
        let words = query.words
        guard words.count >= 2 || (words.count == 1 && !query.numbers.isEmpty) else { return [] }
        var readings: [(what: Range<Int>, where: Range<Int>)] = []
        if query.partSizes.count > 1 {
            for parts in 1..<query.partSizes.count {
                let whereCount = query.partSizes.suffix(parts).reduce(0, +)
                readings.append((0..<(words.count - whereCount), (words.count - whereCount)..<words.count))
            }
        } else {
            for count in 1...min(2, words.count) where count < words.count || !query.numbers.isEmpty {
                readings.append((0..<(words.count - count), (words.count - count)..<words.count))
            }
            if words.count >= 2 { readings.append((1..<words.count, 0..<1)) }
        }
        return readings.filter { !($0.what.isEmpty && query.numbers.isEmpty) }
    }

    /// The area sets the `where` words of a reading name (the last word a prefix while typing).
    private func areaSets(_ query: ParsedQuery, where place: Range<Int>, options: SearchOptions) throws -> [Int64] {
        var placeGroups = query.words[place].map { TextNormalizer.variants($0) }
        if options.autocomplete, place.upperBound == query.words.count, let last = placeGroups.indices.last {
            placeGroups[last] = placeGroups[last].map { $0 + "*" }
        }
        return try index.areaSets(naming: placeGroups)
    }

    /// Candidates of the query read as "what, where" (`readings`): the `where` words match the areas a
    /// place lies in, the others the place (`alternatives`: each word's, typos included when `forced` is
    /// fuzzy). Each reading is tried when its area words name some area set.
    private func placedCandidates(_ query: ParsedQuery, words alternatives: [[String]], options: SearchOptions,
                                  forced: MatchClass?) throws -> [RankedCandidate] {
        let words = query.words
        var found: [RankedCandidate] = []
        for (what, place) in Self.readings(of: query) {
            let sets = try areaSets(query, where: place, options: options)
            guard !sets.isEmpty else { continue }
            var subquery = query
            subquery.words = Array(words[what])
            let typing = options.autocomplete && what.upperBound == words.count
            found += try rankedCandidates(subquery, words: Array(alternatives[what]), options: options, forced: forced,
                                          inSets: sets, typing: typing)
            if !what.isEmpty, !typing {
                found += try streetsThrough(town: Array(words[place]), subquery, words: Array(alternatives[what]),
                                            options: options, forced: forced)
            }
        }
        return found
    }

    /// A street runs through several towns but lies in the area set of its middle: for "Street, Town",
    /// the streets named exactly so whose line enters the town (a town named exactly `town`).
    private func streetsThrough(town: [String], _ query: ParsedQuery, words: [[String]], options: SearchOptions,
                                forced: MatchClass?) throws -> [RankedCandidate] {
        guard options.kinds.isEmpty || options.kinds.contains(.street), query.numbers.isEmpty,
              let townMatch = FTSQuery.groups(town.map { [$0] }, column: "name") else { return [] }
        var townOptions = options
        townOptions.kinds = Array(StructuredSearch.townReach.keys)
        townOptions.near = nil
        let towns = try places.results(ids: try index.candidates(match: townMatch, options: townOptions, limit: 5).map(\.id))
            .filter { TextNormalizer.tokens($0.name ?? "") == town }
        guard !towns.isEmpty else { return [] }
        var streetOptions = options
        streetOptions.kinds = [.street]
        // All of them: the one in the town may score below other towns' streets of the name.
        let streets = try rankedCandidates(query, words: words, options: streetOptions, forced: forced, pruned: false)
            .filter { $0.match == .exact || forced != nil }
        guard !streets.isEmpty else { return [] }
        let results = try places.results(ids: streets.map(\.id))
        var inTown: [Int64: (point: Coordinate, town: String)] = [:]
        for town in towns.prefix(2) {
            for (street, point) in try TownScope(town, places: places, db: db).points(in: results) where inTown[street.id] == nil {
                if let point { inTown[street.id] = (point, town.name ?? "") }
            }
        }
        return streets.compactMap { street in
            guard let (point, town) = inTown[street.id] else { return nil }
            var shown = street
            shown.shownIn = (point, town)
            shown.distanceM = options.near.map { $0.distance(to: point) }
            return shown
        }
    }

    /// Candidates for the words (each a list of alternatives), scored by `SearchRanking`. With `pruned`,
    /// only the candidates that can be among the best `options.limit`: names are read (the cost of
    /// ranking: a capital has 150) in batches, highest `SearchRanking.bound` first, until no candidate
    /// left can beat the `limit`-th score. Not for a query with a number: which candidates match its
    /// number exactly decides the fallbacks.
    private func rankedCandidates(_ query: ParsedQuery, words: [[String]], options: SearchOptions, forced: MatchClass?,
                                  inSets: [Int64]? = nil, typing typingLast: Bool? = nil, pruned: Bool = true) throws -> [RankedCandidate] {
        var groups = words.map { alternatives in alternatives.flatMap { TextNormalizer.variants($0) } }
        groups += query.numbers.map { [$0] }
        var prefixGroups = groups
        // The last word is still being typed: a prefix in the index (typos are whole words found beforehand).
        let lastTyped = (typingLast ?? options.autocomplete) && !words.isEmpty
        if lastTyped && forced == nil { prefixGroups[words.count - 1] = try groups[words.count - 1].flatMap(index.prefixTerms) }
        guard let match = FTSQuery.groups(prefixGroups) else { return [] }
        let candidates = try index.candidates(match: match, options: options, inSets: inSets)
            .map { (place: $0, bound: SearchRanking.bound($0, query: query, forced: forced, near: options.near, typing: lastTyped)) }
            .sorted { ($0.bound, -$0.place.id) > ($1.bound, -$1.place.id) }
        let keep = pruned && query.numbers.isEmpty ? options.limit : nil
        var ranked: [RankedCandidate] = []
        var next = 0, batch = 16
        while next < candidates.count {
            let slice = candidates[next..<min(candidates.count, next + batch)]
            let names = try index.names(of: slice.map(\.place.id), words: query.words, fuzzy: forced == .fuzzy)
            ranked += slice.map { SearchRanking.rank($0.place, query: query, names: names[$0.place.id] ?? [], forced: forced,
                                                     near: options.near, typing: lastTyped) }
            next += slice.count
            batch *= 2
            // A candidate left beats the `keep`-th result only by a higher score, or an equal one and a lower
            // id (scores are rounded to 0.001, as `rank` rounds them).
            if let keep, ranked.count >= keep, next < candidates.count {
                let kth = ranked.sorted { ($0.score, -$0.id) > ($1.score, -$1.id) }[keep - 1]
                let bound = (candidates[next].bound * 1000).rounded() / 1000
                if kth.score > bound || (kth.score == bound && candidates[next...].allSatisfy { $0.place.id > kth.id }) { break }
            }
        }
        return ranked
    }

    /// For "Street 99" where the street has no 99: an interpolation line covering 99 (with the position
    /// along it), else the street itself; marked `interpolated` / `fallback`. "Street 99, Town": the street
    /// in that town (the query read as "what, where" when all its words name no street).
    func numberFallback(_ query: ParsedQuery, options: SearchOptions) throws -> [PlaceResult] {
        let whole = try numberFallback(query, inSets: nil, options: options)
        guard whole.isEmpty else { return whole }
        for (what, place) in Self.readings(of: query) where !what.isEmpty {
            let sets = try areaSets(query, where: place, options: options)
            guard !sets.isEmpty else { continue }
            var street = query
            street.words = Array(query.words[what])
            let found = try numberFallback(street, inSets: sets, options: options)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// `numberFallback` for the query's words as the street name, in the area sets `inSets` when given.
    private func numberFallback(_ query: ParsedQuery, inSets: [Int64]?, options: SearchOptions) throws -> [PlaceResult] {
        guard !query.words.isEmpty, let number = query.numbers.first, let wanted = Int(number.prefix { $0.isNumber }) else {
            return []
        }
        var results: [PlaceResult] = []
        let words = query.words.map { TextNormalizer.variants($0) }
        if let match = FTSQuery.groups(words, column: "address") {
            let lines = try places.results(ids: try index.candidates(match: match, options: options, inSets: inSets, limit: 50).map(\.id))
                .filter { $0.kind == .interpolation }
            for var line in lines {
                let range = (line.address["housenumber"] ?? "").split(separator: "-").compactMap { Int($0) }
                guard range.count == 2, (min(range[0], range[1])...max(range[0], range[1])).contains(wanted),
                      let geometry = try places.geometry(of: line.id), case .lineStrings(let parts) = geometry, let points = parts.first,
                      let point = LineMath.point(along: points, fraction: range[0] == range[1] ? 0
                                                    : Double(wanted - range[0]) / Double(range[1] - range[0])) else { continue }
                line.lat = point.coordinate.lat
                line.lon = point.coordinate.lon
                line.address["housenumber"] = number
                line.match = .interpolated
                line.score = SearchRanking.interpolatedScore
                line.displayName = AddressFormat.displayName(name: nil, kind: line.kind, address: line.address)
                results.append(line)
            }
        }
        if results.isEmpty, let match = FTSQuery.groups(words, column: "name") {
            var streetOptions = options
            streetOptions.kinds = [.street]
            // The street named so: not every street with one of its words in a longer name.
            let named = try places.results(ids: try index.candidates(match: match, options: streetOptions, inSets: inSets, limit: 20).map(\.id))
            let exact = named.filter { TextNormalizer.tokens($0.name ?? "") == query.words }
            for var street in (exact.isEmpty && inSets == nil ? Array(named.prefix(5)) : Array(exact.prefix(5))) {
                street.match = .fallback
                street.score = SearchRanking.fallbackScore
                results.append(street)
            }
        }
        return results
    }

    /// A query that is a coordinate: that point, with the nearest address or POI within 100 m when there is one.
    private func coordinateResult(_ point: Coordinate, options: SearchOptions) throws -> [PlaceResult] {
        var result = PlaceResult(id: 0, sourceRef: "", kind: .coordinate, category: nil, categoryID: nil, name: nil,
                                 displayName: String(format: "%.6f, %.6f", point.lat, point.lon), lat: point.lat, lon: point.lon,
                                 distanceM: options.near.map { $0.distance(to: point) }, address: [:], tags: [:],
                                 score: 100, match: .coordinate)
        let nearbyPOI = try nearby.places(near: point, radius: 100, filter: .anyNamedPOI, name: nil, limit: 1, after: nil).places
        let buildings = try nearby.places(near: point, radius: 100, filter: .rawTag("building=yes"), name: nil, limit: 1, after: nil).places
        if let nearest = (buildings + nearbyPOI).min(by: { ($0.distanceM ?? 0) < ($1.distanceM ?? 0) }) {
            result.address = nearest.address
            result.displayName += " (near \(nearest.displayName))"
        }
        return [result]
    }
}
