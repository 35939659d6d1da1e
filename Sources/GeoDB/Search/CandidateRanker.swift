// The candidates of a query's words, ranked: the index rows holding them read as streams in rank order
// (exact names, names leading with a word, the rest, addresses), scored best first (`BestFirstScoring`)
// only as far as the best `limit` can change. Every reading that matches names uses it: the plain name,
// "what, where", typos.

/// Ranked candidates for words, read from `SearchIndex` only as far as their bounds matter.
struct CandidateRanker {
    let index: SearchIndex

    /// Candidates for the words (each a list of alternatives), scored by `SearchRanking`: only those that
    /// can be among the best `options.limit` (`scoreBestFirst`). With a house number too: a candidate that
    /// has it scores at least what one without it can (the number's bonus is in its bound), so the number
    /// fallback, asked for when no exact match is scored, could only add answers below the shown ones.
    /// (Scoring all 200, as before, was most of "Mannerheimintie 5" on tiled ×400: 2.8 → 0.35 ms.)
    /// `floor`: the `options.limit`-th of the results found before, which a candidate must beat to matter.
    func candidates(_ query: ParsedQuery, words: [[String]], options: SearchOptions, forced: MatchClass?,
                    inSets: SearchIndex.AreaSetList? = nil, typing typingLast: Bool? = nil,
                    floor: RankedCandidate.Standing? = nil) throws -> [RankedCandidate] {
        var groups = Self.variantGroups(words)
        groups += query.numbers.map { [$0] }
        var prefixGroups = groups
        // The last word is still being typed: a prefix in the index (typos are whole words found beforehand).
        // Its other forms are whole words: "West" is also "W", not every word beginning with w (which
        // filled the 200 candidates with Warsaw, Seoul, … through alternate names, and read all their names).
        let lastTyped = (typingLast ?? options.autocomplete) && !words.isEmpty
        let entry = SearchRanking.Entry(typing: lastTyped, query: query)
        let typos = forced == .fuzzy ? try self.typos(query, words: words, typing: lastTyped) : Typos()
        if lastTyped && forced == nil {
            let typed = words[words.count - 1]
            prefixGroups[words.count - 1] = try typed.flatMap(index.prefixTerms) + groups[words.count - 1].filter { !typed.contains($0) }
        }
        guard let match = FTSQuery.groups(prefixGroups) else { return [] }
        // The phrases of the words, not of the numbers: those a name holds. With no language asked for, a name in a
        // language ranks lower, and a candidate whose names in a language alone hold them (the index says so, where
        // it is asked anyway) is scored without reading its names in no language, from a lower bound (`.own` read):
        // "K" typed on tiled ×400 read the hundred names of 200 capitals whose names "Kh…" in other languages hold
        // it. Not for typos: a name's edits are counted whatever word the index matched.
        let nameGroups = Array(prefixGroups.prefix(words.count))
        let namePhrases = FTSQuery.phraseCount(nameGroups)
        // The words a name may hold, any of them: the groups of the column filters of names.
        let nameWords = [Array(nameGroups.joined())]
        let marksLanguages = options.language == nil && forced == nil
        // While typing, a row of own names of the stream of names that are not the text whose names in a language
        // alone hold the words (`Candidate.namesInLanguagesOnly`: a capital's hundred names) is asked, before its
        // names are read, whether it holds a first-word prefix token of the query words or their forms (every
        // word's, not the typed one's alone: ranking takes a word as a prefix where the words after it name where
        // the place is). One holding none has no name beginning with one, nor has its place's alternates
        // (`FirstWordTokens.wholeAndPrefixes`): it is bound without `leadingBonus` (`CandidateSource.leadingRows`).
        // "Si" typed on tiled ×400 read the hundred names of 200 Helsinkis (one in a language is "Hel'sinki"), each
        // bound as if a name began with it, for ten of them: 68 → 14 M instructions. Asked only of such rows (many
        // names, costly to read), not of one whose main name begins with a query word's letters (it may lead), and
        // only of several at once (`leadingAskedTogether`): asked of every row about to have its names read, the
        // statement cost "Sa" on ×400 5 %, and asked of one, Monaco's "La" 2 %, for names as cheap to read as it.
        let asksLeading = try entry != .complete && forced == nil && index.firstWordTokens() == .wholeAndPrefixes
        var typedLeadingMade: String??
        func typedLeading() -> String? {
            if let made = typedLeadingMade { return made }
            var tokens: [String] = []
            for word in query.words {
                for token in ([word] + TextNormalizer.variants(word)).map(NameKey.firstWordPrefix) where !tokens.contains(token) {
                    tokens.append(token)
                }
            }
            let made = FTSQuery.groups([tokens])
            typedLeadingMade = .some(made)
            return made
        }
        let asciiWords = asksLeading ? query.words.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : []
        func mainNameLeads(_ place: SearchIndex.Candidate) -> Bool {
            guard let name = place.mainName?.utf8 else { return false }
            return asciiWords.contains { word in
                name.count >= word.utf8.count && zip(name, word.utf8).allSatisfy { ((0x41...0x5A).contains($0) ? $0 | 0x20 : $0) == $1 }
            }
        }
        func leadingRows(_ candidates: [SearchIndex.Candidate]) throws -> Set<Int64> {
            var rows = Set(candidates.filter(mainNameLeads).map(\.rowid))
            let asked = candidates.map(\.rowid).filter { !rows.contains($0) }
            guard let first = asked.min(), let last = asked.max(), let leading = typedLeading() else { return Set(candidates.map(\.rowid)) }
            let holding = Set(try index.rowids(named: leading, after: first - 1, upTo: last))
            rows.formUnion(asked.filter(holding.contains))
            return rows
        }
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
        var keyedRows: [String: [Int64]] = [:]
        func rows(named keys: String) throws -> [Int64] {
            if let known = keyedRows[keys] { return known }
            let all = try index.rowids(named: keys, limit: Self.candidateLimit)
            keyedRows[keys] = all
            return all
        }
        func rows(named keys: String, alternates: Bool) throws -> [Int64] {
            try rows(named: keys).filter { SearchRowID.isAlternate($0) == alternates }
        }
        // The places with a name that is the text (own or alternate), when all are known: a place read from
        // the stream of names that are not the text and not among them has none (its names need only reach
        // a prefix match's points, which its main name usually does, without reading the rest).
        // `keys`: the expressions of the exact streams' keys, whose rows together are those of every name that is
        // the text.
        var placesNamedSo: Set<Int64>??
        func hasNoExactName(_ keys: [String]) -> (SearchIndex.Candidate) throws -> Bool {
            { place in
                if placesNamedSo == nil {
                    let lists = try keys.map(rows(named:))
                    placesNamedSo = .some(lists.allSatisfy { $0.count < Self.candidateLimit } ? Set(lists.joined().map(SearchRowID.place)) : nil)
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
                let found = try index.candidateRows(match: match, options: options, inSets: inSets,
                                                    after: exactRowsRead.last?.rowid ?? matchesListed?.last, keys: keys, limit: page)
                exactRowsRead += found
                exactRowsAsked += page
                exactRowsDone = found.count < page || exactRowsAsked >= 2 * Self.candidateLimit
            }
        }
        // The matches of a text of several words (or a word and a number), listed in one statement with whether
        // each holds a word in a name: the first 201, then, as a stream has read all of its rows listed, as many
        // more (no further than its rows can matter), up to `mostListed`; each stream's rows taken from the list,
        // then from the index after it. FTS5 finds the rows holding all the words by walking the rows of each:
        // a page of sparse matches costs the walk whatever its size ("Landstrasse 1" on ×20: 80 matches among
        // 11,160 rows, in four pages of the name stream at 0.3 ms each, its column filter a walk more), and a
        // statement starts at 0.1–0.25 ms on the long lists of the words of tiled ×400.
        // `last`: every match up to it is listed; `all`: every match is.
        var matchesListed: (rows: [(rowid: Int64, names: SearchIndex.NamesHolding)], last: Int64, all: Bool)?
        // The rows listed whose names in a language alone hold the words (`Candidate.namesInLanguagesOnly`).
        var listedInLanguagesOnly: Set<Int64> = []
        var rowsKeyed: [String: (rows: Set<Int64>, through: Int64)] = [:]
        func listMatches(upTo: Int64?, limit: Int) throws -> Bool {
            let after = matchesListed?.last
            guard let rows = try index.rowidsNaming(matching: match, after: after, upTo: upTo, phrases: FTSQuery.phraseCount(prefixGroups),
                                                    namePhrases: namePhrases, limit: limit)
            else { return false }
            let short = rows.count < limit
            for row in rows where row.names == .inLanguagesOnly { listedInLanguagesOnly.insert(row.rowid) }
            let last = short ? upTo ?? rows.last?.rowid ?? after : rows.last?.rowid
            matchesListed = ((matchesListed?.rows ?? []) + rows, last ?? .min, short && upTo == nil)
            return true
        }
        func listMore(upTo: Int64?) throws -> Bool {
            guard let listed = matchesListed, !listed.all, listed.rows.count < Self.mostListed else { return false }
            return try listMatches(upTo: upTo, limit: min(listed.rows.count, Self.mostListed - listed.rows.count))
        }
        func listedRows(names: SearchRanking.NameBound, keys: (match: String, holding: Bool)?, alternates: Bool?) throws -> [Int64]? {
            guard let matchesListed else { return nil }
            var rows = matchesListed.rows.filter { ($0.names == .none) == (names == .none) }.map(\.rowid)
            if let alternates { rows.removeAll { SearchRowID.isAlternate($0) != alternates } }
            if let keys {
                // The rows holding the keys, read as far as the list goes.
                var keyed = rowsKeyed[keys.match] ?? ([], .min)
                if keyed.through < matchesListed.last {
                    keyed.rows.formUnion(try index.rowids(named: keys.match, after: keyed.through, upTo: matchesListed.last))
                    keyed.through = matchesListed.last
                    rowsKeyed[keys.match] = keyed
                }
                rows.removeAll { keyed.rows.contains($0) != keys.holding }
            }
            return rows
        }
        /// `exactKeys`: the expressions of every key a name that is the text has (`hasNoExactName`).
        /// `inLanguagesOnly`: `match` gives only rows whose names in a language alone hold the words.
        /// `rows`: every row that matches, known beforehand (a text few rows match).
        /// `namedWithNumber` false: no name of its rows that is the text is keyed with the number asked for
        /// (`SearchRanking.bound(ofPlacesUpTo:…)`). `startsAfter`: its rows follow this rowid (bound as no higher).
        func source(_ match: String, names: SearchRanking.NameBound, keys: (match: String, holding: Bool)? = nil,
                    exactKeys: [String]? = nil, inLanguagesOnly: Bool = false, rows knownRows: [Int64]? = nil,
                    namedWithNumber: Bool = true, startsAfter: Int64? = nil) -> CandidateSource {
            let alternateRows: Bool? = names == .exactOwn || names == .exactInLanguage ? false : names == .exactAlternate ? true : nil
            // Rows of the address stream are rarely among the best: their first page is a couple of rows,
            // enough to learn the rank they start at (a first page of 20 cost "Eger" as typed a fifth more). So
            // are the rows whose names do not begin with the word, where most do ("Schaan": 14 of 66, a page of
            // 20 read all 66), and the rows without the house number asked for beside a name that is the text.
            let firstPage = names == .none || names == .notExactNotLeading || !namedWithNumber ? 2 : firstPage
            var read = 0
            var listed: [Int64]?
            var streamListed: (rows: [Int64], of: Int)?
            var source = CandidateSource(bound: { rank in
                // No row of alternate names ranks above `SearchRowID.highestAlternateRank`.
                SearchRanking.bound(ofPlacesUpTo: alternateRows == true ? min(rank, SearchRowID.highestAlternateRank) : rank, query: query,
                                    forced: forced, near: options.near, entry: entry, names: names, inLanguagesOnly: inLanguagesOnly,
                                    namedWithNumber: namedWithNumber, edits: typos.leastEdits)
            }, read: { after, rowsMatter in
                var after = after
                // The 200 highest-ranked matches, read as far as scoring needs them: twice as many as are
                // kept first (on data with many places of a name, often all it takes: the tenth of 400 equal
                // "Stockmann"s is known after 11), then pages doubling.
                guard read < Self.candidateLimit else { return nil }
                let page = min(Self.candidateLimit - read, read == 0 ? firstPage : read)
                read += page
                if let knownRows {
                    let (found, last) = try self.index.candidates(of: knownRows, after: after, options: options, limit: page)
                    return (found, last || read >= Self.candidateLimit, nil)
                }
                while let listed = matchesListed {
                    if streamListed?.of != listed.rows.count, let rows = try listedRows(names: names, keys: keys, alternates: alternateRows) {
                        streamListed = (rows, listed.rows.count)
                    }
                    var (found, last) = try self.index.candidates(of: streamListed?.rows ?? [], after: after, options: options, limit: page)
                    if marksLanguages {
                        for i in found.indices { found[i].namesInLanguagesOnly = listedInLanguagesOnly.contains(found[i].rowid) }
                    }
                    if listed.all || !found.isEmpty {
                        return (found, (last && listed.all) || read >= Self.candidateLimit, nil)
                    }
                    after = max(after ?? .min, listed.last)
                    let upTo = rowsMatter()
                    if let upTo, listed.last >= upTo {
                        read -= page
                        return ([], false, listed.last)
                    }
                    guard try listMore(upTo: upTo) else { break }
                }
                if let keys, keys.holding, let alternateRows {
                    let (found, last) = byKeyAlone
                        ? try self.index.candidates(of: rows(named: keys.match, alternates: alternateRows), after: after,
                                                    options: options, limit: page)
                        : try exactRows(match, keys: keys, alternates: alternateRows, after: after, limit: page)
                    return (found, last || read >= Self.candidateLimit, nil)
                }
                if let keys, keys.holding, byKeyAlone {
                    // The rows with a name beginning with the word: listed from place_name_key (few, or the stream
                    // is not apart), not found by going through every match ("Schaan": 1,700, for a handful).
                    let rows = try listed ?? self.index.rowids(named: keys.match, limit: Self.candidateLimit)
                    listed = rows
                    let (found, last) = try self.index.candidates(of: rows, after: after, options: options, limit: page)
                    return (found, last || read >= Self.candidateLimit, nil)
                }
                // No further than the rows that can still matter (`upTo`): a stream of sparse matches is a walk
                // through the rows of each word, to the end when the page is not filled.
                let lastRow = rowsMatter().flatMap { $0 > after ?? .min ? $0 : nil }
                let found = try self.index.candidateRows(match: match, options: options, inSets: inSets, after: after, upTo: lastRow,
                                                         keys: keys, alternates: alternateRows,
                                                         namePhrases: marksLanguages && names != .none ? namePhrases : nil, limit: page)
                if let lastRow, found.count < page {
                    read -= page - found.count
                    return (found, false, lastRow)
                }
                return (found, found.count < page || read >= Self.candidateLimit, nil)
            })
            if names == .notExact && asksLeading { source.leadingRows = leadingRows }
            if let exactKeys, byKeyAlone { source.hasNoExactName = hasNoExactName(exactKeys) }
            source.lastRowID = startsAfter
            source.givesWholeAlternates = alternateRows == true
            source.namesMayBeExact = names != .notExact && names != .notExactNotLeading
            source.namesMayLead = names != .notExactNotLeading
            source.ownMayScoreMore = alternateRows == true && (entry != .complete || !byKeyAlone)
            return source
        }
        // Rows that may be exact whose keys are not listed apart, in two streams when every match is listed: own
        // names' rows and alternates' (when one is listed). Read as one, every row is bound as an alternate name
        // that is the whole text may score, above its rank, and a stream of equal addresses was read to the
        // candidate limit after the tenth ("Landstrasse 1" on ×20: all 80 that name the street).
        func mayBeExact(_ nameMatch: String, keys: (match: String, holding: Bool)? = nil, exactKeys: [String]? = nil) -> [CandidateSource] {
            guard let matchesListed, matchesListed.all else { return [source(nameMatch, names: .exact, keys: keys, exactKeys: exactKeys)] }
            let alternates = matchesListed.rows.contains { $0.names != .none && SearchRowID.isAlternate($0.rowid) }
            return [source(nameMatch, names: .exactOwn, keys: keys, exactKeys: exactKeys)]
                + (alternates ? [source(nameMatch, names: .exactAlternate, keys: keys, exactKeys: exactKeys)] : [])
        }
        // The rows whose names are not the text, those with a name beginning with a query word apart when the
        // file's keys say which (a typed word's beginning is no key: not while typing). A name that begins with
        // the words gets `leadingBonus`, and rows holding a common word mostly hold it later ("hsien" in the
        // alternates of hundreds of Chinese cities, "… bike station"): their bound 1.5 lower, they are read
        // only as far as that can matter, not to the 200th. Not when many names begin with a word ("San"):
        // then most rows are of the first kind, and SQLite would list them all for each page read of either.
        // `someExact`: a name of these rows may still be the text (its key is one held by too many rows to list
        // apart, `exactKeysListed`): one stream, bound as rows that may be exact. `exactKeys`: every key a name that
        // is the text has; `namedSo`: the same as the exact streams' expressions. `namings`: the streams' matches,
        // each with whether it gives only rows whose names in a language alone hold the words.
        func notExact(_ nameMatch: String, _ namings: [(match: String, inLanguagesOnly: Bool)], exactKeys: String, namedSo: [String],
                      someExact: Bool) throws -> [CandidateSource] {
            guard !someExact else { return mayBeExact(nameMatch, keys: (exactKeys, false), exactKeys: [exactKeys]) }
            var firstWords: [String] = []
            for token in query.words.flatMap(TextNormalizer.variants).map(NameKey.firstWord) where !firstWords.contains(token) {
                firstWords.append(token)
            }
            guard entry == .complete, try index.firstWordTokens() != .none, let leading = FTSQuery.groups([firstWords]),
                  try !index.keysHeldByMore(than: Self.leadingRowsApart, keys: leading) else {
                return namings.map { source($0.match, names: .notExact, keys: (exactKeys, false), exactKeys: namedSo, inLanguagesOnly: $0.inLanguagesOnly) }
            }
            return namings.flatMap { naming in
                [source(naming.match, names: .notExact, keys: ("(\(leading)) NOT (\(exactKeys))", true), exactKeys: namedSo,
                        inLanguagesOnly: naming.inLanguagesOnly),
                 source(naming.match, names: .notExactNotLeading, keys: ("(\(exactKeys)) OR (\(leading))", false), exactKeys: namedSo,
                        inLanguagesOnly: naming.inLanguagesOnly)]
            }
        }
        // The streams of rows whose names hold the words but are not the text: with `splits`, those whose names in a
        // language alone hold them apart, bound as those names rank, for a complete word few rows hold
        // (`languageRowsApart`): "jaernvaegstorget" on tiled ×400, 400 squares named so in Swedish, read 200 of
        // them as if it could be their own name (6.1 → 2.3 ms). FTS5 finds either kind by walking the word's rows
        // (the 10,000 of that word: 0.7 ms), so not for a word of more ("street" went through every "str…": 3.6 ms);
        // nor for one of no more rows than are read anyway (`candidateLimit`), whose candidates are marked
        // (`Candidate.namesInLanguagesOnly`): twice the streams cost Monaco's "monaco" a third more. Nor when a page's
        // worth of places are named so in no language (`ownKeys`' rows, read for their stream anyway): those rank
        // first ("Vaduz" on Liechtenstein ×20, +4.6 % for nothing). Nor when no name in a language holds a word (the
        // vocabulary says so): the stream apart would walk the word's rows to find none ("zhen" on cities500, 0.4 ms).
        func namings(_ nameMatch: String, splits: Bool, ownKeys: String) throws -> [(match: String, inLanguagesOnly: Bool)] {
            guard splits, entry == .complete, try rows(named: ownKeys, alternates: false).count < options.limit,
                  let inNoLanguage = FTSQuery.groups(nameWords, column: FTSQuery.namesInNoLanguage),
                  let inLanguages = FTSQuery.groups(nameWords, column: FTSQuery.namesInLanguages),
                  let rows = try index.rows(holding: nameWords[0]), rows.namingInLanguages > 0,
                  rows.naming > Self.candidateLimit, rows.naming <= Self.languageRowsApart else {
                return [(nameMatch, false)]
            }
            return [("(\(match)) AND \(inNoLanguage)", false), ("(\(match)) AND (\(inLanguages) NOT \(inNoLanguage))", true)]
        }
        // The stream of the matches through their address alone (`named`: the expression of the name words in the
        // name columns). None when a name word, in each of its forms, is a whole word of the vocabulary that no
        // address holds: the stream would walk the word's rows to find none ("zhen" on cities500: 7,866, 0.4 ms).
        func addressOnly(_ named: String) throws -> [CandidateSource] {
            for group in nameGroups where try group.allSatisfy({ try index.rows(holding: [$0])?.inAddress == 0 }) { return [] }
            return [source("(\(match)) NOT \(named)", names: .none)]
        }
        var sources: [CandidateSource]
        let firstPage = max(16, 2 * options.limit)
        // A word and a house number ("Aleksanterinkatu 5", the commonest address query): the places one of whose
        // names is the text and whose number is the one asked for are the rows of those names' keys with the
        // number (`NameKey.numbered`), read from place_name_key alone, most important first; every other match
        // scores at most a name that is the text without the number, or a name holding the word with it, and is
        // read only as far as that can matter. Not by listing the matches: FTS5 finds them by walking the rows
        // of the word and of the number ("Aleksanterinkatu 5" on tiled Helsinki ×400: 800 matches among 48,800
        // and 32,400 rows, the 400 "Factory Aleksi" at "13 A, 5. krs./Floor 5" first, 7 ms).
        // Rows of own and of alternate names apart, each bound as such rows can score (a whole alternate name loses
        // less than its row's rank says), so that equal addresses are not read to the candidate limit for an
        // alternate name that might score more; the matches through the address alone apart, as in every
        // search of several phrases (each stream reads up to `candidateLimit` rows). The rows whose names hold
        // the word and lack the number are sparse, and FTS5 finds the next one by walking the rows of the word
        // and of the number, however few can matter: they are bound from the first row whose names hold the word
        // (a street's own, of the street's rank), which settles most without a walk. When fewer places than are
        // asked for are named so with that number (a street of one town; a square whose addresses are its shops'),
        // the matches are few or the answers others: they are listed as for any other text, in one statement
        // ("Landstrasse 1" on Liechtenstein: five streams cost twice the 2.0 M instructions of one).
        if let numberKeys = numberedNameKeys(query, words: words, forced: forced, inSets: inSets),
           let named = FTSQuery.groups(nameWords, column: FTSQuery.names),
           case let keyed = try index.rowids(named: numberKeys, limit: Self.numberedRowsRead + 1),
           keyed.count >= options.limit && keyed.count <= Self.numberedRowsRead {
            let alternates = keyed.filter(SearchRowID.isAlternate)
            let nameMatch = "(\(match)) AND \(named)"
            let firstNamed = try index.rowids(matching: named, limit: 1).first
            sources = [source(match, names: .exactOwn, rows: keyed.filter { !SearchRowID.isAlternate($0) })]
                + (try addressOnly(named))
                + (alternates.isEmpty ? [] : [source(match, names: .exactAlternate, rows: alternates)])
                + (firstNamed.map { first in
                    [.exactOwn, .exactAlternate].map {
                        source(nameMatch, names: $0, keys: (numberKeys, false), namedWithNumber: false, startsAfter: first - 1)
                    }
                } ?? [])
            return try scoreBestFirst(query: query, options: options, forced: forced, entry: entry, keep: options.limit, floor: floor,
                                      from: sources)
        }
        // Typos: the rows one of whose names may be the words found near the query's, whole (`Typos.wholeKeys`), the
        // rows whose names hold such a word, and those matching through their address alone, each stream bound as its
        // rows can score with the edits every name needs (`Typos.leastEdits`). Read as one stream, every row was bound
        // as a name that is the words with no edit, above every answer, and "Helsinkki" on Helsinki + cities500 scored
        // the 200 highest-ranked places holding "helsinki" for its ten (47 M instructions). The keyed rows are listed
        // from place_name_key alone, the most important `candidateLimit`: a place named a near word not matched
        // (beyond the eight) is among them. Not so within areas, nor with a house number, which the rows must hold
        // too: there the keys filter the matches in SQL, when few rows hold them. The named stream is not kept from
        // the keyed rows: SQLite would list every keyed row for each of its statements ("Aleksanetrinkatu" on tiled
        // ×400: the addresses keyed by the street, 134 M instructions). Its bound is too low for them, but the keyed
        // stream's is not, and covers them.
        if forced == .fuzzy, let wholeKeys = typos.wholeKeys, let named = FTSQuery.groups(nameWords, column: FTSQuery.names) {
            let nameMatch = "(\(match)) AND \(named)"
            let keyedRows = inSets == nil && query.numbers.isEmpty ? try index.rowids(named: wholeKeys, limit: Self.candidateLimit) : nil
            let whole = try keyedRows.map { source(nameMatch, names: .exact, rows: $0) }
                ?? (index.keysHeldByMore(than: Self.exactKeysListed, keys: wholeKeys) ? nil : source(nameMatch, names: .exact, keys: (wholeKeys, true)))
            if let whole {
                // A keyed row may come through the named stream first, and its place is not read again: each of its
                // places may be named so whole, unless the keyed rows, all listed, say not.
                var namedRows = source(nameMatch, names: .notExact)
                namedRows.namesMayBeExact = true
                if let keyedRows, keyedRows.count < Self.candidateLimit {
                    let keyedPlaces = Set(keyedRows.map(SearchRowID.place))
                    namedRows.hasNoExactName = { !keyedPlaces.contains($0.id) }
                }
                sources = [whole, namedRows] + (try addressOnly(named))
                return try scoreBestFirst(query: query, options: options, forced: forced, entry: entry, keep: options.limit, floor: floor,
                                          typos: typos, from: sources)
            }
        }
        // A text that few rows match (most names: rare ones) is read whole in one page of one stream: three
        // streams cost three statements (Monaco's random names, p50 70 → 143 µs). The rows matching, up to a
        // page and one, from the index alone, tell which; few, they are that stream's rows, read by rowid: the
        // expression is not evaluated again ("Mexico City" on cities500 walked the 10,000 rows of each word
        // twice, 300 µs a time, to find 11).
        var matching: [Int64]?
        if forced == nil && !words.isEmpty {
            if inSets == nil, prefixGroups.filter({ FTSQuery.phraseCount([$0]) > 0 }).count > 1,
               try listMatches(upTo: nil, limit: Self.candidateLimit + 1), let listed = matchesListed {
                matching = listed.rows.prefix(firstPage + 1).map(\.rowid)
            } else {
                matching = try index.rowids(matching: match, limit: firstPage + 1)
            }
        }
        if let matching, matching.count > firstPage,
           let named = FTSQuery.groups(nameWords, column: FTSQuery.names) {
            let nameMatch = "(\(match)) AND \(named)"
            let throughAddress = try addressOnly(named)
            // Rows of own and of alternate names apart: a whole alternate name loses less than its row's rank
            // says, and read with own names the bound of every unread row would be that much higher.
            // The exact streams are the matches holding a key, which SQLite lists for each statement: the key of a
            // part of the words held by many rows is left to the stream of the others, read as rows that may be
            // exact. Unnamed addresses are keyed by their street, and "Alte Landstrasse" on Liechtenstein ×20
            // listed the 9,220 rows of "Landstrasse" (4.6 ms, of its 5), few of which hold "alte". Not the key of
            // all the words: its rows match the text ("Eschner Strasse": 1,380 rows, most of the matches, read
            // apart as exact: 6.4 M instructions; with the others, 17.5 M).
            let wordSet = Set(query.words)
            let keyWords = SearchRanking.exactWords(of: query) ?? []
            let wholeKeys = keyWords.filter { wordSet.isSubset(of: $0) }.compactMap(NameKey.of)
            let partKeys = keyWords.filter { !wordSet.isSubset(of: $0) }.compactMap(NameKey.of)
            // With a house number, the matches are a few of the rows holding the key of all the words, and its
            // rows are listed only when few, as a part's are ("Landstrasse 1" on ×20: 80 matches of the 9,220 rows
            // keyed "landstrasse", listed for each statement: 21 M of its 60 M instructions).
            let numbered = !query.numbers.isEmpty
            let (listed, someExact) = byKeyAlone ? (partKeys, false)
                : try index.keysHeldByFew((numbered ? wholeKeys : []) + partKeys, most: Self.exactKeysListed)
            // A name in a language has its key as `NameKey.inLanguage`. With no language asked for, the rows named so
            // in a language alone are a stream apart for a text of one word (from place_name_key alone, as its other
            // exact streams are), bound as such a name ranks ("helsingfors" on tiled ×400: 400 capitals named so in
            // Swedish were read as if Helsingfors were their own name, and their hundred names each).
            let keyList = (numbered ? [] : wholeKeys) + listed
            if let ownKeys = FTSQuery.groups([keyList]), let anyKeys = FTSQuery.groups([keyList + keyList.map(NameKey.inLanguage)]) {
                let inLanguageKeys = "(\(FTSQuery.groups([keyList.map(NameKey.inLanguage)]) ?? "")) NOT (\(ownKeys))"
                let splitsExact = options.language == nil && byKeyAlone
                let exactKeys = splitsExact ? ownKeys : anyKeys
                sources = [source(nameMatch, names: .exactOwn, keys: (exactKeys, true))]
                    + (splitsExact ? [source(nameMatch, names: .exactInLanguage, keys: (inLanguageKeys, true))] : [])
                    // From the first alternates' row holding a key (rows of alternates hold no in-language keys: the
                    // same rows as `exactKeys`'): "Asema-aukio" on tiled ×400 walked all 2,400 matches, 3 ms, for the
                    // 400 stations whose short name "Asema" is an alternate, ranked far below the 400 squares.
                    + (try index.firstAlternateRow(holding: ownKeys).map {
                        [source(nameMatch, names: .exactAlternate, keys: (exactKeys, true), startsAfter: $0 - 1)]
                    } ?? [])
                    + (try notExact(nameMatch, namings(nameMatch, splits: splitsExact, ownKeys: ownKeys), exactKeys: anyKeys,
                                    namedSo: splitsExact ? [ownKeys, inLanguageKeys] : [anyKeys], someExact: someExact))
                    + throughAddress
            } else {
                sources = mayBeExact(nameMatch) + throughAddress
            }
        } else if let matching, matching.count <= firstPage, inSets == nil {
            sources = [source(match, names: .exact, rows: matching)]
        } else {
            sources = [source(match, names: .exact)]
        }
        return try scoreBestFirst(query: query, options: options, forced: forced, entry: entry, keep: options.limit, floor: floor,
                                  typos: typos, from: sources)
    }

    /// What a typo reading's candidates are read and scored with.
    struct Typos {
        /// The words each query word may be a typo of (`SearchRanking.bestName`); nil for other readings.
        var words: [String: Set<String>]?
        /// The fewest edits any name matches the query words with: the bounds' (`SearchRanking.bound`).
        var leastEdits = 0
        /// The FTS5 expression of the whole-name keys (`NameKey`) of every name that may be the words whole; nil
        /// when they are too many or no key can say.
        var wholeKeys: String?
    }

    /// A typo reading's `Typos`.
    /// - Near words: each query word's, all the typo search found (`SearchIndex.wordsNear`), not only those matched
    ///   (`words`: the alternatives). Ranking counts a name's word as a typo of a query word only when it is one of
    ///   them, as the keys have them: a word one edit from "katg" in the middle ("kang", an alternate name of Caen)
    ///   has no trigram of it, and, scored, made Caen rank above its stream's bound.
    /// - Fewest edits: one for each query word with words near it that no index row holds as typed, in any of its
    ///   forms (`TextNormalizer.variants`) or, while it is typed, as the beginning of a word.
    /// - Whole keys: of names of as many words, each a form of the query word or a word near it, in every
    ///   combination (up to `typoKeysMost`), own and in a language ("Minsa": Minsk is the ninth word one edit
    ///   away, not matched, and a name of the places matched). None when a word still typed begins an indexed
    ///   word: a name holding that word is whole too, and no key says which.
    func typos(_ query: ParsedQuery, words: [[String]], typing: Bool) throws -> Typos {
        var typos = Typos(words: [:])
        var combinations: [[String]]? = [[]]
        func held(_ forms: [String]) throws -> Bool {
            guard let match = FTSQuery.groups([forms]) else { return false }
            return try !index.rowids(matching: match, limit: 1).isEmpty
        }
        for (i, word) in query.words.enumerated() {
            let typed = typing && i == query.words.count - 1
            let near = try index.wordsNear(word, typing: typed)
            typos.words?[word] = Set(near)
            let beginsAWord = try typed && held([word + "*"])
            if words.indices.contains(i) && words[i].count > 1, !beginsAWord, try !held(query.wordVariants[i]) { typos.leastEdits += 1 }
            let forms = query.wordVariants[i] + near
            if let made = combinations, !beginsAWord, made.count * forms.count <= Self.typoKeysMost {
                combinations = made.flatMap { combination in forms.map { combination + [$0] } }
            } else {
                combinations = nil
            }
        }
        let keys = combinations?.compactMap(NameKey.of) ?? []
        typos.wholeKeys = FTSQuery.groups([keys + keys.map(NameKey.inLanguage)])
        return typos
    }

    /// At most this many combinations of the words near a typo reading's are keyed (`Typos.wholeKeys`).
    static let typoKeysMost = 64

    /// For a query of one word and one house number (a `NameKey.numberToken`), as the plain reading has it, the
    /// FTS5 expression of the keys every place one of whose names is the text and whose number is the one asked
    /// for has: the word's and, for a name that holds the number too ("Pier 39"), the word's and the number's,
    /// each with the number after them. Nil for other queries, typos (a typo's name is no key) and searches
    /// within areas.
    private func numberedNameKeys(_ query: ParsedQuery, words: [[String]], forced: MatchClass?,
                                  inSets: SearchIndex.AreaSetList?) -> String? {
        guard forced == nil, inSets == nil, query.words.count == 1, words == [query.words], query.numbers.count == 1,
              let number = NameKey.numberToken(of: query.numbers[0]), number == query.numbers[0],
              query.numberText == nil || query.numberText == number else { return nil }
        let word = query.words[0]
        return FTSQuery.groups([[[word, number], [word, number, number]].compactMap(NameKey.of)])
    }

    /// Index rows in rank order (rowid order), read page by page: `read` gives the rows after a rowid (nil:
    /// from the first) and whether they were the last, or nil when there are no more; `bound` is the most a
    /// row of at most a rank (`SearchRowID.highestRank`) can score.
    struct CandidateSource {
        let bound: (_ rank: Double) -> Double
        /// `rowsMatter`: the rowid after which no row can matter, when known (asked only by a read that would
        /// walk the index: it costs a search of the bound); `readTo`, when the rows read stopped there, short of
        /// the page.
        let read: (_ after: Int64?, _ rowsMatter: () -> Int64?) throws -> (candidates: [SearchIndex.Candidate], last: Bool, readTo: Int64?)?
        /// The last rowid read; nil before the first page.
        var lastRowID: Int64?
        var more = true
        /// Whether a candidate read is known to have no name that is the whole text.
        var hasNoExactName: (SearchIndex.Candidate) throws -> Bool = { _ in false }
        /// Whether the names of the rows it gives may be the whole text, may begin with a query word (false:
        /// the index's keys say they do not; the place's other row may still have one).
        var namesMayBeExact = true
        var namesMayLead = true
        /// Of candidates it gave through rows of own names whose names in a language alone hold the words, those
        /// whose rows' names may begin with a query word (their rowids), as the index's first-word keys say, asked
        /// before their names are read; a row that has none has no alternate name beginning with one either
        /// (`FirstWordTokens.wholeAndPrefixes`). Nil when it cannot tell.
        var leadingRows: (([SearchIndex.Candidate]) throws -> Set<Int64>)?

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
    static func variantGroups(_ words: [[String]]) -> [[String]] {
        words.map { alternatives in alternatives.flatMap { TextNormalizer.variants($0) } }
    }

    /// At most this many rows with a name beginning with a query word are read as a stream of their own.
    static let leadingRowsApart = 500

    /// A word held by more than `candidateLimit` and at most this many rows' names (`SearchIndex.rows(holding:)`) has the
    /// rows whose names in a language alone hold it read as a stream of their own.
    static let languageRowsApart = 12_000

    /// The whole-name key of a part of the words held by more rows than this is not listed for the exact streams
    /// (`keysHeldByFew`): SQLite lists a key's rows for every statement that filters by it, about 0.3 µs a row.
    static let exactKeysListed = 1_000

    /// At most this many matches of a text of several words are listed (`rowidsNaming`) for the streams to read.
    static let mostListed = 2_000

    /// At most this many rows keyed with a name and a house number are read (`numberedNameKeys`), filtered by
    /// the options in pages; a street name and number is held by one address per town that has such a street.
    /// Held by more, the matches are listed as for any other text: the other streams leave out every keyed row,
    /// and a filter may keep only rows past the first so many.
    static let numberedRowsRead = 5_000

    /// At most this many matches of a query are ranked, the most important ones.
    static let candidateLimit = 200
}
