// Gives places their taxonomy category: the writer maps each place as it writes it; the end of an
// import writes the taxonomy itself and its counts.
import GeoDB
import GeoDBSQLite

/// The rule from a place's raw category to its taxonomy category: an exact OSM tag first
/// (`amenity=cafe`), then a free-text category equal to an id, label or synonym in any ASCII case (CSV
/// data: `Coffee shop`), then, for POIs, a key's catch-all (`shop=*`).
struct CategoryMap {
    private var exactTags: [String: String] = [:]
    private var words: [String: String] = [:]
    private var catchAlls: [String: String] = [:]

    init(taxonomy: Taxonomy = .standard) {
        for c in taxonomy.categories {
            for tag in c.osmTags {
                // The first category listing a tag has it (the taxonomy test requires each tag once).
                if tag.hasSuffix("=*") {
                    if catchAlls[String(tag.dropLast())] == nil { catchAlls[String(tag.dropLast())] = c.id }
                } else if exactTags[tag] == nil {
                    exactTags[tag] = c.id
                }
            }
        }
        words = taxonomy.wordIndex
    }

    /// The taxonomy id for a place of `kind` whose raw category is `raw`, or nil.
    func categoryID(raw: String, kind: PlaceKind) -> String? {
        if let id = exactTags[raw] { return id }
        if let id = words[Self.asciiLowercased(raw)] { return id }
        guard kind == .poi, let equals = raw.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return catchAlls[String(raw[...equals])]
    }

    /// `text` with A–Z lowered and every other character kept: CSV categories compare in any ASCII case.
    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return text }
        return String(decoding: text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
                      as: UTF8.self)
    }
}

enum CategoryAssigner {
    /// Writes the taxonomy into `category` with the number of places in each, and its version into
    /// `meta`. Places written before (an appended database) were mapped by the taxonomy version that
    /// database records: when that is another version, all are mapped again.
    ///
    /// `added` is what the writer counted for the places of this import: their counts are added to the
    /// ones `category` has. Without it, or after mapping again, `place_category` is counted (a GROUP BY
    /// that was most of this step: 0.05–0.08 s of the serial end of the tiled ×50 import).
    static func finish(in db: Connection, taxonomy: Taxonomy = .standard, added: [String: Int]? = nil) throws {
        let recorded = try db.scalarText("SELECT value FROM meta WHERE key = 'taxonomy_version'")
        let remapped = recorded != nil && recorded != String(Taxonomy.version)
        if remapped { try remapAll(in: db, taxonomy: taxonomy) }
        let counts = if let added, !remapped {
            try self.counts("SELECT id, place_count FROM category", in: db).merging(added, uniquingKeysWith: +)
        } else {
            try self.counts("SELECT category_id, count(*) FROM place_category GROUP BY category_id", in: db)
        }
        try db.execute("DELETE FROM category")
        let insertCategory = try db.prepare("""
            INSERT INTO category(id, parent, label, synonyms, osm_tags, place_count) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for c in taxonomy.categories {
            try insertCategory.run([.text(c.id), c.parent.map { .text($0) } ?? .null, .text(c.label),
                                    .text(c.synonyms.joined(separator: ",")), .text(c.osmTags.joined(separator: ",")),
                                    .integer(Int64(counts[c.id] ?? 0))])
        }
        try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('taxonomy_version', ?)")
            .run([.text(String(Taxonomy.version))])
    }

    /// Category id → count, from a query returning those two columns.
    private static func counts(_ sql: String, in db: Connection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try db.prepare(sql)
        while try rows.step() { counts[rows.text(0) ?? "", default: 0] += Int(rows.int(1)) }
        return counts
    }

    /// Maps every place again (the rule of `CategoryMap`), replacing `place_category`.
    static func remapAll(in db: Connection, taxonomy: Taxonomy) throws {
        let map = CategoryMap(taxonomy: taxonomy)
        try db.execute("DELETE FROM place_category")
        let insert = try db.prepare("INSERT INTO place_category(place_id, category_id, lat, lon, importance) VALUES (?, ?, ?, ?, ?)")
        let places = try db.prepare("SELECT id, category, kind, lat, lon, importance FROM place WHERE category IS NOT NULL")
        while try places.step() {
            guard let kind = PlaceKind(rawValue: places.text(2) ?? ""),
                  let id = map.categoryID(raw: places.text(1) ?? "", kind: kind) else { continue }
            try insert.run([.integer(places.int(0)), .text(id), .real(places.double(3)), .real(places.double(4)), .real(places.double(5))])
        }
    }
}
