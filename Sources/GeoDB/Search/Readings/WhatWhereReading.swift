// "Name, Town": words naming where a place is match the areas it lies in, the others the place.

/// The query read as "what, where": for each split of its words (`splits`), the `where` words match the areas a
/// place lies in and the others the place; a split is tried when its area words name some area set.
struct WhatWhereReading: CandidateReading {
    let context: ReadingContext
    /// Each query word's alternatives: the word alone, or with its typos.
    let words: [[String]]
    /// The match class every candidate gets (`.fuzzy` for typos); nil: as each matched.
    var forced: MatchClass? = nil
    /// The score (and order) a candidate must beat to be among the results with those found so far (`ForwardSearch.floor`):
    /// the places of an area are mostly found by the plain reading or a split before ("Monte-Carlo" scored its
    /// suburb's 60 places again).
    var floor: (_ found: [RankedCandidate]) -> RankedCandidate.Standing? = { _ in nil }
    var reading: SearchReading { forced == .fuzzy ? .fuzzy : .whatWhere }

    func candidates(_ query: ParsedQuery, options: SearchOptions) throws -> [RankedCandidate] {
        let alternatives = words
        let words = query.words
        var found: [RankedCandidate] = []
        for (what, place) in Self.splits(of: query, typing: options.autocomplete) {
            let sets = try context.areaSets(query, where: place, options: options)
            guard !sets.isEmpty else { continue }
            var subquery = query
            subquery.words = Array(words[what])
            let typing = options.autocomplete && what.upperBound == words.count
            found += try context.ranker.candidates(subquery, words: Array(alternatives[what]), options: options, forced: forced,
                                                   inSets: sets, typing: typing, floor: floor(found))
            if !what.isEmpty, !typing {
                found += try streetsThrough(town: Array(words[place]), subquery, words: Array(alternatives[what]), options: options)
            }
        }
        return found
    }

    /// The ways to split the query into "what, where": the words at one end naming areas, the others the place.
    /// With commas, the parts after or before a comma ("Street 1, Town", "Town, Street 1"); without, the last
    /// or the first one to three words, as people write the town after the street or before it ("Monaco Ville
    /// Rue Basse 37", a town of two words whose first is also the country's name). Not inside a word typed with
    /// a hyphen (`ParsedQuery.isJoinedToNext`): "Monte-Carlo" is one name, and its splits cost Monaco's town
    /// twice its search. While `typing`, a last word of one or two letters is no "where" alone: it begins the
    /// names of thousands of areas, which narrow nothing and cost most ("Metro Rautatientori A" on tiled ×400:
    /// 13 of its 18 ms).
    static func splits(of query: ParsedQuery, typing: Bool) -> [(what: Range<Int>, where: Range<Int>)] {
        allSplits(of: query).filter { split in
            let between = split.where.lowerBound == 0 ? split.where.upperBound : split.where.lowerBound
            return !query.isJoinedToNext(between - 1)
                && !(typing && split.where.count == 1 && split.where.upperBound == query.words.count
                     && query.words[split.where.lowerBound].count < 3)
        }
    }

    /// Most words a "where" of a text without commas holds: towns of three words ("Andorra la Vella", "Saint
    /// Jean Cap") are common, of more rare.
    private static let maxWhereWords = 3

    private static func allSplits(of query: ParsedQuery) -> [(what: Range<Int>, where: Range<Int>)] {
        let words = query.words
        guard words.count >= 2 || (words.count == 1 && !query.numbers.isEmpty) else { return [] }
        var splits: [(what: Range<Int>, where: Range<Int>)] = []
        if query.partSizes.count > 1 {
            for parts in 1..<query.partSizes.count {
                let whereCount = query.partSizes.suffix(parts).reduce(0, +)
                splits.append((0..<(words.count - whereCount), (words.count - whereCount)..<words.count))
            }
            for parts in 1..<query.partSizes.count {
                let whereCount = query.partSizes.prefix(parts).reduce(0, +)
                splits.append((whereCount..<words.count, 0..<whereCount))
            }
        } else {
            let most = min(maxWhereWords, words.count)
            for count in 1...most where count < words.count || !query.numbers.isEmpty {
                splits.append((0..<(words.count - count), (words.count - count)..<words.count))
            }
            for count in 1...most where count < words.count {
                splits.append((count..<words.count, 0..<count))
            }
        }
        return splits.filter { !($0.what.isEmpty && query.numbers.isEmpty) }
    }

    /// A street runs through several towns but lies in the area set of its middle: for "Street, Town",
    /// the streets named exactly so whose line enters the town (a town named exactly `town`).
    private func streetsThrough(town: [String], _ query: ParsedQuery, words: [[String]],
                                options: SearchOptions) throws -> [RankedCandidate] {
        guard options.kinds.isEmpty || options.kinds.contains(.street), query.numbers.isEmpty else { return [] }
        let towns = try context.towns(namedExactly: town)
        guard !towns.isEmpty else { return [] }
        // All of them (the one in the town may rank below other towns' streets of the name), by their names
        // alone: a street's other names are not what "Street, Town" is typed as, and reading them for the
        // 200 Aleksanterinkatus of tiled ×400 was 4 of its 10 ms.
        guard let match = FTSQuery.groups(CandidateRanker.variantGroups(words), column: FTSQuery.placeNames) else { return [] }
        let streets = try context.streets(match: match, options: options).compactMap { street in
            street.mainName.map {
                SearchRanking.rank(street, query: query, names: [SearchRanking.CandidateName($0, own: true)], forced: forced,
                                   near: options.near)
            }
        }.filter { $0.match == .exact || forced != nil }
        guard !streets.isEmpty else { return [] }
        let results = try context.places.results(ids: streets.map(\.id))
        var inTown: [Int64: (point: Coordinate, town: String, level: AddressLevel)] = [:]
        for town in towns.prefix(2) {
            let scope = try TownScope(town, places: context.places, db: context.db)
            for (street, point) in try scope.points(in: results) where inTown[street.id] == nil {
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
}
