-- The POI category taxonomy (Schema/categories.tsv), written into every database so that readers in
-- any language can resolve categories, parents and synonyms without geodb.
CREATE TABLE category (
    id          TEXT PRIMARY KEY NOT NULL,   -- 'cafe', 'food_and_drink', ...
    parent      TEXT,                        -- NULL for top-level categories
    label       TEXT NOT NULL,               -- English label
    synonyms    TEXT NOT NULL,               -- comma-separated search words ('coffee,coffee shop,...')
    osm_tags    TEXT NOT NULL,               -- comma-separated OSM tags mapped here ('amenity=cafe'; 'shop=*')
    place_count INTEGER NOT NULL DEFAULT 0   -- places in exactly this category (not its children)
) WITHOUT ROWID;

-- The taxonomy category of each place that has one (POIs and CSV places with a category), with the
-- place's position repeated so that "category X in this box" is one index range scan, and its importance
-- so that "the most important of category X" is one too.
CREATE TABLE place_category (
    place_id    INTEGER PRIMARY KEY REFERENCES place(id),
    category_id TEXT NOT NULL REFERENCES category(id),
    lat         REAL NOT NULL,                 -- = place.lat
    lon         REAL NOT NULL,                 -- = place.lon
    importance  REAL NOT NULL                  -- = place.importance
);
