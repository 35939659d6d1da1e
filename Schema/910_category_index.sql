-- Category search: the places of a category in a latitude band, read from the index alone.
CREATE INDEX IF NOT EXISTS idx_place_category_category_id_lat ON place_category(category_id, lat, lon);
