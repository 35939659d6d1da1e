-- Secondary indexes, created after the bulk load (faster than maintaining them row by row).
CREATE INDEX idx_place_name_place_id ON place_name(place_id);
CREATE INDEX idx_place_source_id_source_ref ON place(source_id, source_ref);
CREATE INDEX idx_place_category ON place(category);
