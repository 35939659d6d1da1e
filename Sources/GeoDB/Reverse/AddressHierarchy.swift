// Where a point lies: the neighbourhood, suburb, city, county, state and country around it, from the
// smallest containing area of each level, else from the nearest place of each rank within reach.
// Reverse answers, lookups and search results (with `includeHierarchy`) all get their areas here.

/// Where the areas of an answer's address came from. The raw value is what JSON shows.
///
/// ```swift
/// let fromBoundaries = try db.reverse(at: point).first?.hierarchySource == .polygons
/// ```
public enum HierarchySource: String, Codable, Sendable {
    /// Boundary polygons containing the point.
    case polygons
    /// The nearest place of each rank (no boundary contains the point).
    case nearestPlace = "nearest_place"
    /// The place's own address tags (neither of the above found anything).
    case addressTags = "address_tags"
}

/// The areas around points, for one session.
final class AddressHierarchy {
    private let db: DatabaseReader
    private let places: PlaceReader
    private let nearest: NearestPlaces
    /// Whether `area_rtree` has rows (a gazetteer-only database has none: no containment queries then).
    private lazy var hasAreas: Bool = (try? db.first("find areas", "SELECT 1 FROM area_rtree LIMIT 1") { _ in true }) == true

    /// The address levels, smallest first.
    static let levels = ["neighbourhood", "suburb", "city", "county", "state", "country"]

    /// Without a containing area: how far the nearest place of each level may be, in metres.
    private static let reach: [(level: String, kinds: [PlaceKind], metres: Double)] = [
        ("neighbourhood", [.neighbourhood], 1_000), ("suburb", [.suburb], 2_500), ("city", [.city, .town, .village], 15_000),
        ("county", [.county], 50_000), ("state", [.state], 200_000),
    ]

    init(db: DatabaseReader, places: PlaceReader, nearest: NearestPlaces) {
        self.db = db
        self.places = places
        self.nearest = nearest
    }

    /// Names of the levels around `point` (address keys: neighbourhood … country, country_code, postcode)
    /// and where they came from. `needed` are the levels wanted from nearest places when no area contains
    /// the point (containing areas give every level they have).
    func areas(at point: Coordinate, needed: Set<String>) throws -> ([String: String], HierarchySource) {
        var result: [String: String] = [:]
        let p7 = Point7(point)
        let areas = !hasAreas ? [] : try db.rows("areas containing a point", """
            SELECT p.kind, p.name, p.country_code, p.postcode, g.geometry, p.rank, p.id FROM area_rtree a CROSS JOIN place p ON p.id = a.id
            CROSS JOIN place_geometry g ON g.place_id = p.id
            WHERE a.min_lon <= ?1 AND a.max_lon >= ?1 AND a.min_lat <= ?2 AND a.max_lat >= ?2 ORDER BY p.rank DESC, p.id
            """, [.real(point.lon), .real(point.lat)]) { row in
            (try PlaceReader.kind(row.text(0), place: row.int(6), in: db.path), row.text(1), row.text(2), row.text(3),
             row.blob(4).flatMap(Geometry.init(encoded:)))
        }
        for (kind, name, countryCode, postcode, geometry) in areas {
            guard case .polygons(let polygons)? = geometry,
                  polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) else { continue }
            if let level = kind.addressLevel, result[level] == nil, let name { result[level] = name }
            if kind == .postcode, result["postcode"] == nil { result["postcode"] = postcode ?? name }
            if let countryCode, result["country_code"] == nil { result["country_code"] = countryCode }
        }
        if !result.isEmpty { return (result, .polygons) }
        for (level, kinds, radius) in Self.reach where needed.contains(level) {
            if let found = try nearest.nearest(point, kinds: kinds, radius: radius, limit: 1).first,
               let name = try places.results(ids: [found.id]).first?.name {
                result[level] = name
            }
        }
        return (result, result.isEmpty ? .addressTags : .nearestPlace)
    }

    /// `place` with the neighbourhood … country around it where its own columns say nothing, as reverse
    /// answers have them; an area gets only the levels above its own.
    func withHierarchy(_ place: PlaceResult) throws -> PlaceResult {
        let levels = Self.levels
        let own = place.kind.addressLevel.flatMap { levels.firstIndex(of: $0) } ?? -1
        let above = Set(levels[(own + 1)...]).subtracting(place.address.keys)
        guard !above.isEmpty else { return place }
        var result = place
        for (key, value) in try areas(at: place.coordinate, needed: above).0
        where result.address[key] == nil && (above.contains(key) || (own < 0 && key != "country")) {
            result.address[key] = value
        }
        result.displayName = AddressFormat.displayName(name: result.name, address: result.address)
        return result
    }
}
