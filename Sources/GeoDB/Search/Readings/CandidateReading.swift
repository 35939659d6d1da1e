// The readings of a query that find ranked candidates. The search runs each that applies and merges what they
// find, a place found by two keeping its better score; the readings that answer a text alone (a coordinate, a
// category phrase) and those that search another text (near a position, in a country) are run by
// `ForwardSearch` before and around them.

/// One way of reading a query's words that gives candidates scored by `SearchRanking`.
protocol CandidateReading {
    /// What `--explain` calls it.
    var reading: SearchReading { get }
    /// Its candidates for `query`, scored; only those that may be among the best `options.limit`.
    func candidates(_ query: ParsedQuery, options: SearchOptions) throws -> [RankedCandidate]
}

/// The words are a place's name: the plain reading.
struct NameReading: CandidateReading {
    let context: ReadingContext
    /// Each query word's alternatives: the word alone, or with its typos.
    let words: [[String]]
    /// The match class every candidate gets (`.fuzzy` for typos); nil: as each matched.
    var forced: MatchClass? = nil
    var reading: SearchReading { forced == .fuzzy ? .fuzzy : .name }

    func candidates(_ query: ParsedQuery, options: SearchOptions) throws -> [RankedCandidate] {
        try context.ranker.candidates(query, words: words, options: options, forced: forced)
    }
}
