// `geodb import --importance`: an importance file in Nominatim's format (Tests/Fixtures/importance/, rows
// written by hand for places of SampleData: Liechtenstein's OSM places by their wikidata and wikipedia tags,
// cities15000's by the Wikidata ids alternate names files give them), end to end; and the rules of matching
// and combining on values whose answer is known.
import Foundation
@testable import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct ImportanceFileTests {
    static let plain = TestPaths.fixture("importance/wikimedia-importance-sample.csv")
    static let gzipped = TestPaths.fixture("importance/wikimedia-importance-sample.csv.gz")

    /// Liechtenstein imported with the plain file, with the gzipped one, and without.
    static let liechtenstein = Result { () throws -> (scratch: ScratchDirectory, plain: (path: String, summary: ImportSummary),
                                                      gzipped: (path: String, summary: ImportSummary), without: String) in
        let scratch = try ScratchDirectory()
        func run(_ file: String?, _ name: String) throws -> (String, ImportSummary) {
            var options = ImportOptions()
            options.importanceFile = file
            let path = scratch.path(name)
            return (path, try Importer.run(inputs: [TestPaths.sampleData("liechtenstein.osm.pbf")], output: path, options: options))
        }
        return (scratch, try run(plain, "plain.sqlite"), try run(gzipped, "gzipped.sqlite"), try run(nil, "without.sqlite").0)
    }

    /// The importance of the places named `name` of kind `kind`, by id.
    static func importance(_ path: String, _ name: String, kind: PlaceKind) throws -> [[SQLiteValue]] {
        try query(path, "SELECT importance FROM place WHERE name = '\(name)' AND kind = '\(kind.rawValue)' ORDER BY id")
    }

    @Test func equallyPopulousPlacesSwapWhenTheFileSaysSo() throws {
        // East and West Molesey (cities15000: 18,565 people each, both PPL): equal importance, and West first
        // by id; the file knows East better (the Wikidata ids are made up in alternateNames-molesey.txt and the
        // file alike: what counts is that the two agree).
        let scratch = try ScratchDirectory()
        let inputs = [TestPaths.sampleData("cities15000.txt"), TestPaths.fixture("importance/alternateNames-molesey.txt")]
        var options = ImportOptions()
        _ = try Importer.run(inputs: inputs, output: scratch.path("without.sqlite"), options: options)
        options.importanceFile = Self.gzipped
        let summary = try Importer.run(inputs: inputs, output: scratch.path("with.sqlite"), options: options)
        let file = try #require(summary.importanceFile)
        #expect((file.taggedPlaces, file.matchedByWikidata, file.matchedByTitle, file.raised) == (2, 2, 0, 1))

        let without = try GeoDatabase(path: scratch.path("without.sqlite")).search("Molesey").map(\.name)
        #expect(without.prefix(2) == ["West Molesey", "East Molesey"])
        let with = try GeoDatabase(path: scratch.path("with.sqlite"))
        #expect(try with.search("Molesey").map(\.name).prefix(2) == ["East Molesey", "West Molesey"])
        var typing = SearchOptions()
        typing.autocomplete = true
        #expect(try with.search("Moles", options: typing).first?.name == "East Molesey")
        // East has the file's value; West keeps its own, which is more than the file's 0.41.
        #expect(try Self.importance(scratch.path("with.sqlite"), "East Molesey", kind: .town) == [[.real(0.69)]])
        #expect(try Self.importance(scratch.path("with.sqlite"), "West Molesey", kind: .town)
                == Self.importance(scratch.path("without.sqlite"), "West Molesey", kind: .town))
        #expect(try with.lookup("geonames:2650376").importance == 0.69)
        #expect(try IntegrityCheck.run(path: scratch.path("with.sqlite")).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func aRecordMergedIntoAPlaceBringsItsWikidataID() throws {
        // cities15000's Helsinki (geonameid 658225) is merged into helsinki.osm.pbf's (wikidata=Q1757). Here
        // the file knows only the GeoNames record's Wikidata id (made up, given by an alternate names row):
        // the merged place still gets its value, as the record's importance would have been kept.
        let scratch = try ScratchDirectory()
        let names = scratch.path("alternateNames.txt"), file = scratch.path("importance.csv")
        try "1\t658225\twkdt\tQ900001757\t\t\t\t\t\t\n".write(toFile: names, atomically: true, encoding: .utf8)
        try "language\ttype\ttitle\timportance\twikidata_id\nfi\ta\tHelsinki\t0.97\tQ900001757\n".write(toFile: file, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.importanceFile = file
        let path = scratch.path("helsinki.sqlite")
        let summary = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"), TestPaths.sampleData("cities15000.txt"), names],
                                       output: path, options: options)
        #expect(summary.importanceFile?.matchedByWikidata == 1 && summary.importanceFile?.raised == 1)
        let helsinki = try GeoDatabase(path: path).lookup("geonames:658225")
        #expect(helsinki.place.sourceRef?.description == "n1372477580" && helsinki.linkedRecords.map(\.description) == ["geonames:658225"])
        #expect(helsinki.place.tags["wikidata"] == "Q1757" && helsinki.importance == 0.97)
        #expect(try IntegrityCheck.run(path: path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func gzippedAndPlainFilesGiveTheSame() throws {
        let (_, plain, gzipped, _) = try Self.liechtenstein.get()
        let all = "SELECT id, importance FROM place ORDER BY id"
        #expect(try query(plain.path, all) == query(gzipped.path, all))
        for summary in [plain.summary, gzipped.summary] {
            let file = try #require(summary.importanceFile)
            #expect(file.records.rows == 12)
            #expect(file.records.skipped == [.badImportance: 1, .badFields: 1, .badID: 1])
            // Vaduz by Q1844, Schaan by Q49657; Wildschloss and the ruin itself by their article alone. Schaan
            // is more important than the file says.
            #expect((file.taggedPlaces, file.matchedByWikidata, file.matchedByTitle, file.raised) == (164, 2, 2, 3))
            #expect(summary.phases.map(\.name).contains("importance"))
        }
        #expect(plain.summary.importanceFile?.name == "wikimedia-importance-sample.csv")
        #expect(gzipped.summary.importanceFile?.name == "wikimedia-importance-sample.csv.gz")
    }

    @Test func theFileRaisesAndNeverLowers() throws {
        let (_, (path, _), _, without) = try Self.liechtenstein.get()
        // Vaduz: 0.617 by its kind and population; the file says 0.74. Its node and boundary were merged, and
        // the merged place keeps the file's value.
        #expect(try Self.importance(path, "Vaduz", kind: .town) == [[.real(0.74)]])
        #expect(try query(path, "SELECT count(*) FROM place_link l JOIN place p ON p.id = l.place_id WHERE p.name = 'Vaduz' AND p.kind = 'town'")
                == [[.integer(1)]])
        // Schaan: 0.618 by population, more than the file's 0.58.
        #expect(try Self.importance(path, "Schaan", kind: .town) == Self.importance(without, "Schaan", kind: .town))
        // Only the matched places changed.
        let all = "SELECT id, name, importance FROM place ORDER BY id"
        let changed = zip(try query(path, all), try query(without, all)).filter { $0.0 != $0.1 }.map { $0.0[1] }
        #expect(changed == [.text("Wildschloss"), .text("Vaduz"), .text("Ruine Schalun")])
        let db = try GeoDatabase(path: path)
        #expect(try db.search("Vaduz").first?.kind == .town)
        #expect(try IntegrityCheck.run(path: path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func aWikipediaTitleMatchesAPlaceWithoutWikidata() throws {
        // Wildschloss, a viewpoint tagged wikipedia=de:Ruine Schalun and no wikidata: the file's title has an
        // underscore for the space. Landweibelhäuser (wikipedia=de:Landweibels-Huus) has a bad row: not raised.
        let path = try Self.liechtenstein.get().plain.path
        let db = try GeoDatabase(path: path)
        let ruin = try #require(try db.search("Wildschloss").first)
        #expect(ruin.tags["wikipedia"] == "de:Ruine Schalun" && ruin.tags["wikidata"] == nil)
        #expect(try db.lookup(String(ruin.id)).importance == 0.46)
        // Its category row repeats it: lists of viewpoints put it first.
        #expect(try query(path, "SELECT importance FROM place_category WHERE place_id = \(ruin.id)") == [[.real(0.46)]])
        #expect(try Self.importance(path, "Landweibelhäuser", kind: .poi) == Self.importance(try Self.liechtenstein.get().without, "Landweibelhäuser", kind: .poi))
    }

    @Test func badRowsWarnWithFileAndLine() throws {
        let file = try #require(try Self.liechtenstein.get().plain.summary.importanceFile)
        #expect(file.records.warnings == [
            "\(Self.plain): line 6: importance 'broken' is not a number from 0 to 1; row skipped",
            "\(Self.plain): line 12: 4 tab-separated fields, the header has 5; row skipped",
            "\(Self.plain): line 13: wikidata_id 'X12' is not a Wikidata id (Q and digits); row skipped",
        ])
        var options = ImportOptions()
        options.importanceFile = Self.plain
        options.strict = true
        let scratch = try ScratchDirectory()
        #expect(throws: GeoDBError.badInput(file: Self.plain, at: .line(6), "importance 'broken' is not a number from 0 to 1")) {
            try Importer.run(inputs: [TestPaths.sampleData("liechtenstein.osm.pbf")], output: scratch.path("strict.sqlite"), options: options)
        }
        #expect(scratch.contents() == [])
    }

    @Test func aFileOfAnotherKindIsRefusedBeforeTheImport() throws {
        let scratch = try ScratchDirectory()
        var options = ImportOptions()
        options.importanceFile = TestPaths.sampleData("cities15000.txt")
        let error = try #require(throws: GeoDBError.self) {
            try Importer.run(inputs: [TestPaths.sampleData("liechtenstein.osm.pbf")], output: scratch.path("x.sqlite"), options: options)
        }
        #expect(error.code == .unknownFormat)
        #expect(error.message == "\(TestPaths.sampleData("cities15000.txt")): not an importance file: its first line has no column "
                + "'language', 'title', 'importance', 'wikidata_id'")
        for other in ["liechtenstein.osm.pbf", "timezones-small.geojson"] {
            options.importanceFile = TestPaths.sampleData(other)
            #expect(throws: GeoDBError.self) {
                try Importer.run(inputs: [TestPaths.fixture("geonames/sample.txt")], output: scratch.path("x.sqlite"), options: options)
            }
        }
        #expect(scratch.contents() == [])
    }

    @Test func withoutTaggedPlacesTheFileIsNotRead() throws {
        // The GeoNames fixture's places have no Wikidata id (no alternate names file): nothing to match.
        let scratch = try ScratchDirectory()
        var options = ImportOptions()
        options.importanceFile = Self.plain
        let summary = try Importer.run(inputs: [TestPaths.fixture("geonames/sample.txt")], output: scratch.path("g.sqlite"), options: options)
        let file = try #require(summary.importanceFile)
        #expect((file.taggedPlaces, file.records.rows, file.records.warnings.count, file.raised) == (0, 0, 0, 0))
    }

    @Test func referencesAreReadAsNominatimReadsThem() {
        let article = { (tag: String) in WikimediaReference(wikidata: nil, wikipedia: tag).article.map { String(decoding: $0, as: UTF8.self) } }
        #expect(article("de:Ruine Schalun") == "de:Ruine_Schalun")
        #expect(article("EN: Vaduz Castle ") == "en:Vaduz_Castle")   // language lowercased, spaces around dropped
        #expect(article(" de:Vaduz") == "de:Vaduz")
        #expect(article(" EN : Vaduz") == nil)        // 4 characters before the colon
        #expect(article("bar:Minga") == "bar:Minga")
        #expect(article("Vaduz") == nil)               // no language
        #expect(article("wiki:de:Vaduz") == nil)       // a first colon after 4 characters
        #expect(article("de:") == nil)
        #expect(WikimediaReference(wikidata: "Q1844", wikipedia: nil).wikidata == 1844)
        for value in ["Q1844;Q49657", "q1844", "Q", "1844", "Q18446744073709551616"] {
            #expect(WikimediaReference(wikidata: value, wikipedia: nil).wikidata == nil, "\(value)")
        }
    }

    @Test func theFileLiftsButNeverLowers() {
        #expect(Importance.withWikipedia(0.3, 0.62) == 0.62)
        #expect(Importance.withWikipedia(0.9, 0.62) == 0.9)
        #expect(Importance.withWikipedia(0.45, nil) == 0.45)
        #expect(Importance.withWikipedia(0.45, 1.5) == 1)
        #expect(Importance.withWikipedia(0.45, .nan) == 0.45)
    }
}
