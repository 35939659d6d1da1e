-- Full-text index of names and address text: a row of each place's own names, and one of its alternate
-- names (alt_name, old_name, short_name) when it has any. Columns: the address ("street housenumber
-- postcode city state country", without the street when it is in `street`); the street of a place without
-- a name (place.name NULL: an address, which search compares by its street), else empty; the names (of
-- the own row: its main name and its names in no language); the own row's names in a language (name:xx,
-- official_name:xx, ...) that are not among those, else empty. Search ranks a name in another language than
-- the one asked for lower, and a row holding a query word only in `lang_name` is read as one whose names in
-- no language cannot hold it: a capital's hundred names in other languages no longer make each of its rows
-- a candidate for the best own match ("Helsingfors", "K" typed, on tiled Helsinki: 400 capitals).
-- The address is the first column because in a country's data it holds most of the words (Liechtenstein
-- x20: 811,551 of 1,500,166), and FTS5 stores each entry of a word in any other column with two bytes
-- more: the index is 18-20 % smaller than with names first on Liechtenstein and x20, and 3-11 % larger on
-- files whose words are mostly names (Monaco, Nominatim's test extract, cities500 with its hundreds of
-- names a city): the big files are countries' addresses.
-- A row holding no query word in `name`, `street` or `lang_name` matched only through where it is: search reads those
-- rows after the others, as far as their lower scores can matter. rowid = the row's rank step (26 bits:
-- importance, streets lifted, an alternates' row lower; highest first) above 1 bit (the alternates' row)
-- above place.id (36 bits), so matches come highest-ranked first; place.id = rowid & 68719476735
-- (SearchRowID.swift, docs/SCHEMA.md).
-- Contentless: the text lives in place / place_name; this holds only the index, and no column sizes
-- (columnsize = 0: nothing reads them, and their table was 19 bytes a place, 5 % of a country's file; a
-- row without words leaves no trace, and the rows are listed from the index, fts5vocab 'instance'). Prefix indexes for
-- prefixes of 1 to 4 letters (a word just begun while typing, "Casino H", is one letter: without its index
-- FTS5 merges the places of every word of that letter before it can AND them); longer ones are looked up as
-- the words of search_word they begin.
CREATE VIRTUAL TABLE place_fts USING fts5(
    address,
    street,
    name,
    lang_name,
    content = '',
    columnsize = 0,
    detail = column,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '1 2 3 4'
);

-- The whole names of each place_fts row, at its rowid: one token per name (NameKey: a hash of its folded
-- words; for a place without a name, of its street), so that a search for "Vaduz" finds the places named
-- exactly so among the thousands whose names or addresses hold the word, and reads the others only as far
-- as their lower scores can matter. The key of a name in `lang_name` is written with an "l" before it
-- (NameKey.inLanguage), so the rows named so only in another language are found apart. Only which rows
-- hold a key is kept (detail = none, no sizes).
CREATE VIRTUAL TABLE place_name_key USING fts5(
    key,
    content = '',
    tokenize = 'ascii',
    detail = none,
    columnsize = 0
);

-- Distinct words (4 to 32 letters) of the name index with how many rows use them: the vocabulary
-- typo-tolerant search draws from. id is search_token's rowid. The rows holding a word in a language's
-- names and in an address tell search which of a word's streams have no rows before it walks them.
CREATE TABLE search_word (
    id              INTEGER PRIMARY KEY,
    token           TEXT NOT NULL,
    places          INTEGER NOT NULL,   -- rows holding it in name or lang_name (a row holding it in both: twice)
    language_places INTEGER NOT NULL,   -- rows holding it in lang_name
    address_places  INTEGER NOT NULL    -- rows holding it in address
);
-- The words beginning with what the user has typed so far, for prefixes longer than place_fts's prefix
-- indexes (FTS5 reads every place of every word with such a prefix; the words themselves it reads lazily).
-- Here, not among the indexes created after loading: search_word is filled in the import's scratch
-- database and copied whole, which copies a table's records as they are only when both ends have the
-- same indexes.
CREATE INDEX idx_search_word_token ON search_word(token);

-- search_word's tokens indexed by trigrams: finds words a typo or two away from a query word. The text
-- stays in search_word (external content); only which words hold a trigram is kept (detail = none: no
-- positions; columnsize = 0: no sizes), so a lookup ANDs single trigrams (`"esp" AND "spl"`) and checks
-- the words found.
CREATE VIRTUAL TABLE search_token USING fts5(
    token,
    places UNINDEXED,
    content = 'search_word',
    content_rowid = 'id',
    tokenize = 'trigram',
    detail = none,
    columnsize = 0
);
