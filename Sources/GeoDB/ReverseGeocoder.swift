// Reverse geocoding: what a person would call the place at a point — the nearest address, else the
// nearest street (measured to its geometry), else the nearest POI or place — with its hierarchy.
import Foundation
import GeoDBSQLite

/// The granularity a reverse query answers at.
///
/// ```swift
/// var options = ReverseOptions()
/// options.level = .city
/// ```
public enum ReverseLevel: String, CaseIterable, Sendable, Codable {
    case address, street, poi, suburb, city, state, country

    /// How far this level looks when no radius is given, in metres.
    public var defaultRadius: Double {
        switch self {
        case .address: return 50
        case .street, .poi: return 500
        case .suburb: return 5_000
        case .city: return 50_000
        case .state: return 500_000
        case .country: return 2_000_000
        }
    }

    /// Place kinds answering this level.
    var kinds: [String] {
        switch self {
        case .address: return []
        case .street: return ["street"]
        case .poi: return ["poi"]
        case .suburb: return ["suburb", "neighbourhood", "quarter"]
        case .city: return ["city", "town", "village", "hamlet"]
        case .state: return ["state"]
        case .country: return ["country"]
        }
    }
}

/// Options of a reverse query.
///
/// ```swift
/// var options = ReverseOptions()
/// options.level = .street
/// options.limit = 3
/// options.includeTimeZone = true
/// ```
public struct ReverseOptions: Sendable {
    /// The granularity asked for; finer levels fall back to coarser ones when nothing is near.
    public var level = ReverseLevel.address
    /// Search radius in metres for the asked level (default `level.defaultRadius`); fallbacks look at least as far.
    public var radius: Double?
    /// Nearest candidates to return, nearest first.
    public var limit = 1
    /// Each answer carries the IANA zone of the query point (when the database has timezones).
    public var includeTimeZone = false

    /// ```swift
    /// var options = ReverseOptions()
    /// ```
    public init() {}
}

/// The answer to a reverse query.
///
/// ```swift
/// let r = try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545)).first
/// print(r?.place.address["suburb"] ?? "", r?.hierarchySource ?? "")
/// ```
public struct ReverseResult: Codable, Sendable {
    /// The place found, with `distanceM` from the query point and its hierarchy in `address`.
    public var place: PlaceResult
    /// Where the hierarchy (suburb, city, … in `place.address`) came from: `polygons` (containing boundaries),
    /// `nearest_place` (the nearest place of each rank), `address_tags` (the place's own addr:* tags).
    public var hierarchySource: String
    /// The IANA time zone of the query point, when the database has timezones and the options ask.
    public var timezone: String?
}

extension QuerySession {
    /// The place at `point`: address, street, POI or area, per `options.level`; empty when nothing is within reach.
    ///
    /// ```swift
    /// let here = try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545))
    /// print(here.first?.place.displayName ?? "nothing near")
    /// ```
    public func reverse(at point: Coordinate, options: ReverseOptions = ReverseOptions()) throws -> [ReverseResult] {
        guard point.isValid else {
            throw GeoDBError(.invalidArgument, "coordinate \(point.lat), \(point.lon) is out of range (latitude ±90, longitude ±180)")
        }
        if let radius = options.radius, !(radius > 0 && radius <= 20_000_000) {
            throw GeoDBError(.invalidArgument, "radius \(radius) m is out of range (0 < radius ≤ 20000 km)")
        }
        guard (1...100).contains(options.limit) else { throw GeoDBError(.invalidArgument, "limit \(options.limit) is out of range (1…100)") }
        let radius = options.radius ?? options.level.defaultRadius
        var found: [(id: Int64, distance: Double, interpolated: String?)] = []
        switch options.level {
        case .address:
            found = try nearestAddresses(point, radius: radius, limit: options.limit)
            if found.isEmpty { found = try nearestStreets(point, radius: max(radius, ReverseLevel.street.defaultRadius), limit: options.limit) }
            if found.isEmpty {
                found = try nearest(point, kinds: nil, radius: max(radius, 5_000), limit: options.limit).map { ($0.id, $0.distance, nil) }
            }
        case .street:
            found = try nearestStreets(point, radius: radius, limit: options.limit)
        default:
            found = try nearest(point, kinds: options.level.kinds, radius: radius, limit: options.limit).map { ($0.id, $0.distance, nil) }
        }
        let distances = Dictionary(found.map { ($0.id, $0.distance) }, uniquingKeysWith: min)
        let places = try placeResults(ids: found.map(\.id), distances: distances)
        // Only the levels above the answer, and only those its own columns do not already give.
        let levels = ["neighbourhood", "suburb", "city", "county", "state"]
        let answerLevel = places.first.flatMap { Self.hierarchyKey($0.kind) }.flatMap { levels.firstIndex(of: $0) }
        let needed = Set(levels.enumerated().filter { index, key in
            (answerLevel.map { index > $0 } ?? true) && places.contains { $0.address[key] == nil }
        }.map(\.element))
        let (hierarchy, source) = try self.hierarchy(at: point, needed: needed)
        let zone = options.includeTimeZone ? try timeZones()?.tzid(at: point) : nil
        return zip(places, found).map { place, item in
            var p = place
            if let number = item.interpolated {
                p.address["housenumber"] = number
                p.match = "interpolated"
            } else {
                p.match = "exact"
            }
            var usedSource = source
            for (key, value) in hierarchy where p.address[key] == nil { p.address[key] = value }
            if hierarchy.isEmpty && (p.address["city"] != nil || p.address["postcode"] != nil) { usedSource = "address_tags" }
            if Self.hierarchyKey(p.kind) != nil {
                // An area answers for itself: only the levels above it.
                p.displayName = ([p.name] + ["county", "state", "country"].map { p.address[$0] }).compactMap { $0 }
                    .joined(separator: ", ")
            } else {
                p.displayName = Self.addressLine(name: p.kind == "address" || p.kind == "interpolation" ? nil : p.name,
                                                 address: p.address)
            }
            return ReverseResult(place: p, hierarchySource: usedSource, timezone: zone)
        }
    }

    /// Addresses (points, buildings, interpolation lines) within `radius`, nearest first, measured to the
    /// point, into the building (0 inside) or to the line (with the interpolated number there).
    func nearestAddresses(_ point: Coordinate, radius: Double, limit: Int) throws -> [(id: Int64, distance: Double, interpolated: String?)] {
        var found: [(id: Int64, distance: Double, interpolated: String?)] = []
        for box in Self.boxes(around: point, radius: radius) {
            let rows = try cachedStatement("""
                SELECT p.id, p.lat, p.lon, p.kind, p.housenumber, g.geometry FROM place_rtree r JOIN place p ON p.id = r.id
                LEFT JOIN place_geometry g ON g.place_id = p.id
                WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.housenumber IS NOT NULL
                """).rows(Self.boxValues(box)) { ($0.int(0), Coordinate(lat: $0.double(1), lon: $0.double(2)), $0.text(3) ?? "",
                                                  $0.text(4) ?? "", $0.blob(5).flatMap(Geometry.init(encoded:))) }
            for (id, at, kind, number, geometry) in rows {
                if kind == "interpolation", case .lineStrings(let lines)? = geometry, let line = lines.first {
                    let (distance, fraction) = Self.distanceToLine(point, line)
                    let range = number.split(separator: "-").compactMap { Int($0) }
                    guard distance <= radius, range.count == 2 else { continue }
                    let step = (range[1] - range[0]) % 2 == 0 ? 2 : 1
                    let raw = Double(range[0]) + fraction * Double(range[1] - range[0])
                    let interpolated = range[0] + Int(((raw - Double(range[0])) / Double(step)).rounded()) * step
                    found.append((id, distance, String(interpolated)))
                } else {
                    let distance = geometry.map { Self.distance(point, to: $0) } ?? point.distance(to: at)
                    if distance <= radius { found.append((id, distance, nil)) }
                }
            }
        }
        return Array(found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(limit))
    }

    /// Named streets within `radius`, nearest first by distance to their geometry; paths, footways and
    /// service roads count 15 m further, so a named street nearly as close wins.
    func nearestStreets(_ point: Coordinate, radius: Double, limit: Int) throws -> [(id: Int64, distance: Double, interpolated: String?)] {
        // Most points have a street close by: look near first, so few street geometries are decoded.
        for reach in [min(radius, 75), min(radius, 250)] where reach < radius {
            let found = try streets(point, radius: reach, limit: limit)
            // A minor street found within `reach` could still lose to a major one up to 15 m further.
            if found.count >= limit, let last = found.last, last.distance + 15 <= reach { return found }
        }
        return try streets(point, radius: radius, limit: limit)
    }

    /// Streets whose box meets ?1…?4 (min lon, min lat, max lon, max lat), with their geometry. CROSS JOIN
    /// keeps the R*Tree the outer loop: with a gazetteer beside a city, SQLite's planner otherwise scanned
    /// every geometry and probed the R*Tree per row (measured: 500 µs instead of 50 per reverse query).
    static let streetsInBoxSQL = """
        SELECT p.id, p.category, g.geometry FROM place_rtree r CROSS JOIN place p ON p.id = r.id
        CROSS JOIN place_geometry g ON g.place_id = p.id
        WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.kind = 'street'
        """

    private func streets(_ point: Coordinate, radius: Double, limit: Int) throws -> [(id: Int64, distance: Double, interpolated: String?)] {
        var found: [(id: Int64, distance: Double, rankDistance: Double)] = []
        let minor: Set<String> = ["highway=footway", "highway=path", "highway=cycleway", "highway=steps", "highway=service",
                                  "highway=track", "highway=bridleway", "highway=pedestrian"]
        for box in Self.boxes(around: point, radius: radius) {
            let rows = try cachedStatement(Self.streetsInBoxSQL).rows(Self.boxValues(box)) { ($0.int(0), $0.text(1) ?? "", $0.blob(2).flatMap(Geometry.init(encoded:))) }
            for (id, category, geometry) in rows {
                guard let geometry else { continue }
                let distance = Self.distance(point, to: geometry)
                if distance <= radius { found.append((id, distance, distance + (minor.contains(category) ? 15 : 0))) }
            }
        }
        return found.sorted { ($0.rankDistance, $0.id) < ($1.rankDistance, $1.id) }.prefix(limit).map { ($0.id, $0.distance, nil) }
    }

    /// The nearest places of the given kinds (any named place when nil) by great-circle distance: the box
    /// grows until it holds a candidate, then one box of that distance makes sure nothing nearer hides
    /// outside it (correct across the antimeridian and at the poles, where `boxes(around:)` widens).
    func nearest(_ point: Coordinate, kinds: [String]?, radius: Double, limit: Int) throws -> [(id: Int64, distance: Double)] {
        // Kinds with few places (the usual case for suburbs, cities, states): a scan of their cached points.
        if let kinds, let points = try pointsOfKinds(kinds) {
            return Array(points.map { ($0.id, point.distance(to: $0.coordinate)) }.filter { $0.1 <= radius }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit))
        }
        // Many places of these kinds (a gazetteer's towns): an in-memory grid of their points, built once
        // this session has asked often enough to pay for it (a one-shot CLI query would not).
        if let kinds {
            let key = Self.cacheKey(kinds)
            kindGridUses[key, default: 0] += 1
            if kindGridCache[key] != nil || kindGridUses[key, default: 0] > Self.gridAfterQueries {
                return try pointGrid(kinds).nearest(point, radius: radius, limit: limit)
            }
        }
        let kindJSON = kinds.map(JSONText.array)
        func within(_ r: Double) throws -> [(id: Int64, distance: Double)] {
            var found: [(id: Int64, distance: Double)] = []
            for box in Self.boxes(around: point, radius: r) {
                let filter = kindJSON == nil ? "p.name IS NOT NULL" : "p.kind IN (SELECT value FROM json_each(?5))"
                let values = Self.boxValues(box) + (kindJSON.map { [SQLiteValue.text($0)] } ?? [])
                // The R*Tree first (CROSS JOIN), never the kind index: kinds this common make it the worse start.
                for (id, at) in try cachedStatement("""
                    SELECT p.id, p.lat, p.lon FROM place_rtree r CROSS JOIN place p ON p.id = r.id
                    WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND \(filter)
                    """).rows(values, { ($0.int(0), Coordinate(lat: $0.double(1), lon: $0.double(2))) }) {
                    let distance = point.distance(to: at)
                    if distance <= r { found.append((id, distance)) }
                }
            }
            return found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        }
        var r = min(radius, 1_000)
        while true {
            let found = try within(r)
            if found.count >= limit || r >= radius {
                guard let last = found.prefix(limit).last else { return [] }
                // Anything nearer than the limit-th candidate lies within its distance: one exact pass.
                return Array(try within(min(radius, max(last.distance, 1))).prefix(limit))
            }
            r = min(radius, r * 4)
        }
    }

    /// The key of a set of kinds in the per-kind caches.
    static func cacheKey(_ kinds: [String]) -> String { kinds.sorted().joined(separator: ",") }

    /// Nearest-place queries of one kind set answered from the R*Tree before its grid is built.
    static let gridAfterQueries = 32

    /// A grid of the points of all places of these kinds (cached; 24 bytes per place).
    func pointGrid(_ kinds: [String]) throws -> PointGrid {
        let key = Self.cacheKey(kinds)
        if let grid = kindGridCache[key] { return grid }
        let json = JSONText.array(kinds)
        let points = try cachedStatement("SELECT id, lat, lon FROM place WHERE kind IN (SELECT value FROM json_each(?1))")
            .rows([.text(json)]) { (id: $0.int(0), coordinate: Coordinate(lat: $0.double(1), lon: $0.double(2))) }
        let grid = PointGrid(points: points)
        kindGridCache[key] = grid
        return grid
    }

    /// The points of all places of these kinds when there are at most 500 of them (cached), else nil.
    func pointsOfKinds(_ kinds: [String]) throws -> [(id: Int64, coordinate: Coordinate)]? {
        let key = Self.cacheKey(kinds)
        if let cached = kindPointCache[key] { return cached }
        let json = JSONText.array(kinds)
        // Counting stops past the limit: a gazetteer has hundreds of thousands of villages.
        let count = try cachedStatement("""
            SELECT count(*) FROM (SELECT 1 FROM place WHERE kind IN (SELECT value FROM json_each(?1)) LIMIT 501)
            """).rows([.text(json)]) { $0.int(0) }.first ?? 0
        var points: [(id: Int64, coordinate: Coordinate)]?
        if count <= 500 {
            // Few rows of many: the kind index, which the planner's per-kind average (tens of thousands in a
            // gazetteer) would otherwise pass over for a scan of every place.
            points = try cachedStatement("""
                SELECT id, lat, lon FROM place INDEXED BY idx_place_kind WHERE kind IN (SELECT value FROM json_each(?1))
                """)
                .rows([.text(json)]) { ($0.int(0), Coordinate(lat: $0.double(1), lon: $0.double(2))) }
        }
        kindPointCache[key] = .some(points)
        return points
    }

    /// Neighbourhood … country around a point: from the smallest containing area of each kind, else the
    /// nearest place of that rank within reach.
    func hierarchy(at point: Coordinate, needed: Set<String>) throws -> ([String: String], String) {
        var result: [String: String] = [:]
        let p7 = Point7(point)
        let areas = !hasAreas ? [] : try cachedStatement("""
            SELECT p.kind, p.name, p.country_code, p.postcode, g.geometry, p.rank FROM area_rtree a CROSS JOIN place p ON p.id = a.id
            CROSS JOIN place_geometry g ON g.place_id = p.id
            WHERE a.min_lon <= ?1 AND a.max_lon >= ?1 AND a.min_lat <= ?2 AND a.max_lat >= ?2 ORDER BY p.rank DESC, p.id
            """).rows([.real(point.lon), .real(point.lat)]) { ($0.text(0) ?? "", $0.text(1), $0.text(2), $0.text(3),
                                                              $0.blob(4).flatMap(Geometry.init(encoded:))) }
        for (kind, name, countryCode, postcode, geometry) in areas {
            guard case .polygons(let polygons)? = geometry,
                  polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) else { continue }
            let key = Self.hierarchyKey(kind)
            if let key, result[key] == nil, let name { result[key] = name }
            if kind == "postcode", result["postcode"] == nil { result["postcode"] = postcode ?? name }
            if let countryCode, result["country_code"] == nil { result["country_code"] = countryCode }
        }
        if !result.isEmpty { return (result, "polygons") }
        let reach: [(String, [String], Double)] = [("neighbourhood", ["neighbourhood", "quarter"], 1_000),
                                                   ("suburb", ["suburb"], 2_500), ("city", ["city", "town", "village"], 15_000),
                                                   ("county", ["county"], 50_000), ("state", ["state"], 200_000)]
        for (key, kinds, radius) in reach where needed.contains(key) {
            if let nearest = try nearest(point, kinds: kinds, radius: radius, limit: 1).first,
               let name = try placeResults(ids: [nearest.id]).first?.name {
                result[key] = name
            }
        }
        return (result, result.isEmpty ? "address_tags" : "nearest_place")
    }

    /// `place` with the neighbourhood … country around it where its own columns say nothing, as reverse
    /// answers have them; an area gets only the levels above its own.
    func withHierarchy(_ place: PlaceResult) throws -> PlaceResult {
        let levels = ["neighbourhood", "suburb", "city", "county", "state", "country"]
        let own = Self.hierarchyKey(place.kind).flatMap { levels.firstIndex(of: $0) } ?? -1
        let above = Set(levels[(own + 1)...]).subtracting(place.address.keys)
        guard !above.isEmpty else { return place }
        var result = place
        for (key, value) in try hierarchy(at: place.coordinate, needed: above).0
        where result.address[key] == nil && (above.contains(key) || (own < 0 && key != "country")) {
            result.address[key] = value
        }
        result.displayName = Self.displayName(name: result.name, address: result.address)
        return result
    }

    static func hierarchyKey(_ kind: String) -> String? {
        switch kind {
        case "neighbourhood", "quarter": return "neighbourhood"
        case "suburb": return "suburb"
        case "city", "town", "village", "hamlet": return "city"
        case "county": return "county"
        case "state": return "state"
        case "country": return "country"
        default: return nil
        }
    }

    /// "name, street housenumber, postcode city, country" for a reverse answer.
    static func addressLine(name: String?, address: [String: String]) -> String {
        var parts: [String] = []
        if let name { parts.append(name) }
        let street = [address["street"], address["housenumber"]].compactMap { $0 }.joined(separator: " ")
        if !street.isEmpty && street != name { parts.append(street) }
        if let suburb = address["suburb"] ?? address["neighbourhood"] { parts.append(suburb) }
        let city = [address["postcode"], address["city"]].compactMap { $0 }.joined(separator: " ")
        if !city.isEmpty { parts.append(city) }
        if let country = address["country"] { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    static func boxValues(_ box: BoundingBox) -> [SQLiteValue] {
        [.real(box.minLon), .real(box.minLat), .real(box.maxLon), .real(box.maxLat)]
    }

    /// Metres from a point to a geometry: to the nearest segment of a line, 0 inside a polygon else to its edge.
    static func distance(_ point: Coordinate, to geometry: Geometry) -> Double {
        switch geometry {
        case .lineStrings(let lines):
            return lines.map { distanceToLine(point, $0).distance }.min() ?? .infinity
        case .polygons(let polygons):
            let p7 = Point7(point)
            if polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) { return 0 }
            return polygons.flatMap { $0 }.map { ring in distanceToLine(point, ring + ring.prefix(1)).distance }.min() ?? .infinity
        }
    }

    /// Metres from a point to a line, and where along the line (0…1) the nearest point is; local
    /// equirectangular projection, exact to well under a metre at street scale.
    static func distanceToLine(_ point: Coordinate, _ line: [Point7]) -> (distance: Double, fraction: Double) {
        guard let first = line.first else { return (.infinity, 0) }
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let scale = cos(point.lat * .pi / 180)
        func xy(_ p: Point7) -> (Double, Double) {
            var dLon = Double(p.lon) / 1e7 - point.lon
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return (dLon * scale * metresPerDegree, (Double(p.lat) / 1e7 - point.lat) * metresPerDegree)
        }
        guard line.count > 1 else {
            let (x, y) = xy(first)
            return ((x * x + y * y).squareRoot(), 0)
        }
        var best = (distance: Double.infinity, along: 0.0)
        var travelled = 0.0
        for i in 1..<line.count {
            let (ax, ay) = xy(line[i - 1]), (bx, by) = xy(line[i])
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length2)) : 0
            let px = ax + t * dx, py = ay + t * dy
            let d = (px * px + py * py).squareRoot()
            let length = length2.squareRoot()
            if d < best.distance { best = (d, travelled + t * length) }
            travelled += length
        }
        return (best.distance, travelled > 0 ? best.along / travelled : 0)
    }
}
