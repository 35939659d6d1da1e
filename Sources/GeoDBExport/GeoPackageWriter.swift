// Places as an OGC GeoPackage 1.3 (http://www.geopackage.org/spec130/): the required metadata tables and
// one feature table per geometry type, as GIS tools want their layers: `points` (every place, or with
// `--geometry full` the places without a line or polygon), and with `--geometry full` also `lines`
// (MULTILINESTRING) and `polygons` (MULTIPOLYGON). Each has the GeoPackage R*Tree spatial index
// (extension F.3, gpkg_rtree_index): a `rtree_<table>_geom` table filled as the rows are written (row by
// row: GeoDBExport does not depend on the import's bulk loader), declared in gpkg_extensions, and the
// spec's triggers that keep it in step with later edits (made last: they call the ST_ functions that
// GeoPackage readers such as GDAL provide). Geometry blobs are the GeoPackage header followed by
// little-endian WKB (GeoDB's WKBWriter), in EPSG:4326. QGIS, GDAL/ogr and ArcGIS open each table as a layer.
import Foundation
import GeoDB
import GeoDBSQLite

final class GeoPackageWriter: ExportWriter {
    /// The feature tables, one per geometry type.
    enum Layer: String, CaseIterable {
        case points, lines, polygons

        var geometryType: String {
            switch self {
            case .points: "POINT"
            case .lines: "MULTILINESTRING"
            case .polygons: "MULTIPOLYGON"
            }
        }

        /// The layer of a place written with `geometry` (nil: its point).
        init(_ geometry: Geometry?) {
            switch geometry {
            case nil: self = .points
            case .lineStrings?: self = .lines
            case .polygons?: self = .polygons
            }
        }
    }

    /// A feature table being written: its statements and the extent of its rows.
    private struct Table {
        let insert: Statement
        let insertBox: Statement
        var extent: BoundingBox?
    }

    private let db: Connection
    private var tables: [Layer: Table] = [:]
    private var rowsInTransaction = 0
    private static let srsID: Int32 = 4326
    /// The text columns, after `fid` (the place's id) and `geom`, before `population` and `tags`.
    private static let textColumns = ExportField.names.filter { !ExportField.numbers.contains($0) }

    init(path: String) throws {
        db = try Connection(path: path, mode: .create)
        // A new file, renamed into place only when complete: no journal needed.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
    }

    func begin(withGeometry: Bool) throws {
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
            CREATE TABLE gpkg_extensions (
              table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL, scope TEXT NOT NULL,
              CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
            BEGIN;
            """)
        for layer in withGeometry ? Layer.allCases : [.points] { tables[layer] = try create(layer) }
    }

    /// Creates the feature table of `layer`, its R*Tree and their metadata rows.
    private func create(_ layer: Layer) throws -> Table {
        let name = layer.rawValue
        let columns = Self.textColumns.map { "\($0) TEXT" } + ["population INTEGER", "tags TEXT"]
        try db.execute("""
            CREATE TABLE \(name) (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom \(layer.geometryType), \(columns.joined(separator: ", ")));
            INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
              VALUES ('\(name)', 'features', '\(name)', 'geodb places: \(name)', 4326);
            INSERT INTO gpkg_geometry_columns VALUES ('\(name)', 'geom', '\(layer.geometryType)', 4326, 0, 0);
            CREATE VIRTUAL TABLE rtree_\(name)_geom USING rtree(id, minx, maxx, miny, maxy);
            INSERT INTO gpkg_extensions VALUES ('\(name)', 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec130/#extension_rtree', 'write-only');
            """)
        return Table(insert: try db.prepare("INSERT INTO \(name) VALUES (?1, ?2, "
                                            + (3...(Self.textColumns.count + 4)).map { "?\($0)" }.joined(separator: ", ") + ")"),
                     insertBox: try db.prepare("INSERT INTO rtree_\(name)_geom VALUES (?1, ?2, ?3, ?4, ?5)"))
    }

    func write(_ place: PlaceResult, geometry: Geometry?) throws {
        let layer = Layer(geometry)
        guard var table = tables[layer] else { preconditionFailure("begin(withGeometry: true) first") }
        let box = geometry?.boundingBox ?? BoundingBox(place.coordinate)
        table.extent = table.extent.map { var all = $0; all.extend(box); return all } ?? box
        tables[layer] = table
        let fields = Dictionary(ExportField.values(place), uniquingKeysWith: { a, _ in a })
        var values: [SQLiteValue] = [.integer(place.id), .blob(Self.geometryBlob(place, geometry))]
        values += Self.textColumns.map { fields[$0].map(SQLiteValue.text) ?? .null }
        values.append(place.population.map(SQLiteValue.integer) ?? .null)
        values.append(place.tags.isEmpty ? .null
            : .text(JSONText.object(place.tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })))
        try table.insert.run(values)
        // SQLite stores the box as 32-bit floats rounded outwards: it still holds the geometry.
        try table.insertBox.run([.integer(place.id), .real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)])
        rowsInTransaction += 1
        if rowsInTransaction == 50_000 {
            try db.execute("COMMIT; BEGIN")
            rowsInTransaction = 0
        }
    }

    func finish() throws {
        let update = try db.prepare("UPDATE gpkg_contents SET min_x = ?1, min_y = ?2, max_x = ?3, max_y = ?4 WHERE table_name = ?5")
        for layer in Layer.allCases {
            guard let table = tables[layer] else { continue }
            if let extent = table.extent {
                try update.run([.real(extent.minLon), .real(extent.minLat), .real(extent.maxLon), .real(extent.maxLat), .text(layer.rawValue)])
            }
            try db.execute(Self.rtreeTriggers(table: layer.rawValue))
        }
        try db.execute("COMMIT")
        tables = [:]
    }

    /// The triggers of GeoPackage 1.3's extension F.3 that keep `rtree_<table>_geom` in step with the table
    /// (`geom`, primary key `fid`) when a reader edits it.
    static func rtreeTriggers(table t: String) -> String {
        let rtree = "rtree_\(t)_geom"
        let box = "NEW.fid, ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)"
        return """
            CREATE TRIGGER \(rtree)_insert AFTER INSERT ON \(t) WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN INSERT OR REPLACE INTO \(rtree) VALUES (\(box)); END;
            CREATE TRIGGER \(rtree)_update1 AFTER UPDATE OF geom ON \(t)
              WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN INSERT OR REPLACE INTO \(rtree) VALUES (\(box)); END;
            CREATE TRIGGER \(rtree)_update2 AFTER UPDATE OF geom ON \(t)
              WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(rtree) WHERE id = OLD.fid; END;
            CREATE TRIGGER \(rtree)_update3 AFTER UPDATE ON \(t)
              WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(rtree) WHERE id = OLD.fid; INSERT OR REPLACE INTO \(rtree) VALUES (\(box)); END;
            CREATE TRIGGER \(rtree)_update4 AFTER UPDATE ON \(t)
              WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(rtree) WHERE id IN (OLD.fid, NEW.fid); END;
            CREATE TRIGGER \(rtree)_delete AFTER DELETE ON \(t) WHEN old.geom NOT NULL
            BEGIN DELETE FROM \(rtree) WHERE id = OLD.fid; END;
            """
    }

    /// The GeoPackage binary header ("GP", version 0, flags: little-endian, an envelope for lines and
    /// polygons), the SRS id, then the geometry as little-endian WKB (`WKBWriter`; lines and polygons always
    /// in their Multi form, the type of their layer).
    static func geometryBlob(_ place: PlaceResult, _ geometry: Geometry?) -> [UInt8] {
        var wkb = WKBWriter()
        var header: [UInt8] = [0x47, 0x50, 0]
        if let geometry, let box = geometry.boundingBox {
            header.append(0b0000_0011)   // envelope [minx, maxx, miny, maxy], little-endian
            wkb.int32(srsID, into: &header)
            for value in [box.minLon, box.maxLon, box.minLat, box.maxLat] { wkb.double(value, into: &header) }
            wkb.multi(geometry)
        } else {
            header.append(0b0000_0001)   // no envelope, little-endian
            wkb.int32(srsID, into: &header)
            wkb.point(place.lon, place.lat)
        }
        return header + wkb.bytes
    }
}
