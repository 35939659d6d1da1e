// Structured search (street + number + city + postcode), hierarchical search (town → street → number)
// and street crossings.
import Foundation
import GeoDBSQLite

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

    /// An address from its parts: the exact address, else an interpolated position, else the street.
    func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                          options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        if let street, let housenumber {
            let wantedStreet = TextNormalizer.tokens(street).joined(separator: " ")
            let wantedNumber = TextNormalizer.houseNumber(housenumber)
            let groups = TextNormalizer.tokens(street).map { TextNormalizer.variants($0) } + TextNormalizer.tokens(housenumber).map { [$0] }
            guard let match = FTSQuery.groups(groups, column: FTSQuery.address) else { return [] }
            let found = try places.results(ids: try index.candidates(match: match, options: options).map(\.id)).filter { p in
                TextNormalizer.tokens(p.address.street ?? "").joined(separator: " ") == wantedStreet
                    && TextNormalizer.houseNumber(p.address.housenumber ?? "") == wantedNumber
                    && Self.liesIn(p.address, town: city)
                    // A postcode derived at import is the neighbours' guess, no reason to refuse the address.
                    && (Self.matches(p.address.postcode, postcode) || p.address.derived.contains(.postcode))
            }
            if !found.isEmpty {
                return Array(found.map { var p = $0; p.match = .exact; p.score = SearchRanking.structuredExactScore; return p }
                    .prefix(options.limit))
            }
            let fallback = StreetNumberReading(context: forward.context)
            return Array(try fallback.places(ParsedQuery("\(street) \(housenumber)"), options: options).prefix(options.limit))
        }
        if let street, let postcode { return try streets(street, postcode: postcode, city: city, options: options) }
        var text = [street, postcode, city].compactMap { $0 }.joined(separator: " ")
        if text.isEmpty, let housenumber { text = housenumber }
        var scoped = options
        if street != nil && scoped.kinds.isEmpty { scoped.kinds = [.street] }
        if street == nil && postcode == nil && scoped.kinds.isEmpty { scoped.kinds = PlaceReach.townKinds }
        return try forward.search(text, options: scoped)
    }

    /// Streets named `street` in `postcode` (and `city`): those whose own or area postcode it is, or that
    /// pass within 100 m of an address on a street of that name with that postcode (OSM rarely maps
    /// postcodes as areas; addresses carry them).
    private func streets(_ street: String, postcode: String, city: String?, options: SearchOptions) throws -> [PlaceResult] {
        var streetOptions = options
        streetOptions.kinds = [.street]
        streetOptions.limit = 50
        let named = try forward.search(street, options: streetOptions).filter { Self.liesIn($0.address, town: city) }
        func code(_ text: String?) -> String? { text.map { TextNormalizer.fold($0).replacingOccurrences(of: " ", with: "") } }
        let groups = TextNormalizer.tokens(street).map { TextNormalizer.variants($0) } + TextNormalizer.tokens(postcode).map { [$0] }
        guard let match = FTSQuery.groups(groups, column: FTSQuery.address) else { return [] }
        var addressOptions = options
        addressOptions.kinds = []
        let addresses = try index.candidates(match: match, options: addressOptions, limit: 2000)
            .filter { code($0.postcode) == code(postcode) }.map(\.coordinate)
        let inPostcode = try named.filter { place in
            if code(place.address.postcode) == code(postcode) { return true }
            guard case .lineStrings(let lines)? = try places.geometry(of: place.id) else { return false }
            return addresses.contains { point in lines.contains { LineMath.distance(from: point, to: $0).distance <= 100 } }
        }
        return Array(inPostcode.prefix(options.limit))
    }

    /// Town → street → house number, each step scoped by the one before and answering name fragments:
    /// towns named like `town` by importance; with `street`, streets in the best such town; with
    /// `housenumber` too, the numbers on that street starting with it.
    func hierarchical(town: String, street: String?, housenumber: String?, options: SearchOptions) throws -> [PlaceResult] {
        try options.validate()
        let towns = try self.towns(town, options: options)
        guard let street else { return Array(towns.prefix(options.limit)) }
        guard let town = towns.first else { return [] }
        let scope = try TownScope(town, places: places, db: db)
        var streetOptions = options
        streetOptions.kinds = [.street]
        streetOptions.near = nil
        var prefixWords = TextNormalizer.tokens(street).map { [$0] }
        if let last = prefixWords.indices.last { prefixWords[last] = [prefixWords[last][0] + "*"] }
        guard let streetMatch = FTSQuery.groups(prefixWords, column: FTSQuery.placeNames) else { return [] }
        let streets = try scope.filter(try places.results(ids: try index.candidates(match: streetMatch, options: streetOptions,
                                                                                  limit: 1000).map(\.id)))
            .map { var s = $0; s.distanceM = options.near?.distance(to: s.coordinate); return s }
            .sorted(by: Self.listedBefore(street: street, housenumber: nil))
        guard let housenumber else { return Array(streets.map { Self.marked($0, .prefix) }.prefix(options.limit)) }
        let wanted = TextNormalizer.tokens(street).joined(separator: " ")
        guard let exactStreet = streets.first(where: { TextNormalizer.tokens($0.name ?? "").joined(separator: " ") == wanted })
            ?? streets.first else { return [] }
        let streetName = exactStreet.name ?? street
        let groups = TextNormalizer.tokens(streetName).map { [$0] }
        guard let addressMatch = FTSQuery.groups(groups, column: FTSQuery.address) else { return [] }
        let fragment = TextNormalizer.houseNumber(housenumber)
        var addressOptions = options
        addressOptions.kinds = []
        let onStreet = try places.results(ids: try index.candidates(match: addressMatch, options: addressOptions, limit: 5000).map(\.id))
            .filter { p in
                guard let number = p.address.housenumber, p.kind != .interpolation,
                      TextNormalizer.tokens(p.address.street ?? "").joined(separator: " ")
                        == TextNormalizer.tokens(streetName).joined(separator: " ") else { return false }
                return TextNormalizer.houseNumber(number).hasPrefix(fragment)
            }
        let numbers = try scope.filter(onStreet).sorted(by: Self.listedBefore(street: street, housenumber: housenumber))
        return Array(numbers.map { Self.marked($0, TextNormalizer.houseNumber($0.address.housenumber ?? "") == fragment ? .exact : .prefix) }
            .prefix(options.limit))
    }

    /// Streets crossing `street` (in `town` when given), each at its crossing point.
    func crossings(of street: String, town: String?, options: SearchOptions) throws -> [PlaceResult] {
        guard let target = try crossedStreet(street, town: town, options: options) else { return [] }
        return try crossings(of: target, options: options)
    }

    /// The street `crossings(of:town:)` looks at: the first street named `street` (in `town` when given).
    func crossedStreet(_ street: String, town: String?, options: SearchOptions) throws -> PlaceResult? {
        try options.validate()
        var streetOptions = options
        streetOptions.kinds = [.street]
        var candidates = try forward.search(street, options: streetOptions)
        if let town, let place = try towns(town, options: options).first {
            candidates = try TownScope(place, places: places, db: db).filter(candidates)
        }
        return candidates.first
    }

    /// The streets crossing the street `target`, each at its crossing point, by name.
    func crossings(of target: PlaceResult, options: SearchOptions) throws -> [PlaceResult] {
        guard case .lineStrings(let lines)? = try places.geometry(of: target.id),
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
            .sorted(by: Self.listedBefore(street: target.name, housenumber: nil))
            .prefix(options.limit).map { $0 }
    }

    /// The order hierarchical search and crossings list their answers in, which a search of several files
    /// merges them by: towns biggest first (near `near`: a town nearby counts as much as ten times the
    /// people), streets by name (with a point: nearest first, then by name), house numbers in natural order.
    /// `street` and `housenumber` say which step is answered.
    static func listedBefore(street: String?, housenumber: String?, near: Coordinate? = nil) -> (PlaceResult, PlaceResult) -> Bool {
        if housenumber != nil { return { numberOrder($0.address.housenumber ?? "", $1.address.housenumber ?? "") } }
        if street != nil { return { ($0.distanceM ?? 0, $0.name ?? "", $0.id) < ($1.distanceM ?? 0, $1.name ?? "", $1.id) } }
        // Near the point counts as much as ten times the people (a 10,000-people town next door before a
        // 100,000-people city 50 km away).
        func weight(_ town: PlaceResult) -> Double {
            log10(Double(size(town)) + 1) + (town.distanceM.map { 1.5 * exp(-$0 / 10_000) } ?? 0)
        }
        return near == nil ? { (size($0), $0.id) > (size($1), $1.id) } : { (weight($0), -$0.id) > (weight($1), -$1.id) }
    }

    // MARK: helpers

    /// Towns whose name starts like `text`, biggest first, then those with only an alternate name that does
    /// (a big city has a hundred, in every language: "Bal" is not Beijing): settlements, suburbs, and the
    /// areas that are a municipality (a city-state).
    private func towns(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        var words = TextNormalizer.tokens(text).map { [$0] }
        guard let last = words.indices.last else { return [] }
        words[last] = [words[last][0] + "*"]
        guard let match = FTSQuery.groups(words, column: FTSQuery.placeNames) else { return [] }
        var townOptions = options
        townOptions.kinds = PlaceReach.townKinds
        let settlements = try index.candidates(match: match, options: townOptions, limit: 200)
        townOptions.kinds = [.country, .state, .county]
        let larger = try index.candidates(match: match, options: townOptions, limit: 50)
        let municipal = Set(try db.rows("municipal areas", "SELECT place_id FROM area WHERE level = 'city' AND place_id IN (SELECT value FROM json_each(?1))",
                                        [.text(JSONText.array(larger.map(\.id)))]) { $0.int(0) })
        let candidates = settlements + larger.filter { municipal.contains($0.id) }
        let byAlternate = Set(candidates.filter(\.throughAlternates).map(\.id))
        let found = try places.results(ids: candidates.map(\.id)).map { Self.marked($0, .prefix) }
        let before = Self.listedBefore(street: nil, housenumber: nil, near: options.near)
        return found.map { var town = $0; town.distanceM = options.near?.distance(to: town.coordinate); return town }
            .sorted { a, b in
                let (aOwn, bOwn) = (!byAlternate.contains(a.id), !byAlternate.contains(b.id))
                return aOwn != bOwn ? aOwn : before(a, b)
            }
    }

    /// How big a town is, for listing the biggest first: its population, else what its kind usually has
    /// (a municipality known only by its boundary, like a village).
    static func size(_ town: PlaceResult) -> Int64 {
        if let population = town.population, population > 0 { return population }
        if town.category?.osmTag?.key == "boundary" { return 1_000 }
        switch town.kind {
        case .country, .state, .county, .city: return 100_000
        case .town, .suburb: return 10_000
        case .village, .neighbourhood: return 1_000
        default: return 100
        }
    }

    static func marked(_ place: PlaceResult, _ match: MatchClass) -> PlaceResult {
        var p = place
        p.match = match
        return p
    }

    /// Whether an address lies in the town a structured search names: its city, or the suburb or
    /// neighbourhood it lies in, since people write their district as their town (Helsinki's "Kluuvi"), and
    /// Nominatim matches a structured city against every part of an address. True when it has none of them.
    static func liesIn(_ address: Address, town wanted: String?) -> Bool {
        let parts = [address.city, address.suburb, address.neighbourhood].compactMap { $0 }
        guard let wanted, !parts.isEmpty else { return true }
        return parts.contains { matches($0, wanted) }
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
