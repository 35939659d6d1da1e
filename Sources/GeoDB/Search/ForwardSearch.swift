// Forward geocoding: free text (or as-you-type text) in, ranked places out. Typo-tolerant, safe with
// any input: user text only ever reaches FTS5 as quoted words. The scores are SearchRanking's.
import Foundation

/// Free-text search over the search tables, ranked by `SearchRanking`.
final class ForwardSearch {
    private let db: DatabaseReader
    private let index: SearchIndex
    private let places: PlaceReader
    private let nearby: NearbySearch
    /// `areaSets` of the search running, by the word groups naming them (emptied as each search starts).
    private var areaSetsNamed: [[[String]]: SearchIndex.AreaSetList] = [:]

    init(db: DatabaseReader, index: SearchIndex, places: PlaceReader, nearby: NearbySearch) {
        self.db = db
        self.index = index
        self.places = places
        self.nearby = nearby
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
    /// when it is not nil (a search that is not explained marks nothing).
    private func results(_ text: String, options: SearchOptions, explanation: inout SearchExplanation?) throws -> [PlaceResult] {
        areaSetsNamed.removeAll(keepingCapacity: true)
        let text = String(text.prefix(256))
        /// Notes a reading and what it found, when explaining.
        func tried(_ reading: SearchReading, _ candidates: Int) {
            explanation?.attempts.append(SearchExplanation.Attempt(reading: reading, candidates: candidates))
        }
        /// `found` from `reading`: noted, and each marked with it, when explaining.
        func from(_ reading: SearchReading, _ found: [RankedCandidate]) -> [RankedCandidate] {
            guard explanation != nil else { return found }
            tried(reading, found.count)
            return reading == .name ? found : found.map { var marked = $0; marked.reading = reading; return marked }
        }
        func explained(_ places: [PlaceResult], _ reading: SearchReading) -> [PlaceResult] {
            tried(reading, places.count)
            explanation?.results = places.map {
                SearchExplanation.Result(id: $0.id, name: $0.name ?? $0.displayName, reading: reading, match: $0.match, score: $0.score)
            }
            return places
        }
        if let point = CoordinateParser.parse(text) { return explained(try coordinateResult(point, options: options), .coordinates) }
        if let (rest, point) = CoordinateParser.split(text) {
            // As Nominatim reads it: the words within 0.1° of the position (or in the box asked for), nearest first.
            tried(.nearPosition, 1)
            var around = options
            around.near = point
            around.bbox = options.bbox ?? BoundingBox(minLat: max(-90, point.lat - 0.1), minLon: max(-180, point.lon - 0.1),
                                                      maxLat: min(90, point.lat + 0.1), maxLon: min(180, point.lon + 0.1))
            return try results(rest, options: around, explanation: &explanation)
        }
        if let category = try categoryPlaces(text, options: options) { return explained(category, .category) }
        let query = ParsedQuery(text)
        guard !query.words.isEmpty || !query.numbers.isEmpty else { return [] }

        var ranked = from(.name, try rankedCandidates(query, words: query.words.map { [$0] }, options: options, forced: nil))
        // A postcode, or its beginning ("949" lists 9490–9498): the postcode places, before the places there.
        if query.words.isEmpty, query.numbers.count == 1, let code = query.numberText {
            Self.merge(from(.postcode, try postcodeCandidates(code, options: options)), into: &ranked)
        } else if query.numbers.count == 1, let code = query.numberText, let country = try countryNamed(by: query.words) {
            // A postcode and its country ("9486, li", "9490 Liechtenstein", Nominatim's postalcode with country).
            var inCountry = options
            inCountry.countryCode = country
            Self.merge(from(.postcode, try postcodeCandidates(code, options: inCountry)), into: &ranked)
        }
        // "Name, Town": words naming where a place is match the areas it lies in, the others the place.
        Self.merge(from(.whatWhere, try placedCandidates(query, words: query.words.map { [$0] }, options: options, forced: nil)),
                   into: &ranked)
        // A country the file has no place for ("Pieni Roobertinkatu 3 Helsinki Finland" in a city's file, or
        // "…, FI"): the rest of the text, keeping the places in that country and those of no known country.
        // Not while the last word is being typed: "Ciudad Ch" is no Ciudad in Switzerland.
        if !ranked.contains(where: { $0.match == .exact }), !options.autocomplete || query.endsWithSpace,
           let (rest, code) = Self.countryAtEnd(of: text, languages: LanguagePreference.ordered(options.language)) {
            var wider = options
            wider.limit = min(SearchOptions.maxLimit, options.limit * 3)
            let found = try results(rest, options: wider, explanation: &explanation)
            tried(.inCountry, found.count)
            return Array(found.filter { $0.address.countryCode.map { $0.uppercased() == code } ?? true }.prefix(options.limit))
        }
        // A house number the street does not have ("Austrasse 10", "Austrasse 10, Vaduz"): the street there
        // (or an interpolated position), marked; other streets' 10s are not what was meant, nor typos.
        var fallback: [PlaceResult] = []
        if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == .exact && $0.kind != .street }) {
            fallback = try numberFallback(query, options: options)
            tried(.streetNumber, fallback.count)
        }
        // Typos: when exact and prefix matching find too little, let long words match words 1–2 edits away.
        // While the user is typing, prefix matches are enough to show: only none at all suggests a typo. A
        // name holding every word says they were typed right ("Oriente 1ra. Sección (Santo Domingo)", the
        // "1ra" read as a number, is no exact match: looking up typos of its four words took 20 ms).
        let tooFew = options.autocomplete ? ranked.isEmpty : ranked.count < min(options.limit, 3)
        // Nor is a text naming a category ("restaurant", "tourist information") a typo where the file has no
        // such places: cities500 read 6,000 words a typo or two from "Tourist information" (13.8 ms) to
        // find nothing.
        if tooFew && fallback.isEmpty && !ranked.contains(where: { $0.match == .exact || $0.nameHoldsWords })
            && CategoryText(text) == nil {
            let fuzzyWords = try query.words.enumerated().map { i, word in
                try [word] + index.similarWords(to: word, typing: options.autocomplete && i == query.words.count - 1)
            }
            if fuzzyWords.contains(where: { $0.count > 1 }) {
                var fuzzy = from(.fuzzy, try rankedCandidates(query, words: fuzzyWords, options: options, forced: .fuzzy))
                Self.merge(from(.fuzzy, try placedCandidates(query, words: fuzzyWords, options: options, forced: .fuzzy)), into: &fuzzy)
                let seen = Set(ranked.map(\.id))
                ranked += fuzzy.filter { !seen.contains($0.id) }
                // "Austrase 10" where Austrasse has no 10: the street, spelt as its nearest indexed words.
                if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == .exact }) {
                    var corrected = query
                    corrected.words = fuzzyWords.map { $0.count > 1 ? $0[1] : $0[0] }
                    fallback = try numberFallback(corrected, options: options)
                    tried(.streetNumber, fallback.count)
                }
            }
        }
        ranked.sort { ($0.score, -$0.order) > ($1.score, -$1.order) }
        // Full results only for those shown: reading a place (tags JSON and all) costs more than ranking it.
        let shown = Dictionary(ranked.prefix(options.limit).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found = try places.results(ids: ranked.prefix(options.limit).map(\.id)).map { place in
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
        var results = try places.localized(Array(found.prefix(options.limit)), language: options.language)
        for i in results.indices {
            results[i].highlights = Highlighter.ranges(in: results[i].displayName, words: query.words, numbers: query.numbers,
                                                       lastIsPrefix: options.autocomplete)
        }
        var offeredCategory = false
        if options.autocomplete, let offered = categorySuggestion(text, options: options) {
            // Second, so that the place the text most likely names stays first.
            results.insert(offered, at: min(1, results.count))
            offeredCategory = true
        }
        let answer = Array(results.prefix(options.limit))
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

    /// While typing a category word ("coff", "pharm"): the category itself, as a result of kind `category`
    /// (at `near`, else the centre of `bbox`, else 0, 0). Nil for text of fewer than 3 letters or that
    /// starts no category word.
    private func categorySuggestion(_ text: String, options: SearchOptions) -> PlaceResult? {
        let typed = text.trimmingCharacters(in: .whitespaces)
        guard typed.count >= 3, options.kinds.isEmpty || options.kinds.contains(.category), options.categories == nil,
              let id = Taxonomy.standard.categories(startingWith: typed).first,
              let category = Taxonomy.standard.category(id) else { return nil }
        let point = options.near ?? options.bbox.map { Coordinate(lat: ($0.minLat + $0.maxLat) / 2, lon: ($0.minLon + $0.maxLon) / 2) }
        return PlaceResult(id: 0, sourceRef: nil, kind: .category, category: nil, categoryID: id,
                           name: category.label, displayStyle: .category, lat: point?.lat ?? 0,
                           lon: point?.lon ?? 0, distanceM: nil, address: Address(), tags: [:], score: nil, match: .category)
    }

    /// A text naming a category ("restaurant", "cafes", "pharmacy near Vaduz", "atm Monaco"): the places of
    /// that category near `near` or in `bbox` (nearest first), in the named town (nearest its centre first),
    /// within 1 km of the named place ("cafe near Senaatintori"), or else the most important ones. Nil when
    /// the text is no such phrase, or nothing of the category is there, so it is searched as names.
    private func categoryPlaces(_ text: String, options: SearchOptions) throws -> [PlaceResult]? {
        guard options.kinds.isEmpty || options.kinds.contains(.poi), options.categories == nil,
              let category = CategoryText(text) else { return nil }
        // A country asked for is applied to a deeper list: the box and an anchor's surroundings cross borders.
        let depth = options.countryCode == nil ? options.limit : min(NearbySearch.maxPageSize, options.limit * 20)
        var found: [PlaceResult]
        if let placeText = category.place {
            var anchorOptions = options
            anchorOptions.limit = 1
            guard let anchor = category.placeIsTown ? try town(named: placeText, options: options)
                                                    : try results(placeText, options: anchorOptions).first else { return nil }
            if PlaceReach.townKinds.contains(anchor.kind), let reach = PlaceReach.metres(anchor.kind) {
                let around = try nearby.places(near: anchor.coordinate, radius: reach, filter: category.filter, name: nil,
                                               limit: NearbySearch.maxPageSize, after: nil).places
                found = Array(try TownScope(anchor, places: places, db: db).filter(around).prefix(depth))
            } else {
                found = try nearby.places(near: anchor.coordinate, radius: 1_000, filter: category.filter, name: nil,
                                          limit: depth, after: nil).places
            }
        } else if let box = options.bbox {
            found = try nearby.places(in: box, near: options.near, filter: category.filter, name: nil, limit: depth,
                                      after: nil).places
        } else if let near = options.near {
            found = try nearby.places(near: near, radius: 10_000, filter: category.filter, name: nil, limit: depth,
                                      after: nil).places
        } else {
            found = try places.results(ids: try index.mostImportant(of: category.filter, options: options, limit: options.limit))
        }
        if let code = options.countryCode {
            found = Array(found.filter { $0.address.countryCode?.uppercased() == code.uppercased() }.prefix(options.limit))
        }
        guard !found.isEmpty else { return nil }
        return found.map { var p = $0; p.match = .category; return p }
    }

    /// The town a category phrase names ("atm Monaco", "atm Helsingfors"): a place of a town kind (with the
    /// options' country and box) one of whose names is the text, the most important, or with `near` the
    /// nearest. Looked up among the places area sets name (`area_name_fts`), not by searching the text:
    /// most texts after a category word are the rest of a name ("Sport pub Che", "Bank bar and bis"), and a
    /// whole search of them, typing included, cost as much again as the search that follows (and a search
    /// filtered by kind read every place holding the words when none is a town).
    private func town(named text: String, options: SearchOptions) throws -> PlaceResult? {
        let words = TextNormalizer.tokens(text)
        let ids = try index.areaPlaces(naming: words, kinds: PlaceReach.townKinds, limit: options.near == nil ? 5 : 200)
        guard !ids.isEmpty else { return nil }
        var names = try index.names(of: ids, .ownInAnyLanguage, words: words, fuzzy: false, language: nil)
        for (id, alternates) in try index.names(of: ids, .alternates, words: words, fuzzy: false, language: nil) {
            names[id, default: []] += alternates
        }
        let towns = try places.results(ids: ids.filter { id in names[id]?.contains { $0.words == words } == true }).filter { town in
            options.countryCode.map { town.address.countryCode?.uppercased() == $0.uppercased() } ?? true
                && options.bbox.map { $0.contains(town.coordinate) } ?? true
        }
        guard let near = options.near else { return towns.first }
        return towns.min { near.distance(to: $0.coordinate) < near.distance(to: $1.coordinate) }
    }

    /// The text before its last words (at most four, no number among them) when they name a country by
    /// CLDR (`CountryCode.named`), the longest such words, and that country; nil when they do not or
    /// nothing would be left. A code counts only typed in capitals ("FI"): "de", "la", "al" are words.
    static func countryAtEnd(of text: String, languages: [String]) -> (rest: String, code: String)? {
        var pieces: [Substring] = []
        var rest = Substring(text)
        while pieces.count < 4, let end = rest.lastIndex(where: { !$0.isWhitespace && $0 != "," }) {
            let start = rest[...end].lastIndex(where: { $0.isWhitespace || $0 == "," }).map(rest.index(after:)) ?? rest.startIndex
            pieces.insert(rest[start...end], at: 0)
            rest = rest[..<start]
        }
        var words: [String] = []
        var found: (rest: String, code: String)?
        for piece in pieces.reversed() {
            let folded = TextNormalizer.fold(String(piece))
            guard folded.first?.isNumber != true else { break }
            words.insert(contentsOf: TextNormalizer.tokens(folded), at: 0)
            guard words.count <= 4 else { break }
            if words.count == 1, CountryCode.parse(words[0]) != nil, piece != piece.uppercased() { continue }
            let before = text[..<piece.startIndex].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: ",")))
            if !before.isEmpty, let code = CountryCode.named(byWords: words, languages: languages) { found = (before, code) }
        }
        return found
    }

    /// The country that the folded `words` are the code ("li") or a name ("liechtenstein") of; nil when
    /// they are none (or nothing).
    private func countryNamed(by words: [String]) throws -> String? {
        guard !words.isEmpty, words.count <= 4 else { return nil }
        if words.count == 1, let code = CountryCode.parse(words[0]) { return code }
        var countries = SearchOptions()
        countries.kinds = [.country]
        guard let match = FTSQuery.groups(words.map { [$0] }, column: "name") else { return nil }
        for candidate in try index.candidates(match: match, options: countries, limit: 5) {
            let names = try index.names(of: [candidate.id], .ownInAnyLanguage, words: words, fuzzy: false, language: nil)[candidate.id] ?? []
            guard names.contains(where: { $0.words == words }) else { continue }
            return try places.results(ids: [candidate.id]).first?.address.countryCode
        }
        return nil
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
                return RankedCandidate(id: place.id, order: place.order, kind: place.kind, score: score, match: exact ? .exact : .prefix,
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

    /// The ways to read the query as "what, where": the words at one end naming areas, the others the place.
    /// With commas, the parts after or before a comma ("Street 1, Town", "Town, Street 1"); without, the last
    /// or the first one to three words, as people write the town after the street or before it ("Monaco Ville
    /// Rue Basse 37", a town of two words whose first is also the country's name). While `typing`, a last
    /// word of one or two letters is no "where" alone: it begins the names of thousands of areas, which
    /// narrow nothing and cost most ("Metro Rautatientori A" on tiled ×400: 13 of its 18 ms).
    static func readings(of query: ParsedQuery, typing: Bool) -> [(what: Range<Int>, where: Range<Int>)] {
        allReadings(of: query).filter { reading in
            !(typing && reading.where.count == 1 && reading.where.upperBound == query.words.count
              && query.words[reading.where.lowerBound].count < 3)
        }
    }

    /// Most words a "where" of a text without commas holds: towns of three words ("Andorra la Vella", "Saint
    /// Jean Cap") are common, of more rare.
    private static let maxWhereWords = 3

    private static func allReadings(of query: ParsedQuery) -> [(what: Range<Int>, where: Range<Int>)] {
        let words = query.words
        guard words.count >= 2 || (words.count == 1 && !query.numbers.isEmpty) else { return [] }
        var readings: [(what: Range<Int>, where: Range<Int>)] = []
        if query.partSizes.count > 1 {
            for parts in 1..<query.partSizes.count {
                let whereCount = query.partSizes.suffix(parts).reduce(0, +)
                readings.append((0..<(words.count - whereCount), (words.count - whereCount)..<words.count))
            }
            for parts in 1..<query.partSizes.count {
                let whereCount = query.partSizes.prefix(parts).reduce(0, +)
                readings.append((whereCount..<words.count, 0..<whereCount))
            }
        } else {
            let most = min(maxWhereWords, words.count)
            for count in 1...most where count < words.count || !query.numbers.isEmpty {
                readings.append((0..<(words.count - count), (words.count - count)..<words.count))
            }
            for count in 1...most where count < words.count {
                readings.append((count..<words.count, 0..<count))
            }
        }
        return readings.filter { !($0.what.isEmpty && query.numbers.isEmpty) }
    }

    /// The area sets the `where` words of a reading name (the last word a prefix while typing), remembered
    /// for the rest of the search (the typo pass and the house number fallback ask again).
    private func areaSets(_ query: ParsedQuery, where place: Range<Int>, options: SearchOptions) throws -> SearchIndex.AreaSetList {
        var placeGroups = query.words[place].map { TextNormalizer.variants($0) }
        // The word being typed is a prefix; its other forms are whole words (see `rankedCandidates`).
        if options.autocomplete, place.upperBound == query.words.count, let last = placeGroups.indices.last {
            placeGroups[last][0] += "*"
        }
        if let sets = areaSetsNamed[placeGroups] { return sets }
        let sets = try index.areaSets(naming: placeGroups)
        areaSetsNamed[placeGroups] = sets
        return sets
    }

    /// Candidates of the query read as "what, where" (`readings`): the `where` words match the areas a
    /// place lies in, the others the place (`alternatives`: each word's, typos included when `forced` is
    /// fuzzy). Each reading is tried when its area words name some area set.
    private func placedCandidates(_ query: ParsedQuery, words alternatives: [[String]], options: SearchOptions,
                                  forced: MatchClass?) throws -> [RankedCandidate] {
        let words = query.words
        var found: [RankedCandidate] = []
        for (what, place) in Self.readings(of: query, typing: options.autocomplete) {
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
        guard options.kinds.isEmpty || options.kinds.contains(.street), query.numbers.isEmpty else { return [] }
        let towns = try places.results(ids: try index.areaPlaces(naming: town, kinds: PlaceReach.townKinds, limit: 5))
            .filter { TextNormalizer.tokens($0.name ?? "") == town }
        guard !towns.isEmpty else { return [] }
        // All of them (the one in the town may rank below other towns' streets of the name), by their names
        // alone: a street's other names are not what "Street, Town" is typed as, and reading them for the
        // 200 Aleksanterinkatus of tiled ×400 was 4 of its 10 ms.
        guard let match = FTSQuery.groups(Self.variantGroups(words), column: "name") else { return [] }
        let streets = try streets(match: match, options: options).compactMap { street in
            street.mainName.map {
                SearchRanking.rank(street, query: query, names: [SearchRanking.CandidateName($0, own: true)], forced: forced, near: options.near)
            }
        }.filter { $0.match == .exact || forced != nil }
        guard !streets.isEmpty else { return [] }
        let results = try places.results(ids: streets.map(\.id))
        var inTown: [Int64: (point: Coordinate, town: String, level: AddressLevel)] = [:]
        for town in towns.prefix(2) {
            for (street, point) in try TownScope(town, places: places, db: db).points(in: results) where inTown[street.id] == nil {
                if let point { inTown[street.id] = (point, town.name ?? "", town.kind.addressLevel ?? .city) }
            }
        }
        return streets.compactMap { street in
            guard let (point, town, level) = inTown[street.id] else { return nil }
            var shown = street
            shown.shownIn = (point, town, level)
            shown.distanceM = options.near.map { $0.distance(to: point) }
            return shown
        }
    }

    /// The streets among the `candidateLimit` highest-ranked matches of `match` (streets are lifted in that
    /// order), whatever kinds the options ask for. Filtered by kind in SQL instead, a name no street has
    /// read every place named so ("Helsinki 199": 30 ms on tiled ×400; "Ravintola, Kaisaniemi" 3.5 ms).
    private func streets(match: String, options: SearchOptions, inSets: SearchIndex.AreaSetList? = nil) throws -> [SearchIndex.Candidate] {
        var anyKind = options
        anyKind.kinds = []
        return try index.candidates(match: match, options: anyKind, inSets: inSets, limit: Self.candidateLimit).filter { $0.kind == .street }
    }

    /// Candidates for the words (each a list of alternatives), scored by `SearchRanking`: only those that
    /// can be among the best `options.limit` (`scoreBestFirst`). With a house number too: a candidate that
    /// has it scores at least what one without it can (the number's bonus is in its bound), so the number
    /// fallback, asked for when no exact match is scored, could only add answers below the shown ones.
    /// (Scoring all 200, as before, was most of "Mannerheimintie 5" on tiled ×400: 2.8 → 0.35 ms.)
    private func rankedCandidates(_ query: ParsedQuery, words: [[String]], options: SearchOptions, forced: MatchClass?,
                                  inSets: SearchIndex.AreaSetList? = nil, typing typingLast: Bool? = nil) throws -> [RankedCandidate] {
        var groups = Self.variantGroups(words)
        groups += query.numbers.map { [$0] }
        var prefixGroups = groups
        // The last word is still being typed: a prefix in the index (typos are whole words found beforehand).
        // Its other forms are whole words: "West" is also "W", not every word beginning with w (which
        // filled the 200 candidates with Warsaw, Seoul, … through alternate names, and read all their names).
        let lastTyped = (typingLast ?? options.autocomplete) && !words.isEmpty
        let entry = SearchRanking.Entry(typing: lastTyped, query: query)
        if lastTyped && forced == nil {
            let typed = words[words.count - 1]
            prefixGroups[words.count - 1] = try typed.flatMap(index.prefixTerms) + groups[words.count - 1].filter { !typed.contains($0) }
        }
        guard let match = FTSQuery.groups(prefixGroups) else { return [] }
        // Streams of matches, each in rank order, read as far as their bounds can matter: the places one of
        // whose names is exactly the query (their whole-name keys, `NameKey`), those whose names hold a
        // query word, and those that matched through their address alone, which score as no name holding
        // the words (14 points, not 31.5). Read in one stream, "Vaduz" on Liechtenstein scored 200 of its
        // 1,700 matches, nearly all addresses in Vaduz, in case one was named Vaduz; "strasse" 200 streets
        // named "…strasse" in case one was named "Strasse". While typing, a name equal to the text so far
        // scores a little more than others beginning with it: keys too. Typo matching compares names by
        // edits, which no index column can tell: one stream.
        // The rows named exactly one word are the rows of its key: read from place_name_key alone, once for
        // both exact streams, not by going through every match for the few that hold it ("S" typed: 40,000
        // rows of cities500).
        let byKeyAlone = inSets == nil && query.words.count == 1 && query.numbers.isEmpty && words.count == 1 && words[0].count == 1
        var keyedRows: [Int64]?
        func rows(named keys: String, alternates: Bool) throws -> [Int64] {
            let all = try keyedRows ?? index.rowids(named: keys, limit: Self.candidateLimit)
            keyedRows = all
            return all.filter { SearchRowID.isAlternate($0) == alternates }
        }
        // The places with a name that is the text (own or alternate), when all are known: a place read from
        // the stream of names that are not the text and not among them has none (its names need only reach
        // a prefix match's points, which its main name usually does, without reading the rest).
        var placesNamedSo: Set<Int64>??
        func hasNoExactName(_ keys: String) -> (SearchIndex.Candidate) throws -> Bool {
            { place in
                if placesNamedSo == nil {
                    let all = try rows(named: keys, alternates: false) + rows(named: keys, alternates: true)
                    placesNamedSo = .some(all.count < Self.candidateLimit ? Set(all.map(SearchRowID.place)) : nil)
                }
                guard let known = placesNamedSo ?? nil else { return false }
                return !known.contains(place.id)
            }
        }
        // For a text of several words, the rows holding a key, of own and alternate names alike, read once in
        // pages for both exact streams: when few rows hold one, a page is a scan of every match ("San Jose"
        // scanned its matches once per stream).
        var exactRowsRead: [SearchIndex.Candidate] = [], exactRowsDone = false, exactRowsAsked = 0
        func exactRows(_ match: String, keys: (match: String, holding: Bool), alternates: Bool, after: Int64?,
                       limit: Int) throws -> (candidates: [SearchIndex.Candidate], last: Bool) {
            while true {
                let kind = exactRowsRead.filter { $0.throughAlternates == alternates && $0.rowid > after ?? .min }
                if kind.count >= limit || exactRowsDone { return (Array(kind.prefix(limit)), exactRowsDone && kind.count <= limit) }
                let page = min(2 * Self.candidateLimit - exactRowsAsked, max(firstPage, exactRowsAsked))
                let found = try index.candidateRows(match: match, options: options, inSets: inSets, after: exactRowsRead.last?.rowid,
                                                    keys: keys, limit: page)
                exactRowsRead += found
                exactRowsAsked += page
                exactRowsDone = found.count < page || exactRowsAsked >= 2 * Self.candidateLimit
            }
        }
        func source(_ match: String, names: SearchRanking.NameBound, keys: (match: String, holding: Bool)? = nil,
                    exactKeys: String? = nil) -> CandidateSource {
            let alternateRows: Bool? = names == .exactOwn ? false : names == .exactAlternate ? true : nil
            // Rows of the address stream are rarely among the best: their first page is a couple of rows,
            // enough to learn the rank they start at (a first page of 20 cost "Eger" as typed a fifth more). So
            // are the rows whose names do not begin with the word, where most do ("Schaan": 14 of 66, a page of
            // 20 read all 66).
            let firstPage = names == .none || names == .notExactNotLeading ? 2 : firstPage
            var read = 0
            var listed: [Int64]?
            var source = CandidateSource(bound: { rank in
                SearchRanking.bound(ofPlacesUpTo: rank, query: query, forced: forced, near: options.near, entry: entry, names: names)
            }, read: { after in
                // The 200 highest-ranked matches, read as far as scoring needs them: twice as many as are
                // kept first (on data with many places of a name, often all it takes: the tenth of 400 equal
                // "Stockmann"s is known after 11), then pages doubling.
                guard read < Self.candidateLimit else { return nil }
                let page = min(Self.candidateLimit - read, read == 0 ? firstPage : read)
                read += page
                if let keys, keys.holding, let alternateRows {
                    let (found, last) = byKeyAlone
                        ? try self.index.candidates(of: rows(named: keys.match, alternates: alternateRows), after: after,
                                                    options: options, limit: page)
                        : try exactRows(match, keys: keys, alternates: alternateRows, after: after, limit: page)
                    return (found, last || read >= Self.candidateLimit)
                }
                if let keys, keys.holding, byKeyAlone {
                    // The rows with a name beginning with the word: listed from place_name_key (few, or the stream
                    // is not apart), not found by going through every match ("Schaan": 1,700, for a handful).
                    let rows = try listed ?? self.index.rowids(named: keys.match, limit: Self.candidateLimit)
                    listed = rows
                    let (found, last) = try self.index.candidates(of: rows, after: after, options: options, limit: page)
                    return (found, last || read >= Self.candidateLimit)
                }
                let found = try self.index.candidateRows(match: match, options: options, inSets: inSets, after: after, keys: keys,
                                                         limit: page)
                return (found, found.count < page || read >= Self.candidateLimit)
            })
            if let exactKeys, byKeyAlone { source.hasNoExactName = hasNoExactName(exactKeys) }
            source.givesWholeAlternates = alternateRows == true
            source.namesMayBeExact = names != .notExact && names != .notExactNotLeading
            source.namesMayLead = names != .notExactNotLeading
            source.ownMayScoreMore = alternateRows == true && (entry != .complete || !byKeyAlone)
            return source
        }
        // The rows whose names are not the text, those with a name beginning with a query word apart when the
        // file's keys say which (a typed word's beginning is no key: not while typing). A name that begins with
        // the words gets `leadingBonus`, and rows holding a common word mostly hold it later ("hsien" in the
        // alternates of hundreds of Chinese cities, "… bike station"): their bound 1.5 lower, they are read
        // only as far as that can matter, not to the 200th. Not when many names begin with a word ("San"):
        // then most rows are of the first kind, and SQLite would list them all for each page read of either.
        func notExact(_ nameMatch: String, exactKeys: String) throws -> [CandidateSource] {
            var firstWords: [String] = []
            for token in query.words.flatMap(TextNormalizer.variants).map(NameKey.firstWord) where !firstWords.contains(token) {
                firstWords.append(token)
            }
            guard entry == .complete, try index.keysHoldFirstWords(), let leading = FTSQuery.groups([firstWords]),
                  try !index.keysHeldByMore(than: Self.leadingRowsApart, keys: leading) else {
                return [source(nameMatch, names: .notExact, keys: (exactKeys, false), exactKeys: exactKeys)]
            }
            return [source(nameMatch, names: .notExact, keys: ("(\(leading)) NOT (\(exactKeys))", true), exactKeys: exactKeys),
                    source(nameMatch, names: .notExactNotLeading, keys: ("(\(exactKeys)) OR (\(leading))", false), exactKeys: exactKeys)]
        }
        var sources: [CandidateSource]
        // A text that few rows match (most names: rare ones) is read whole in one page of one stream: three
        // streams cost three statements (Monaco's random names, p50 70 → 143 µs). A count of at most a page
        // and one, from the index alone, tells which.
        let firstPage = max(16, 2 * options.limit)
        if forced == nil, !words.isEmpty, try index.matchesMore(than: firstPage, match: match),
           let named = FTSQuery.groups([Array(prefixGroups.prefix(words.count).joined())], column: FTSQuery.names) {
            let nameMatch = "(\(match)) AND \(named)"
            let addressOnly = source("(\(match)) NOT \(named)", names: .none)
            // Rows of own and of alternate names apart: a whole alternate name loses less than its row's rank
            // says, and read with own names the bound of every unread row would be that much higher.
            let exactKeys = SearchRanking.exactWords(of: query).flatMap { FTSQuery.groups([$0.compactMap(NameKey.of)]) }
            if let exactKeys {
                sources = [source(nameMatch, names: .exactOwn, keys: (exactKeys, true))]
                    + (try index.alternateRowHolds(keys: exactKeys) ? [source(nameMatch, names: .exactAlternate, keys: (exactKeys, true))] : [])
                    + (try notExact(nameMatch, exactKeys: exactKeys)) + [addressOnly]
            } else {
                sources = [source(nameMatch, names: .exact), addressOnly]
            }
        } else {
            sources = [source(match, names: .exact)]
        }
        return try scoreBestFirst(query: query, options: options, forced: forced, entry: entry, keep: options.limit, from: sources)
    }

    /// Index rows in rank order (rowid order), read page by page: `read` gives the rows after a rowid (nil:
    /// from the first) and whether they were the last, or nil when there are no more; `bound` is the most a
    /// row of at most a rank (`SearchRowID.highestRank`) can score.
    private struct CandidateSource {
        let bound: (_ rank: Double) -> Double
        let read: (_ after: Int64?) throws -> (candidates: [SearchIndex.Candidate], last: Bool)?
        /// The last rowid read; nil before the first page.
        var lastRowID: Int64?
        var more = true
        /// Whether a candidate read is known to have no name that is the whole text.
        var hasNoExactName: (SearchIndex.Candidate) throws -> Bool = { _ in false }
        /// Whether the names of the rows it gives may be the whole text, may begin with a query word (false:
        /// the index's keys say they do not; the place's other row may still have one).
        var namesMayBeExact = true
        var namesMayLead = true

        /// The lowest `Candidate.order` a row not yet read can have: a row of alternate names whole stands for
        /// its place's own row, ranked higher. (An alternate's partial match ties a result rarely enough to be
        /// read in rowid order.)
        var lowestUnreadOrder: Int64 {
            guard let lastRowID else { return .min }
            return givesWholeAlternates ? SearchRowID.lowestOwnRowID(standingForAlternatesAfter: lastRowID) : lastRowID
        }
        /// It gives the rows of alternate names that are the whole text.
        var givesWholeAlternates = false
        /// A place first read from it through its alternates' row may score more by its own names.
        var ownMayScoreMore = false

        /// The most a row not yet read can score: -infinity when all are read.
        var unreadBound: Double {
            guard more else { return -.infinity }
            return bound(lastRowID.map(SearchRowID.highestRank(after:)) ?? 1)
        }
    }

    /// Each word's alternatives with their index variants (abbreviations, spellings): the FTS5 groups of a query.
    private static func variantGroups(_ words: [[String]]) -> [[String]] {
        words.map { alternatives in alternatives.flatMap { TextNormalizer.variants($0) } }
    }

    /// At most this many rows with a name beginning with a query word are read as a stream of their own.
    static let leadingRowsApart = 500

    /// At most this many matches of a query are ranked, the most important ones.
    static let candidateLimit = 200

    /// A candidate on its way to a score: the most it can still score (rounded as scores are) and the names
    /// read so far.
    private struct Scoring {
        var place: SearchIndex.Candidate
        var bound: Double
        /// Which of its names are read (`names`), in the order of their tiers.
        var read = NamesRead.none
        var names: [SearchRanking.CandidateName] = []
        /// One of its own names, one of its alternate names may be the whole text (unless the index's keys
        /// say none is).
        var ownMayBeExact = true
        var alternateMayBeExact = true
        /// One of its own names, one of its alternate names may begin with a query word (unless the index's
        /// keys say none does).
        var ownMayLead = true
        var alternateMayLead = true

        enum NamesRead {
            case none
            /// Its own names in the language asked for or none.
            case own
            /// All its own names (none when it matched through its alternates' row, since they do not hold
            /// the words): then only an alternate name can raise its score to `bound`.
            case ownInAnyLanguage
        }

        /// The most its names not yet read can give (`SearchRanking.bound`).
        func unreadBound(_ bound: (SearchIndex.Candidate, SearchRanking.NameTier, Bool, Bool) -> Double) -> Double {
            let alternate = bound(place, .alternate, alternateMayBeExact, alternateMayLead)
            switch read {
            case .none: return max(bound(place, .own, ownMayBeExact, ownMayLead), alternate)
            case .own: return max(bound(place, .otherLanguage, ownMayBeExact, ownMayLead), alternate)
            case .ownInAnyLanguage: return alternate
            }
        }
    }

    /// Scores the candidates the sources give (each index rows in rowid order; a place comes once, through
    /// the first row of it read, or again through its own row when its alternates' came first), only as many
    /// as it takes to know the best `keep`. Names are the cost of ranking (a capital has 150, most of them
    /// alternates or in other languages), so they are read in rounds, the candidates that can score highest
    /// first (`SearchRanking.bound`), a tier at a time: a place whose main name reaches its bound needs no
    /// other; one whose names read so far score at least what the next tier could give needs no more; the
    /// others are put back with that lower bound. Candidates not yet read can score no more than their
    /// source's bound for the rank of the last one it gave, and the source whose unread rows can score most is
    /// read next. It stops when no candidate left can beat the `keep`-th score, or equal it with a lower rowid.
    private func scoreBestFirst(query: ParsedQuery, options: SearchOptions, forced: MatchClass?, entry: SearchRanking.Entry, keep: Int,
                                from sources: [CandidateSource]) throws -> [RankedCandidate] {
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        func rank(_ place: SearchIndex.Candidate, _ names: [SearchRanking.CandidateName]) -> RankedCandidate {
            SearchRanking.rank(place, query: query, names: names, forced: forced, near: options.near, entry: entry)
        }
        func bound(_ place: SearchIndex.Candidate, _ tier: SearchRanking.NameTier, exact: Bool, leading: Bool) -> Double {
            rounded(SearchRanking.bound(place, query: query, forced: forced, near: options.near, entry: entry, tier: tier, exact: exact,
                                        leading: leading))
        }
        var open: [Scoring] = []
        var scored: [RankedCandidate] = []
        // Each place read, and whether through its own names' row (false: its alternates' row alone so far).
        var seen: [Int64: Bool] = [:]
        var batch = 16
        var sources = sources
        while true {
            // The most any candidate not yet read can score (-infinity when all are read), and its source: of
            // sources as high, the one whose unread rows come first in rank order (not read yet, or read least
            // far), since only those can tie the k-th result and rank above it ("Landstrasse": the exact
            // stream's equal houses were read to 200 while the stream holding the tie was never asked).
            var unreadBound = -Double.infinity, next = 0
            for (i, source) in sources.enumerated() {
                let bound = rounded(source.unreadBound)
                if bound > unreadBound || (bound == unreadBound && (source.lastRowID ?? .min) < (sources[next].lastRowID ?? .min)) {
                    (unreadBound, next) = (bound, i)
                }
            }
            open.sort { ($0.bound, -$0.place.order) > ($1.bound, -$1.place.order) }
            // The candidates read that may still rank among the best `keep`: a prefix of `open`.
            var mayRankAbove = open.count
            if scored.count >= keep {
                let kth = scored.sorted { ($0.score, -$0.order) > ($1.score, -$1.order) }[keep - 1]
                mayRankAbove = open.prefix { $0.bound > kth.score || ($0.bound == kth.score && $0.place.order < kth.order) }.count
                // A source's unread rows follow its last row read, but may precede the k-th's row (it came from
                // another source): one of them that equals its score ranks before it.
                let unreadMayRankAbove = sources.contains { source in
                    let bound = rounded(source.unreadBound)
                    return bound > kth.score || (bound == kth.score && source.lowestUnreadOrder < kth.order)
                }
                if !unreadMayRankAbove && mayRankAbove == 0 { break }
            }
            // More candidates when those read are used up, or one not read may score more than they can.
            if unreadBound > open.first?.bound ?? -.infinity || (mayRankAbove == 0 && unreadBound > -.infinity) {
                guard let page = try sources[next].read(sources[next].lastRowID) else { sources[next].more = false; continue }
                // A place first found through its alternates' row is scored by its alternates alone: its own
                // row, had it matched for more points, came first (in the same stream, at a lower rowid, or in
                // a stream read further ahead). Not from the stream of exact alternate names: that is read
                // ahead of the own names' at equal rank, and its row may be no whole alternate ("El Ejido"
                // found the town through its alternate "Ejido", keyed as if "El" named where it is) or, while
                // typing, score less than an own name beginning with the words: its own names are read too.
                let source = sources[next]
                var fresh: [SearchIndex.Candidate] = []
                for place in page.candidates {
                    let throughOwn = !place.throughAlternates || source.ownMayScoreMore
                    switch seen[place.id] {
                    case nil:
                        seen[place.id] = throughOwn
                        fresh.append(place)
                    case false? where throughOwn:
                        // Its own row after its alternates' (from another stream, read later: an exact alternate
                        // read first, or the rows leading with the word before those that do not): read again
                        // through its own names, in place of what its alternates gave ("Dong" on cities15000
                        // missed Thi Tran Dong Trieu at a limit of 10, "brno" scored Brno by its alternate BRNO).
                        seen[place.id] = true
                        open.removeAll { $0.place.id == place.id }
                        scored.removeAll { $0.id == place.id }
                        fresh.append(place)
                    default:
                        continue
                    }
                }
                open += try fresh.map { place in
                    var candidate = Scoring(place: place, bound: 0)
                    if place.throughAlternates && !source.ownMayScoreMore {
                        candidate.read = .ownInAnyLanguage
                        candidate.alternateMayBeExact = source.namesMayBeExact
                        candidate.alternateMayLead = source.namesMayLead
                    } else {
                        if try source.hasNoExactName(place) {
                            (candidate.ownMayBeExact, candidate.alternateMayBeExact) = (false, false)
                        } else {
                            candidate.ownMayBeExact = source.namesMayBeExact
                        }
                        candidate.ownMayLead = source.namesMayLead
                    }
                    candidate.bound = candidate.unreadBound(bound)
                    return candidate
                }
                sources[next].lastRowID = page.candidates.last?.rowid ?? sources[next].lastRowID
                sources[next].more = !page.last && !page.candidates.isEmpty
                continue
            }
            guard !open.isEmpty else { break }
            // Never more than may still rank: a round of names read for candidates put back with a bound that
            // ties the k-th is wasted ("helsingfors" on tiled ×400: 200 capitals' hundred language names).
            let round = open.prefix(min(batch, mayRankAbove))
            open.removeFirst(round.count)
            batch *= 2
            // Each candidate's next tier of names, a statement per tier: it is scored once its names reach the
            // most the next tier could give, else put back with that bound.
            var needOwn: [Scoring] = [], needAllOwn: [Scoring] = [], needOtherLanguages: [Scoring] = [], needAlternates: [Scoring] = []
            for candidate in round {
                switch candidate.read {
                case .own: needOtherLanguages.append(candidate)
                case .ownInAnyLanguage: needAlternates.append(candidate)
                case .none:
                    // The name it is shown by is its own, even where the names read have it only in a language
                    // (a street tagged name:da and name:nn alone).
                    var candidate = candidate
                    candidate.names = candidate.place.mainName.map { [SearchRanking.CandidateName($0, own: true)] } ?? []
                    if !candidate.names.isEmpty {
                        let byMain = rank(candidate.place, candidate.names)
                        if byMain.score >= candidate.bound { scored.append(byMain); continue }
                    }
                    // Its own names apart from those in other languages only when they may be enough: not when an
                    // alternate may score as much (a statement more for nothing: Monaco's towns).
                    var ownOnly = candidate
                    ownOnly.read = .own
                    if ownOnly.unreadBound(bound) < candidate.bound { needOwn.append(candidate) } else { needAllOwn.append(candidate) }
                }
            }
            // Own names in the asked language leave those in other languages to read; any other read leaves
            // the alternates.
            func readNext(_ candidates: [Scoring], _ rows: SearchIndex.NameRows) throws {
                let read: Scoring.NamesRead = rows == .own ? .own : .ownInAnyLanguage
                let more = try index.names(of: candidates.map(\.place.id), rows, words: query.words, fuzzy: forced == .fuzzy,
                                           language: options.language)
                for var candidate in candidates {
                    candidate.names += more[candidate.place.id] ?? []
                    candidate.read = read
                    let nextBound = candidate.unreadBound(bound)
                    let ranked = rank(candidate.place, candidate.names)
                    if ranked.score >= nextBound {
                        scored.append(ranked)
                    } else {
                        candidate.bound = nextBound
                        open.append(candidate)
                    }
                }
            }
            try readNext(needOwn, .own)
            try readNext(needAllOwn, .ownInAnyLanguage)
            try readNext(needOtherLanguages, .otherLanguages)
            let alternates = try index.names(of: needAlternates.map(\.place.id), .alternates, words: query.words, fuzzy: forced == .fuzzy,
                                             language: options.language)
            scored += needAlternates.map { rank($0.place, $0.names + (alternates[$0.place.id] ?? [])) }
        }
        return scored
    }

    /// For "Street 99" where the street has no 99: an interpolation line covering 99 (with the position
    /// along it), else the street itself; marked `interpolated` / `fallback`. "Street 99, Town": the street
    /// in that town (the query read as "what, where" when all its words name no street).
    func numberFallback(_ query: ParsedQuery, options: SearchOptions) throws -> [PlaceResult] {
        let whole = try numberFallback(query, inSets: nil, options: options)
        guard whole.isEmpty else { return whole }
        for (what, place) in Self.readings(of: query, typing: options.autocomplete) where !what.isEmpty {
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
    private func numberFallback(_ query: ParsedQuery, inSets: SearchIndex.AreaSetList?, options: SearchOptions) throws -> [PlaceResult] {
        guard !query.words.isEmpty, let number = query.numbers.first, let wanted = Int(number.prefix { $0.isNumber }) else {
            return []
        }
        var results: [PlaceResult] = []
        let words = query.words.map { TextNormalizer.variants($0) }
        if let match = FTSQuery.groups(words, column: FTSQuery.address) {
            let lines = try places.results(ids: try index.candidates(match: match, options: options, inSets: inSets, limit: 50).map(\.id))
                .filter { $0.kind == .interpolation }
            for var line in lines {
                let range = (line.address.housenumber ?? "").split(separator: "-").compactMap { Int($0) }
                guard range.count == 2, (min(range[0], range[1])...max(range[0], range[1])).contains(wanted),
                      let geometry = try places.geometry(of: line.id), case .lineStrings(let parts) = geometry, let points = parts.first,
                      let point = LineMath.point(along: points, fraction: range[0] == range[1] ? 0
                                                    : Double(wanted - range[0]) / Double(range[1] - range[0])) else { continue }
                line.lat = point.coordinate.lat
                line.lon = point.coordinate.lon
                line.address.housenumber = number
                line.match = .interpolated
                line.score = SearchRanking.interpolatedScore
                results.append(line)
            }
        }
        if results.isEmpty, let match = FTSQuery.groups(words, column: "name") {
            // The street named so: not every street with one of its words in a longer name. A word may be
            // written short ("52 Bodastr, Triesenberg" for Bodastrasse): each name word one of its forms.
            let named = try places.results(ids: try streets(match: match, options: options, inSets: inSets).prefix(20).map(\.id))
            let exact = named.filter { street in
                let tokens = TextNormalizer.tokens(street.name ?? "")
                return tokens.count == query.words.count && zip(tokens, zip(query.words, words)).allSatisfy { token, typed in
                    typed.1.contains(token) || TextNormalizer.variants(token).contains(typed.0)
                }
            }
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
        var result = PlaceResult(id: 0, sourceRef: nil, kind: .coordinate, category: nil, categoryID: nil, name: nil,
                                 displayStyle: .coordinate(near: nil), lat: point.lat, lon: point.lon,
                                 distanceM: options.near.map { $0.distance(to: point) }, address: Address(), tags: [:],
                                 score: 100, match: .coordinate)
        let nearbyPOI = try nearby.places(near: point, radius: 100, filter: .anyNamedPOI, name: nil, limit: 1, after: nil).places
        let buildings = try nearby.places(near: point, radius: 100, filter: .rawTag("building=yes"), name: nil, limit: 1, after: nil).places
        if let nearest = (buildings + nearbyPOI).min(by: { ($0.distanceM ?? 0) < ($1.distanceM ?? 0) }) {
            result.address = nearest.address
            result.displayStyle = .coordinate(near: DisplayStyle.NearPlace(name: nearest.name, kind: nearest.kind))
        }
        return [result]
    }
}
