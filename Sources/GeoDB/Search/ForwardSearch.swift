// Forward geocoding: free text (or as-you-type text) in, ranked places out. Typo-tolerant, safe with
// any input: user text only ever reaches FTS5 as quoted words. The scores are SearchRanking's. Each way
// of reading a text is a type of its own in Readings/; this file decides which run, in what order, and
// merges what they find.
import Foundation

/// Free-text search over the search tables: the readings of a text (`Readings/`) run, their candidates
/// merged and ranked by `SearchRanking`.
final class ForwardSearch {
    /// The engines the readings read with.
    let context: ReadingContext

    init(db: DatabaseReader, index: SearchIndex, places: PlaceReader, nearby: NearbySearch) {
        context = ReadingContext(db: db, index: index, places: places, nearby: nearby)
    }

    /// Places matching `text`, best first.
    func search(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        return try results(text, options: options)
    }

    /// `search`, with the readings it tried and why each result ranks where it does.
    func explain(_ text: String, options: SearchOptions) throws -> (places: [PlaceResult], explanation: SearchExplanation) {
        try options.validate()
        var explanation: SearchExplanation? = SearchExplanation()
        let places = try results(text, options: options, explanation: &explanation)
        return (places, explanation ?? SearchExplanation())
    }

    /// A page of the places matching `text`: the first `options.limit`, or those after `cursor` (the
    /// `nextCursor` of the page before), up to `SearchCursor.maxDepth` results in all.
    func searchPage(_ text: String, options: SearchOptions, after cursor: String?) throws -> PlacePage {
        try options.validate()
        let fingerprint = SearchCursor.fingerprint(text: text, options: options)
        var offset = 0
        if let cursor {
            guard let start = SearchCursor(cursor), start.fingerprint == fingerprint else { throw QueryValidation.foreignCursor(cursor) }
            offset = start.offset
        }
        // One more than the page, to know whether another follows.
        let depth = min(offset + options.limit, SearchCursor.maxDepth)
        var deeper = options
        deeper.limit = depth + 1
        let found = try results(text, options: deeper)
        let next = found.count > depth && depth < SearchCursor.maxDepth ? SearchCursor(offset: depth, fingerprint: fingerprint).text : nil
        return PlacePage(places: Array(found.dropFirst(offset).prefix(depth - offset)), nextCursor: next)
    }

    /// `search` without the options' checks (a page asks for more than `SearchOptions.maxLimit`).
    private func results(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        var none: SearchExplanation?
        return try results(text, options: options, explanation: &none)
    }

    /// `results`, writing each reading tried and each result's reading and score parts to `explanation`
    /// when it is not nil (a search that is not explained marks nothing). The readings that answer a text
    /// alone come first; then those of its words, merged; then, when they found too little, the house number
    /// fallback and typos.
    private func results(_ text: String, options: SearchOptions, explanation: inout SearchExplanation?) throws -> [PlaceResult] {
        context.startSearch()
        let text = String(text.prefix(256))
        /// Notes a reading and what it found, when explaining.
        func tried(_ reading: SearchReading, _ candidates: Int) {
            explanation?.attempts.append(SearchExplanation.Attempt(reading: reading, candidates: candidates))
        }
        /// What `reading` finds, added to `ranked`; noted, and each marked with the reading, when explaining.
        func run(_ reading: any CandidateReading, _ query: ParsedQuery, into ranked: inout [RankedCandidate]) throws {
            var found = try reading.candidates(query, options: options)
            if explanation != nil {
                tried(reading.reading, found.count)
                if reading.reading != .name { found = found.map { var marked = $0; marked.reading = reading.reading; return marked } }
            }
            Self.merge(found, into: &ranked)
        }
        func explained(_ places: [PlaceResult], _ reading: SearchReading) -> [PlaceResult] {
            tried(reading, places.count)
            explanation?.results = places.map {
                SearchExplanation.Result(id: $0.id, name: $0.name ?? $0.displayName, reading: reading, match: $0.match, score: $0.score)
            }
            return places
        }
        if let point = CoordinateParser.parse(text) {
            return explained(try CoordinateReading(context: context).places(at: point, options: options), .coordinates)
        }
        if let near = NearPositionReading(text: text, options: options) {
            tried(.nearPosition, 1)
            return try results(near.rest, options: near.options, explanation: &explanation)
        }
        let category = CategoryReading(context: context) { [unowned self] text, options in try self.results(text, options: options) }
        if let found = try category.places(text, options: options) { return explained(found, .category) }
        let query = ParsedQuery(text)
        guard !query.words.isEmpty || !query.numbers.isEmpty else { return [] }

        var ranked: [RankedCandidate] = []
        let words = query.words.map { [$0] }
        try run(NameReading(context: context, words: words), query, into: &ranked)
        if let postcode = try PostcodeReading(context: context, query: query) { try run(postcode, query, into: &ranked) }
        if let country = CountryCodeReading(context: context, query: query, options: options) { try run(country, query, into: &ranked) }
        var whatWhere = WhatWhereReading(context: context, words: words)
        whatWhere.floor = { [ranked] found in
            var all = ranked
            Self.merge(found, into: &all)
            return Self.floor(of: all, query: query, options: options)
        }
        try run(whatWhere, query, into: &ranked)
        if let inCountry = InCountryReading(text: text, query: query, options: options, found: ranked) {
            let found = try results(inCountry.rest, options: inCountry.options, explanation: &explanation)
            tried(.inCountry, found.count)
            return inCountry.keep(found, limit: options.limit)
        }
        // A house number the street does not have: only when no place (but a street) has the number exactly.
        let streetNumber = StreetNumberReading(context: context)
        var fallback: [PlaceResult] = []
        if !query.numbers.isEmpty && Self.looksForStreetsWithoutTheNumber(ranked.map { ($0.match, $0.kind) }) {
            fallback = try streetNumber.places(query, options: options)
            tried(.streetNumber, fallback.count)
        }
        // A text naming a category ("restaurant", "tourist information") is no typo where the file has no
        // such places: cities500 read 6,000 words a typo or two from "Tourist information" (13.8 ms) to
        // find nothing.
        if Self.looksForTypos(found: ranked.count, typedRight: !fallback.isEmpty || ranked.contains { $0.match == .exact || $0.nameHoldsWords },
                              options: options)
            && CategoryText(text) == nil, let fuzzy = try FuzzyReading(context: context, query: query, options: options) {
            var typos: [RankedCandidate] = []
            for reading in fuzzy.readings { try run(reading, query, into: &typos) }
            let seen = Set(ranked.map(\.id))
            ranked += typos.filter { !seen.contains($0.id) }
            // "Austrase 10" where Austrasse has no 10: the street, spelt as its nearest indexed words.
            if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == .exact }) {
                fallback = try streetNumber.places(fuzzy.corrected(query), options: options)
                tried(.streetNumber, fallback.count)
            }
        }
        let (answer, offeredCategory) = try answer(ranked, fallback: fallback, text: text, query: query, options: options)
        if explanation != nil {
            let byID = Dictionary(ranked.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            explanation?.results = answer.map { place in
                let candidate = byID[place.id]
                let reading: SearchReading = place.kind == .category && offeredCategory ? .categorySuggestion
                    : candidate?.reading ?? .streetNumber
                return SearchExplanation.Result(
                    id: place.id, name: place.name ?? place.displayName, reading: reading, match: place.match, score: place.score,
                    nameScore: candidate?.nameScore,
                    placeScore: candidate?.nameScore.flatMap { name in place.score.map { (($0 - name) * 1000).rounded() / 1000 } })
            }
        }
        return answer
    }

    /// The score and order a candidate of a later reading must beat to change the best `options.limit` of
    /// `ranked` (the `limit`-th of them); nil when one below them may still change the answer: a house number
    /// asked for (the street's fallback looks at every exact match), or a complete text without an exact match
    /// (a country at its end is read when none is). Typos are not looked for once `limit` places are found.
    static func floor(of ranked: [RankedCandidate], query: ParsedQuery, options: SearchOptions) -> RankedCandidate.Standing? {
        guard query.numbers.isEmpty,
              (options.autocomplete && !query.endsWithSpace) || ranked.contains(where: { $0.match == .exact }) else { return nil }
        return RankedCandidate.kth(options.limit, of: ranked)
    }

    /// Whether a search that found `found` places without typos looks for typos too: when exact and prefix
    /// matching find too little. While the user is typing, prefix matches are enough to show: only none at
    /// all suggests a typo. `typedRight`: a place matched exactly, a name holds every word ("Oriente 1ra.
    /// Sección (Santo Domingo)", the "1ra" read as a number, is no exact match: looking up typos of its four
    /// words took 20 ms), or a street has the number asked for. Files searched together (`GeoDatabaseSet`)
    /// keep one file's typos only where this holds of all of them.
    static func looksForTypos(found: Int, typedRight: Bool, options: SearchOptions) -> Bool {
        !typedRight && (options.autocomplete ? found == 0 : found < min(options.limit, 3))
    }

    /// Whether a search for a house number offers the streets of that name without it (`.fallback`): only
    /// when no place but a street has the number exactly (`found`: what the readings matched). Files searched
    /// together keep one file's streets without the number only where this holds of all of them.
    static func looksForStreetsWithoutTheNumber(_ found: [(match: MatchClass?, kind: PlaceKind)]) -> Bool {
        !found.contains { $0.match == .exact && $0.kind != .street }
    }

    /// The best `options.limit` of `ranked` and the `fallback` places as results: read, localized and
    /// highlighted; with the category the text begins offered second while typing (and whether it was).
    private func answer(_ ranked: [RankedCandidate], fallback: [PlaceResult], text: String, query: ParsedQuery,
                        options: SearchOptions) throws -> (places: [PlaceResult], offeredCategory: Bool) {
        let ranked = ranked.sorted { ($0.score, -$0.order) > ($1.score, -$1.order) }
        // Full results only for those shown: reading a place (tags JSON and all) costs more than ranking it.
        let shown = Dictionary(ranked.prefix(options.limit).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found = try context.places.results(ids: ranked.prefix(options.limit).map(\.id)).map { place in
            var place = place
            place.score = shown[place.id]?.score
            place.match = shown[place.id]?.match
            place.distanceM = shown[place.id]?.distanceM
            if let (point, town, level) = shown[place.id]?.shownIn {
                (place.lat, place.lon) = (point.lat, point.lon)
                place.address.setArea(level, name: town, kind: nil)   // a town the street runs through: its kind is not read
            }
            return place
        }
        if !fallback.isEmpty {
            found += fallback.filter { f in !found.contains { $0.id == f.id } }
            found.sort { ($0.score ?? 0, -$0.id) > ($1.score ?? 0, -$1.id) }
        }
        var results = try context.places.localized(Array(found.prefix(options.limit)), language: options.language)
        let highlighter = Highlighter(words: query.words, numbers: query.numbers, lastIsPrefix: options.autocomplete)
        for i in results.indices { results[i].highlighting = .query(highlighter) }
        var offeredCategory = false
        if options.autocomplete, let offered = CategoryReading.suggestion(for: text, options: options) {
            // Second, so that the place the text most likely names stays first.
            results.insert(offered, at: min(1, results.count))
            offeredCategory = true
        }
        return (Array(results.prefix(options.limit)), offeredCategory)
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
}
