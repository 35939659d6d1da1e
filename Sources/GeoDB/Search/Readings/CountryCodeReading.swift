// A text that is a country's ISO code alone ("fr", "LI"): the country, first, as Nominatim answers it (its
// country table holds the codes as names). Not while the word is being typed: "fr" on its way to
// "Frauenfeld" names no France.

/// The text as a country code: the places that are the country of that code.
struct CountryCodeReading: CandidateReading {
    let context: ReadingContext
    /// The code, in upper case.
    let code: String
    var reading: SearchReading { .countryCode }

    /// The reading of a query that is one word alone that CLDR knows as a region code; nil for any other.
    init?(context: ReadingContext, query: ParsedQuery, options: SearchOptions) {
        guard query.words.count == 1, query.numbers.isEmpty, !options.autocomplete || query.endsWithSpace,
              let code = CountryCode.parse(query.words[0]), CountryCode.isRegion(code) else { return nil }
        self.context = context
        self.code = code
    }

    /// The country places of the code that the options let through, scored as the whole text matching one
    /// of their alternate names: the code is one, in every language.
    func candidates(_ query: ParsedQuery, options: SearchOptions) throws -> [RankedCandidate] {
        let rowids = try context.db.rows("the country places of a code", """
            SELECT id, importance FROM place WHERE \(KindIndex.equals(.country)) AND country_code = ?1 ORDER BY id LIMIT 8
            """, [.text(code)]) { SearchRowID.of(place: $0.int(0), importance: $0.double(1), kind: .country) }
        return try context.index.candidates(of: rowids.sorted(), after: nil, options: options, limit: rowids.count).candidates.map { place in
            let points = SearchRanking.PlacePoints(place, query: query, near: options.near)
            let score = SearchRanking.weight(of: .exact) - SearchRanking.NameTier.alternate.penalty(whole: true) + points.value
            return RankedCandidate(id: place.id, order: place.order, kind: place.kind, score: (score * 1000).rounded() / 1000,
                                   match: .exact, distanceM: points.distance, nameHoldsWords: true)
        }
    }
}
