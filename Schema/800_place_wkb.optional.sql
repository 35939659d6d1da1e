-- Optional: made only by `geodb import --wkb` (docs/SCHEMA.md, "Standard geometry"). Every place's geometry
-- as standard WKB, for SQL users and GIS tools that do not read geodb's own blobs: GDAL/OGR, DuckDB
-- (ST_GeomFromWKB), shapely.wkb.loads. Its line or polygon where it has one, else its point; rings closed
-- and wound as GeoJSON has them.
CREATE TABLE place_wkb (
    place_id INTEGER PRIMARY KEY REFERENCES place(id),
    geom     BLOB NOT NULL           -- little-endian WKB, 2D, WGS 84 longitude and latitude (EPSG:4326)
);

-- The geometry with the place's names and address: one layer for a GIS.
CREATE VIEW place_wkb_named AS
SELECT w.place_id AS id, p.kind, p.category, p.name, p.housenumber, p.street, p.postcode, p.city,
       p.country_code, w.geom
FROM place_wkb w JOIN place p ON p.id = w.place_id;

-- The OGC Simple Features SQL metadata (the names the standard gives them) that makes GDAL/OGR open the
-- two above as layers with a geometry in EPSG:4326.
CREATE TABLE geometry_columns (
    f_table_name      TEXT NOT NULL,
    f_geometry_column TEXT NOT NULL,
    geometry_type     INTEGER NOT NULL,  -- 0: any (points, lines and polygons in one column)
    coord_dimension   INTEGER NOT NULL,
    srid              INTEGER NOT NULL,
    geometry_format   TEXT NOT NULL      -- 'WKB'
);
CREATE TABLE spatial_ref_sys (
    srid      INTEGER NOT NULL PRIMARY KEY,
    auth_name TEXT NOT NULL,
    auth_srid INTEGER NOT NULL,
    srtext    TEXT NOT NULL
);
INSERT INTO spatial_ref_sys VALUES (4326, 'EPSG', 4326,
    'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]');
INSERT INTO geometry_columns VALUES ('place_wkb', 'geom', 0, 2, 4326, 'WKB'), ('place_wkb_named', 'geom', 0, 2, 4326, 'WKB');
