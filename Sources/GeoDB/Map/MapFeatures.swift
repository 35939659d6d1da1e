// What a map of a box shows, drawn from the database's own geometry (there is no tile server offline):
// the most important places whose extent meets the box, each with its line or polygon when it has one.
import GeoDBSQLite

/// One thing to draw on a map: a street as lines, an area as polygons, anything else as its point.
///
/// ```swift
/// let streets = try db.withSession { try $0.mapFeatures(in: box) }.filter { $0.kind == .street }
/// ```
public struct MapFeature: Sendable {
    /// `place.id`.
    public var id: Int64
    public var kind: PlaceKind
    public var name: String?
    /// Taxonomy category, e.g. `cafe`.
    public var categoryID: String?
    /// The place's point (a label point inside an area).
    public var coordinate: Coordinate
    /// The lines or polygons, when the place has them; points closer together than the map can show are
    /// dropped.
    public var geometry: Geometry?
}

/// Map features of one session.
final class MapFeatures {
    private let db: DatabaseReader

    /// Largest number of features one call returns.
    static let maxLimit = 10_000

    init(db: DatabaseReader) {
        self.db = db
    }

    /// Up to `limit` places whose extent meets `box`, most important first (so a map zoomed out shows the
    /// towns and main roads, not the first houses the index finds). Lines and polygons smaller than a
    /// thousandth of the box are left out: they would be less than a pixel wide.
    func features(in box: BoundingBox, limit: Int) throws -> [MapFeature] {
        try QueryValidation.box(box)
        try QueryValidation.limit(limit, max: Self.maxLimit)
        guard box.minLon <= box.maxLon else {   // across the antimeridian: each side on its own
            let east = try features(in: BoundingBox(minLat: box.minLat, minLon: box.minLon, maxLat: box.maxLat, maxLon: 180), limit: limit)
            let west = try features(in: BoundingBox(minLat: box.minLat, minLon: -180, maxLat: box.maxLat, maxLon: box.maxLon), limit: limit)
            return Array((east + west).prefix(limit))
        }
        let tolerance = max(box.maxLon - box.minLon, box.maxLat - box.minLat) / 1000
        return try db.rows("read the places of a map", """
            SELECT p.id, p.kind, p.name, pc.category_id, p.lat, p.lon, g.geometry
            FROM place_rtree r JOIN place p ON p.id = r.id
            LEFT JOIN place_geometry g ON g.place_id = p.id LEFT JOIN place_category pc ON pc.place_id = p.id
            WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2
              AND (g.place_id IS NULL OR r.max_lon - r.min_lon >= ?5 OR r.max_lat - r.min_lat >= ?5)
            ORDER BY p.importance DESC, p.id LIMIT ?6
            """, [.real(box.minLon), .real(box.minLat), .real(box.maxLon), .real(box.maxLat), .real(tolerance),
                  .integer(Int64(limit))]) { row in
            let id = row.int(0)
            return MapFeature(id: id, kind: try PlaceReader.kind(row.text(1), place: id, in: db.path), name: row.text(2),
                              categoryID: row.text(3), coordinate: try row.coordinate(4, 5, place: id, in: db.path),
                              geometry: row.blob(6).flatMap(Geometry.init(encoded:))?.simplified(tolerance: tolerance))
        }
    }
}
