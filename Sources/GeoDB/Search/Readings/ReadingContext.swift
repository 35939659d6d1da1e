// What the readings of a query share: the engines they read with, and what one search has already looked up
// that another reading of it asks again.

/// The engines a reading of a query reads with, and the area sets named so far in the search running.
final class ReadingContext {
    let db: DatabaseReader
    let index: SearchIndex
    let places: PlaceReader
    let nearby: NearbySearch
    let ranker: CandidateRanker
    /// `areaSets` of the search running, by the word groups naming them (emptied as each search starts).
    private var areaSetsNamed: [[[String]]: SearchIndex.AreaSetList] = [:]

    init(db: DatabaseReader, index: SearchIndex, places: PlaceReader, nearby: NearbySearch) {
        self.db = db
        self.index = index
        self.places = places
        self.nearby = nearby
        self.ranker = CandidateRanker(index: index)
    }

    /// Forgets what the search before looked up.
    func startSearch() {
        areaSetsNamed.removeAll(keepingCapacity: true)
    }

    /// The area sets the `where` words of a "what, where" split name (the last word a prefix while typing),
    /// remembered for the rest of the search (the typo pass and the house number fallback ask again).
    func areaSets(_ query: ParsedQuery, where place: Range<Int>, options: SearchOptions) throws -> SearchIndex.AreaSetList {
        var placeGroups = query.words[place].map { TextNormalizer.variants($0) }
        // The word being typed is a prefix; its other forms are whole words (see `CandidateRanker.candidates`).
        if options.autocomplete, place.upperBound == query.words.count, let last = placeGroups.indices.last {
            placeGroups[last][0] += "*"
        }
        if let sets = areaSetsNamed[placeGroups] { return sets }
        let sets = try index.areaSets(naming: placeGroups)
        areaSetsNamed[placeGroups] = sets
        return sets
    }

    /// The towns whose own name is the folded `words` ("Street, Town", "9486, Mauren"): at most five, the most
    /// important, looked up among the places area sets name.
    func towns(namedExactly words: [String]) throws -> [PlaceResult] {
        try places.results(ids: try index.areaPlaces(naming: words, kinds: PlaceReach.townKinds, limit: 5))
            .filter { TextNormalizer.tokens($0.name ?? "") == words }
    }

    /// The streets among the `candidateLimit` highest-ranked matches of `match` (streets are lifted in that
    /// order), whatever kinds the options ask for. Filtered by kind in SQL instead, a name no street has
    /// read every place named so ("Helsinki 199": 30 ms on tiled ×400; "Ravintola, Kaisaniemi" 3.5 ms).
    func streets(match: String, options: SearchOptions, inSets: SearchIndex.AreaSetList? = nil) throws -> [SearchIndex.Candidate] {
        var anyKind = options
        anyKind.kinds = []
        return try index.candidates(match: match, options: anyKind, inSets: inSets, limit: CandidateRanker.candidateLimit)
            .filter { $0.kind == .street }
    }
}
