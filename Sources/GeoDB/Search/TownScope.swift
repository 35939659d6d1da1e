// The places of one town, for hierarchical search and for "Street, Town" in free text.
import GeoDBSQLite

/// Which places lie in a town: those the import put in its area (the town is their city or suburb), a
/// street also when its line enters the town's polygon (a long street is one place, its point in one
/// town); for a town without an area, those within its kind's reach of its point.
struct TownScope {
    private let town: PlaceResult
    private let places: PlaceReader
    private let db: DatabaseReader
    /// The levels at which the town is an area.
    private let levels: [AddressLevel]
    private let polygons: [[[Point7]]]

    init(_ town: PlaceResult, places: PlaceReader, db: DatabaseReader) throws {
        self.town = town
        self.places = places
        self.db = db
        levels = try db.rows("levels of a town", "SELECT level FROM area WHERE place_id = ?1", [.integer(town.id)]) {
            AddressLevel(rawValue: $0.text(0) ?? "")
        }.compactMap { $0 }
        if case .polygons(let polygons)? = try places.geometry(of: town.id) { self.polygons = polygons } else { polygons = [] }
    }

    func filter(_ candidates: [PlaceResult]) throws -> [PlaceResult] {
        try points(in: candidates, nearestForStreets: false).compactMap { $0.point == nil ? nil : $0.place }
    }

    /// Each candidate with where it is in the town: its own point, or for a street whose point lies in
    /// another town, the middle one of its points inside this town; nil when it is not in the town. In a
    /// town without an area, with `nearestForStreets`, a street's point nearest the town's (which reads its
    /// line: not wanted when only membership is asked, as for the thousand streets of a hierarchical list).
    func points(in candidates: [PlaceResult], nearestForStreets: Bool = true) throws -> [(place: PlaceResult, point: Coordinate?)] {
        guard !levels.isEmpty || !polygons.isEmpty else {
            // A street of the town is shown at its point nearest the town's, not at its middle, which a
            // long street has in another district ("Mannerheimintie, Kaartinkaupunki").
            let reach = PlaceReach.metres(town.kind) ?? 5_000
            return try candidates.map { place in
                guard town.coordinate.distance(to: place.coordinate) <= reach else { return (place, nil) }
                guard nearestForStreets, place.kind == .street, case .lineStrings(let lines)? = try places.geometry(of: place.id),
                      let nearest = lines.joined().min(by: {
                          town.coordinate.distance(to: $0.coordinate) < town.coordinate.distance(to: $1.coordinate)
                      }) else { return (place, place.coordinate) }
                return (place, nearest.coordinate)
            }
        }
        return try candidates.map { place in
            if let entry = try places.areaSets.entry(place.areaSetID), levels.contains(where: { entry.ids[$0] == town.id }) {
                return (place, place.coordinate)
            }
            guard !polygons.isEmpty else { return (place, nil) }
            let points: [Point7]
            if place.kind == .street, case .lineStrings(let lines)? = try places.geometry(of: place.id) {
                points = lines.flatMap { $0 }
            } else {
                points = [Point7(place.coordinate)]
            }
            let inside = points.filter { p in polygons.contains { PolygonMath.polygonContains($0, lat: p.lat, lon: p.lon) } }
            return (place, inside.isEmpty ? nil : inside[inside.count / 2].coordinate)
        }
    }
}
