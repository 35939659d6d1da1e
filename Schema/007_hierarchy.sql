-- Where places lie: the administrative and postal areas (from OSM boundaries), and for every place the
-- areas around it, assigned at import (docs/SCHEMA.md, "Address hierarchy").

-- One row per area a place can lie in. An area is a place (its names, its point, its polygon in
-- place_geometry); one place can be two areas (a city-state is its country and its city).
CREATE TABLE area (
    id           INTEGER PRIMARY KEY,                  -- = area_rtree.id
    place_id     INTEGER NOT NULL REFERENCES place(id),
    level        TEXT NOT NULL,      -- country, state, county, city, suburb, neighbourhood, postcode
    admin_level  INTEGER,            -- OSM admin_level (NULL for postal areas)
    country_code TEXT                -- ISO 3166-1 alpha-2 of the country it is in
);

-- The distinct combinations of areas places lie in (all places of a neighbourhood share one row).
-- Each column is the place id of the area at that level, NULL when there is none; a level no boundary
-- gives may come from the nearest place node of its kind (`from_nodes`).
CREATE TABLE area_set (
    id               INTEGER PRIMARY KEY,
    neighbourhood_id INTEGER REFERENCES place(id),
    suburb_id        INTEGER REFERENCES place(id),
    city_id          INTEGER REFERENCES place(id),
    county_id        INTEGER REFERENCES place(id),
    state_id         INTEGER REFERENCES place(id),
    country_id       INTEGER REFERENCES place(id),
    postcode         TEXT,             -- of the postal area, when one contains the places
    country_code     TEXT,             -- ISO 3166-1 alpha-2
    from_nodes       TEXT              -- comma-separated levels taken from nearest place nodes, not polygons
);

-- The places each area set names (its level columns), keyed by place: the sets naming a place at any level,
-- in one lookup ("…, Town" in a search: the 1,783 sets naming one of 400 "Siltasaari"s of tiled ×400 in
-- 0.2 ms; through an index per level column, 2.4 ms, or a scan of every set, 5 ms).
CREATE TABLE area_set_member (
    place_id    INTEGER NOT NULL REFERENCES place(id),
    area_set_id INTEGER NOT NULL REFERENCES area_set(id),
    PRIMARY KEY (place_id, area_set_id)
) WITHOUT ROWID;

-- The area set of each place that lies in any area (places outside every area have no row).
CREATE TABLE place_area_set (
    place_id    INTEGER PRIMARY KEY REFERENCES place(id),
    area_set_id INTEGER NOT NULL REFERENCES area_set(id)
);

-- The words of every place an area set names (the areas, and the place nodes standing in for missing
-- levels): all their names, in every language, folded as queries fold theirs; rowid = place.id. Search
-- reads "Name, Town" by the places these words name, then the sets naming those places, then the
-- places of those sets named by the other words.
CREATE VIRTUAL TABLE area_name_fts USING fts5(
    words,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
