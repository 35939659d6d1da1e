// Every place gets its taxonomy category at import: exact OSM tag, free-text words, key catch-all.
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct CategoryAssignerTests {
    @Test func rawCategoriesMapToTheTaxonomy() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.path("c.sqlite"), mode: .create)
        try Schema.createTables(in: db)
        try db.execute("INSERT INTO source(id, name, format, size_bytes, imported_at) VALUES (1, 't', 'csv', 0, '')")
        let writer = try PlaceWriter(db: db)
        let places = writer.sink(forSource: 1, linking: SourceLinking())
        let samples: [(String?, PlaceKind, String?)] = [
            ("amenity=cafe", .poi, "cafe"),            // exact OSM tag
            ("shop=coffee", .poi, "cafe"),             // another tag of the same category
            ("Coffee Shop", .poi, "cafe"),             // free text (CSV): a synonym, any case
            ("Pharmacy", .poi, "pharmacy"),            // free text: the label
            ("shop=yes", .poi, "shopping"),            // the key's catch-all
            ("amenity=unheard_of", .poi, nil),         // nothing fits
            ("place=city", .city, nil),                // not a POI
            (nil, .address, nil),
        ]
        for (i, sample) in samples.enumerated() {
            try places.add(PlaceRecord(sourceRef: "x\(i)", kind: sample.1, category: sample.0, name: "P\(i)", names: [],
                                       coordinate: Coordinate(lat: 60, lon: 25)))
        }
        try writer.finish()
        try CategoryAssigner.finish(in: db)
        func mapped() throws -> [Int64: String?] {
            Dictionary(try db.prepare("SELECT place_id, category_id FROM place_category").rows { ($0.int(0), $0.text(1)) },
                       uniquingKeysWith: { a, _ in a })
        }
        let written = try mapped()
        for (i, sample) in samples.enumerated() {
            #expect(written[Int64(i + 1)] ?? nil == sample.2, "\(sample.0 ?? "nil")")
        }
        #expect(try db.prepare("SELECT lat, lon FROM place_category LIMIT 1").rows { [$0.double(0), $0.double(1)] } == [[60, 25]])
        #expect(try db.scalarInt("SELECT place_count FROM category WHERE id = 'cafe'") == 3)
        #expect(try db.scalarInt("SELECT count(*) FROM category") == Int64(Taxonomy.standard.categories.count))
        #expect(try db.scalarText("SELECT value FROM meta WHERE key = 'taxonomy_version'") == String(Taxonomy.version))

        // A database mapped by another taxonomy version is mapped again when appended to.
        try db.execute("DELETE FROM place_category WHERE place_id = 1; UPDATE meta SET value = '0' WHERE key = 'taxonomy_version'")
        try CategoryAssigner.finish(in: db)
        #expect(try mapped() == written)
        #expect(try db.scalarInt("SELECT place_count FROM category WHERE id = 'cafe'") == 3)
        #expect(try db.scalarText("SELECT value FROM meta WHERE key = 'taxonomy_version'") == String(Taxonomy.version))
    }

    @Test func taxonomyIsWellFormed() throws {
        let taxonomy = Taxonomy.standard
        #expect(taxonomy.categories.count >= 100)
        let ids = Set(taxonomy.categories.map(\.id))
        #expect(ids.count == taxonomy.categories.count, "duplicate ids")
        for c in taxonomy.categories {
            if let parent = c.parent { #expect(ids.contains(parent), "\(c.id): unknown parent \(parent)") }
            for tag in c.osmTags { #expect(tag.split(separator: "=").count == 2, "\(c.id): bad tag \(tag)") }
        }
        // Each OSM tag maps to one category only.
        let tags = taxonomy.categories.flatMap(\.osmTags)
        #expect(Set(tags).count == tags.count)
        #expect(try taxonomy.resolve("coffee") == .categories(["cafe"]))
        #expect(try taxonomy.resolve("amenity=cafe") == .rawTag("amenity=cafe"))
        let food = try taxonomy.resolve("food_and_drink")
        #expect(food == .categories(taxonomy.descendants(of: "food_and_drink")))
        #expect(Set(taxonomy.descendants(of: "food_and_drink")).isSuperset(of: ["food_and_drink", "cafe", "restaurant", "pub"]))
    }

    /// The categories a typed word begins (read from the words in order) are those a scan of every word finds,
    /// for every beginning of every word of the taxonomy.
    @Test func categoriesStartingWithAPrefixAreThoseAScanFinds() {
        let taxonomy = Taxonomy.standard
        let words = taxonomy.wordIndex
        func scanned(_ prefix: String) -> [String] {
            var seen = Set<String>()
            return words.filter { $0.key.hasPrefix(prefix) }.sorted { ($0.key.count, $0.key) < ($1.key.count, $1.key) }
                .map(\.value).filter { seen.insert($0).inserted }
        }
        var prefixes = Set(["", "zzz", "é", "Coff"])
        for word in words.keys { for n in 1...min(word.count, 5) { prefixes.insert(String(word.prefix(n))) } }
        for prefix in prefixes { #expect(taxonomy.categories(startingWith: prefix) == scanned(prefix.lowercased()), "\(prefix)") }
        #expect(taxonomy.categories(startingWith: "coff") == ["cafe"])
    }
}
