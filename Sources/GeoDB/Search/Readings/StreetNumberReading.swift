// A street and a house number it does not have ("Austrasse 10", "Austrasse 10, Vaduz"): the street there (or an
// interpolated position), marked; other streets' 10s are not what was meant, nor typos.

/// The query as a street and a house number that no address has: an interpolated position, else the street.
struct StreetNumberReading {
    let context: ReadingContext

    /// For "Street 99" where the street has no 99: an interpolation line covering 99 (with the position
    /// along it), else the street itself; marked `interpolated` / `fallback`. "Street 99, Town": the street
    /// in that town (the query read as "what, where" when all its words name no street).
    func places(_ query: ParsedQuery, options: SearchOptions) throws -> [PlaceResult] {
        let whole = try places(query, inSets: nil, options: options)
        guard whole.isEmpty else { return whole }
        for (what, place) in WhatWhereReading.splits(of: query, typing: options.autocomplete) where !what.isEmpty {
            let sets = try context.areaSets(query, where: place, options: options)
            guard !sets.isEmpty else { continue }
            var street = query
            street.words = Array(query.words[what])
            let found = try places(street, inSets: sets, options: options)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// `places` for the query's words as the street name, in the area sets `inSets` when given.
    private func places(_ query: ParsedQuery, inSets: SearchIndex.AreaSetList?, options: SearchOptions) throws -> [PlaceResult] {
        guard !query.words.isEmpty, let number = query.numbers.first, let wanted = Int(number.prefix { $0.isNumber }) else {
            return []
        }
        var results: [PlaceResult] = []
        let words = query.words.map { TextNormalizer.variants($0) }
        if let match = FTSQuery.groups(words, column: FTSQuery.address) {
            let ids = try context.index.candidates(match: match, options: options, inSets: inSets, limit: 50).map(\.id)
            let lines = try context.places.results(ids: ids)
                .filter { $0.kind == .interpolation }
            for var line in lines {
                guard let geometry = try context.places.geometry(of: line.id), case .lineStrings(let parts) = geometry,
                      let points = parts.first,
                      let houses = InterpolationLine(numbers: line.address.housenumber ?? "", category: line.category,
                                                     line: points),
                      houses.covers(wanted) else { continue }
                let point = houses.position(of: wanted)
                line.lat = point.lat
                line.lon = point.lon
                line.address.housenumber = number
                line.match = .interpolated
                line.score = SearchRanking.interpolatedScore
                results.append(line)
            }
        }
        if results.isEmpty, let match = FTSQuery.groups(words, column: "name") {
            // The street named so: not every street with one of its words in a longer name. A word may be
            // written short ("52 Bodastr, Triesenberg" for Bodastrasse): each name word one of its forms.
            let streets = try context.streets(match: match, options: options, inSets: inSets).prefix(20)
            let named = try context.places.results(ids: streets.map(\.id))
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
}
