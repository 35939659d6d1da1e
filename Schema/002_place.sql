-- One row per searchable thing: country, city, suburb, street, address, POI, ...
-- `id` is the key of place_fts (rowid) and place_rtree (id) too.
CREATE TABLE place (
    id           INTEGER PRIMARY KEY,
    source_id    INTEGER NOT NULL REFERENCES source(id),
    source_ref   TEXT NOT NULL,      -- id in the source: OSM 'n123' / 'w45' / 'r6'
    kind         TEXT NOT NULL,      -- country, state, county, city, town, village, hamlet, suburb,
                                     -- neighbourhood, locality, island, square, postcode, street,
                                     -- address, interpolation, poi, boundary
    category     TEXT,               -- raw source category, OSM 'key=value' (e.g. 'amenity=cafe')
    name         TEXT,               -- display name; NULL for plain addresses
    lat          REAL NOT NULL,      -- WGS 84 degrees: the point, centroid, label node or mid-street point
    lon          REAL NOT NULL,
    rank         INTEGER NOT NULL,   -- address rank: 4 country .. 16 city .. 20 suburb .. 26 street .. 30 address/POI
    importance   REAL NOT NULL,      -- 0..1, higher ranks first in search
    admin_level  INTEGER,            -- OSM admin_level of boundaries
    population   INTEGER,
    housenumber  TEXT,               -- address parts, from addr:* tags
    street       TEXT,
    postcode     TEXT,
    city         TEXT,
    country_code TEXT,               -- ISO 3166-1 alpha-2, upper case
    tags         TEXT                -- JSON object of display tags (opening_hours, website, phone, ...)
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
