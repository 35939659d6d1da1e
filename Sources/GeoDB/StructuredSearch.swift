// Structured search (street + number + city + postcode), hierarchical search (town → street → number),
// street crossings, and the details of one place.
import Foundation
import GeoDBSQLite

/// Everything about one place (`geodb lookup`).
///
/// ```swift
/// let details = try db.lookup("w122595241")
/// print(details.names.map(\.name), details.geometry ?? "point")
/// ```
public struct PlaceDetails: Codable, Sendable {
    /// One name of the place (`place_name`).
    ///
    /// ```swift
    /// let swedish = details.names.first { $0.lang == "sv" }?.name
    /// ```
    public struct Name: Codable, Sendable {
        /// The name as written.
        public var name: String
        /// `name`, `alt_name`, `old_name`, `official_name`, …
        public var type: String
        /// Language of the name (`name:sv` → "sv"), when it has one.
        public var lang: String?
    }
    /// The place, as queries return it.
    public var place: PlaceResult
    /// Every name, own names first.
    public var names: [Name]
    /// The file the place came from.
    public var source: String
    /// A summary of its geometry ("3 lines, 41 points"), when it has one.
    public var geometry: String?
}

extension QuerySession {
    /// Kinds that count as towns in hierarchical search, and how far their streets reach when the town
    /// has no boundary polygon (metres).
    static let townReach: [String: Double] = ["city": 15_000, "town": 8_000, "village": 4_000, "hamlet": 2_000,
                                              "suburb": 3_000, "neighbourhood": 1_500]

    /// An address from its parts: the exact address, else an interpolated position, else the street.
    ///
    /// ```swift
    /// let hits = try session.structuredSearch(street: "Mannerheimintie", housenumber: "9", city: "Helsinki", postcode: nil)
    /// ```
    public func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                                 options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        if let street, let housenumber {
            let wantedStreet = TextNormalizer.tokens(street).joined(separator: " ")
            let wantedNumber = Self.foldNumber(housenumber)
            let groups = TextNormalizer.tokens(street).map { TextNormalizer.variants($0) } + TextNormalizer.tokens(housenumber).map { [$0] }
            guard let match = FTSQuery.groups(groups, column: "address") else { return [] }
            let found = try placeResults(ids: try candidateIDs(match: match, options: options).map(\.id)).filter { p in
                TextNormalizer.tokens(p.address["street"] ?? "").joined(separator: " ") == wantedStreet
                    && Self.foldNumber(p.address["housenumber"] ?? "") == wantedNumber
                    && Self.matches(p.address["city"], city) && Self.matches(p.address["postcode"], postcode)
            }
            if !found.isEmpty {
                return Array(found.map { var p = $0; p.match = "exact"; p.score = 50; return p }.prefix(options.limit))
            }
            return Array(try numberFallback(ParsedQuery("\(street) \(housenumber)"), options: options).prefix(options.limit))
        }
        var text = [street, postcode, city].compactMap { $0 }.joined(separator: " ")
        if text.isEmpty, let housenumber { text = housenumber }
        var scoped = options
        if street != nil && scoped.kinds.isEmpty { scoped.kinds = ["street"] }
        if street == nil && postcode == nil && scoped.kinds.isEmpty { scoped.kinds = Array(Self.townReach.keys) }
        return try search(text, options: scoped)
    }

    /// Town → street → house number, each step scoped by the one before and answering name fragments:
    /// towns named like `town` by importance; with `street`, streets in the best such town; with
    /// `housenumber` too, the numbers on that street starting with it.
    ///
    /// ```swift
    /// let streets = try session.hierarchical(town: "Helsinki", street: "Manner")
    /// ```
    public func hierarchical(town: String, street: String? = nil, housenumber: String? = nil,
                             options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        let towns = try self.towns(town, options: options)
        guard let street else { return Array(towns.prefix(options.limit)) }
        guard let scope = towns.first else { return [] }
        let inScope = try scopeTest(for: scope)
        var streetOptions = options
        streetOptions.kinds = ["street"]
        streetOptions.near = nil
        var prefixWords = TextNormalizer.tokens(street).map { [$0] }
        if let last = prefixWords.indices.last { prefixWords[last] = [prefixWords[last][0] + "*"] }
        guard let streetMatch = FTSQuery.groups(prefixWords, column: "name") else { return [] }
        let streets = try placeResults(ids: try candidateIDs(match: streetMatch, options: streetOptions, limit: 1000).map(\.id))
            .filter(inScope)
            .sorted { ($0.name ?? "", $0.id) < ($1.name ?? "", $1.id) }
        guard let housenumber else { return Array(streets.map { Self.marked($0, "prefix") }.prefix(options.limit)) }
        let wanted = TextNormalizer.tokens(street).joined(separator: " ")
        guard let exactStreet = streets.first(where: { TextNormalizer.tokens($0.name ?? "").joined(separator: " ") == wanted })
            ?? streets.first else { return [] }
        let streetName = exactStreet.name ?? street
        let groups = TextNormalizer.tokens(streetName).map { [$0] }
        guard let addressMatch = FTSQuery.groups(groups, column: "address") else { return [] }
        let fragment = Self.foldNumber(housenumber)
        var addressOptions = options
        addressOptions.kinds = []
        let numbers = try placeResults(ids: try candidateIDs(match: addressMatch, options: addressOptions, limit: 5000).map(\.id))
            .filter { p in
                guard let number = p.address["housenumber"], p.kind != "interpolation",
                      TextNormalizer.tokens(p.address["street"] ?? "").joined(separator: " ")
                        == TextNormalizer.tokens(streetName).joined(separator: " ") else { return false }
                return Self.foldNumber(number).hasPrefix(fragment) && inScope(p)
            }
            .sorted { Self.numberOrder($0.address["housenumber"] ?? "", $1.address["housenumber"] ?? "") }
        return Array(numbers.map { Self.marked($0, Self.foldNumber($0.address["housenumber"] ?? "") == fragment ? "exact" : "prefix") }
            .prefix(options.limit))
    }

    /// Streets crossing `street` (in `town` when given), each at its crossing point.
    ///
    /// ```swift
    /// let corners = try session.crossings(of: "Mannerheimintie")
    /// ```
    public func crossings(of street: String, town: String? = nil, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        var streetOptions = options
        streetOptions.kinds = ["street"]
        var candidates = try search(street, options: streetOptions)
        if let town, let scope = try towns(town, options: options).first {
            candidates = candidates.filter(try scopeTest(for: scope))
        }
        guard let target = candidates.first, case .lineStrings(let lines)? = try geometry(of: target.id),
              let box = Geometry.lineStrings(lines).boundingBox else { return [] }
        let margin = 0.0002
        let others = try cachedStatement("""
            SELECT p.id FROM place_rtree r CROSS JOIN place p ON p.id = r.id
            WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.kind = 'street' AND p.id <> ?5
            """).rows([.real(box.minLon - margin), .real(box.minLat - margin), .real(box.maxLon + margin),
                       .real(box.maxLat + margin), .integer(target.id)]) { $0.int(0) }
        var crossing: [(id: Int64, point: Point7)] = []
        for id in others {
            guard case .lineStrings(let otherLines)? = try geometry(of: id),
                  let point = Self.crossingPoint(lines, otherLines) else { continue }
            crossing.append((id, point))
        }
        let points = Dictionary(crossing.map { ($0.id, $0.point) }, uniquingKeysWith: { a, _ in a })
        return try placeResults(ids: crossing.map(\.id))
            .filter { $0.name != target.name }
            .map { place in
                var p = Self.marked(place, "exact")
                if let at = points[place.id] { p.lat = at.coordinate.lat; p.lon = at.coordinate.lon }
                return p
            }
            .sorted { ($0.name ?? "", $0.id) < ($1.name ?? "", $1.id) }
            .prefix(options.limit).map { $0 }
    }

    /// Everything about the place with this id (`42`) or source id (`n123`).
    ///
    /// ```swift
    /// let details = try session.lookup("n319515045")
    /// ```
    public func lookup(_ reference: String) throws -> PlaceDetails {
        let id: Int64?
        if let number = Int64(reference) {
            id = number
        } else {
            // A source id as results give it: "n123", "geonames:658225", "csv:stores.csv:17".
            var ref = reference, format: String?, file: String?
            if reference.hasPrefix("geonames:") {
                (format, ref) = ("geonames", String(reference.dropFirst("geonames:".count)))
            } else if reference.hasPrefix("csv:"), let colon = reference.lastIndex(of: ":"),
                      colon > reference.index(reference.startIndex, offsetBy: 3) {
                format = "csv"
                file = String(reference[reference.index(reference.startIndex, offsetBy: 4)..<colon])
                ref = String(reference[reference.index(after: colon)...])
            }
            id = try cachedStatement("""
                SELECT p.id FROM place p JOIN source s ON s.id = p.source_id
                WHERE p.source_ref = ?1 AND (?2 IS NULL OR s.format = ?2) AND (?3 IS NULL OR s.name = ?3) ORDER BY p.id LIMIT 1
                """).rows([.text(ref), format.map(SQLiteValue.text) ?? .null, file.map(SQLiteValue.text) ?? .null]) { $0.int(0) }.first
        }
        guard let id, let place = try placeResults(ids: [id]).first.map(withHierarchy) else {
            throw GeoDBError(.invalidArgument, "no place '\(reference)' in \(path)", remedy: "give a place id or a source id such as n123, geonames:658225 or csv:stores.csv:17")
        }
        let names = try cachedStatement("SELECT name, type, lang FROM place_name WHERE place_id = ?1 ORDER BY rowid")
            .rows([.integer(id)]) { PlaceDetails.Name(name: $0.text(0) ?? "", type: $0.text(1) ?? "", lang: $0.text(2)) }
        let source = try cachedStatement("SELECT s.name FROM place p JOIN source s ON s.id = p.source_id WHERE p.id = ?1")
            .rows([.integer(id)]) { $0.text(0) ?? "" }.first ?? ""
        let summary = try geometry(of: id).map { geometry -> String in
            switch geometry {
            case .lineStrings(let lines): return "\(lines.count) line\(lines.count == 1 ? "" : "s"), \(geometry.points.count) points"
            case .polygons(let polygons):
                return "\(polygons.count) polygon\(polygons.count == 1 ? "" : "s") (\(polygons.reduce(0) { $0 + $1.count - 1 }) holes), \(geometry.points.count) points"
            }
        }
        return PlaceDetails(place: place, names: names, source: source, geometry: summary)
    }

    // MARK: helpers

    func towns(_ text: String, options: SearchOptions) throws -> [PlaceResult] {
        var words = TextNormalizer.tokens(text).map { [$0] }
        guard let last = words.indices.last else { return [] }
        words[last] = [words[last][0] + "*"]
        guard let match = FTSQuery.groups(words, column: "name") else { return [] }
        var townOptions = options
        townOptions.kinds = Array(Self.townReach.keys)
        let ranked = try candidateIDs(match: match, options: townOptions, limit: 200)
        return try placeResults(ids: ranked.map(\.id)).map { Self.marked($0, "prefix") }
    }

    /// Whether a place lies in a town: inside its boundary polygon when one of that name exists, else within
    /// the town kind's reach of its point.
    func scopeTest(for town: PlaceResult) throws -> (PlaceResult) -> Bool {
        let name = town.name ?? ""
        let areas = try cachedStatement("""
            SELECT g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE p.name = ?1 AND p.kind IN ('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood') AND substr(g.geometry, 1, 1) = x'02'
            """).rows([.text(name)]) { $0.blob(0).flatMap(Geometry.init(encoded:)) }.compactMap { $0 }
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

    /// The first point where two sets of lines cross or touch (within about a metre), if any.
    static func crossingPoint(_ a: [[Point7]], _ b: [[Point7]]) -> Point7? {
        for lineA in a where lineA.count > 1 {
            for lineB in b where lineB.count > 1 {
                for i in 1..<lineA.count {
                    for j in 1..<lineB.count {
                        if let p = segmentIntersection(lineA[i - 1], lineA[i], lineB[j - 1], lineB[j]) { return p }
                    }
                }
            }
        }
        return nil
    }

    static func segmentIntersection(_ p1: Point7, _ p2: Point7, _ p3: Point7, _ p4: Point7) -> Point7? {
        let x1 = Double(p1.lon), y1 = Double(p1.lat), x2 = Double(p2.lon), y2 = Double(p2.lat)
        let x3 = Double(p3.lon), y3 = Double(p3.lat), x4 = Double(p4.lon), y4 = Double(p4.lat)
        let d = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
        let tolerance = 100.0   // 1e-5 degree, about a metre
        if abs(d) < 1e-9 {
            // Parallel: they touch only at shared endpoints.
            for (p, q) in [(p1, p3), (p1, p4), (p2, p3), (p2, p4)] where abs(Double(p.lat - q.lat)) + abs(Double(p.lon - q.lon)) < tolerance {
                return p
            }
            return nil
        }
        let t = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d
        let u = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d
        let lengthA = max(1, hypot(x2 - x1, y2 - y1)), lengthB = max(1, hypot(x4 - x3, y4 - y3))
        let slackA = tolerance / lengthA, slackB = tolerance / lengthB
        guard t >= -slackA, t <= 1 + slackA, u >= -slackB, u <= 1 + slackB else { return nil }
        return Point7(lat: Int32((y1 + t * (y2 - y1)).rounded()), lon: Int32((x1 + t * (x2 - x1)).rounded()))
    }

    static func marked(_ place: PlaceResult, _ match: String) -> PlaceResult {
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
