// Structured search (street + number + city + postcode), hierarchical search (town → street → number)
// and street crossings.

/// Search by address parts and by town → street → number, for one session.
final class StructuredSearch {
    private let db: DatabaseReader
    private let index: SearchIndex
    private let places: PlaceReader
    private let forward: ForwardSearch

    init(db: DatabaseReader, index: SearchIndex, places: PlaceReader, forward: ForwardSearch) {
        self.db = db
        self.index = index
        self.places = places
        self.forward = forward
    }

    /// Kinds that count as towns in hierarchical search, and how far their streets reach when the town
    /// has no boundary polygon (metres).
    static let townReach: [PlaceKind: Double] = [.city: 15_000, .town: 8_000, .village: 4_000, .hamlet: 2_000,
                                                 .suburb: 3_000, .neighbourhood: 1_500]

    /// An address from its parts: the exact address, else an interpolated position, else the street.
    func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                          options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        if let street, let housenumber {
            let wantedStreet = TextNormalizer.tokens(street).joined(separator: " ")
            let wantedNumber = Self.foldNumber(housenumber)
            let groups = TextNormalizer.tokens(street).map { TextNormalizer.variants($0) } + TextNormalizer.tokens(housenumber).map { [$0] }
            guard let match = FTSQuery.groups(groups, column: "address") else { return [] }
            let found = try places.results(ids: try index.candidates(match: match, options: options).map(\.id)).filter { p in
                TextNormalizer.tokens(p.address["street"] ?? "").joined(separator: " ") == wantedStreet
                    && Self.foldNumber(p.address["housenumber"] ?? "") == wantedNumber
                    && Self.matches(p.address["city"], city) && Self.matches(p.address["postcode"], postcode)
            }
            if !found.isEmpty {
                return Array(found.map { var p = $0; p.match = .exact; p.score = SearchRanking.structuredExactScore; return p }
                    .prefix(options.limit))
            }
            return Array(try forward.numberFallback(ParsedQuery("\(street) \(housenumber)"), options: options).prefix(options.limit))
        }
        var text = [street, postcode, city].compactMap { $0 }.joined(separator: " ")
        if text.isEmpty, let housenumber { text = housenumber }
        var scoped = options
        if street != nil && scoped.kinds.isEmpty { scoped.kinds = [.street] }
        if street == nil && postcode == nil && scoped.kinds.isEmpty { scoped.kinds = Array(Self.townReach.keys) }
        return try forward.search(text, options: scoped)
    }

    /// Town → street → house number, each step scoped by the one before and answering name fragments:
    /// towns named like `town` by importance; with `street`, streets in the best such town; with
    /// `housenumber` too, the numbers on that street starting with it.
    func hierarchical(town: String, street: String?, housenumber: String?, options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        let towns = try self.towns(town, options: options)
        guard let street else { return Array(towns.prefix(options.limit)) }
        guard let scope = towns.first else { return [] }
        let inScope = try scopeTest(for: scope)
        var streetOptions = options
        streetOptions.kinds = [.street]
        streetOptions.near = nil
        var prefixWords = TextNormalizer.tokens(street).map { [$0] }
        if let last = prefixWords.indices.last { prefixWords[last] = [prefixWords[last][0] + "*"] }
        guard let streetMatch = FTSQuery.groups(prefixWords, column: "name") else { return [] }
        let streets = try places.results(ids: try index.candidates(match: streetMatch, options: streetOptions, limit: 1000).map(\.id))
            .filter(inScope)
            .sorted { ($0.name ?? "", $0.id) < ($1.name ?? "", $1.id) }
        guard let housenumber else { return Array(streets.map { Self.marked($0, .prefix) }.prefix(options.limit)) }
        let wanted = TextNormalizer.tokens(street).joined(separator: " ")
        guard let exactStreet = streets.first(where: { TextNormalizer.tokens($0.name ?? "").joined(separator: " ") == wanted })
            ?? streets.first else { return [] }
        let streetName = exactStreet.name ?? street
        let groups = TextNormalizer.tokens(streetName).map { [$0] }
        guard let addressMatch = FTSQuery.groups(groups, column: "address") else { return [] }
        let fragment = Self.foldNumber(housenumber)
        var addressOptions = options
        addressOptions.kinds = []
        let numbers = try places.results(ids: try index.candidates(match: addressMatch, options: addressOptions, limit: 5000).map(\.id))
            .filter { p in
                guard let number = p.address["housenumber"], p.kind != .interpolation,
                      TextNormalizer.tokens(p.address["street"] ?? "").joined(separator: " ")
                        == TextNormalizer.tokens(streetName).joined(separator: " ") else { return false }
                return Self.foldNumber(number).hasPrefix(fragment) && inScope(p)
            }
            .sorted { Self.numberOrder($0.address["housenumber"] ?? "", $1.address["housenumber"] ?? "") }
        return Array(numbers.map { Self.marked($0, Self.foldNumber($0.address["housenumber"] ?? "") == fragment ? .exact : .prefix) }
            .prefix(options.limit))
    }

    /// Streets crossing `street` (in `town` when given), each at its crossing point.
    func crossings(of street: String, town: String?, options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        var streetOptions = options
        streetOptions.kinds = [.street]
        var candidates = try forward.search(street, options: streetOptions)
        if let town, let scope = try towns(town, options: options).first {
            candidates = candidates.filter(try scopeTest(for: scope))
        }
        guard let target = candidates.first, case .lineStrings(let lines)? = try places.geometry(of: target.id),
              let box = Geometry.lineStrings(lines).boundingBox else { return [] }
        let margin = 0.0002
        let others = try db.rows("streets near a street", """
            SELECT p.id FROM place_rtree r CROSS JOIN place p ON p.id = r.id
            WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.kind = 'street' AND p.id <> ?5
            """, [.real(box.minLon - margin), .real(box.minLat - margin), .real(box.maxLon + margin),
                  .real(box.maxLat + margin), .integer(target.id)]) { $0.int(0) }
        var crossing: [(id: Int64, point: Point7)] = []
        for id in others {
            guard case .lineStrings(let otherLines)? = try places.geometry(of: id),
                  let point = LineMath.crossingPoint(lines, otherLines) else { continue }
            crossing.append((id, point))
        }
        let points = Dictionary(crossing.map { ($0.id, $0.point) }, uniquingKeysWith: { a, _ in a })
        return try places.results(ids: crossing.map(\.id))
            .filter { $0.name != target.name }
            .map { place in
                var p = Self.marked(place, .exact)
                if let at = points[place.id] { p.lat = at.coordinate.lat; p.lon = at.coordinate.lon }
                return p
            }
            .sorted { ($0.name ?? "", $0.id) < ($1.name ?? "", $1.id) }
            .prefix(options.limit).map { $0 }
    }

    // MARK: helpers

    /// Towns whose name starts like `text`, most important first.
    private func towns(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        var words = TextNormalizer.tokens(text).map { [$0] }
        guard let last = words.indices.last else { return [] }
        words[last] = [words[last][0] + "*"]
        guard let match = FTSQuery.groups(words, column: "name") else { return [] }
        var townOptions = options
        townOptions.kinds = Array(Self.townReach.keys)
        let ranked = try index.candidates(match: match, options: townOptions, limit: 200)
        return try places.results(ids: ranked.map(\.id)).map { Self.marked($0, .prefix) }
    }

    /// Whether a place lies in a town: inside its boundary polygon when one of that name exists, else within
    /// the town kind's reach of its point.
    private func scopeTest(for town: PlaceResult) throws -> (PlaceResult) -> Bool {
        let areas = try db.rows("boundaries of a town", """
            SELECT g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE p.name = ?1 AND p.kind IN ('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood') AND substr(g.geometry, 1, 1) = x'02'
            """, [.text(town.name ?? "")]) { $0.blob(0).flatMap(Geometry.init(encoded:)) }.compactMap { $0 }
        let polygons = areas.flatMap { geometry -> [[[Point7]]] in
            if case .polygons(let p) = geometry { return p }
            return []
        }
        if !polygons.isEmpty {
            return { place in
                let p = Point7(place.coordinate)
                return polygons.contains { PolygonMath.polygonContains($0, lat: p.lat, lon: p.lon) }
            }
        }
        let reach = Self.townReach[town.kind] ?? 5_000
        let center = town.coordinate
        return { center.distance(to: $0.coordinate) <= reach }
    }

    static func marked(_ place: PlaceResult, _ match: MatchClass) -> PlaceResult {
        var p = place
        p.match = match
        return p
    }

    static func foldNumber(_ number: String) -> String {
        TextNormalizer.fold(number).filter { !$0.isWhitespace }
    }

    static func matches(_ value: String?, _ wanted: String?) -> Bool {
        guard let wanted, let value else { return true }
        return TextNormalizer.tokens(value) == TextNormalizer.tokens(wanted)
    }

    /// House numbers in natural order: 2 < 10 < 10a < 10b < 11.
    static func numberOrder(_ a: String, _ b: String) -> Bool {
        let na = Int(a.prefix { $0.isNumber }) ?? Int.max, nb = Int(b.prefix { $0.isNumber }) ?? Int.max
        return na != nb ? na < nb : a < b
    }
}
