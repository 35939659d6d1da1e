// Where a point lies: the neighbourhood, suburb, city, county, state and country around it, from the
// smallest containing area of each level (administrative and postal boundaries, `area`), and for levels no
// boundary gives, the nearest place node of that level within reach. Reverse answers get their areas here
// (places found by search carry the ones the import assigned them: `AreaSets`).
import GeoDBSQLite

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
    /// An area containing a point.
    struct Area {
        var placeID: Int64
        var level: AddressLevel
        var name: String?
        var kind: PlaceKind?
        var countryCode: String?
        var code: SubdivisionCode?
        /// Square kilometres (of two areas of a level, the smaller is the point's).
        var km2: Double
    }

    private let db: DatabaseReader
    private let places: PlaceReader
    private let nearest: NearestPlaces
    /// Whether the database has areas (a gazetteer-only one has none: no containment queries then).
    private(set) lazy var hasAreas: Bool = (try? db.first("find areas", "SELECT 1 FROM area LIMIT 1") { _ in true }) == true

    /// Without a containing area: the kinds of place that may name each level, each within its reach
    /// (`PlaceReach`).
    private static let standIns: [(level: AddressLevel, kinds: [PlaceKind])] = [
        (.neighbourhood, [.neighbourhood]), (.suburb, [.suburb]), (.city, [.city, .town, .village]), (.county, [.county]),
        (.state, [.state]),
    ]

    init(db: DatabaseReader, places: PlaceReader, nearest: NearestPlaces) {
        self.db = db
        self.places = places
        self.nearest = nearest
    }

    /// The smallest area of each level containing `point` (postcode included).
    func containingAreas(_ point: Coordinate) throws -> [AddressLevel: Area] {
        guard hasAreas else { return [:] }
        let p7 = Point7(point)
        var result: [AddressLevel: Area] = [:]
        let rows = try db.rows("areas containing a point", """
            SELECT a.level, a.place_id, a.country_code, p.name, p.postcode, g.geometry, p.kind, \(SubdivisionCode.columns(of: "p"))
            FROM area_rtree r CROSS JOIN area a ON a.id = r.id CROSS JOIN place p ON p.id = a.place_id
            CROSS JOIN place_geometry g ON g.place_id = a.place_id
            WHERE r.min_lon <= ?1 AND r.max_lon >= ?1 AND r.min_lat <= ?2 AND r.max_lat >= ?2
            """, [.real(point.lon), .real(point.lat)]) { row in
            (AddressLevel(rawValue: row.text(0) ?? ""), row.int(1), row.text(2), row.text(3), row.text(4),
             row.blob(5).flatMap(Geometry.init(encoded:)), row.text(6).flatMap(PlaceKind.init(rawValue:)),
             SubdivisionCode(adminLevel: row.isNull(8) ? nil : Int(row.int(8)), code: row.text(7)))
        }
        for (level, placeID, countryCode, name, postcode, geometry, kind, code) in rows {
            guard let level, case .polygons(let polygons)? = geometry,
                  polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) else { continue }
            let km2 = PolygonMath.areaKm2(polygons)
            if let current = result[level], (current.km2, current.placeID) <= (km2, placeID) { continue }
            result[level] = Area(placeID: placeID, level: level, name: level == .postcode ? postcode ?? name : name,
                                 kind: kind, countryCode: countryCode, code: code, km2: km2)
        }
        return AddressLevel.withinCountry(result) { $0.countryCode }
    }

    /// Names of the levels around `point` (neighbourhood … country, postcode, and the country code) and
    /// where they came from: containing areas, else, for the `needed` levels, the nearest places. Each
    /// named in the first of the languages of `language` it has a name in (`PlaceReader.localizedNames`).
    func areas(at point: Coordinate, needed: Set<AddressLevel>, language: String?) throws -> (Address, HierarchySource) {
        var result = Address()
        let containing = try containingAreas(point)
        let languages = LanguagePreference.ordered(language)
        let localized = try places.localizedNames(of: containing.filter { $0.key != .postcode }.map(\.value.placeID), languages: languages)
        for (level, area) in containing {
            if let name = localized[area.placeID] ?? area.name { result.setArea(level, name: name, kind: area.kind, code: area.code) }
        }
        // The country's code, else that of the smallest area that has one.
        if let code = containing[.country]?.countryCode
            ?? AddressLevel.nested.lazy.compactMap({ containing[$0]?.countryCode }).first {
            result.countryCode = code
        }
        if !result.isEmpty { return (result, .polygons) }
        for (level, kinds) in Self.standIns where needed.contains(level) {
            // The nearest of a few within the farthest reach whose own kind reaches the point (a city 10 km
            // away, not a village 5 km away).
            let radius = kinds.compactMap(PlaceReach.metres).max() ?? 0
            let found = try nearest.nearest(point, kinds: kinds, radius: radius, limit: 8)
            let byID = Dictionary(try places.results(ids: found.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            if let place = found.lazy.compactMap({ near in byID[near.id].flatMap { near.distance <= PlaceReach.metres($0.kind) ?? 0 ? $0 : nil } }).first,
               let name = try places.localizedNames(of: [place.id], languages: languages)[place.id] ?? place.name {
                result.setArea(level, name: name, kind: place.kind)
            }
        }
        return (result, result.isEmpty ? .addressTags : .nearestPlace)
    }
}
