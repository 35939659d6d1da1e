// `geodb import` with GeoNames and CSV files, several sources and --append, as a user runs it.
import Foundation
import Testing
import TestSupport

@Suite struct GazetteerCLITests {
    @Test func osmGeoNamesAndCSVInOneDatabase() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("combined.sqlite")
        let geonames = TestPaths.fixture("geonames/sample.txt")
        let imported = try runGeodb(["import", TestPaths.sampleData("helsinki.osm.pbf"), geonames,
                                     TestPaths.fixture("geonames/countries.txt"), "--output", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  names from countries.txt"))
        #expect(imported.stdout.contains("  sample.txt (geonames, 2 KB): 13 rows → 12 places, 1 merged into places of other files, 0 skipped"))

        let stores = try runGeodb(["import", TestPaths.fixture("csv/stores.csv"), "--append", db, "--name-column", "title",
                                   "--lat-column", "y", "--lon-column", "x", "--category-column", "type", "--id-column", "store_id"])
        #expect(stores.status == 0, "\(stores.stderr)")
        #expect(stores.stdout.hasPrefix("Added 1 file to \(db)"))
        #expect(stores.stdout.contains("3 rows → 3 places, 0 skipped"))

        let places = try runGeodb(["import", TestPaths.fixture("csv/places.csv"), "--append", db])
        #expect(places.status == 0, "\(places.stderr)")
        #expect(places.stdout.contains("places.csv (csv, 722 B): 10 rows → 4 places, 1 merged into places of other files, 5 skipped"))
        #expect(places.stdout.contains("    skipped: 3 with invalid coordinates, 1 with a wrong number of fields, 1 without a name"))
        let warnings = places.stderr.split(separator: "\n")
        #expect(warnings.count == 5)
        #expect(warnings.first == "warning: \(TestPaths.fixture("csv/places.csv")): line 6: no name (column 'name' is empty); row skipped")

        let inspect = try runGeodb(["inspect", db])
        #expect(inspect.stdout.contains("#2 sample.txt  geonames  2 KB"))
        #expect(inspect.stdout.contains("12 places (+1 merged into places of other sources)"))
        #expect(inspect.stdout.contains("#4 places.csv  csv"))
        #expect(try runGeodb(["inspect", db, "--get", "source_count"]).stdout == "4\n")
        #expect(try runGeodb(["inspect", db, "--get", "source.4.linked_count"]).stdout == "1\n")
        #expect(try runGeodb(["inspect", db, "--get", "link_count"]).stdout == "741\n")   // Kluuvi's boundary, 738 ways of streets and rivers after their first, GeoNames' and the CSV's Helsinki
        #expect(try runGeodb(["inspect", db, "--get", "place_count"]).stdout == "\(2529 + 12 + 3 + 4)\n")
        let check = try runGeodb(["inspect", db, "--check"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(scratch.contents() == ["combined.sqlite"])
    }

    @Test func jsonSummaryHasRowsAndReasons() throws {
        let scratch = try ScratchDirectory()
        let result = try runGeodb(["import", TestPaths.fixture("csv/places-semicolon-crlf-bom.csv"), "-o", scratch.path("p.sqlite"),
                                   "--json", "--quiet"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let source = try #require((object["sources"] as? [[String: Any]])?.first)
        #expect(source["format"] as? String == "csv")
        #expect(source["rows"] as? Int == 10)
        #expect(source["places"] as? Int == 5)
        #expect(source["skipped"] as? [String: Int] == ["no_name": 1, "bad_coordinates": 3, "bad_field_count": 1])
        #expect((source["warnings"] as? [String])?.count == 5)
    }

    @Test func strictStopsAtTheFirstBadRow() throws {
        let scratch = try ScratchDirectory()
        let result = try runGeodb(["import", TestPaths.fixture("csv/places.tsv"), "-o", scratch.path("p.sqlite"), "--strict"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: \(TestPaths.fixture("csv/places.tsv")): line 6: no name (column 'name' is empty)\n")
        #expect(scratch.contents().isEmpty)
    }

    @Test func alternateNamesGiveTheAskedLanguage() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("names.sqlite")
        let sample = TestPaths.sampleData("alternateNamesV2-sample.txt")
        let imported = try runGeodb(["import", TestPaths.sampleData("cities15000.txt"), sample, "-o", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("""
              alternateNamesV2-sample.txt (geonames.alternatenames, 955 B): 27 rows, 1 for places not imported, 3 not names (postal codes, airport and other codes, links), 1 skipped
                skipped: 1 with a wrong number of fields
                alternate names of 4 places: 10 names in a language, 5 alternates, 2 Wikidata ids; 5 not added (names the places have)
            """))
        #expect(imported.stderr == "warning: \(sample): line 18: 3 tab-separated fields, alternate names rows have 8 or 10; row skipped\n")
        let german = try runGeodb(["search", db, "Munich", "--lang", "de", "--limit", "1"])
        #expect(german.status == 0 && german.stdout.contains("1  München  city"), "\(german.stdout)")
        let italian = try runGeodb(["search", db, "Monaco di Baviera", "--limit", "1", "--json"])
        #expect(italian.stdout.contains("\"geonames:2867714\""), "\(italian.stdout)")
        #expect(scratch.contents() == ["names.sqlite"])
    }

    @Test func jsonSummaryHasAlternateNames() throws {
        let scratch = try ScratchDirectory()
        let result = try runGeodb(["import", TestPaths.fixture("geonames/sample.txt"), TestPaths.sampleData("alternateNamesV2-sample.txt"),
                                   "-o", scratch.path("n.sqlite"), "--json", "--quiet"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let names = try #require(object["alternate_names"] as? [String: Any])
        // None of the sample's places is in this dump.
        #expect(names["places"] as? Int == 0 && names["language_names"] as? Int == 0 && names["wikidata"] as? Int == 0)
        let file = try #require((names["files"] as? [[String: Any]])?.first)
        #expect(file["rows"] as? Int == 27 && file["other_places"] as? Int == 26 && file["not_names"] as? Int == 0)
        #expect(file["skipped"] as? [String: Int] == ["bad_field_count": 1] && (file["warnings"] as? [String])?.count == 1)
    }

    @Test func alternateNamesAloneOrAnUnknownFileIsAOneLineError() throws {
        let scratch = try ScratchDirectory()
        let sample = TestPaths.sampleData("alternateNamesV2-sample.txt")
        let alone = try runGeodb(["import", sample, "-o", scratch.path("a.sqlite")])
        #expect(alone.status == 1)
        #expect(alone.stderr == "Error: \(sample) is a GeoNames alternate names file, not a source of places "
                + "(give it beside the GeoNames dump whose places it names (cities500.txt, allCountries.txt, …))\n")
        let notNames = scratch.path("alternateNamesV2.txt")
        try "Munich is Muenchen in German\n".write(toFile: notNames, atomically: true, encoding: .utf8)
        let unknown = try runGeodb(["import", TestPaths.sampleData("cities15000.txt"), notNames, "-o", scratch.path("a.sqlite")])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("Error: \(notNames): unknown format (expected OSM PBF, OSM XML, a GeoNames dump or alternate names file,"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        #expect(scratch.contents() == ["alternateNamesV2.txt"])
    }

    @Test func importanceFileInTheSummaryAndLookup() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("li.sqlite")
        let file = TestPaths.fixture("importance/wikimedia-importance-sample.csv.gz")
        let result = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "-o", db, "--importance", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 3 && warnings.first == "warning: \(file): line 6: importance 'broken' is not a number from 0 to 1; row skipped")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let importance = try #require(object["importance"] as? [String: Any])
        #expect(importance["name"] as? String == "wikimedia-importance-sample.csv.gz" && importance["rows"] as? Int == 12)
        #expect(importance["tagged"] as? Int == 164 && importance["wikidata"] as? Int == 2 && importance["title"] as? Int == 2
                && importance["raised"] as? Int == 3)
        #expect(importance["skipped"] as? [String: Int] == ["bad_importance": 1, "bad_field_count": 1, "bad_id": 1])
        #expect((object["phases"] as? [String: Double])?["importance"] != nil)
        // The viewpoint Wildschloss, raised through its wikipedia tag's article.
        let lookup = try runGeodb(["lookup", db, "n498566336", "--json"])
        let details = try #require(try JSONSerialization.jsonObject(with: Data(lookup.stdout.utf8)) as? [String: Any])
        #expect(details["importance"] as? Double == 0.46)
        #expect(try runGeodb(["lookup", db, "n498566336"]).stdout.contains("  at 47.1508458, 9.5335495, importance 0.460\n"))
    }

    @Test func anImportanceFileOfAnotherKindIsAOneLineError() throws {
        let scratch = try ScratchDirectory()
        let empty = scratch.path("empty.csv")
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        for file in [TestPaths.sampleData("cities15000.txt"), TestPaths.sampleData("liechtenstein.osm.pbf"), empty, scratch.path("missing.csv.gz")] {
            let result = try runGeodb(["import", TestPaths.sampleData("monaco.osm.pbf"), "-o", scratch.path("m.sqlite"), "--importance", file])
            #expect(result.status == 1, "\(file)")
            #expect(result.stderr.hasPrefix("Error: \(file): ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(scratch.contents() == ["empty.csv"])
    }

    @Test func outputOrAppendNotBoth() throws {
        let scratch = try ScratchDirectory()
        let both = try runGeodb(["import", TestPaths.fixture("csv/stores.csv"), "-o", scratch.path("a.sqlite"), "--append", scratch.path("b.sqlite")])
        #expect(both.status == 64)
        #expect(both.stderr.contains("give either --output (a new database) or --append (an existing one)"))
        let neither = try runGeodb(["import", TestPaths.fixture("csv/stores.csv")])
        #expect(neither.status == 64)
        let delimiter = try runGeodb(["import", TestPaths.fixture("csv/stores.csv"), "-o", scratch.path("a.sqlite"), "--delimiter", "::"])
        #expect(delimiter.status == 64 && delimiter.stderr.contains("--delimiter must be one character"))
        #expect(scratch.contents().isEmpty)
    }
}
