-- Secondary indexes, created after the bulk load (faster than maintaining them row by row).
-- IF NOT EXISTS: an append (geodb import --append) runs this again on a database that has them.
CREATE INDEX IF NOT EXISTS idx_place_name_place_id ON place_name(place_id);
CREATE INDEX IF NOT EXISTS idx_place_source_id_source_ref ON place(source_id, source_ref);
-- The places of a raw tag, but for the common building tags of addresses (most places of a map file, 16
-- bytes each here, and queries for them read as many rows either way). Partial: a query reads it only when
-- it repeats the condition (RawTagIndex.swift).
CREATE INDEX IF NOT EXISTS idx_place_category ON place(category) WHERE category <> 'building=yes' AND category <> 'building=house' AND category <> 'building=detached' AND category <> 'building=apartments' AND category <> 'building=residential' AND category <> 'building=semidetached_house' AND category <> 'building=terrace';
-- The places of a kind (the nearest suburb, city, state of a point; search's kind filter): without it, a
-- scan of every place. But for addresses, most places of a country's file, which a query for them reads
-- as many of either way (11 bytes a place). Partial: a query reads it only when it repeats the condition
-- (KindIndex.swift).
CREATE INDEX IF NOT EXISTS idx_place_kind ON place(kind) WHERE kind <> 'address';
CREATE INDEX IF NOT EXISTS idx_place_link_place_id ON place_link(place_id);
CREATE INDEX IF NOT EXISTS idx_place_link_source_id_source_ref ON place_link(source_id, source_ref);
-- The areas a place is (a merged city-state is two).
CREATE INDEX IF NOT EXISTS idx_area_place_id ON area(place_id);
