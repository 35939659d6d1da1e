// Gives every place its taxonomy category, once all sources are loaded, in three SQL passes.
import GeoDB
import GeoDBSQLite

enum CategoryAssigner {
    /// Writes the taxonomy into `category` and maps each place's raw category to it: an exact OSM tag
    /// first (`amenity=cafe`), then a free-text category matching an id, label or synonym (CSV data:
    /// `Coffee shop`), then a key's catch-all (`shop=*`). Runs over all places, so appends stay right.
    static func assign(in db: Connection, taxonomy: Taxonomy = .standard) throws {
        try db.execute("""
            DELETE FROM place_category; DELETE FROM category;
            DROP TABLE IF EXISTS temp.category_tag;
            CREATE TEMP TABLE category_tag (tag TEXT PRIMARY KEY, category_id TEXT NOT NULL, pass INTEGER NOT NULL);
            """)
        let insertCategory = try db.prepare("""
            INSERT INTO category(id, parent, label, synonyms, osm_tags) VALUES (?, ?, ?, ?, ?)
            """)
        let insertTag = try db.prepare("INSERT OR IGNORE INTO temp.category_tag(tag, category_id, pass) VALUES (?, ?, ?)")
        for c in taxonomy.categories {
            try insertCategory.run([.text(c.id), c.parent.map { .text($0) } ?? .null, .text(c.label),
                                    .text(c.synonyms.joined(separator: ",")), .text(c.osmTags.joined(separator: ","))])
            for tag in c.osmTags {
                try insertTag.run([.text(tag), .text(c.id), .integer(tag.hasSuffix("=*") ? 3 : 1)])
            }
        }
        for (word, id) in taxonomy.wordIndex {
            try insertTag.run([.text(word), .text(id), .integer(2)])
        }
        try db.execute("""
            INSERT INTO place_category(place_id, category_id, lat, lon)
              SELECT p.id, t.category_id, p.lat, p.lon FROM place p JOIN temp.category_tag t ON t.tag = p.category AND t.pass = 1;
            INSERT OR IGNORE INTO place_category(place_id, category_id, lat, lon)
              SELECT p.id, t.category_id, p.lat, p.lon FROM place p JOIN temp.category_tag t ON t.tag = lower(p.category) AND t.pass = 2;
            INSERT OR IGNORE INTO place_category(place_id, category_id, lat, lon)
              SELECT p.id, t.category_id, p.lat, p.lon FROM place p
              JOIN temp.category_tag t ON t.tag = substr(p.category, 1, instr(p.category, '=')) || '*' AND t.pass = 3
              WHERE p.kind = 'poi';
            CREATE TEMP TABLE category_count AS SELECT category_id, count(*) AS n FROM place_category GROUP BY category_id;
            UPDATE category SET place_count = coalesce((SELECT n FROM temp.category_count c WHERE c.category_id = category.id), 0);
            DROP TABLE temp.category_tag; DROP TABLE temp.category_count;
            """)
        try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('taxonomy_version', ?)")
            .run([.text(String(Taxonomy.version))])
    }
}
