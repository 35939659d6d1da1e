// Typos: when exact and prefix matching find too little, long words match indexed words 1–2 edits away, as a
// name and as "what, where".

/// The query's words with the indexed words a typo or two from them.
struct FuzzyReading {
    let context: ReadingContext
    /// Each query word's alternatives: the word itself first, then the indexed words 1–2 edits from it.
    let words: [[String]]

    /// The reading when some word has indexed words near it; nil when none has (the words are not typos of
    /// any the file has).
    init?(context: ReadingContext, query: ParsedQuery, options: SearchOptions) throws {
        let words = try query.words.enumerated().map { i, word in
            try [word] + context.index.similarWords(to: word, typing: options.autocomplete && i == query.words.count - 1)
        }
        guard words.contains(where: { $0.count > 1 }) else { return nil }
        self.context = context
        self.words = words
    }

    /// The readings it runs: the name and "what, where", every candidate matched as a typo.
    var readings: [any CandidateReading] {
        [NameReading(context: context, words: words, forced: .fuzzy), WhatWhereReading(context: context, words: words, forced: .fuzzy)]
    }

    /// `query` spelt with each mistyped word's nearest indexed word ("Austrase 10" → "austrasse 10"), for
    /// the house number fallback.
    func corrected(_ query: ParsedQuery) -> ParsedQuery {
        var corrected = query
        corrected.words = words.map { $0.count > 1 ? $0[1] : $0[0] }
        return corrected
    }
}
