-- Optional for readers, not for imports: every import makes it (empty when the data has no entrances),
-- while files of this version written before geodb kept entrances lack it and have none. The nodes tagged
-- `entrance=*` (else `routing:entrance=*`) among the nodes of a place made of one OSM way, a building's
-- doors: what Nominatim's `entrances=1` lists (docs/SCHEMA.md, `place_entrance`).
CREATE TABLE place_entrance (
    place_id INTEGER NOT NULL REFERENCES place(id),
    osm_id   INTEGER NOT NULL,       -- the entrance node's OSM id
    type     TEXT NOT NULL,          -- the value of its entrance tag: yes, main, service, emergency, ...
    lat      REAL NOT NULL,          -- WGS 84 degrees of the node
    lon      REAL NOT NULL,
    tags     TEXT,                   -- JSON object of the node's other tags, notes and sources left out; NULL if none
    PRIMARY KEY (place_id, osm_id)   -- a place's entrances in one key range, by node id
) WITHOUT ROWID;
