-- Category search: the places of a category in a latitude band, read from the index alone.
CREATE INDEX IF NOT EXISTS idx_place_category_category_id_lat ON place_category(category_id, lat, lon);
-- "Pharmacy", "R-kioski" in a search: the most important places of a category, without sorting all of them
-- (the 3,200 convenience stores of tiled ×400 took 10 ms).
CREATE INDEX IF NOT EXISTS idx_place_category_category_id_importance ON place_category(category_id, importance DESC, place_id);
