// `geodb import --wkb`: every place's geometry as standard WKB in the optional table `place_wkb`, for SQL
// users and GIS tools that cannot read geodb's own geometry blobs (docs/SCHEMA.md, "Standard geometry").
import GeoDB
import GeoDBSQLite

enum StandardGeometryWriter {
    /// Fills `place_wkb` from `place` and `place_geometry`, making the optional tables first when the file
    /// has none (an append rewrites every row: places were added and merged). Inside no transaction.
    static func write(in db: Connection) throws {
        if try Schema.hasStandardGeometry(db) {
            try db.execute("DELETE FROM place_wkb")
        } else {
            try Schema.createStandardGeometry(in: db)
        }
        try db.execute("BEGIN")
        let insert = try db.prepare("INSERT INTO place_wkb(place_id, geom) VALUES (?, ?)")
        let places = try db.prepare("""
            SELECT p.id, p.lat, p.lon, g.geometry FROM place p LEFT JOIN place_geometry g ON g.place_id = p.id ORDER BY p.id
            """)
        while try places.step() {
            // A blob this import wrote decodes; were one not to, the place keeps its point.
            let geometry = places.blob(3).flatMap(Geometry.init(encoded:))
            let point = Coordinate(lat: places.double(1), lon: places.double(2))
            try insert.run([.integer(places.int(0)), .blob(WKBWriter.place(geometry, point: point))])
        }
        try db.execute("COMMIT")
    }
}
