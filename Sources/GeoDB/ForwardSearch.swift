// Forward geocoding: free text (or as-you-type text) in, ranked places out. Typo-tolerant, safe with
// any input: user text only ever reaches FTS5 as quoted words.
import Foundation
import GeoDBSQLite

/// Options of a free-text search.
///
/// ```swift
/// var options = SearchOptions()
/// options.limit = 5
/// options.near = Coordinate(lat: 60.168, lon: 24.941)
/// let hits = try db.search("Stockmann", options: options)
/// ```
public struct SearchOptions: Sendable {
    /// Results to return, 1…`maxLimit`.
    public var limit = 10
    /// Treat the last word as a prefix (the user is still typing).
    public var autocomplete = false
    /// Bias towards this point (not a filter); results get `distanceM`.
    public var near: Coordinate?
    /// Only places whose point is in this box.
    public var bbox: BoundingBox?
    /// ISO country code, e.g. "FI".
    public var countryCode: String?
    /// Only these kinds (city, street, address, poi, …); empty for all.
    public var kinds: [String] = []
    /// Only places of these categories.
    public var categories: CategoryFilter?
    /// Show names in this language when the place has one (`name:xx`).
    public var language: String?
    /// Fill each result's address with the neighbourhood, suburb, city, county, state and country around
    /// it (from the areas containing it, else the nearest place of each rank), as reverse answers have
    /// them. Costs a containment lookup per result: off for as-you-type queries, on in the CLI.
    public var includeHierarchy = false

    /// ```swift
    /// var options = SearchOptions()
    /// ```
    public init() {}

    /// Largest `limit` accepted.
    public static let maxLimit = 100
}

extension QuerySession {
    /// Places matching `text`, best first.
    ///
    /// ```swift
    /// var options = SearchOptions()
    /// options.autocomplete = true
    /// let results = try db.search("mannerh", options: options)   // Mannerheimintie first
    /// ```
    public func search(_ text: String, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        guard (1...SearchOptions.maxLimit).contains(options.limit) else {
            throw GeoDBError(.invalidArgument, "limit \(options.limit) is out of range (1…\(SearchOptions.maxLimit))")
        }
        if let near = options.near, !near.isValid {
            throw GeoDBError(.invalidArgument, "--near \(near.lat),\(near.lon) is out of range")
        }
        let text = String(text.prefix(256))
        if let point = CoordinateParser.parse(text) { return try coordinateResult(point, options: options) }
        if let phrase = try categoryPhrase(text, options: options) { return phrase }
        let query = ParsedQuery(text)
        guard !query.words.isEmpty || !query.numbers.isEmpty else { return [] }

        var ranked = try rankedCandidates(query, words: query.words.map { [$0] }, options: options, match: nil)
        // Typos: when exact and prefix matching find too little, let long words match words 1–2 edits away.
        // While the user is typing, prefix matches are enough to show: only none at all suggests a typo.
        let tooFew = options.autocomplete ? ranked.isEmpty : ranked.count < min(options.limit, 3)
        if tooFew && !ranked.contains(where: { $0.match == "exact" }) {
            let fuzzyWords = try query.words.map { try [$0] + similarTokens(to: $0) }
            if fuzzyWords.contains(where: { $0.count > 1 }) {
                let seen = Set(ranked.map(\.id))
                ranked += try rankedCandidates(query, words: fuzzyWords, options: options, match: "fuzzy")
                    .filter { !seen.contains($0.id) }
            }
        }
        ranked.sort { ($0.score, -$0.id) > ($1.score, -$1.id) }
        // Full results only for those shown: reading a place (tags JSON and all) costs more than ranking it.
        let shown = Dictionary(ranked.prefix(options.limit).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found = try placeResults(ids: ranked.prefix(options.limit).map(\.id)).map { place in
            var place = place
            place.score = shown[place.id]?.score
            place.match = shown[place.id]?.match
            place.distanceM = shown[place.id]?.distanceM
            return place
        }
        // A house number the street does not have: the street (or an interpolated position), marked.
        if !query.numbers.isEmpty && !ranked.contains(where: { $0.match == "exact" && $0.kind != "street" }) {
            found += try numberFallback(query, options: options).filter { f in !found.contains { $0.id == f.id } }
            found.sort { ($0.score ?? 0, -$0.id) > ($1.score ?? 0, -$1.id) }
        }
        var shownResults = Array(found.prefix(options.limit))
        if options.includeHierarchy { shownResults = try shownResults.map(withHierarchy) }
        return try localized(shownResults, options: options)
    }

    /// "cafe near Senaatintori", "pharmacies near Stockmann": the places of a category within 1 km of the
    /// best match for the text after "near", nearest first. Nil when the text is not such a phrase (the
    /// words before "near" are not a category), so it is searched as ordinary text.
    func categoryPhrase(_ text: String, options: SearchOptions) throws -> [PlaceResult]? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let near = words.firstIndex(where: { ["near", "nearby", "around"].contains($0.lowercased()) }),
              near > 0, near < words.count - 1 else { return nil }
        var category = words[..<near].joined(separator: " ").lowercased()
        let filter: CategoryFilter
        if let resolved = try? CategoryFilter.resolve([category]) {
            filter = resolved
        } else {
            // Plurals: "cafes", "pharmacies".
            category = category.hasSuffix("ies") ? String(category.dropLast(3)) + "y" : String(category.dropLast())
            guard let resolved = try? CategoryFilter.resolve([category]) else { return nil }
            filter = resolved
        }
        var anchorOptions = options
        anchorOptions.limit = 1
        anchorOptions.categories = nil
        guard let anchor = try search(words[(near + 1)...].joined(separator: " "), options: anchorOptions).first else { return [] }
        return try places(near: anchor.coordinate, radius: 1_000, filter: filter, limit: options.limit).places
            .map { var p = $0; p.match = "category"; return p }
    }

    /// A place matching the text, scored: what ranking needs, without the rest of the place.
    struct RankedCandidate {
        var id: Int64
        var kind: String
        var score: Double
        var match: String
        var distanceM: Double?
    }

    /// Candidates for the words (each a list of alternatives), ranked: exact > prefix > fuzzy, then importance,
    /// then nearness to `options.near`.
    func rankedCandidates(_ query: ParsedQuery, words: [[String]], options: SearchOptions, match forced: String?)
        throws -> [RankedCandidate] {
        var groups = words.map { alternatives in alternatives.flatMap { TextNormalizer.variants($0) } }
        groups += query.numbers.map { [$0] }
        var prefixGroups = groups
        let typing = options.autocomplete && forced == nil && !words.isEmpty
        if typing { prefixGroups[words.count - 1] = groups[words.count - 1].map { $0 + "*" } }
        guard let match = FTSQuery.groups(prefixGroups) else { return [] }
        let candidates = try candidateRows(match: match, options: options)
        // Names decide exact matches: not needed when the class is forced. Only a place having every word
        // whole can have a name equal to the query: while the user is still typing (the last word a prefix),
        // that is few of the candidates, and only theirs are compared.
        var compared = forced == nil ? candidates.map(\.id) : []
        if typing, let whole = FTSQuery.groups(groups) {
            let complete = Set(try candidateIDs(match: whole, options: options).map(\.id))
            compared = compared.filter(complete.contains)
        }
        let names = try normalizedNames(of: compared, words: query.words)
        let wanted = query.words.joined(separator: " ")
        return candidates.map { place in
            let placeNames = names[place.id] ?? []
            // Words naming the place's own city or postcode are context ("…, Helsinki"), not its name.
            let context = Set(TextNormalizer.tokens([place.city, place.postcode].compactMap { $0 }.joined(separator: " ")))
            let core = query.words.filter { !context.contains($0) }.joined(separator: " ")
            var matchClass: String
            if let forced {
                matchClass = forced
            } else if !wanted.isEmpty && (placeNames.contains(wanted) || placeNames.contains(core)) {
                matchClass = "exact"
            } else {
                matchClass = "prefix"
            }
            var value: Double = ["exact": 30.0, "prefix": 20, "fuzzy": 10][matchClass] ?? 5
            if !query.numbers.isEmpty {
                // An address whose number is the one asked for is the answer; other numbered matches rank lower.
                let number = place.housenumber.map { TextNormalizer.fold($0).replacingOccurrences(of: " ", with: "") }
                if let number, query.numbers.contains(number) || query.numberText == number {
                    value += 12
                    if forced == nil { matchClass = "exact" }
                } else if place.postcode.map({ query.numbers.contains($0) }) == true {
                    value += 4
                }
            }
            value += place.kind == "street" && query.numbers.isEmpty ? 2 : 0
            value += place.importance * 10
            var distance: Double?
            if let near = options.near {
                distance = near.distance(to: place.coordinate)
                value += 8 * exp(-distance! / 5_000)
            }
            return RankedCandidate(id: place.id, kind: place.kind, score: (value * 1000).rounded() / 1000,
                                   match: matchClass, distanceM: distance)
        }
    }

    /// What ranking reads of a candidate place.
    struct CandidateRow {
        var id: Int64
        var importance: Double
        var kind: String
        var housenumber: String?
        var postcode: String?
        var city: String?
        var coordinate: Coordinate
    }

    /// Places whose index entry matches, most important first, with the options' filters in SQL, and the
    /// columns ranking needs.
    func candidateRows(match: String, options: SearchOptions, limit: Int = 200) throws -> [CandidateRow] {
        let (filter, values) = candidateFilter(match: match, options: options)
        return try cachedStatement("""
            SELECT p.id, p.importance, p.kind, p.housenumber, p.postcode, p.city, p.lat, p.lon
            FROM place_fts f JOIN place p ON p.id = f.rowid
            WHERE place_fts MATCH ?1\(filter) ORDER BY p.importance DESC, p.id LIMIT \(limit)
            """).rows(values) {
                CandidateRow(id: $0.int(0), importance: $0.double(1), kind: $0.text(2) ?? "", housenumber: $0.text(3),
                             postcode: $0.text(4), city: $0.text(5), coordinate: Coordinate(lat: $0.double(6), lon: $0.double(7)))
            }
    }

    /// `candidateRows`' ids and importance.
    func candidateIDs(match: String, options: SearchOptions, limit: Int = 200) throws -> [(id: Int64, importance: Double)] {
        try candidateRows(match: match, options: options, limit: limit).map { ($0.id, $0.importance) }
    }

    /// The SQL conditions of the options' filters (after `AND`) and the values they bind, the match first.
    private func candidateFilter(match: String, options: SearchOptions) -> (String, [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = [.text(match)]
        if let box = options.bbox {
            values += [.real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)]
            conditions.append("p.lon BETWEEN ?2 AND ?3 AND p.lat BETWEEN ?4 AND ?5")
        }
        if let country = options.countryCode {
            values.append(.text(country.uppercased()))
            conditions.append("p.country_code = ?\(values.count)")
        }
        if !options.kinds.isEmpty {
            values.append(.text(JSONText.array(options.kinds)))
            conditions.append("p.kind IN (SELECT value FROM json_each(?\(values.count)))")
        }
        switch options.categories {
        case .categories(let ids)?:
            values.append(Self.filterValue(.categories(ids)))
            conditions.append("p.id IN (SELECT place_id FROM place_category WHERE category_id IN (SELECT value FROM json_each(?\(values.count))))")
        case .rawTag(let tag)?:
            values.append(.text(tag))
            conditions.append("p.category = ?\(values.count)")
        case .anyNamedPOI?:
            conditions.append("p.kind = 'poi' AND p.name IS NOT NULL")
        case nil:
            break
        }
        return (conditions.map { " AND " + $0 }.joined(), values)
    }

    /// Each place's names that could equal the query `words` (folded to the form queries are compared in).
    /// Names whose length is far from the query's, or whose first letter cannot fold to a query word's,
    /// are not folded at all: places of a gazetteer have dozens of alternate names.
    func normalizedNames(of ids: [Int64], words: [String]) throws -> [Int64: Set<String>] {
        guard !ids.isEmpty else { return [:] }
        let wanted = words.joined(separator: " ")
        // The first letters of the query's words (a name may equal the query without its context words).
        let firsts = words.compactMap(\.utf8.first)
        var names: [Int64: Set<String>] = [:]
        let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
        for (id, name) in try cachedStatement("""
            SELECT place_id, name FROM place_name WHERE place_id IN (SELECT value FROM json_each(?1))
              AND length(CAST(name AS BLOB)) BETWEEN ?2 AND ?3
            UNION ALL SELECT id, street FROM place WHERE id IN (SELECT value FROM json_each(?1)) AND name IS NULL AND street IS NOT NULL
            """).rows([.text(json), .integer(Int64(wanted.utf8.count / 2)), .integer(Int64(wanted.utf8.count * 3 + 8))],
                      { ($0.int(0), $0.text(1) ?? "") }) {
            // Folding is the cost here (gazetteer places have dozens of names in many scripts): skip names
            // whose first letter cannot fold to that of a query word.
            if firsts.allSatisfy({ $0 < 0x80 }), !TextNormalizer.mayFold(name, toWordStartingWithOneOf: firsts) { continue }
            names[id, default: []].insert(TextNormalizer.tokens(name).joined(separator: " "))
        }
        return names
    }

    /// Indexed words within 1 edit (words of 4–7 letters) or 2 edits (8 and more) of `word`, most used first.
    /// Found through the trigram index on `search_token`: with k edits allowed, one of k+1 pieces of the
    /// word survives intact, so the pieces' substring matches hold every candidate.
    func similarTokens(to word: String) throws -> [String] {
        guard word.count >= 4, !word.allSatisfy(\.isNumber) else { return [] }
        let edits = word.count >= 8 ? 2 : 1
        // Pieces and trigrams in Unicode scalars, as FTS5's trigram tokenizer counts: a piece of three
        // Characters can be more scalars (Devanagari), which FTS5 would take as a phrase and refuse.
        let letters = Array(word.unicodeScalars)
        let pieceLength = max(3, letters.count / (edits + 1))
        var pieces: [[Unicode.Scalar]] = []
        var start = 0
        while start < letters.count {
            let end = min(letters.count, start + pieceLength)
            pieces.append(Array(letters[max(0, min(start, letters.count - 3))..<max(end, min(letters.count, start + 3))]))
            start = end
        }
        // Each piece as its trigrams, all required (the index keeps no positions, so no phrases): a superset
        // of the words holding the piece, narrowed by the edit distance below.
        let match = Set(pieces.map { piece in
            Set((0...(piece.count - 3)).map { String(String.UnicodeScalarView(piece[$0..<($0 + 3)])) }).sorted()
        }).sorted { $0.joined() < $1.joined() }.map { trigrams in
            "(" + trigrams.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"" }.joined(separator: " AND ") + ")"
        }.joined(separator: " OR ")
        let candidates = try cachedStatement("SELECT token, places FROM search_token WHERE search_token MATCH ?1 LIMIT 2000")
            .rows([.text(match)]) { ($0.text(0) ?? "", $0.int(1)) }
        return candidates.filter { $0.0 != word && Taxonomy.editDistance($0.0, word, limit: edits) <= edits }
            .sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(8).map(\.0)
    }

    /// For "Street 99" where the street has no 99: an interpolation line covering 99 (with the position
    /// along it), else the street itself; marked `interpolated` / `fallback`.
    func numberFallback(_ query: ParsedQuery, options: SearchOptions) throws -> [PlaceResult] {
        guard !query.words.isEmpty, let number = query.numbers.first, let wanted = Int(number.prefix { $0.isNumber }) else {
            return []
        }
        var results: [PlaceResult] = []
        let words = query.words.map { TextNormalizer.variants($0) }
        if let match = FTSQuery.groups(words, column: "address") {
            let lines = try placeResults(ids: try candidateIDs(match: match, options: options, limit: 50).map(\.id))
                .filter { $0.kind == "interpolation" }
            for var line in lines {
                let range = (line.address["housenumber"] ?? "").split(separator: "-").compactMap { Int($0) }
                guard range.count == 2, (min(range[0], range[1])...max(range[0], range[1])).contains(wanted),
                      let geometry = try geometry(of: line.id), case .lineStrings(let parts) = geometry, let points = parts.first,
                      let point = LineMath.point(along: points, fraction: range[0] == range[1] ? 0
                                                    : Double(wanted - range[0]) / Double(range[1] - range[0])) else { continue }
                line.lat = point.coordinate.lat
                line.lon = point.coordinate.lon
                line.address["housenumber"] = number
                line.match = "interpolated"
                line.score = 35
                line.displayName = Self.displayName(name: nil, address: line.address)
                results.append(line)
            }
        }
        if results.isEmpty, let match = FTSQuery.groups(words, column: "name") {
            var streetOptions = options
            streetOptions.kinds = ["street"]
            for var street in try placeResults(ids: try candidateIDs(match: match, options: streetOptions, limit: 5).map(\.id)) {
                street.match = "fallback"
                street.score = 15
                results.append(street)
            }
        }
        return results
    }

    func geometry(of id: Int64) throws -> Geometry? {
        try cachedStatement("SELECT geometry FROM place_geometry WHERE place_id = ?1")
            .rows([.integer(id)]) { $0.blob(0) }.first.flatMap { $0.flatMap(Geometry.init(encoded:)) }
    }

    /// Shows each result's name in `options.language` when it has one.
    func localized(_ results: [PlaceResult], options: SearchOptions) throws -> [PlaceResult] {
        guard let language = options.language else { return results }
        var out = results
        for index in out.indices {
            if let localized = try cachedStatement("SELECT name FROM place_name WHERE place_id = ?1 AND lang = ?2 AND type = 'name'")
                .rows([.integer(out[index].id), .text(language)], { $0.text(0) }).first ?? nil {
                out[index].name = localized
                out[index].displayName = Self.displayName(name: localized, address: out[index].address)
            }
        }
        return out
    }

    /// A query that is a coordinate: that point, with the nearest address or POI within 100 m when there is one.
    func coordinateResult(_ point: Coordinate, options: SearchOptions) throws -> [PlaceResult] {
        var result = PlaceResult(id: 0, sourceRef: "", kind: "coordinate", category: nil, categoryID: nil, name: nil,
                                 displayName: String(format: "%.6f, %.6f", point.lat, point.lon), lat: point.lat, lon: point.lon,
                                 distanceM: options.near.map { $0.distance(to: point) }, address: [:], tags: [:],
                                 score: 100, match: "coordinate")
        let nearby = try places(near: point, radius: 100, filter: .anyNamedPOI, limit: 1).places
        let addresses = try places(near: point, radius: 100, filter: .rawTag("building=yes"), limit: 1).places
        if let nearest = (addresses + nearby).min(by: { ($0.distanceM ?? 0) < ($1.distanceM ?? 0) }) {
            result.address = nearest.address
            result.displayName += " (near \(nearest.displayName))"
        }
        return [result]
    }
}

/// A search text split into words and house numbers / postcodes.
struct ParsedQuery {
    /// Folded words that are not numbers.
    var words: [String]
    /// Folded number-like words: "52", "12a", "00100" (a range "12-14" gives both ends).
    var numbers: [String]
    /// The number as written, folded without spaces ("12-14", "12a").
    var numberText: String?

    init(_ text: String) {
        var words: [String] = []
        var numbers: [String] = []
        var numberText: String?
        for raw in text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).prefix(16) {
            let folded = TextNormalizer.fold(String(raw))
            if folded.first?.isNumber == true, folded.count <= 10 {
                numberText = numberText ?? folded.filter { $0.isLetter || $0.isNumber || $0 == "-" }
                numbers += TextNormalizer.tokens(folded)
            } else {
                words += TextNormalizer.tokens(folded)
            }
        }
        self.words = Array(words.prefix(12))
        self.numbers = Array(numbers.prefix(4))
        self.numberText = numberText
    }
}

extension FTSQuery {
    /// `col: (a OR b) (c OR d*)` — each group an OR of quoted words (a trailing `*` marks a prefix), all
    /// groups required; nil when there is no word. Nothing of the user's text is left unquoted.
    static func groups(_ groups: [[String]], column: String? = nil) -> String? {
        let parts = groups.compactMap { alternatives -> String? in
            let terms = alternatives.filter { !$0.isEmpty && $0 != "*" }.map { word -> String in
                let isPrefix = word.hasSuffix("*")
                let bare = isPrefix ? String(word.dropLast()) : word
                return "\"" + bare.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (isPrefix ? "*" : "")
            }
            guard !terms.isEmpty else { return nil }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
        }
        guard !parts.isEmpty else { return nil }
        let body = parts.joined(separator: " AND ")
        return column.map { "\($0): (\(body))" } ?? body
    }
}
