// `geodb inspect --check` for the timezone tables: R*Tree, polygons that decode, grid cells that are cells
// of known zones.
import GeoDBSQLite

extension IntegrityCheck {
    /// The timezone checks, as (name, problem or nil) pairs run by `IntegrityCheck.run`.
    static func timeZoneChecks(_ db: Connection) -> [(name: String, body: () throws -> String?)] {
        [
            ("rtreecheck(timezone_rtree)", {
                let text = try db.scalarText("SELECT rtreecheck('timezone_rtree')") ?? ""
                return text == "ok" ? nil : text
            }),
            ("timezone_polygon = timezone_rtree rows, one polygon each", {
                let polygons = try db.scalarInt("SELECT count(*) FROM timezone_polygon") ?? 0
                let boxes = try db.scalarInt("SELECT count(*) FROM timezone_rtree") ?? 0
                let rows = try db.prepare("SELECT id, geometry FROM timezone_polygon")
                var bad: [Int64] = []
                while try rows.step() {
                    if case .polygons(let p)? = Geometry(encoded: rows.blob(1) ?? []), p.count == 1 { continue }
                    bad.append(rows.int(0))
                }
                if !bad.isEmpty { return "\(bad.count) polygons do not decode to one polygon (id \(bad.prefix(5).map(String.init).joined(separator: ", ")))" }
                return polygons == boxes ? nil : "timezone_polygon \(polygons), timezone_rtree \(boxes)"
            }),
            ("timezone_grid cells valid", {
                let rows = try db.prepare("""
                    SELECT g.cell, t.id FROM timezone_grid g LEFT JOIN timezone t ON t.id = g.timezone_id
                    """)
                var bad = 0
                while try rows.step() {
                    if TimeZoneGrid.Cell(id: Int(rows.int(0))) == nil || rows.isNull(1) { bad += 1 }
                }
                return bad == 0 ? nil : "\(bad) grid rows with an invalid cell id or unknown zone"
            }),
        ]
    }
}
