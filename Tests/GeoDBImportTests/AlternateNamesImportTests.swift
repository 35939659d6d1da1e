// GeoNames alternate names files: SampleData/alternateNamesV2-sample.txt (written by hand in GeoNames' format
// for Munich, Köln, Mumbai and Milan) imported with SampleData/cities15000.txt, end to end; and the rules of
// `AlternateNameSelection` on names whose answer is known.
import Foundation
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct AlternateNamesImportTests {
    static let sample = TestPaths.sampleData("alternateNamesV2-sample.txt")

    /// cities15000.txt with the sample and countries.tsv, imported once.
    static let imported = Result { () throws -> (scratch: ScratchDirectory, path: String, summary: ImportSummary) in
        let scratch = try ScratchDirectory()
        let path = scratch.path("names.sqlite")
        let summary = try Importer.run(inputs: [TestPaths.sampleData("cities15000.txt"), sample, TestPaths.sampleData("countries.tsv")],
                                       output: path)
        return (scratch, path, summary)
    }

    /// Place `geonameID`'s names of types other than the dump's own (`name` without a language, `ascii_name`).
    static func names(of geonameID: String) throws -> [[SQLiteValue]] {
        try query(try imported.get().path, """
            SELECT n.name, n.type, n.lang FROM place_name n JOIN place p ON p.id = n.place_id
            WHERE p.source_ref = '\(geonameID)' AND NOT (n.type = 'name' AND n.lang IS NULL) AND n.type != 'ascii_name' AND
                  (n.lang IS NOT NULL OR n.type != 'alt_name' OR n.name IN ('München', 'Muenchen', 'MUC', 'Bombay', 'Cologne'))
            ORDER BY n.rowid
            """)
    }

    @Test func summaryCountsRowsAndNames() throws {
        let summary = try #require(try Self.imported.get().summary.alternateNames)
        let file = try #require(summary.files.first)
        #expect(summary.files.count == 1 && file.name == "alternateNamesV2-sample.txt")
        #expect(file.records.rows == 27)
        #expect(file.otherPlaces == 1)   // Germany, 2921044: a country, not in cities15000
        #expect(file.notNames == 3)      // Munich's post, link and iata rows
        #expect(file.records.skipped == [.badFields: 1])
        #expect(file.records.warnings == ["\(Self.sample): line 18: 3 tab-separated fields, alternate names rows have 8 or 10; row skipped"])
        let n = summary.names
        #expect((n.places, n.languageNames, n.alternates, n.duplicates, n.wikidataIDs) == (4, 10, 5, 5, 2))
        #expect(try Self.imported.get().summary.sources.map(\.places) == [34_006])   // not a source of places
    }

    @Test func languageNamesAlternatesAndWikidataOfMunich() throws {
        #expect(try Self.names(of: "2867714") == [
            [.text("München"), .text("name"), .text("de")],             // preferred
            [.text("Monaco di Baviera"), .text("name"), .text("it")],
            [.text("Minga"), .text("name"), .text("bar")],
            [.text("Muenchen"), .text("alt_name"), .text("de")],        // German, but not the preferred one
            [.text("Millionendorf"), .text("alt_name"), .text("de")],   // colloquial
            [.text("MUC"), .text("alt_name"), .null],                  // the dump's; the file's iata row adds nothing
        ])
        // fr and en "Munich" are its name; 'post' and 'link' values are no names; the dump's unlabelled
        // "München" became the German name, not a second row.
        let path = try Self.imported.get().path
        #expect(try query(path, "SELECT count(*) FROM place_name WHERE name IN ('80331', 'https://en.wikipedia.org/wiki/Munich')") == [[.integer(0)]])
        #expect(try query(path, "SELECT count(*) FROM place_name n JOIN place p ON p.id = n.place_id WHERE p.source_ref = '2867714' AND n.name IN ('München', 'Munich')")
                == [[.integer(2)]])
        #expect(try query(path, "SELECT json_extract(tags, '$.wikidata') FROM place WHERE source_ref IN ('2867714', '2886242') ORDER BY id")
                == [[.text("Q1726")], [.text("Q365")]])
    }

    @Test func historicNamesAndNamesSharedByLanguages() throws {
        #expect(try Self.names(of: "2886242") == [
            [.text("Cologne"), .text("name"), .text("en")], [.text("Cologne"), .text("name"), .text("fr")],
            [.text("Kölle"), .text("name"), .text("ksh")], [.text("Colonia Agrippina"), .text("old_name"), .text("la")],
        ])
        #expect(try Self.names(of: "1275339") == [
            [.text("मुंबई"), .text("name"), .text("mr")], [.text("मुंबई"), .text("name"), .text("hi")],
            [.text("Bombay"), .text("old_name"), .text("en")],
        ])
        #expect(try Self.names(of: "3173435") == [
            [.text("Milano"), .text("name"), .text("it")], [.text("Mailand"), .text("name"), .text("de")],
            [.text("MI"), .text("short_name"), .null],   // abbr
        ])
    }

    @Test func searchFindsAndShowsTheLanguageNames() throws {
        let db = try GeoDatabase(path: try Self.imported.get().path)
        #expect(try db.search("Monaco di Baviera").first?.sourceRef?.description == "geonames:2867714")
        var german = SearchOptions()
        german.language = "de"
        let munich = try #require(try db.search("Munich", options: german).first)
        #expect(munich.sourceRef?.description == "geonames:2867714" && munich.name == "München")
        #expect(try db.search("Mailand", options: german).first?.name == "Mailand")
        var hindi = SearchOptions()
        hindi.language = "hi"
        #expect(try db.search("Mumbai", options: hindi).first?.name == "मुंबई")
        #expect(try IntegrityCheck.run(path: try Self.imported.get().path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test func detectedByContentInBothLayouts() throws {
        #expect(try InputFormat.detect(path: Self.sample) == .alternateNames)
        let scratch = try ScratchDirectory()
        let old = scratch.path("alternateNames.txt")   // the 8 columns of the older file
        try "1557463\t2867714\tde\tMünchen\t1\t\t\t\n".write(toFile: old, atomically: true, encoding: .utf8)
        #expect(try InputFormat.detect(path: old) == .alternateNames)
    }

    @Test func aFileWithoutItsDumpIsRefused() throws {
        let scratch = try ScratchDirectory()
        #expect {
            try Importer.run(inputs: [Self.sample], output: scratch.path("x.sqlite"))
        } throws: { ($0 as? GeoDBError)?.message == "\(Self.sample) is a GeoNames alternate names file, not a source of places" }
        #expect(scratch.contents().isEmpty)
    }

    @Test func strictStopsAtTheBadRow() throws {
        let scratch = try ScratchDirectory()
        var options = ImportOptions()
        options.strict = true
        #expect {
            try Importer.run(inputs: [TestPaths.sampleData("cities15000.txt"), Self.sample], output: scratch.path("x.sqlite"), options: options)
        } throws: { ($0 as? GeoDBError)?.message == "\(Self.sample): line 18: 3 tab-separated fields, alternate names rows have 8 or 10" }
        #expect(scratch.contents().isEmpty)
    }

    // MARK: the rules, on names made up for them

    static func row(_ code: String, _ name: String, _ flags: AlternateName.Flags = []) -> AlternateName {
        AlternateName(code: code, name: name, flags: flags)
    }

    static func select(_ rows: [AlternateName], for place: PlaceRecord) -> (names: [PlaceName], counts: AlternateNameCounts) {
        var place = place, counts = AlternateNameCounts()
        AlternateNameSelection.apply(rows, to: &place, counts: &counts)
        return (place.names, counts)
    }

    static let state = PlaceRecord(sourceRef: "5332921", kind: .state, category: nil, name: "California",
                                   names: [PlaceName(name: "California", type: "name"), PlaceName(name: "Calif.", type: "alt_name"),
                                           PlaceName(name: "State of California", type: "alt_name")],
                                   coordinate: Coordinate(lat: 37.25, lon: -119.75))

    @Test func theLanguagesNameIsPreferredThenFullThenFirst() {
        let rows = [
            Self.row("en", "State of California", .short),   // short, not preferred: the last choice
            Self.row("en", "Golden State"),                   // full, not preferred
            Self.row("en", "Californie", [.preferred, .short]),   // preferred: wins though short
            Self.row("fr", "Californie", .short),
            Self.row("fr", "État de Californie"),             // full beats short
            Self.row("es", "Estado de California", .short),
            Self.row("es", "Alta California", [.preferred, .historic]),   // historic: never the language's name
            Self.row("de", "Kalifornien"), Self.row("de", "Kalifornia"),  // the first of equals
        ]
        let (names, _) = Self.select(rows, for: Self.state)
        #expect(names.filter { $0.type == "name" && $0.lang != nil } == [
            PlaceName(name: "Californie", type: "name", lang: "en"), PlaceName(name: "État de Californie", type: "name", lang: "fr"),
            PlaceName(name: "Estado de California", type: "name", lang: "es"), PlaceName(name: "Kalifornien", type: "name", lang: "de"),
        ])
        #expect(names.contains(PlaceName(name: "State of California", type: "short_name", lang: "en")))   // relabelled, not twice
        #expect(!names.contains(PlaceName(name: "State of California", type: "alt_name")))
        #expect(names.contains(PlaceName(name: "Golden State", type: "alt_name", lang: "en")))
        #expect(names.contains(PlaceName(name: "Alta California", type: "old_name", lang: "es")))
        #expect(names.contains(PlaceName(name: "Calif.", type: "alt_name")))   // the dump's, which no row labels
    }

    @Test func codesLinksAndTheMainNameAddNothing() {
        let rows = [
            Self.row("en", "California", .preferred), Self.row("es", "CALIFORNIA"),   // the main name, folded
            Self.row("post", "90001"), Self.row("link", "https://en.wikipedia.org/wiki/California"),
            Self.row("wkdt", "Q99"), Self.row("wkdt", "Q100"), Self.row("abbr", "CA"), Self.row("", "Cal"),
            Self.row("piny", "Jiazhou"),   // a pseudo-code: a name without a language
        ]
        let (names, counts) = Self.select(rows, for: Self.state)
        #expect(names.map(\.name) == ["California", "CA", "Cal", "Jiazhou", "Calif.", "State of California"])
        #expect(names.filter(\.isAlternate).map(\.type) == ["short_name", "alt_name", "alt_name", "alt_name", "alt_name"])
        #expect((counts.places, counts.languageNames, counts.alternates, counts.duplicates, counts.wikidataIDs) == (1, 0, 3, 2, 1))
        var place = Self.state, unused = AlternateNameCounts()
        AlternateNameSelection.apply(rows, to: &place, counts: &unused)
        #expect(place.tags.map(\.value) == ["Q99"])
    }

    @Test func languageCodes() {
        #expect(["de", "haw", "zh-CN", "zh-Hant", "fr_1793"].allSatisfy { AlternateName.kind(ofCode: $0) == .language($0) })
        #expect(["", "piny", "phon", "d", "de-", "DE"].allSatisfy { AlternateName.kind(ofCode: $0) == .unlabelled })
        #expect(["post", "link", "iata", "icao", "faac", "tcid", "unlc"].allSatisfy { AlternateName.kind(ofCode: $0) == .notAName })
        #expect(AlternateName.kind(ofCode: "abbr") == .abbreviation && AlternateName.kind(ofCode: "wkdt") == .wikidata)
    }
}
