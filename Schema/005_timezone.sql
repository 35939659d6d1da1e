-- Timezone boundaries (timezone-boundary-builder GeoJSON), for "which IANA zone is this point in".
-- Not places: they have their own tables. Meanings, the grid's cell numbering and the lookup rules
-- are in docs/SCHEMA.md ("Timezones").

-- One row per zone.
CREATE TABLE timezone (
    id        INTEGER PRIMARY KEY,
    tzid      TEXT NOT NULL UNIQUE,            -- IANA id: 'Europe/Helsinki', 'Etc/GMT+2'
    source_id INTEGER NOT NULL REFERENCES source(id)
);

-- One row per polygon (outer ring and its holes) of a zone; id is also timezone_rtree.id.
CREATE TABLE timezone_polygon (
    id          INTEGER PRIMARY KEY,
    timezone_id INTEGER NOT NULL REFERENCES timezone(id),
    geometry    BLOB NOT NULL                  -- geometry encoding type 2 with exactly one polygon
);

-- Bounding box of every timezone_polygon (rounded outwards to 32-bit floats: a filter).
CREATE VIRTUAL TABLE timezone_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);

-- Quadtree cells that lie wholly inside exactly one zone; a point in such a cell is in that zone.
CREATE TABLE timezone_grid (
    cell        INTEGER PRIMARY KEY,           -- 1° cell * 32768 + (1 << 2*level | morton code)
    timezone_id INTEGER NOT NULL REFERENCES timezone(id)
);
