// Places as an OGC GeoPackage 1.3 (http://www.geopackage.org/spec130/): the required metadata tables
// and one feature table, `places`, in EPSG:4326, whose geometry blobs are the GeoPackage header
// followed by little-endian WKB. QGIS, GDAL/ogr and ArcGIS open it as a layer.
import Foundation
import GeoDB
import GeoDBSQLite

final class GeoPackageWriter: ExportWriter {
    private let db: Connection
    private var insert: Statement?
    private var extent: BoundingBox?
    private var rowsInTransaction = 0
    private static let srsID: Int32 = 4326
    private static let textColumns = ["source_id", "kind", "category", "category_id", "name"] + ExportField.addressParts.map(\.rawValue) + ["timezone"]

    init(path: String) throws {
        db = try Connection(path: path, mode: .create)
        // A new file, renamed into place only when complete: no journal needed.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
    }

    func begin(withGeometry: Bool) throws {
        let columns = Self.textColumns.map { "\($0) TEXT" } + ["population INTEGER", "tags TEXT"]
        try db.execute("""
            PRAGMA application_id = 1196444487;  -- 'GPKG'
            PRAGMA user_version = 10300;         -- GeoPackage 1.3.0
            CREATE TABLE gpkg_spatial_ref_sys (
              srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
              organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
            INSERT INTO gpkg_spatial_ref_sys VALUES
              ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
              ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
              ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
            CREATE TABLE gpkg_contents (
              table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
              description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
              min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,
              srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
            CREATE TABLE gpkg_geometry_columns (
              table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
              srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
              CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
              CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
              CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
            CREATE TABLE places (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom \(withGeometry ? "GEOMETRY" : "POINT"),
              \(columns.joined(separator: ", ")));
            INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
              VALUES ('places', 'features', 'places', 'geodb places', 4326);
            INSERT INTO gpkg_geometry_columns VALUES ('places', 'geom', '\(withGeometry ? "GEOMETRY" : "POINT")', 4326, 0, 0);
            BEGIN;
            """)
        insert = try db.prepare("INSERT INTO places VALUES (?1, ?2, "
            + (3...(Self.textColumns.count + 4)).map { "?\($0)" }.joined(separator: ", ") + ")")
    }

    func write(_ place: PlaceResult, geometry: Geometry?) throws {
        guard let insert else { preconditionFailure("begin() first") }
        let box = geometry?.boundingBox ?? BoundingBox(place.coordinate)
        extent = extent.map { var all = $0; all.extend(box); return all } ?? box
        let fields = Dictionary(ExportField.values(place), uniquingKeysWith: { a, _ in a })
        var values: [SQLiteValue] = [.integer(place.id), .blob(Self.geometryBlob(place, geometry))]
        values += Self.textColumns.map { fields[$0].map(SQLiteValue.text) ?? .null }
        values.append(place.population.map(SQLiteValue.integer) ?? .null)
        values.append(place.tags.isEmpty ? .null
            : .text(JSONText.object(place.tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })))
        try insert.run(values)
        rowsInTransaction += 1
        if rowsInTransaction == 50_000 {
            try db.execute("COMMIT; BEGIN")
            rowsInTransaction = 0
        }
    }

    func finish() throws {
        if let extent {
            try db.prepare("UPDATE gpkg_contents SET min_x = ?1, min_y = ?2, max_x = ?3, max_y = ?4")
                .run([.real(extent.minLon), .real(extent.minLat), .real(extent.maxLon), .real(extent.maxLat)])
        }
        try db.execute("COMMIT")
        insert = nil
    }

    /// The GeoPackage binary header ("GP", version 0, flags: little-endian, an envelope for lines and
    /// polygons), the SRS id, then the geometry as little-endian WKB.
    static func geometryBlob(_ place: PlaceResult, _ geometry: Geometry?) -> [UInt8] {
        var wkb = WKBWriter()
        var header: [UInt8] = [0x47, 0x50, 0]
        if let geometry, let box = geometry.boundingBox {
            header.append(0b0000_0011)   // envelope [minx, maxx, miny, maxy], little-endian
            wkb.int32(srsID, into: &header)
            for value in [box.minLon, box.maxLon, box.minLat, box.maxLat] { wkb.double(value, into: &header) }
            wkb.geometry(geometry)
        } else {
            header.append(0b0000_0001)   // no envelope, little-endian
            wkb.int32(srsID, into: &header)
            wkb.point(place.lon, place.lat)
        }
        return header + wkb.bytes
    }
}

/// Little-endian Well-Known Binary (OGC Simple Features): Point, LineString, Polygon and their Multi forms.
struct WKBWriter {
    var bytes: [UInt8] = []

    mutating func point(_ x: Double, _ y: Double) {
        start(type: 1)
        double(x, into: &bytes)
        double(y, into: &bytes)
    }

    mutating func geometry(_ geometry: Geometry) {
        switch geometry {
        case .lineStrings(let lines) where lines.count == 1: lineString(lines[0])
        case .lineStrings(let lines):
            start(type: 5, count: lines.count)
            for line in lines { lineString(line) }
        case .polygons(let polygons) where polygons.count == 1: polygon(polygons[0])
        case .polygons(let polygons):
            start(type: 6, count: polygons.count)
            for rings in polygons { polygon(rings) }
        }
    }

    private mutating func lineString(_ points: [Point7]) {
        start(type: 2)
        positions(points)
    }

    /// Rings closed by repeating their first point, as WKB requires.
    private mutating func polygon(_ rings: [[Point7]]) {
        start(type: 3, count: rings.count)
        for ring in rings { positions(ring + ring.prefix(1)) }
    }

    private mutating func positions(_ points: [Point7]) {
        int32(Int32(points.count), into: &bytes)
        for p in points {
            let c = p.coordinate
            double(c.lon, into: &bytes)
            double(c.lat, into: &bytes)
        }
    }

    private mutating func start(type: Int32, count: Int? = nil) {
        bytes.append(1)   // little-endian
        int32(type, into: &bytes)
        if let count { int32(Int32(count), into: &bytes) }
    }

    func int32(_ value: Int32, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    func double(_ value: Double, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }
}
