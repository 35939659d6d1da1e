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
            results += try houses(wanted, written: number, on: lines)
        }
        if results.isEmpty, let match = FTSQuery.groups(words, column: FTSQuery.placeNames) {
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
            let chosen = exact.isEmpty && inSets == nil ? Array(named.prefix(5)) : Array(exact.prefix(5))
            // The TIGER lines of those streets (found only so, as Nominatim finds them: by their parent street).
            results = try houses(wanted, written: number, on: context.places.results(ids: tigerLines(of: chosen)))
            guard results.isEmpty else { return results }
            for var street in chosen {
                street.match = .fallback
                street.score = SearchRanking.fallbackScore
                results.append(street)
            }
        }
        return results
    }

    /// Number `wanted` (as the query wrote it: `written`) on those of `lines` that cover it, at its position
    /// along each, marked `interpolated`.
    private func houses(_ wanted: Int, written: String, on lines: [PlaceResult]) throws -> [PlaceResult] {
        var results: [PlaceResult] = []
        for var line in lines {
            guard let geometry = try context.places.geometry(of: line.id), case .lineStrings(let parts) = geometry,
                  let points = parts.first,
                  let houses = InterpolationLine(numbers: line.address.housenumber ?? "", category: line.category, line: points),
                  houses.covers(wanted) else { continue }
            let point = houses.position(of: wanted)
            line.lat = point.lat
            line.lon = point.lon
            line.address.housenumber = written
            line.match = .interpolated
            line.score = SearchRanking.interpolatedScore
            results.append(line)
        }
        return results
    }

    /// The TIGER lines parented to the ways of `streets` (their own and those merged into them), whose
    /// source id is that way's (`TigerReader`).
    private func tigerLines(of streets: [PlaceResult]) throws -> [Int64] {
        guard !streets.isEmpty else { return [] }
        return try context.db.rows("the TIGER lines of streets", """
            WITH way(ref) AS (
                SELECT p.source_ref FROM place p WHERE p.id IN (SELECT value FROM json_each(?1))
                UNION SELECT l.source_ref FROM place_link l JOIN place p ON p.id = l.place_id AND l.source_id = p.source_id
                WHERE p.id IN (SELECT value FROM json_each(?1)))
            SELECT t.id FROM source s CROSS JOIN way CROSS JOIN place t ON t.source_id = s.id AND t.source_ref = way.ref
            WHERE s.format = 'tiger' AND t.kind = 'interpolation' ORDER BY t.id
            """, [.text(JSONText.array(streets.map(\.id)))]) { $0.int(0) }
    }
}
