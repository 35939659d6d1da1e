-- Full-text index of names and address text, one row per place (rowid = place.id).
-- Contentless: the text lives in place / place_name; this holds only the index.
CREATE VIRTUAL TABLE place_fts USING fts5(
    name,
    address,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
