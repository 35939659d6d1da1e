-- Facts about the database as a whole. Keys are documented in docs/SCHEMA.md
-- (schema_version, generator, created_at, bbox, place_count, ...).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per input file imported into this database.
CREATE TABLE source (
    id                   INTEGER PRIMARY KEY,
    name                 TEXT NOT NULL,     -- file name without its directory
    format               TEXT NOT NULL,     -- 'osm.pbf', 'osm.xml', 'osm.xml.gz', 'osm.xml.bz2', 'geonames', 'csv'
    size_bytes           INTEGER NOT NULL,
    imported_at          TEXT NOT NULL,     -- ISO 8601, UTC
    data_timestamp       TEXT,              -- ISO 8601: replication timestamp, else newest object timestamp
                                            -- (GeoNames: newest modification date)
    replication_sequence INTEGER,
    replication_url      TEXT,
    writing_program      TEXT,
    place_count          INTEGER NOT NULL DEFAULT 0,   -- places this file added
    linked_count         INTEGER NOT NULL DEFAULT 0    -- records merged into a place of another source (place_link)
);
