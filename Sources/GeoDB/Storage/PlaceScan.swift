// Every place of a database, or those of some kinds, categories or a box, one at a time in id order:
// what `geodb export` streams, without holding the answer in memory.
import GeoDBSQLite

/// Which places a scan visits; empty fields select everything.
///
/// ```swift
/// var selection = PlaceSelection()
/// selection.categories = try .resolve(["pharmacy"])
/// selection.bbox = BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96)
/// ```
public struct PlaceSelection: Sendable {
    /// Only these kinds (`city`, `street`, `poi`, …).
    public var kinds: [PlaceKind] = []
    /// Only places of these taxonomy categories or raw tags.
    public var categories: CategoryFilter?
    /// Only places whose point is in this box (min > max longitude crosses the antimeridian).
    public var bbox: BoundingBox?
    /// Also read each place's line or polygon geometry, when it has one.
    public var withGeometry = false

    /// ```swift
    /// var selection = PlaceSelection()
    /// ```
    public init() {}
}

/// Reads places one at a time in id order, for exports.
struct PlaceScan {
    let db: DatabaseReader
    let places: PlaceReader

    /// Calls `body` with each selected place, in id order, and its geometry when `withGeometry` asks.
    func forEach(_ selection: PlaceSelection, _ body: (PlaceResult, Geometry?) throws -> Void) throws {
        if let box = selection.bbox { try QueryValidation.box(box) }
        var conditions: [String] = [], values: [SQLiteValue] = []
        if !selection.kinds.isEmpty {
            conditions.append("p.kind IN (SELECT value FROM json_each(?\(values.count + 1)))"
                + (KindIndex.holds(selection.kinds) ? " AND " + KindIndex.condition(on: "p.kind") : ""))
            values.append(.text(JSONText.array(selection.kinds.map(\.rawValue))))
        }
        switch selection.categories {
        case .categories(let ids)?:
            conditions.append("pc.category_id IN (SELECT value FROM json_each(?\(values.count + 1)))")
            values.append(.text(JSONText.array(ids)))
        case .rawTag(let tag)?:
            conditions.append(RawTagIndex.equals("?\(values.count + 1)", tag: tag))
            values.append(.text(tag))
        case .anyNamedPOI?:
            conditions.append("p.kind = 'poi' AND p.name IS NOT NULL")
        case nil:
            break
        }
        if let box = selection.bbox {
            let n = values.count
            conditions.append("p.lat BETWEEN ?\(n + 1) AND ?\(n + 2) AND "
                + (box.minLon <= box.maxLon ? "p.lon BETWEEN ?\(n + 3) AND ?\(n + 4)" : "(p.lon >= ?\(n + 3) OR p.lon <= ?\(n + 4))"))
            values += [.real(box.minLat), .real(box.maxLat), .real(box.minLon), .real(box.maxLon)]
        }
        let geometry = selection.withGeometry ? "g.geometry" : "NULL"
        let geometryColumn = Int32(PlaceReader.columnCount)
        try db.forEach("read places to export", """
            SELECT \(PlaceReader.columns), \(geometry) FROM place p \(PlaceReader.joins)
            \(selection.withGeometry ? "LEFT JOIN place_geometry g ON g.place_id = p.id" : "")
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY p.id
            """, values) { row in
            try body(places.placeResult(row), row.blob(geometryColumn).flatMap(Geometry.init(encoded:)))
        }
    }

    /// Every tag key used by some place, sorted (the columns of a CSV export).
    func tagKeys() throws -> [String] {
        try db.rows("read the tag keys", "SELECT DISTINCT j.key FROM place p, json_each(p.tags) j ORDER BY 1") { $0.text(0) ?? "" }
    }
}
