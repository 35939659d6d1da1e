-- Category-first lookups (rare categories): the places of a category without scanning.
CREATE INDEX IF NOT EXISTS idx_place_category_category_id ON place_category(category_id);
