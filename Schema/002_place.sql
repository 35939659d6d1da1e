-- One row per searchable thing: country, city, suburb, street, address, POI, ...
-- `id` is the key of place_fts (rowid) and place_rtree (id) too.
CREATE TABLE place (
    id           INTEGER PRIMARY KEY,
    source_id    INTEGER NOT NULL REFERENCES source(id),
    source_ref   TEXT NOT NULL,      -- id in the source: OSM 'n123' / 'w45' / 'r6', GeoNames id, CSV id or line
    kind         TEXT NOT NULL,      -- country, state, county, city, town, village, hamlet, suburb,
                                     -- neighbourhood, locality, island, square, postcode, street,
                                     -- address, interpolation, poi, water, boundary
    category     TEXT,               -- raw source category 'key=value': 'amenity=cafe', 'geonames=P.PPLC'
    name         TEXT,               -- display name; NULL for plain addresses
    lat          REAL NOT NULL,      -- WGS 84 degrees: the point, the place node of an area, its label
                                     -- point (inside it), or a mid-street point
    lon          REAL NOT NULL,
    rank         INTEGER NOT NULL,   -- address rank: 4 country .. 16 city .. 20 suburb .. 26 street .. 30 address/POI
    importance   REAL NOT NULL,      -- 0..1, higher ranks first in search
    admin_level  INTEGER,            -- OSM admin_level of administrative areas (2 for countries)
    population   INTEGER,
    housenumber  TEXT,               -- the place's own address parts, from addr:* tags (the areas around
                                     -- it are in place_area_set)
    street       TEXT,
    postcode     TEXT,
    city         TEXT,
    country_code TEXT,               -- ISO 3166-1 alpha-2, upper case
    tags         TEXT,               -- JSON object of display tags (opening_hours, website, phone, ...)
    state        TEXT,               -- first-level subdivision name (GeoNames admin1 name, CSV state column)
    country      TEXT,               -- country name (GeoNames country table, CSV country column)
    timezone     TEXT,               -- IANA time zone id (GeoNames 'timezone' column, CSV timezone column)
    derived      TEXT                -- address parts not tagged but derived at import: 'street' (the nearest
                                     -- named street), 'postcode' (of the addresses around), or both,
                                     -- comma-separated; NULL when every part is the place's own
);

-- Every name of a place, with its type and language.
CREATE TABLE place_name (
    place_id INTEGER NOT NULL REFERENCES place(id),
    name     TEXT NOT NULL,
    type     TEXT NOT NULL,          -- name, alt_name, old_name, official_name, short_name, loc_name, ...
    lang     TEXT                    -- 'fi', 'sv', ... from name:xx; NULL when the tag has no language
);

-- Line and polygon geometry of places that have one (streets, interpolations, areas),
-- in the compact encoding described in docs/SCHEMA.md.
CREATE TABLE place_geometry (
    place_id INTEGER PRIMARY KEY REFERENCES place(id),
    geometry BLOB NOT NULL
);

-- A record that is the same real-world place as another place and was merged into it instead of
-- becoming a second one (its names added to place_name and place_fts; docs/SCHEMA.md): a GeoNames or
-- CSV record matching a place of another source, or an OSM boundary merged with the place node it
-- labels. Lookups by the record's id find the place.
CREATE TABLE place_link (
    place_id   INTEGER NOT NULL REFERENCES place(id),    -- the place the record was merged into
    source_id  INTEGER NOT NULL REFERENCES source(id),   -- the record's source
    source_ref TEXT NOT NULL,                             -- its id in that source ('r1155956', GeoNames id, CSV id or line)
    distance_m REAL NOT NULL                              -- metres between the two positions
);
