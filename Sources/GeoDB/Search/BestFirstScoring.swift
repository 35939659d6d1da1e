// Scoring candidates best first: names are read in tiers and rounds, for the candidates that can still rank,
// and streams are read only while a row not yet read could beat the results kept.

extension CandidateRanker {
    /// A candidate on its way to a score: the most it can still score (rounded as scores are) and the names
    /// read so far.
    fileprivate struct Scoring {
        var place: SearchIndex.Candidate
        var bound: Double
        /// `place.order`, kept: candidates are sorted by it again and again, and the computed property copied
        /// the whole candidate (its strings retained and released) for every comparison.
        let order: Int64
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
        /// The index of the source to ask whether its row's names may begin with a query word
        /// (`CandidateSource.leadingRows`), before its names are read; nil once asked, or when none can tell.
        var leadingAskedOf: Int?

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
    /// read next. It stops when no candidate left can beat the `keep`-th score, or equal it with a lower rowid;
    /// or `floor`, when that is higher: the `keep`-th of results another reading already found, which no
    /// candidate below it can change. `typos`: a typo reading's near words and fewest edits (`Typos`).
    func scoreBestFirst(query: ParsedQuery, options: SearchOptions, forced: MatchClass?, entry: SearchRanking.Entry, keep: Int,
                        floor: RankedCandidate.Standing? = nil, typos: Typos = Typos(), from sources: [CandidateSource]) throws -> [RankedCandidate] {
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        func rank(_ place: SearchIndex.Candidate, _ names: [SearchRanking.CandidateName]) -> RankedCandidate {
            SearchRanking.rank(place, query: query, names: names, forced: forced, near: options.near, entry: entry, typoWords: typos.words)
        }
        func bound(_ place: SearchIndex.Candidate, _ tier: SearchRanking.NameTier, exact: Bool, leading: Bool) -> Double {
            rounded(SearchRanking.bound(place, query: query, forced: forced, near: options.near, entry: entry, tier: tier, exact: exact,
                                        leading: leading, edits: typos.leastEdits))
        }
        // Whether a name may hold the query words, as `SearchIndex.names` tests the names it reads.
        let firsts = query.words.compactMap(\.utf8.first)
        let checkFirsts = forced != .fuzzy && !firsts.isEmpty && firsts.allSatisfy { $0 < 0x80 }
        func mayHoldQueryWords(_ name: String) -> Bool {
            !checkFirsts || TextNormalizer.mayHoldWord(name, startingWithOneOf: firsts)
        }
        // The rowid after which no row of a source can rank above the k-th (the start of the first rank step whose
        // bound rounds below its score: the bound falls with the rank), nil when the lowest rank still can.
        func rowsMatter(_ source: CandidateSource, against kth: RankedCandidate.Standing) -> Int64? {
            func matters(_ step: Int64) -> Bool { rounded(source.bound(SearchRowID.rank(ofStep: step))) >= kth.score }
            var (low, high) = (Int64(0), SearchRowID.rankSteps)
            guard matters(low), !matters(high) else { return nil }
            while high - low > 1 {
                let middle = (low + high) / 2
                if matters(middle) { low = middle } else { high = middle }
            }
            return SearchRowID.start(ofStep: high)
        }
        var open: [Scoring] = []
        // Whether any source can tell if its rows' names may begin with a query word (only while typing): else no
        // round looks for candidates to ask.
        let someSourceTellsLeading = sources.contains { $0.leadingRows != nil }
        var scored: [RankedCandidate] = []
        /// The `keep`-th best score and its order, when that many are scored, or `floor` when it ranks higher.
        func kth() -> RankedCandidate.Standing? {
            guard let own = RankedCandidate.kth(keep, of: scored) else { return floor }
            guard let floor, RankedCandidate.ranks(floor, above: own) else { return own }
            return floor
        }
        // Each place read, and whether through its own names' row (false: its alternates' row alone so far).
        var seen: [Int64: Bool] = [:]
        // The names of each place whose names were read (all tiers, unfolded; `SearchIndex.names`).
        var namesRead: [Int64: SearchIndex.PlaceNames] = [:]
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
            open.sort { ($0.bound, -$0.order) > ($1.bound, -$1.order) }
            // The candidates read that may still rank among the best `keep`: a prefix of `open`.
            var mayRankAbove = open.count
            if let kth = kth() {
                mayRankAbove = open.prefix { $0.bound > kth.score || ($0.bound == kth.score && $0.order < kth.order) }.count
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
                let source = sources[next]
                guard let page = try source.read(source.lastRowID, { kth().flatMap { rowsMatter(source, against: $0) } })
                else { sources[next].more = false; continue }
                // A place first found through its alternates' row is scored by its alternates alone: its own
                // row, had it matched for more points, came first (in the same stream, at a lower rowid, or in
                // a stream read further ahead). Not from the stream of exact alternate names: that is read
                // ahead of the own names' at equal rank, and its row may be no whole alternate ("El Ejido"
                // found the town through its alternate "Ejido", keyed as if "El" named where it is) or, while
                // typing, score less than an own name beginning with the words: its own names are read too.
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
                    var candidate = Scoring(place: place, bound: 0, order: place.order)
                    if place.throughAlternates && !source.ownMayScoreMore {
                        candidate.read = .ownInAnyLanguage
                        candidate.alternateMayBeExact = source.namesMayBeExact
                        candidate.alternateMayLead = source.namesMayLead
                    } else {
                        // Its names in no language (its main name too) hold no word: not read, nor its main name
                        // folded; its bound is that of its names in other languages.
                        if place.namesInLanguagesOnly { candidate.read = .own }
                        if try source.hasNoExactName(place) {
                            (candidate.ownMayBeExact, candidate.alternateMayBeExact) = (false, false)
                        } else {
                            candidate.ownMayBeExact = source.namesMayBeExact
                        }
                        candidate.ownMayLead = source.namesMayLead
                        if source.leadingRows != nil && source.namesMayLead && place.namesInLanguagesOnly && !place.throughAlternates {
                            candidate.leadingAskedOf = next
                        }
                    }
                    candidate.bound = candidate.unreadBound(bound)
                    return candidate
                }
                sources[next].lastRowID = page.readTo ?? page.candidates.last?.rowid ?? sources[next].lastRowID
                sources[next].more = !page.last && (!page.candidates.isEmpty || page.readTo != nil)
                continue
            }
            guard !open.isEmpty else { break }
            // Never more than may still rank: a round of names read for candidates put back with a bound that
            // ties the k-th is wasted ("helsingfors" on tiled ×400: 200 capitals' hundred language names).
            var round = Array(open.prefix(min(batch, mayRankAbove)))
            open.removeFirst(round.count)
            // Whether their names may begin with a query word, where a source can tell, before they are read: those
            // whose bound falls go back to be ordered again with it, with the others of the round. Not of those the
            // lower bound would still leave above the k-th: their names are read either way.
            let standing = someSourceTellsLeading ? kth() : nil
            let asking = !someSourceTellsLeading ? [:] : Dictionary(grouping: round.indices.filter { i in
                guard round[i].leadingAskedOf != nil else { return false }
                guard let standing else { return true }
                var notLeading = round[i]
                (notLeading.ownMayLead, notLeading.alternateMayLead) = (false, false)
                let lower = notLeading.unreadBound(bound)
                return lower < standing.score || (lower == standing.score && round[i].order > standing.order)
            }) { round[$0].leadingAskedOf! }
            if asking.values.reduce(0, { $0 + $1.count }) >= Self.leadingAskedTogether {
                var fell = false
                for (sourceIndex, members) in asking {
                    let leading = try sources[sourceIndex].leadingRows?(members.map { round[$0].place }) ?? []
                    for i in members {
                        round[i].leadingAskedOf = nil
                        guard !leading.contains(round[i].place.rowid) else { continue }
                        // Its own names' row, with names in a language, holds its alternates' first-word prefixes too.
                        (round[i].ownMayLead, round[i].alternateMayLead) = (false, false)
                        let lower = round[i].unreadBound(bound)
                        fell = fell || lower < round[i].bound
                        round[i].bound = lower
                    }
                }
                if fell {
                    open += round
                    continue
                }
            }
            batch *= 2
            // Each candidate's next tier of names: it is scored once its names reach the most the next tier could
            // give, else put back with that bound.
            var needOwn: [Scoring] = [], needAllOwn: [Scoring] = [], needOtherLanguages: [Scoring] = [], needAlternates: [Scoring] = []
            for candidate in round {
                switch candidate.read {
                case .own: needOtherLanguages.append(candidate)
                case .ownInAnyLanguage: needAlternates.append(candidate)
                case .none:
                    // The name it is shown by is its own, even where the names read have it only in a language
                    // (a street tagged name:da and name:nn alone).
                    // Not when it has no word that can begin like a query word (the test `SearchIndex.names` makes
                    // of the others): it could only score as no name holding the words, below its bound, and folding
                    // it was a fifth of "bike" on tiled ×20 (200 "… kaupunkipyöräasema" found by their English names).
                    var candidate = candidate
                    candidate.names = candidate.place.mainName.flatMap { name in
                        mayHoldQueryWords(name) ? [SearchRanking.CandidateName(name, own: true)] : nil
                    } ?? []
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
            // Every tier of the names of the candidates of this round not read before, in one statement: the
            // tiers are taken from them one at a time.
            let unread = (needOwn + needAllOwn + needOtherLanguages + needAlternates).map(\.place.id).filter { namesRead[$0] == nil }
            if !unread.isEmpty {
                namesRead.merge(try index.names(of: unread, words: query.words, fuzzy: forced == .fuzzy, language: options.language)) { a, _ in a }
            }
            // Own names in the asked language leave those in other languages to read; any other read leaves
            // the alternates.
            func readNext(_ candidates: [Scoring], _ rows: SearchIndex.NameRows) {
                let read: Scoring.NamesRead = rows == .own ? .own : .ownInAnyLanguage
                for var candidate in candidates {
                    candidate.names += namesRead[candidate.place.id]?.names(rows) ?? []
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
            readNext(needOwn, .own)
            readNext(needAllOwn, .ownInAnyLanguage)
            readNext(needOtherLanguages, .otherLanguages)
            scored += needAlternates.map { rank($0.place, $0.names + (namesRead[$0.place.id]?.names(.alternates) ?? [])) }
        }
        return scored
    }

    /// The fewest candidates of a round asked together whether their names may begin with a query word
    /// (`CandidateSource.leadingRows`): fewer are read, since a statement over the rows between them costs about
    /// what reading a few candidates' names does (Monaco's "La" typed, one asked, to no avail: +2 %).
    static let leadingAskedTogether = 4
}
