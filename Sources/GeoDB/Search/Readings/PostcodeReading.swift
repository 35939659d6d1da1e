// A postcode, or its beginning ("949" lists 9490–9498), alone, with its country ("9486, li", "9490
// Liechtenstein", Nominatim's postalcode with country) or with its town ("9486, mauren"): the postcode places,
// before the places there.

/// The text as a postcode: the postcode places whose code is the query's number or begins with it.
struct PostcodeReading: CandidateReading {
    let context: ReadingContext
    /// The code asked for (folded).
    let code: String
    /// The country the other words name, when they name one.
    let countryCode: String?
    /// The towns the other words name, when they name no country: only the postcode places within a town's
    /// reach are meant (Mauren's 9486, not another country's).
    let towns: [PlaceResult]
    var reading: SearchReading { .postcode }

    /// The reading of a query that is one number alone, or one number and words naming a country or a town;
    /// nil for any other. A US ZIP+4 ("36067-1111") is its ZIP code: the four digits after it name a block
    /// or a building, which no map has as a postcode place (Nominatim shortens it the same way).
    init?(context: ReadingContext, query: ParsedQuery) throws {
        guard let text = query.numberText else { return nil }
        if query.numbers.count == 1 {
            code = text
        } else if let zip = Self.zipCode(ofZipPlus4: text) {
            code = zip
        } else {
            return nil
        }
        self.context = context
        countryCode = query.words.isEmpty ? nil : try Self.countryNamed(by: query.words, context: context)
        towns = query.words.isEmpty || countryCode != nil ? [] : try context.towns(namedExactly: query.words)
        guard query.words.isEmpty || countryCode != nil || !towns.isEmpty else { return nil }
    }

    /// Postcode places whose code is `code` or, from three characters, starts with it; in code order after
    /// the exact one.
    func candidates(_ query: ParsedQuery, options: SearchOptions) throws -> [RankedCandidate] {
        var postcodes = options
        postcodes.kinds = [.postcode]
        if let countryCode { postcodes.countryCode = countryCode }
        guard let match = FTSQuery.groups([[code.count >= 3 ? code + "*" : code]], column: FTSQuery.placeNames) else { return [] }
        return try context.index.candidates(match: match, options: postcodes, limit: 100)
            .filter { place in
                towns.isEmpty || place.postcode.map(TextNormalizer.fold) == code && towns.contains { town in
                    PlaceReach.metres(town.kind).map { town.coordinate.distance(to: place.coordinate) <= $0 } ?? false
                }
            }
            .sorted { ($0.postcode ?? "", $0.id) < ($1.postcode ?? "", $1.id) }
            .enumerated().map { order, place in
                let exact = place.postcode.map(TextNormalizer.fold) == code
                // Above the places that merely lie in the postcode (their score is a prefix match's).
                let score = SearchRanking.weight(of: exact ? .exact : .prefix) + SearchRanking.postcodeBonus * 3 - Double(order) / 1000
                return RankedCandidate(id: place.id, order: place.order, kind: place.kind, score: score, match: exact ? .exact : .prefix,
                                       distanceM: options.near.map { $0.distance(to: place.coordinate) })
            }
    }

    /// The five-digit ZIP code of a ZIP+4 ("36067-1111" → "36067"); nil for any other text.
    static func zipCode(ofZipPlus4 text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 5, parts[1].count == 4,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return String(parts[0])
    }

    /// The country that the folded `words` are the code ("li") or a name ("liechtenstein") of; nil when
    /// they are none (or nothing).
    private static func countryNamed(by words: [String], context: ReadingContext) throws -> String? {
        guard !words.isEmpty, words.count <= 4 else { return nil }
        if words.count == 1, let code = CountryCode.parse(words[0]) { return code }
        for id in try context.index.countryRows(named: words).map(SearchRowID.place) {
            let names = try context.index.names(of: [id], .ownInAnyLanguage, words: words, fuzzy: false, language: nil)[id] ?? []
            guard names.contains(where: { $0.words == words }) else { continue }
            return try context.places.results(ids: [id]).first?.address.countryCode
        }
        return nil
    }
}
