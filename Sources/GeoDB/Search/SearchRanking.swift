// How forward search orders what it finds: the match class, the house number, importance and nearness,
// added into one score (docs/RANKING.md). Deterministic: equal scores are ordered by rank (importance,
// streets lifted by their bonus), then place id: the order of place_fts rowids, in which candidates are read.
import Foundation

/// A candidate place scored for a query: what ranking needs, without the rest of the place.
struct RankedCandidate {
    var id: Int64
    /// Where it ranks among equal scores: its own place_fts row's rowid (importance, then id).
    var order: Int64
    var kind: PlaceKind
    var score: Double
    var match: MatchClass
    var distanceM: Double?
    /// Where to show it and the town it is in (at the town's level: a city, or a suburb for "Street,
    /// District"), when that is not its own point and city: a street found in a town it runs through.
    var shownIn: (point: Coordinate, town: String, level: AddressLevel)?
    /// One name of it holds every word of the query (they are its words, not typos of others').
    var nameHoldsWords = false
    /// How the query was read to find it (`--explain`).
    var reading = SearchReading.name
    /// The points of its name, of `score` (the rest are its place's: importance, number, nearness).
    var nameScore: Double?
}

extension RankedCandidate {
    /// Where a candidate stands among results: by score, then by `order` (lower first).
    typealias Standing = (score: Double, order: Int64)

    /// Whether standing `a` comes before `b`.
    static func ranks(_ a: Standing, above b: Standing) -> Bool { (a.score, -a.order) > (b.score, -b.order) }

    /// The `k`-th best standing among `candidates` (distinct places), nil when there are fewer. Of the scores and
    /// orders alone: sorting the candidates themselves moved their strings.
    static func kth(_ k: Int, of candidates: [RankedCandidate]) -> Standing? {
        guard k > 0, candidates.count >= k else { return nil }
        return candidates.map { (score: $0.score, order: $0.order) }.sorted(by: ranks(_:above:))[k - 1]
    }
}

/// The ranking rules of forward search.
enum SearchRanking {
    /// Points for how the text matched.
    static func weight(of match: MatchClass) -> Double {
        switch match {
        case .exact: return 30
        case .prefix: return 20
        case .fuzzy: return 10
        default: return 5
        }
    }

    /// When a house number was asked: the place has that number (it is the answer) …
    static let numberBonus = 12.0
    /// … or has it as its postcode.
    static let postcodeBonus = 4.0
    /// A street, when no number was asked (the street over the shops named after it).
    static let streetBonus = 2.0
    /// Times the place's importance (0…1).
    static let importanceWeight = 10.0
    /// Up to this much for nearness to `SearchOptions.near`: weight · e^(−d / `nearnessScale`).
    static let nearnessWeight = 8.0
    static let nearnessScale = 5_000.0
    /// Fixed scores of the answers that stand in for a missing house number, and of structured search.
    static let interpolatedScore = 35.0
    static let fallbackScore = 15.0
    static let structuredExactScore = 50.0

    /// Points off for a match through a name that is not the place's own: an alternate name, or one that
    /// looks like a code. Enough that a place's own name beats another's alternate at a similar importance.
    /// Half of it when the alternate is the whole text (`NameTier.penalty(whole:)`).
    static let alternatePenalty = 6.0
    static let codePenalty = 10.0
    /// Points off for words that no one name holds (they matched across names, or the address alone).
    static let acrossNamesPenalty = 6.0
    /// Points off for a match through the place's name in another language than the one asked for
    /// (`name:xx`): a real name of the place, but rarely what a user of the data types. Nearly an
    /// alternate's: with 3, a country (importance 0.98) still beat a village (0.51) through a word of its
    /// Finnish official name ("Ru" → Liechtenstein, "Liechtensteinin ruhtinaskunta", not Ruggell).
    static let otherLanguagePenalty = 5.0
    /// Points off per edit of a typo match: an edit more outweighs a place 30 times as populous ("jagnipur" →
    /// Jangipur, one edit, before Jaipur, two).
    static let editPenalty = 3.0
    /// A name that begins with the query words, in order ("Palm Beach" → Palm Beach Gardens before West
    /// Palm Beach; a name equal to them too), or a typo match that is the whole name ("Newprot" → Newport before Newport News).
    static let leadingBonus = 1.5
    static let wholeTypoBonus = 3.0
    /// While typing, a name that is the whole text so far ("Kent" → Kent before Kentron, "Charlotte" →
    /// Charlotte before Charlotte Amalie): the user may go on typing, so it outweighs no more than a place up
    /// to 1.8 times as populous whose name goes on (a quarter of a tenfold's points: `Importance.perTenfold`).
    /// Not when the text ends in a space (more words follow: "Hulan " → Hulan Ergi).
    static let typedWholeBonus = 0.5

    /// How the text's last word was entered.
    enum Entry {
        /// The text is complete (a search): a name equal to it is an exact match.
        case complete
        /// Still being typed (`--autocomplete`): the last word is a prefix, and a name equal to the text so far
        /// scores as a prefix match that begins the name, plus `typedWholeBonus`.
        case typing
        /// Typed and followed by a space: the last word is still matched as a prefix, but more words are
        /// coming: a name equal to the text is a prefix match that begins the name, no more.
        case typingNextWord

        /// The last word matches the beginnings of words.
        var lastIsPrefix: Bool { self != .complete }

        init(typing: Bool, query: ParsedQuery) {
            self = !typing ? .complete : query.endsWithSpace ? .typingNextWord : .typing
        }
    }

    /// One name of a candidate, folded into words, and how much it counts: a place's own names (its name,
    /// official and local names, its name in the language asked for) fully, its names in other languages
    /// less, alternates a little less again, alternates that look like codes ("NYC", "TKU", "75012") least.
    struct CandidateName {
        var name: String
        var words: [String]
        var tier: NameTier
        /// The other words the index holds for the name (German spellings, joined and abbreviated forms):
        /// made only when its own words do not hold a query word (rarely; most names need none).
        var otherForms: [String] { TextNormalizer.indexAlternatives(name, words: words) }

        /// `otherLanguage`: an own name in another language than the one asked for (`name:xx`).
        init(_ name: String, own: Bool, otherLanguage: Bool = false) {
            self.name = name
            words = TextNormalizer.tokens(name)
            guard !own else { tier = otherLanguage ? .otherLanguage : .own; return }
            // Scalars counted as the UTF-8 bytes that begin one (the scalar view's count cost 1,000 instructions).
            let scalars = name.utf8.count { $0 & 0xC0 != 0x80 }
            let codeLike = scalars <= 3 || Self.holdsNumber(name) || (scalars <= 5 && !name.contains(where: \.isLowercase))
            tier = codeLike ? .code : .alternate
        }

        /// Whether a Character of `name` is a number: on its bytes when it is ASCII (most alternate names; telling
        /// each Character's properties was a server's most costly line of ranking), else as `Character.isNumber`,
        /// which is whether its first scalar has a numeric type: only a name with such a scalar can hold one (the
        /// Characters of the romanized alternates of a Chinese city cost 3,400 instructions a name), which
        /// `TextNormalizer.holdsNumericScalar` tells from a table.
        private static func holdsNumber(_ name: String) -> Bool {
            for byte in name.utf8 {
                if byte >= 0x80 {
                    return TextNormalizer.holdsNumericScalar(name) && name.contains(where: \.isNumber)
                }
                if byte >= 0x30 && byte <= 0x39 { return true }
            }
            return false
        }
    }

    /// Through which kind of name a place matched, best first.
    enum NameTier: Int, Comparable {
        case own, otherLanguage, alternate, code
        static func < (a: NameTier, b: NameTier) -> Bool { a.rawValue < b.rawValue }

        /// Half of it when the name is the whole text (`whole`): typed in full, another name of a place is what
        /// was meant ("Cologne", "Bombay", "München"), so a place far more important (a city a hundred times a
        /// village's size: `Importance.perTenfold`) comes before a small place of that own name; a word or the
        /// beginning of one of a big city's hundred other names is weaker evidence ("Shen" is Shenkottai, not
        /// Santiago's Chinese name).
        func penalty(whole: Bool) -> Double {
            let full: Double
            switch self {
            case .own: full = 0
            case .otherLanguage: full = otherLanguagePenalty
            case .alternate: full = alternatePenalty
            case .code: full = codePenalty
            }
            return whole ? full / 2 : full
        }
    }

    /// How a candidate's best name matches the query: the class, through which kind of name, the edits,
    /// and whether the name begins with the words (`leading`) or is just them (`whole`).
    struct NameMatch {
        var match: MatchClass
        var tier: NameTier
        var edits: Int
        var leading = false
        var whole = false

        /// What the match is worth. While the user is typing, a name equal to the text so far is little more
        /// evidence than one beginning with it (they may go on typing): it counts as a leading prefix match and
        /// `typedWholeBonus`, so importance decides unless the places are close ("Lees" → Leesburg before the
        /// village Lees; "Kent" → Kent before Kentron, as big).
        func points(_ entry: Entry) -> Double {
            var value = match == .exact && entry.lastIsPrefix ? weight(of: .prefix) : weight(of: match)
            value -= tier.penalty(whole: match == .exact) + Double(edits) * editPenalty
            if leading || match == .exact { value += leadingBonus }
            if whole && match == .fuzzy { value += wholeTypoBonus }
            if match == .exact && entry == .typing { value += typedWholeBonus }
            return value
        }
    }

    /// The best of `names` for the query `words` (`variants`: each word's `TextNormalizer.variants`; `entry`:
    /// how the last word was entered; `fuzzy`: count edits): a whole name equal to the words is exact; a name
    /// holding every word (the last as a prefix while typing, abbreviations as their words) is a prefix match.
    /// Nil when no single name holds the words (they matched across names and address, or through a name not
    /// compared). `typoWords`: with `fuzzy`, the words a query word may be a typo of (those the typo search found
    /// near it, `SearchIndex.wordsNear`); nil: any within its edits.
    static func bestName(_ names: [CandidateName], words: [String], variants wordVariants: [[String]], wholeTexts: [[String]],
                         entry: Entry, fuzzy: Bool, typoWords: [String: Set<String>]? = nil) -> NameMatch? {
        var best: NameMatch?
        func consider(_ candidate: NameMatch) {
            if best.map({ candidate.points(entry) > $0.points(entry) }) ?? true { best = candidate }
        }
        for name in names where !name.words.isEmpty {
            if !fuzzy, wholeTexts.contains(name.words) {
                consider(NameMatch(match: .exact, tier: name.tier, edits: 0))
                continue
            }
            var edits = 0
            var leading = name.words.count >= words.count
            for (i, word) in words.enumerated() {
                let prefix = entry.lastIsPrefix && i == words.count - 1
                let variants = wordVariants[i]
                let holds = { (nameWord: String) in variants.contains(nameWord) || (prefix && nameWord.hasPrefix(word)) }
                if name.words.contains(where: holds) || name.otherForms.contains(where: holds) {
                    leading = leading && holds(name.words[i])
                    continue
                }
                guard fuzzy else { edits = Int.max; break }
                let limit = EditDistance.allowed(for: word)
                let typos = typoWords.map { $0[word] ?? [] }
                let distances = name.words.map { nameWord in
                    if let typos, !typos.contains(nameWord) { return limit + 1 }
                    return prefix ? EditDistance.toPrefix(of: nameWord, word, limit: limit) : EditDistance.between(nameWord, word, limit: limit)
                }
                guard let distance = distances.min(), distance <= limit else { edits = Int.max; break }
                edits += distance
                leading = leading && distances[i] == distance
            }
            if edits != Int.max {
                consider(NameMatch(match: fuzzy ? .fuzzy : .prefix, tier: name.tier, edits: edits, leading: leading,
                                   whole: leading && name.words.count == words.count))
            }
        }
        return best
    }

    /// Scores a candidate. `names` are its names (`SearchIndex.names`); `forced` is the class of a second
    /// pass (fuzzy), else exact when a name equals the query (with or without the words naming its own city
    /// or postcode), else prefix; `entry`: how the last word was entered; `typoWords`: as `bestName` takes them.
    static func rank(_ place: SearchIndex.Candidate, query: ParsedQuery, names: [CandidateName], forced: MatchClass?,
                     near: Coordinate?, entry: Entry = .complete, typoWords: [String: Set<String>]? = nil) -> RankedCandidate {
        // Words naming where the place is (its city, suburb, country, postcode) are context ("…, Helsinki").
        let inContext = query.words.contains(where: place.context.contains)
        let core = inContext ? query.words.filter { !place.context.contains($0) } : query.words
        let (words, variants) = core.isEmpty || !inContext ? (query.words, query.wordVariants)
            : (core, zip(query.words, query.wordVariants).filter { !place.context.contains($0.0) }.map(\.1))
        // As word lists, not joined texts: compared with every name read, and a name's words are compared without
        // a String made for each (joining them was a twentieth of a popular word's search).
        var wholeTexts = query.words.isEmpty ? [] : [query.words, core]
        // A name with the query's numbers after its words is the whole text too ("Elielinaukio, laituri 21",
        // "Pier 39"): typed in full, it is what was meant, and no house number fallback is looked for.
        if !query.numbers.isEmpty { wholeTexts += wholeTexts.map { $0 + query.numbers } }
        let named = bestName(names, words: words, variants: variants, wholeTexts: wholeTexts, entry: entry, fuzzy: forced == .fuzzy,
                             typoWords: typoWords)
        let unnamed = PlacePoints(place, query: query, near: near)
        var match = forced ?? named?.match ?? .prefix
        if unnamed.hasNumber && forced == nil { match = .exact }
        // No one name holding the words is weaker than a name that does, like an alternate.
        let value = named?.points(entry) ?? weight(of: match) - acrossNamesPenalty - (forced == .fuzzy ? editPenalty : 0)
        return RankedCandidate(id: place.id, order: place.order, kind: place.kind, score: ((value + unnamed.value) * 1000).rounded() / 1000,
                               match: match, distanceM: unnamed.distance, nameHoldsWords: forced == nil && named != nil,
                               nameScore: (value * 1000).rounded() / 1000)
    }

    /// The most a candidate can score through a name of `tier` or a lesser one, from what is known before
    /// its names are read: its `PlacePoints` and the best name match there is (exact; typo matches less).
    /// Search reads names only of the candidates whose bound can still beat the results it has, own names
    /// before alternates. `exact` false: none of its names is the whole text; `leading` false: none begins
    /// with a query word (the index's keys say so). `edits`: the fewest any name of it can match with (typo
    /// matching: `CandidateRanker.Typos`).
    static func bound(_ place: SearchIndex.Candidate, query: ParsedQuery, forced: MatchClass?, near: Coordinate?,
                      entry: Entry, tier: NameTier = .own, exact: Bool = true, leading: Bool = true, edits: Int = 0) -> Double {
        let best = NameMatch(match: forced == .fuzzy ? .fuzzy : exact ? .exact : .prefix, tier: tier, edits: edits, leading: leading,
                             whole: exact)
        return best.points(entry) + PlacePoints(place, query: query, near: near).value
    }

    /// What a stream of candidates is known to match with, before their names are read (`bound(ofPlacesUpTo:)`).
    enum NameBound {
        /// A name may be the query exactly.
        case exact
        /// Rows of own names, one of which may be the query exactly.
        case exactOwn
        /// Rows of alternate names, one of which may be the query exactly.
        case exactAlternate
        /// Rows of own names, one of whose names in a language may be the query exactly and none of whose names
        /// in no language is (the index's `NameKey.inLanguage` keys say so): those may still hold the words.
        case exactInLanguage
        /// Names may hold the words, none is them exactly (the index's whole-name keys say so).
        case notExact
        /// As `notExact`, and no name begins with a query word (the index's first-word keys say so): no
        /// `leadingBonus`.
        case notExactNotLeading
        /// No name holds a query word: the candidate matched through its address alone.
        case none

        /// One of the rows' names may be the query exactly (the exact streams).
        var mayBeTheText: Bool {
            switch self {
            case .exact, .exactOwn, .exactAlternate, .exactInLanguage: return true
            case .notExact, .notExactNotLeading, .none: return false
            }
        }
    }

    /// The most a candidate not yet read can score: `bound` for a place of at most `rank` (`SearchRowID`:
    /// importance and street bonus) that gets every bonus its names cannot give (the house number's, full
    /// nearness), its names matching at best as `names` says.
    /// `inLanguagesOnly`: rows of own names whose names in no language hold no query word (`.notExact` and
    /// `.notExactNotLeading`: their names in a language do, ranked as in another language than the one asked
    /// for; only when none is asked for). `namedWithNumber` false: rows none of whose names that is the text is
    /// keyed with the house number asked for (`NameKey.numbered`), so a name that is the text earns no number
    /// bonus (a postcode's at most): they score at most that, or a name holding the words with the number.
    /// `edits`: the fewest any name can match with (typo matching: `CandidateRanker.Typos`).
    static func bound(ofPlacesUpTo rank: Double, query: ParsedQuery, forced: MatchClass?, near: Coordinate?,
                      entry: Entry, names: NameBound = .exact, inLanguagesOnly: Bool = false, namedWithNumber: Bool = true,
                      edits: Int = 0) -> Double {
        if !namedWithNumber && !query.numbers.isEmpty && names.mayBeTheText {
            func bound(_ names: NameBound) -> Double {
                Self.bound(ofPlacesUpTo: rank, query: query, forced: forced, near: near, entry: entry, names: names,
                           inLanguagesOnly: inLanguagesOnly, edits: edits)
            }
            return max(bound(names) - numberBonus + postcodeBonus, bound(.notExact), bound(.none))
        }
        let name: Double
        switch names {
        case .exactInLanguage:
            let inLanguage = NameMatch(match: forced == .fuzzy ? .fuzzy : .exact, tier: .otherLanguage, edits: edits, leading: true, whole: true)
            name = max(inLanguage.points(entry), NameMatch(match: .prefix, tier: .own, edits: 0, leading: true, whole: true).points(entry))
        case .exact, .exactOwn, .exactAlternate:
            // A row of alternate names ranks `alternatePenalty` lower, but one that is the whole text loses
            // only half of it: such a row may score that much more than its rank says.
            let best = { (tier: NameTier) in
                NameMatch(match: forced == .fuzzy ? .fuzzy : .exact, tier: tier, edits: edits, leading: true, whole: true).points(entry)
            }
            let own = best(.own), alternate = best(.alternate) + SearchRowID.alternateRankDrop * SearchRowID.rankScale
            name = names == .exactOwn ? own : names == .exactAlternate ? alternate : max(own, alternate)
        case .notExact, .notExactNotLeading:
            // A typo's rows so: no name is the words, so no `wholeTypoBonus`.
            name = NameMatch(match: forced == .fuzzy ? .fuzzy : .prefix, tier: inLanguagesOnly ? .otherLanguage : .own, edits: edits,
                             leading: names == .notExact, whole: forced != .fuzzy).points(entry)
        case .none:
            // As `rank` scores a candidate no name of which holds the words.
            name = weight(of: forced ?? (query.numbers.isEmpty ? .prefix : .exact)) - acrossNamesPenalty - (forced == .fuzzy ? editPenalty : 0)
        }
        return name + (query.numbers.isEmpty ? 0 : numberBonus) + rank * SearchRowID.rankScale + (near == nil ? 0 : nearnessWeight)
    }

    /// The words a name must be for `rank` to call it an exact match of `query` for some place: the query's
    /// words with any of them left out as words of where the place is (the whole texts `rank` compares), with
    /// the house numbers after them or not. Nil for a query of more than `maxExactWords` words (their subsets
    /// would be too many keys to ask for).
    static func exactWords(of query: ParsedQuery) -> [[String]]? {
        let words = query.words
        guard (1...maxExactWords).contains(words.count) else { return nil }
        var lists: [[String]] = []
        for mask in 1..<(1 << words.count) {
            let kept = words.indices.filter { mask & (1 << $0) != 0 }.map { words[$0] }
            lists.append(kept)
            if !query.numbers.isEmpty { lists.append(kept + query.numbers) }
        }
        return lists
    }

    static let maxExactWords = 5

    /// The points of a candidate that do not depend on its names: house number or postcode asked for,
    /// a street without a number asked, importance, nearness to `near`.
    struct PlacePoints {
        var value = 0.0
        /// The place has the house number asked for (it is the answer).
        var hasNumber = false
        var distance: Double?

        init(_ place: SearchIndex.Candidate, query: ParsedQuery, near: Coordinate?) {
            if !query.numbers.isEmpty {
                // An address whose number is the one asked for is the answer; other numbered matches rank lower.
                let number = place.housenumber.map(TextNormalizer.houseNumber)
                if let number, query.numbers.contains(number) || query.numberText == number {
                    value += numberBonus
                    hasNumber = true
                } else if place.postcode.map({ query.numbers.contains($0) }) == true {
                    value += postcodeBonus
                }
            }
            value += place.kind == .street && query.numbers.isEmpty ? streetBonus : 0
            value += place.importance * importanceWeight
            if let near {
                let distance = near.distance(to: place.coordinate)
                self.distance = distance
                value += nearnessWeight * exp(-distance / nearnessScale)
            }
        }
    }
}
