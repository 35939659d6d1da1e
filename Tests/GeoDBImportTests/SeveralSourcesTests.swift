// Several sources in one database: OSM + GeoNames + CSV, counts per source, the same real-world place
// kept as one place (place_link), --append as atomic as every import, and the linking rule itself.
import Foundation
@testable import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct SeveralSourcesTests {
    static let settlements = "('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood', 'locality')"

    /// Results name their record unambiguously across sources, and lookup takes that name back.
    @Test func sourceIDsAreQualifiedAndLookupTakesThem() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("sources.sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"), TestPaths.sampleData("cities15000.txt"),
                                      TestPaths.fixture("csv/stores.csv")], output: path)
        let db = try GeoDatabase(path: path)
        var cities = SearchOptions()
        cities.kinds = [.city]
        let vienna = try #require(try db.search("Vienna", options: cities).first)
        #expect(vienna.sourceRef?.description == "geonames:2761369")
        let store = try #require(try db.search("K-Market Kamppi").first)
        #expect(store.sourceRef?.description == "csv:stores.csv:2")   // its id column is store_id, not recognised: the line
        for place in [vienna, store, try #require(try db.search("Stockmann").first)] {
            #expect(try db.lookup(place.sourceRef?.description ?? "").place.id == place.id, "\(place.sourceRef?.description ?? "")")
        }
        #expect(throws: GeoDBError.self) { try db.lookup("geonames:0") }
        #expect(throws: GeoDBError.self) { try db.lookup("csv:other.csv:2") }
    }

    @Test func osmComesFirstAndCountsAddUp() throws {
        let db = try SharedImport.combined.get()
        #expect(db.summary.sources.map(\.format) == [.osmPBF, .geonames])
        let sources = try query(db.path, "SELECT name, format, place_count, linked_count FROM source ORDER BY id")
        #expect(sources.map { Array($0[0...1]) } == [[.text("helsinki.osm.pbf"), .text("osm.pbf")], [.text("cities15000.txt"), .text("geonames")]])
        // Kluuvi's boundary, into its place node, and 738 ways of streets and rivers, into their first
        #expect(sources[0][2] == .integer(2529) && sources[0][3] == .integer(739))
        // Every GeoNames row is a place or a link; places of both sources are all the places.
        guard case .integer(let geonamesPlaces) = sources[1][2], case .integer(let linked) = sources[1][3] else {
            Issue.record("counts missing")
            return
        }
        #expect(geonamesPlaces + linked == 34_006)
        #expect(linked >= 1)
        #expect(try query(db.path, "SELECT count(*) FROM place") == [[.integer(2529 + geonamesPlaces)]])
        #expect(try query(db.path, "SELECT count(*) FROM place_link WHERE source_id = 2") == [[.integer(linked)]])
        #expect(db.summary.linked == Int(linked) + 738)   // (Kluuvi's boundary is merged later, by the hierarchy)
        #expect(try IntegrityCheck.run(path: db.path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func helsinkiIsOnePlaceWithTheNamesOfBoth() throws {
        let db = try SharedImport.combined.get()
        // One settlement called Helsinki: OSM's place=city node; GeoNames' row is linked to it.
        let helsinki = try query(db.path, "SELECT id, source_ref, timezone, population FROM place WHERE name = 'Helsinki' AND kind IN \(Self.settlements)")
        #expect(helsinki.count == 1)
        guard let row = helsinki.first, case .integer(let id) = row[0] else { return }
        #expect(Array(row[1...]) == [.text("n1372477580"), .text("Europe/Helsinki"), .integer(629_725)])   // OSM's population kept
        let link = try query(db.path, "SELECT place_id, s.format, l.source_ref, l.distance_m < 1000 FROM place_link l JOIN source s ON s.id = l.source_id WHERE l.source_ref = '658225'")
        #expect(link == [[.integer(id), .text("geonames"), .text("658225"), .integer(1)]])
        // GeoNames' alternate names are now names of the OSM place, found by the index.
        let helsset = try query(db.path, "SELECT \(SearchRowID.placeIDSQL("rowid")) FROM place_fts WHERE place_fts MATCH '{name lang_name}: helsset'")
        #expect(helsset == [[.integer(id)]])
        let types = try query(db.path, "SELECT count(*) FROM place_name WHERE place_id = \(id) AND type = 'name' AND lang IS NULL")
        #expect(types == [[.integer(1)]])   // still one main name
        try expectIndexHoldsItsRebuiltText(db.path, placeID: id)
    }

    /// What search sees of a place (the words and positions of its contentless FTS rows: its own names', its
    /// alternate names') is exactly the text rebuilt from `place_name` and the `place` columns. Merging deletes by and inserts that text; if the
    /// rebuilt text and the indexed one ever differ (say, index-time name variants added on one side only),
    /// stale words stay or new ones are missing, and FTS5's integrity-check does not notice in a
    /// contentless table (tried: deleting by a wrong text passes it). The rows are looked up by the rowids the
    /// place's importance and kind give (`SearchRowID`): a merge that changed one without the other fails here too.
    func expectIndexHoldsItsRebuiltText(_ path: String, placeID id: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let db = try Connection(path: path, mode: .readOnly())
        let names = try db.prepare("SELECT name, type, lang FROM place_name WHERE place_id = ? ORDER BY rowid").rows([.integer(id)]) {
            PlaceName(name: $0.text(0) ?? "", type: $0.text(1) ?? "", lang: $0.text(2))
        }
        let columns = try db.prepare("""
            SELECT housenumber, street, postcode, city, state, country, importance, kind, name IS NOT NULL FROM place WHERE id = ?
            """).rows([.integer(id)]) { (Address(housenumber: $0.text(0), street: $0.text(1), postcode: $0.text(2), city: $0.text(3),
                                                 state: $0.text(4), country: $0.text(5)), $0.double(6), PlaceKind(rawValue: $0.text(7) ?? ""),
                                         $0.int(8) != 0) }
        let place = try #require(columns.first)
        let rows = FullTextBuilder.rows(id: id, importance: place.1, kind: try #require(place.2), names: SearchNames(names),
                                        named: place.3, address: place.0, firstWords: .current)
        let words = "SELECT term, col, offset FROM v WHERE doc = ? ORDER BY col, offset"
        try db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, place_fts, 'instance')")
        let scratch = try Connection(path: ":memory:", mode: .create)
        let sql = try #require(SchemaFiles.all.first { $0.name == "003_search.sql" }?.sql)
        try scratch.execute(sql)
        for (rowid, text) in rows {
            try scratch.prepare("INSERT INTO place_fts(rowid, name, street, address, lang_name) VALUES (?, ?, ?, ?, ?)")
                .run([.integer(rowid), .text(text.name), .text(text.street), .text(text.address), .text(text.langName)])
        }
        try scratch.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, place_fts, 'instance')")
        for (rowid, _) in rows {
            let indexed = try db.prepare(words).rows([.integer(rowid)]) { [$0.value(0), $0.value(1), $0.value(2)] }
            let expected = try scratch.prepare(words).rows([.integer(rowid)]) { [$0.value(0), $0.value(1), $0.value(2)] }
            #expect(!indexed.isEmpty, sourceLocation: sourceLocation)
            #expect(indexed == expected, sourceLocation: sourceLocation)
        }
        // Its whole names' keys too: each finds the row.
        let keyed = try db.prepare("SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?")
        for (rowid, text) in rows {
            #expect(!text.keys.isEmpty, sourceLocation: sourceLocation)
            for key in text.keys.split(separator: " ") {
                #expect(try keyed.rows([.text("\"\(key)\"")]) { $0.int(0) }.contains(rowid), sourceLocation: sourceLocation)
            }
        }
    }

    @Test func appendingGivesTheSameLinks() throws {
        let db = try SharedImport.combined.get()
        let scratch = try ScratchDirectory()
        let path = scratch.path("appended.sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: path)
        let summary = try append([TestPaths.sampleData("cities15000.txt")], to: path)
        #expect(summary.appended && summary.places + summary.linked == 34_006)
        let links = "SELECT place_id, source_id, source_ref FROM place_link ORDER BY rowid"
        #expect(try query(path, links) == query(db.path, links))
        #expect(try query(path, "SELECT count(*) FROM place") == query(db.path, "SELECT count(*) FROM place"))
        #expect(try query(path, "SELECT value FROM meta WHERE key = 'place_count'") == query(db.path, "SELECT count(*) FROM place").map { $0.map { v in
            guard case .integer(let n) = v else { return v }
            return .text(String(n))
        } })
        #expect(try IntegrityCheck.run(path: path).filter { !$0.ok }.map(\.name) == [])
        // The search tables, carried into the append's scratch database and back, index the same words
        // in the same places as one import of both files.
        #expect(try indexedWords(path) == indexedWords(db.path))
        let vocabulary = "SELECT token, places, language_places, address_places FROM search_word ORDER BY token"
        #expect(try query(path, vocabulary) == query(db.path, vocabulary))
        #expect(try query(path, "SELECT count(*) FROM search_word") != [[.integer(0)]])
        #expect(scratch.contents() == ["appended.sqlite"])
    }

    /// The vocabulary counts the index's rows: each word of 4 to 32 letters of a name column, with the rows holding it
    /// in a name column (a row holding it in two, twice), in `lang_name` and in `address`, as `fts5vocab` lists them per
    /// column; search reads no stream of a word's rows that these say has none.
    @Test func theVocabularyCountsEachWordsRows() throws {
        let db = try Connection(path: try SharedImport.combined.get().path, mode: .readOnly())
        try db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, place_fts, 'col')")
        // By bytes: two terms canonically equivalent (Swift's String equality) are two words of the index.
        var counted: [[UInt8]: (naming: Int64, inLanguages: Int64, inAddress: Int64)] = [:]
        for (term, column, rows) in try db.prepare("SELECT term, col, doc FROM v").rows([], { ($0.text(0) ?? "", $0.text(1) ?? "", $0.int(2)) })
        where (4...32).contains(term.unicodeScalars.count) {
            var word = counted[Array(term.utf8)] ?? (0, 0, 0)
            switch column {
            case "name": word.naming += rows
            case "lang_name": (word.naming, word.inLanguages) = (word.naming + rows, word.inLanguages + rows)
            case "address": word.inAddress += rows
            default: break
            }
            counted[Array(term.utf8)] = word
        }
        let vocabulary = try db.prepare("SELECT token, places, language_places, address_places FROM search_word").rows {
            ($0.text(0) ?? "", $0.int(1), $0.int(2), $0.int(3))
        }
        let expected = counted.filter { $0.value.naming > 0 }
        #expect(vocabulary.count == expected.count)
        for (token, naming, inLanguages, inAddress) in vocabulary {
            let word = expected[Array(token.utf8)]
            #expect(word?.naming == naming && word?.inLanguages == inLanguages && word?.inAddress == inAddress,
                    "\(token): \(naming), \(inLanguages), \(inAddress) against \(String(describing: word))")
        }
        // Both kinds of words are there: names in a language (Helsinki's), words addresses hold and words they do not.
        #expect(vocabulary.contains { $0.2 > 0 } && vocabulary.contains { $0.3 > 0 } && vocabulary.contains { $0.1 > 10 && $0.3 == 0 })
    }

    /// Every word of `place_fts` with the places holding it and how often.
    private func indexedWords(_ path: String) throws -> [[SQLiteValue]] {
        let db = try Connection(path: path, mode: .readOnly())
        try db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, place_fts, 'row')")
        return try db.prepare("SELECT term, doc, cnt FROM v ORDER BY term").rows { [$0.value(0), $0.value(1), $0.value(2)] }
    }

    @Test func withoutLinkingBothStay() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("unlinked.sqlite")
        var options = ImportOptions()
        options.linkDuplicates = false
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"), TestPaths.fixture("geonames/sample.txt")],
                             output: path, options: options)
        #expect(try query(path, "SELECT count(*) FROM place WHERE name = 'Helsinki' AND kind = 'city'") == [[.integer(2)]])
        // Only the OSM file's own links stay: Kluuvi's boundary, merged into its place node, and the ways of streets.
        #expect(try query(path, "SELECT source_ref FROM place_link WHERE source_ref NOT LIKE 'w%'") == [[.text("r184713")]])
        #expect(try query(path, "SELECT count(*) FROM place_link") == [[.integer(739)]])
    }

    @Test func aCSVCityLinksAndItsPOIsStay() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("csv.sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: path)
        let summary = try append([TestPaths.fixture("csv/places.csv")], to: path)
        let source = try #require(summary.sources.first)
        #expect(source.records?.rows == 10 && source.records?.skippedTotal == 5)
        #expect(source.places == 4 && source.linked == 1)
        let linked = try query(path, "SELECT p.id, p.source_ref, l.source_ref FROM place_link l JOIN place p ON p.id = l.place_id WHERE l.source_id = 2")
        #expect(linked.map { Array($0[1...]) } == [[.text("n1372477580"), .text("9")]])
        guard case .integer(let id)? = linked.first?.first else { return }
        try expectIndexHoldsItsRebuiltText(path, placeID: id)
        #expect(try IntegrityCheck.run(path: path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func aFailedAppendLeavesTheDatabaseAsItWas() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("keep.sqlite")
        _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: GeoDBError.self) {
            try append([TestPaths.fixture("geonames/sample.txt"), TestPaths.fixture("csv/places.csv")], to: path, strict: true)
        }
        #expect(error?.message.contains("places.csv: line 6") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(scratch.contents() == ["keep.sqlite"])
    }

    /// Appending writes the keys of its places at the first-word level the file says its keys hold
    /// (`FirstWordTokens`, `meta`), and the file keeps saying it: a file written before the prefix tokens (a copy
    /// whose `meta` says whole first words only) gets none for the appended place, a file of today gets them;
    /// typing finds the appended place in both, since search asks for the tokens only where `meta` says so.
    @Test func appendingKeepsTheFilesFirstWordTokens() throws {
        let scratch = try ScratchDirectory()
        let csv = scratch.path("more.csv")
        try "name,lat,lon\nQwertyvaara,60.30,25.20\n".write(toFile: csv, atomically: false, encoding: .utf8)
        let level = "SELECT value FROM meta WHERE key = '\(NameKey.firstWordsMetaKey)'"
        let prefixRows = "SELECT count(*) FROM place_name_key WHERE place_name_key MATCH '\"\(NameKey.firstWordPrefix("qwe"))\"'"
        for (tokens, appendedPrefixRows) in [(FirstWordTokens.whole, 0), (.wholeAndPrefixes, 1)] {
            let path = scratch.path("level-\(tokens.rawValue).sqlite")
            _ = try Importer.run(inputs: [TestPaths.fixture("csv/stores.csv")], output: path)
            try Connection(path: path, mode: .readWrite).execute("UPDATE meta SET value = '\(tokens.rawValue)' WHERE key = '\(NameKey.firstWordsMetaKey)'")
            #expect(try query(path, prefixRows) == [[.integer(0)]])
            #expect(try append([csv], to: path).appended)
            #expect(try query(path, level) == [[.text(String(tokens.rawValue))]])
            #expect(try query(path, prefixRows) == [[.integer(Int64(appendedPrefixRows))]], "\(tokens)")
            var typing = SearchOptions()
            typing.autocomplete = true
            #expect(try GeoDatabase(path: path).search("Qwer", options: typing).first?.name == "Qwertyvaara", "\(tokens)")
        }
    }

    @Test func appendNeedsAnExistingGeoDatabase() throws {
        let scratch = try ScratchDirectory()
        let missing = #expect(throws: GeoDBError.self) {
            try append([TestPaths.fixture("csv/stores.csv")], to: scratch.path("none.sqlite"))
        }
        #expect(missing?.code == .fileNotFound && missing?.option == "append" && missing?.remedy?.contains("without `append`") == true)
        let text = scratch.path("text.sqlite")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        let notGeoDB = #expect(throws: GeoDBError.self) { try append([TestPaths.fixture("csv/stores.csv")], to: text) }
        #expect(notGeoDB?.code == .notAGeoDatabase)
        #expect(scratch.contents() == ["text.sqlite"])
    }
}

/// The linking rule on a small map. Each cell is about 1.1 km (0.01°) near the equator:
///
///     row 0   A . . . . . . . . . . . . . . . . . . . B      A  city "Springfield"        (source 1)
///     row 1   . C . . . . . . . . . . . . . . . . . . .      B  town "Springfield", 22 km east
///                                                            C  village "Oakville"
@Suite struct PlaceLinkerTests {
    static func at(_ row: Int, _ column: Int) -> Coordinate { Coordinate(lat: -Double(row) * 0.01, lon: Double(column) * 0.01) }

    static func linker() -> PlaceLinker {
        let linker = PlaceLinker()
        linker.register(.init(id: 1, sourceID: 1, kind: .city, coordinate: at(0, 0), names: Self.names("Springfield", "Sprinkfeld")))
        linker.register(.init(id: 2, sourceID: 1, kind: .town, coordinate: at(0, 20), names: Self.names("Springfield")))
        linker.register(.init(id: 3, sourceID: 1, kind: .village, coordinate: at(1, 1), names: Self.names("Oakville")))
        return linker
    }

    static func names(_ names: String...) -> SearchNames { SearchNames(names.map { PlaceName(name: $0, type: "name") }) }

    static func record(_ name: String, _ kind: PlaceKind, _ point: Coordinate, alternates: [String] = []) -> PlaceRecord {
        PlaceRecord(sourceRef: "x", kind: kind, category: nil, name: name,
                    names: [PlaceName(name: name, type: "name")] + alternates.map { PlaceName(name: $0, type: "alt_name") },
                    coordinate: point)
    }

    func matched(_ record: PlaceRecord, source: Int64 = 2) -> Int64? {
        let linker = Self.linker()
        return linker.match(record, sourceID: source).map { linker.candidates[$0.index].id }
    }

    @Test func sameNameCompatibleKindCloseBy() {
        #expect(matched(Self.record("Springfield", .city, Self.at(3, 2))) == 1)          // 4 km from A
        #expect(matched(Self.record("SPRINGFIELD", .town, Self.at(0, 19))) == 2)         // 1 km from B, nearer than A
        #expect(matched(Self.record("Öakville", .hamlet, Self.at(1, 2))) == 3)           // case and diacritics
        #expect(matched(Self.record("sprinkfeld", .suburb, Self.at(0, 1))) == 1)         // an alternative name of A
        #expect(matched(Self.record("Springfield (city)", .city, Self.at(0, 0), alternates: ["Springfield"])) == 1)
    }

    @Test func otherwiseNotLinked() {
        #expect(matched(Self.record("Springfield", .city, Self.at(10, 10))) == nil)      // 15.7 km from A and from B
        #expect(matched(Self.record("Springfield", .city, Self.at(0, 0)), source: 1) == nil)   // same source
        #expect(matched(Self.record("Springfield", .poi, Self.at(0, 0))) == nil)          // POIs are not linked
        #expect(matched(Self.record("Springfield", .county, Self.at(0, 0))) == nil)       // another kind group
        #expect(matched(Self.record("Oakville", .village, Self.at(5, 1))) == nil)         // 4.4 km: over a village's 4 km
        #expect(matched(Self.record("Oak", .village, Self.at(1, 1))) == nil)
    }

    @Test func acrossTheAntimeridian() {
        let linker = PlaceLinker()
        linker.register(.init(id: 7, sourceID: 1, kind: .town, coordinate: Coordinate(lat: -16.8, lon: 179.99), names: Self.names("Labasa")))
        let record = Self.record("Labasa", .town, Coordinate(lat: -16.8, lon: -179.99))
        #expect(linker.match(record, sourceID: 2)?.index == 0)
    }
}
