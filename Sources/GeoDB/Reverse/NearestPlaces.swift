// The nearest places of some kinds to a point, by great-circle distance: from a scan of cached points
// when the kinds have few places, from an in-memory grid when they have many and are asked often, else
// from the R*Tree with a growing box. Reverse geocoding and the address hierarchy both ask it.
import GeoDBSQLite

/// Nearest-place queries with their per-kind caches (one per session).
final class NearestPlaces {
    private let db: DatabaseReader
    /// Points of kind sets with few places (nil: too many, use the grid or the R*Tree).
    private var pointCache: [String: [(id: Int64, coordinate: Coordinate)]?] = [:]
    /// Grids of the points of kind sets with many places.
    private var gridCache: [String: PointGrid] = [:]
    /// Queries per kind set so far (the grid is built once they are many).
    private var gridUses: [String: Int] = [:]

    /// Nearest-place queries of one kind set answered from the R*Tree before its grid is built.
    static let gridAfterQueries = 32
    /// Kind sets with at most this many places are scanned from cached points.
    static let fewPlaces = 500

    init(_ db: DatabaseReader) { self.db = db }

    /// The nearest places of the given kinds (any named place when nil) within `radius` metres, nearest
    /// first (ties by id): the box grows until it holds a candidate, then one box of that distance makes
    /// sure nothing nearer hides outside it (correct across the antimeridian and at the poles).
    func nearest(_ point: Coordinate, kinds: [PlaceKind]?, radius: Double, limit: Int) throws -> [(id: Int64, distance: Double)] {
        // Kinds with few places (the usual case for suburbs, cities, states): a scan of their cached points.
        if let kinds, let points = try pointsOfKinds(kinds) {
            return Array(points.map { ($0.id, point.distance(to: $0.coordinate)) }.filter { $0.1 <= radius }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit))
        }
        // Many places of these kinds (a gazetteer's towns): an in-memory grid of their points, built once
        // this session has asked often enough to pay for it (a one-shot CLI query would not).
        if let kinds {
            let key = Self.cacheKey(kinds)
            gridUses[key, default: 0] += 1
            if gridCache[key] != nil || gridUses[key, default: 0] > Self.gridAfterQueries {
                return try pointGrid(kinds).nearest(point, radius: radius, limit: limit)
            }
        }
        let kindJSON = kinds.map { JSONText.array($0.map(\.rawValue)) }
        func within(_ r: Double) throws -> [(id: Int64, distance: Double)] {
            var found: [(id: Int64, distance: Double)] = []
            for box in BoundingBox.covering(radius: r, around: point) {
                let filter = kindJSON == nil ? "p.name IS NOT NULL" : "p.kind IN (SELECT value FROM json_each(?5))"
                let values = box.sqlValues + (kindJSON.map { [SQLiteValue.text($0)] } ?? [])
                // The R*Tree first (CROSS JOIN), never the kind index: kinds this common make it the worse start.
                for (id, at) in try db.rows("nearest places", """
                    SELECT p.id, p.lat, p.lon FROM place_rtree r CROSS JOIN place p ON p.id = r.id
                    WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND \(filter)
                    """, values, { ($0.int(0), try $0.coordinate(1, 2, place: $0.int(0), in: db.path)) }) {
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
            r = min(radius, r * 2)
        }
    }

    /// The key of a set of kinds in the caches.
    private static func cacheKey(_ kinds: [PlaceKind]) -> String { kinds.map(\.rawValue).sorted().joined(separator: ",") }

    /// A grid of the points of all places of these kinds (cached; 24 bytes per place).
    private func pointGrid(_ kinds: [PlaceKind]) throws -> PointGrid {
        let key = Self.cacheKey(kinds)
        if let grid = gridCache[key] { return grid }
        let points = try db.rows("points of places of some kinds", """
            SELECT id, lat, lon FROM place WHERE kind IN (SELECT value FROM json_each(?1))\(KindIndex.holds(kinds) ? " AND " + KindIndex.condition() : "")
            """, [.text(JSONText.array(kinds.map(\.rawValue)))]) {
            (id: $0.int(0), coordinate: try $0.coordinate(1, 2, place: $0.int(0), in: db.path))
        }
        let grid = PointGrid(points: points)
        gridCache[key] = grid
        return grid
    }

    /// The points of all places of these kinds when there are at most `fewPlaces` of them (cached), else nil.
    private func pointsOfKinds(_ kinds: [PlaceKind]) throws -> [(id: Int64, coordinate: Coordinate)]? {
        let key = Self.cacheKey(kinds)
        if let cached = pointCache[key] { return cached }
        let json = JSONText.array(kinds.map(\.rawValue))
        // Addresses are not in the kind index (KindIndex): never few, and counting them would read every place.
        guard KindIndex.holds(kinds) else {
            pointCache[key] = .some(nil)
            return nil
        }
        // Counting stops past the limit: a gazetteer has hundreds of thousands of villages.
        let count = try db.first("count places of some kinds", """
            SELECT count(*) FROM (SELECT 1 FROM place WHERE kind IN (SELECT value FROM json_each(?1)) AND \(KindIndex.condition())
            LIMIT \(Self.fewPlaces + 1))
            """, [.text(json)]) { $0.int(0) } ?? 0
        var points: [(id: Int64, coordinate: Coordinate)]?
        if count <= Self.fewPlaces {
            // Few rows of many: the kind index, which the planner's per-kind average (tens of thousands in a
            // gazetteer) would otherwise pass over for a scan of every place.
            points = try db.rows("points of places of some kinds", """
                SELECT id, lat, lon FROM place INDEXED BY idx_place_kind WHERE kind IN (SELECT value FROM json_each(?1))
                AND \(KindIndex.condition())
                """, [.text(json)]) { ($0.int(0), try $0.coordinate(1, 2, place: $0.int(0), in: db.path)) }
        }
        pointCache[key] = .some(points)
        return points
    }
}
