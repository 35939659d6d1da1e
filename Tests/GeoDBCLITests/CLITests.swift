// The geodb binary as a user runs it: import, inspect (text, JSON, --get, --check), errors, exit codes.
import Foundation
import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct CLITests {
    @Test func importThenInspect() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("helsinki.sqlite")
        let imported = try runGeodb(["import", TestPaths.sampleData("helsinki.osm.pbf"), "--output", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2,529 places"))
        #expect(imported.stderr.isEmpty)   // no progress when standard error is not a terminal

        let text = try runGeodb(["inspect", db])
        #expect(text.status == 0)
        #expect(text.stdout.contains("helsinki.osm.pbf  osm.pbf"))
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("  street ") && $0.hasSuffix(" 99") })

        let json = try runGeodb(["inspect", db, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        // /v1/status's object for a file (`ResultJSON.database`), the file named by the path given.
        #expect(object["file"] as? String == db && object["places"] as? Int == 2529)
        #expect(object["schema_version"] as? Int == Int(Schema.version))
        #expect((object["sources"] as? [[String: Any]])?.first?["name"] as? String == "helsinki.osm.pbf")
        #expect((object["kinds"] as? [[String: Any]])?.contains { $0["kind"] as? String == "street" && $0["places"] as? Int == 99 } == true)

        #expect(try runGeodb(["inspect", db, "--get", "place_count"]).stdout == "2529\n")
        #expect(try runGeodb(["inspect", db, "--get", "kind.street"]).stdout == "99\n")
        let unknown = try runGeodb(["inspect", db, "--get", "nonsense"])
        #expect(unknown.status != 0 && unknown.stderr.contains("unknown key 'nonsense'"))

        let check = try runGeodb(["inspect", db, "--check"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("FAIL"))
    }

    /// The summary counts the addresses completed at import (issue 34), as many as `place.derived` marks: in
    /// the text and in `--json`.
    @Test func importSummaryCountsTheDerivedAddresses() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("liechtenstein.sqlite")
        let imported = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "-o", db, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        let derived = try #require(object["derived"] as? [String: Int])
        let connection = try Connection(path: db, mode: .readOnly())
        func count(_ part: String) throws -> Int {
            Int(try connection.scalarInt("SELECT count(*) FROM place WHERE ',' || derived || ',' LIKE '%,\(part),%'") ?? -1)
        }
        let streets = try count("street"), postcodes = try count("postcode")
        #expect(streets > 0 && postcodes > 0 && derived == ["streets": streets, "postcodes": postcodes])
        // The file's addresses, how many have a street and a postcode and how many of those are derived.
        let addresses = try #require(object["addresses"] as? [String: Int])
        func addressCount(_ condition: String) throws -> Int {
            Int(try connection.scalarInt("SELECT count(*) FROM place WHERE kind = 'address' AND \(condition)") ?? -1)
        }
        #expect(addresses == ["count": try addressCount("1"), "with_street": try addressCount("street IS NOT NULL"),
                              "street_derived": try addressCount("derived LIKE '%street%'"),
                              "with_postcode": try addressCount("postcode IS NOT NULL"),
                              "postcode_derived": try addressCount("derived LIKE '%postcode%'"), "interpolation_lines": 0])
        #expect(addresses["count"] == 12_042 && addresses["street_derived"] == 6, "\(addresses)")
        #expect((object["phases"] as? [String: Double])?["addresses"] != nil)
        let text = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "-o", db, "--force"])
        // Without the thousands' commas (1,130), and so without the one between the two counts.
        #expect(text.stdout.replacingOccurrences(of: ",", with: "")
                    .contains("addresses completed: \(streets) given the nearest named street \(postcodes) the postcode of the addresses around"),
                "\(text.stdout)")
    }

    /// `--memory` takes a size with its unit, else one line and the status of a usage error, before any input
    /// is read; the summary says the budget and what went past it (MemoryBudgetTests: that nothing changes).
    @Test func memoryIsASizeAndTheSummarySaysWhatWentToDisk() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("out.sqlite")
        for bad in ["2X", "100", "0M", "G", "1.5"] {
            let refused = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "-o", db, "--memory", bad])
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(bad)")
            #expect(refused.stderr == "Error: --memory '\(bad)' is not a size: give a number with a unit, as 512M or 2G\n", "\(refused.stderr)")
        }
        #expect(scratch.contents().isEmpty)
        let spilled = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "-o", db, "--memory", "64K"])
        #expect(spilled.status == 0, "\(spilled.stderr)")
        #expect(spilled.stdout.contains("    memory: node locations ") && spilled.stdout.contains(", past the budget (64 KiB) ")
                && spilled.stdout.contains(" more in a scratch file"), "\(spilled.stdout)")
        let inMemory = try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", db, "--force", "--memory", "1.5gib", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inMemory.stdout.utf8)) as? [String: Any])
        #expect(object["memory_budget"] as? Int == 3 << 29)
        #expect((object["sources"] as? [[String: Any]])?.first?["spilled_bytes"] as? Int == 0)
        #expect(scratch.contents() == ["out.sqlite"])
    }

    /// `inspect --check` of the grid fixture's database after `edit` (SQL run on it).
    static func checkAfter(_ edit: String) throws -> ProcessResult {
        let scratch = try ScratchDirectory()
        let db = scratch.path("edited.sqlite")
        #expect(try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", db]).status == 0)
        try Connection(path: db, mode: .readWrite).execute(edit)
        return try runGeodb(["inspect", db, "--check"])
    }

    /// Damage a buggy writer or a hand edit could do, the check that names it, and what it says.
    static let damages: [(edit: String, check: String, detail: String)] = [
        // One place's index entries lost.
        ("DELETE FROM place_rtree WHERE id = 1", "place = place_rtree; every named place has a place_fts row", "place 12, place_rtree 11"),
        // A place added without its search rows: search would never find it.
        ("""
         INSERT INTO place(id, source_id, source_ref, kind, name, lat, lon, rank, importance) VALUES (99, 1, 'n99', 'poi', 'Uusi kahvila', 60.17, 24.94, 30, 0.2);
         INSERT INTO place_rtree(id, min_lon, max_lon, min_lat, max_lat) VALUES (99, 24.94, 24.94, 60.17, 60.17)
         """, "place = place_rtree; every named place has a place_fts row", "1 named places without a place_fts row"),
        // An alternate name added without its search row: search would never find the place by it.
        ("INSERT INTO place_name(place_id, name, type) VALUES (1, 'Vanha nimi', 'old_name')",
         "place_fts alternate names' rows = places with alternate names", "1 rows of alternate names for 2 places with alternate names"),
        // Importance edited without moving the search rows (rowid = rank step and id): they would rank wrongly.
        ("UPDATE place SET importance = importance / 2 WHERE id IN (1, 2)", "place_fts rowids follow place rank",
         "2 rows are not at their place's rowid"),
        // The sets naming a town are found through area_set_member: a row lost hides its places from "…, Town".
        ("DELETE FROM area_set_member", "area_set_member = the places of the area_set level columns", "1 level places have no member row"),
        // Search leaves out the stream of matches through an address when the vocabulary says no address holds the word.
        ("UPDATE search_word SET address_places = address_places + 1 WHERE id = (SELECT min(id) FROM search_word)",
         "search_word = the words of place_fts's names", "1 words counted otherwise than place_fts holds them"),
        // Category search reads a place's importance from place_category: a copy that differs.
        ("UPDATE place_category SET importance = importance / 2 WHERE place_id = (SELECT min(place_id) FROM place_category)",
         "place_category repeats its place's position and importance", "1 rows differ from their place"),
    ]

    @Test(arguments: damages.indices)
    func checkNamesTheDamage(index: Int) throws {
        let damage = Self.damages[index]
        let check = try Self.checkAfter(damage.edit)
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL  " + damage.check))
        #expect(check.stdout.contains(damage.detail))
    }

    /// The typo vocabulary's trigram index is checked too: losing one of its pages fails the check.
    @Test func checkFailsOnADamagedVocabularyIndex() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("damaged.sqlite")
        #expect(try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", db]).status == 0)
        #expect(try runGeodb(["inspect", db, "--check"]).status == 0)
        let writer = try Connection(path: db, mode: .readWrite)
        try writer.withDefensiveModeOff {   // a shadow table
            try writer.execute("DELETE FROM search_token_data WHERE id = (SELECT max(id) FROM search_token_data)")
        }
        let check = try runGeodb(["inspect", db, "--check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL  fts5 integrity-check(search_token)"))
        #expect(check.stdout.contains("ok    fts5 integrity-check(place_fts)"))
    }

    @Test func checkFailsOnACorruptFile() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("corrupt.sqlite")
        #expect(try runGeodb(["import", TestPaths.sampleData("helsinki.osm.pbf"), "-o", db]).status == 0)
        // Overwrite the root page of `place` (an interior page: its header and cell pointers) with garbage.
        // (A fixed offset hit a page whose bytes no check reads once the layout changed.)
        let root = try #require(try Connection(path: db, mode: .readOnly()).scalarInt("SELECT rootpage FROM sqlite_schema WHERE name = 'place'"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
        try handle.seek(toOffset: UInt64(root - 1) * 4096)
        handle.write(Data(repeating: 0xA5, count: 3000))
        try handle.close()
        let check = try runGeodb(["inspect", db, "--check"])
        #expect(check.status != 0)
        #expect(check.stdout.contains("FAIL") || check.stderr.contains("Error"))
    }

    @Test func badInputIsOneLineOnStandardErrorWithNonZeroExit() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.path("cut.osm.pbf")
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleData("helsinki.osm.pbf")))
        try data.prefix(100_000).write(to: URL(fileURLWithPath: input))
        let result = try runGeodb(["import", input, "-o", scratch.path("out.sqlite")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Error: \(input): byte offset ") == true)
        #expect(scratch.contents() == ["cut.osm.pbf"])
    }

    @Test func existingOutputNeedsForce() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("x.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: db))
        let refused = try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", db])
        #expect(refused.status != 0 && refused.stderr.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == Data("keep me".utf8))
        #expect(try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", db, "--force"]).status == 0)
        #expect(try runGeodb(["inspect", db, "--get", "place_count"]).stdout == "12\n")
    }

    @Test func binaryWorksWhenCopiedAloneElsewhere() throws {
        let scratch = try ScratchDirectory()
        let copy = scratch.path("geodb")
        try FileManager.default.copyItem(atPath: TestPaths.geodbBinary, toPath: copy)
        let db = scratch.path("grid.sqlite")
        // A test running beside this one may fork while the copy is still open for writing in this process:
        // the child holds it until its exec, and running the copy meanwhile fails with ETXTBSY ("Text file
        // busy"; seen once in CI). Such a run is tried again, a few times.
        func run(_ arguments: [String], attempt: Int = 1) throws -> ProcessResult {
            do {
                return try runGeodb(arguments, binary: copy)
            } catch let error as NSError where attempt < 20 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                Thread.sleep(forTimeInterval: 0.05)
                return try run(arguments, attempt: attempt + 1)
            }
        }
        let result = try run(["import", TestPaths.fixture("grid.osm"), "-o", db])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try run(["inspect", db, "--check"]).status == 0)
    }

    @Test func interruptedImportLeavesNothingBehind() throws {
        let scratch = try ScratchDirectory()
        // A large valid XML file so the import is still running when interrupted.
        let input = scratch.path("big.osm")
        var xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
        for i in 1...300_000 {
            xml += "<node id='\(i)' lat='60.\(i % 10_000)' lon='24.\(i % 9_973)'><tag k='amenity' v='cafe'/><tag k='name' v='Cafe \(i)'/></node>\n"
        }
        xml += "</osm>\n"
        try xml.write(toFile: input, atomically: false, encoding: .utf8)
        let output = scratch.path("out.sqlite")
        try Data("previous database".utf8).write(to: URL(fileURLWithPath: output))

        // Once the temporary file is there, interrupt as Ctrl-C would.
        let process = try Self.runningImport(["import", input, "-o", output, "--force", "--quiet"], in: scratch) { $0.contains(".tmp-") }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(scratch.contents() == ["big.osm", "out.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("previous database".utf8))
    }

    /// geodb started with `arguments`, once a file in `scratch` is `ready` (the import is under way).
    static func runningImport(_ arguments: [String], in scratch: ScratchDirectory, until ready: (String) -> Bool,
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.geodbBinary)
        process.arguments = arguments
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !scratch.contents().contains(where: ready) && Date() < deadline && process.isRunning { usleep(2_000) }
        #expect(process.isRunning, "import finished before it could be stopped", sourceLocation: sourceLocation)
        return process
    }

    /// An import killed outright (SIGKILL: no handler runs) leaves its temporary files; the next import of
    /// the same output removes them and says so.
    @Test func nextImportRemovesWhatAKilledImportLeft() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("out.sqlite")
        let process = try Self.runningImport(["import", TestPaths.sampleData("cities15000.txt"), "-o", output, "--quiet"], in: scratch) {
            $0.hasSuffix("-fulltext")
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = scratch.contents()
        #expect(left.contains(".out.sqlite.tmp-\(process.processIdentifier)"))

        let next = try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", output])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("removed \(left.count) files left by an earlier import that did not finish: \(left.joined(separator: ", "))"),
                "\(next.stdout)")
        #expect(scratch.contents() == ["out.sqlite"])
    }

    /// An export's leftovers too (made here under the id of a process that has exited), but not those of a
    /// process still running.
    @Test func exportRemovesWhatADeadExportLeft() throws {
        let scratch = try ScratchDirectory()
        let finished = try runProgram("/bin/sh", ["-c", "echo $$"])
        let dead = finished.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for name in [".out.csv.tmp-\(dead)", ".out.csv.tmp-\(dead)-journal", ".out.csv.tmp-1"] {   // 1: init, running
            try Data().write(to: URL(fileURLWithPath: scratch.path(name)))
        }
        let export = try runGeodb(["export", try TestDatabases.helsinki(), "--format", "csv", "-o", scratch.path("out.csv")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("removed 2 files left by an earlier export that did not finish: .out.csv.tmp-\(dead), .out.csv.tmp-\(dead)-journal"))
        #expect(scratch.contents() == [".out.csv.tmp-1", "out.csv"])
    }

    /// Names with terminal escape sequences (retitle the window, clear the screen) and a line feed: shown
    /// escaped in tables and details, as they are in JSON.
    @Test func controlCharactersInNamesAreEscapedInTextOutput() throws {
        let scratch = try ScratchDirectory()
        let csv = scratch.path("evil.csv")
        try "name,lat,lon,category\n\"Evil\u{1B}]0;pwned\u{07}Cafe\",60.1,24.9,cafe\n\"Clear\u{1B}[2JBar\",60.1001,24.9001,bar\n\"Two\nLines\",60.1002,24.9002,pub\n"
            .write(toFile: csv, atomically: false, encoding: .utf8)
        let db = scratch.path("evil.sqlite")
        #expect(try runGeodb(["import", csv, "-o", db]).status == 0)
        let nearby = try runGeodb(["nearby", db, "60.1", "24.9", "--radius", "100"])
        #expect(nearby.status == 0)
        #expect(!nearby.stdout.contains("\u{1B}") && !nearby.stdout.contains("\u{07}"))
        #expect(nearby.stdout.contains(#"Evil\u{1B}]0;pwned\u{7}Cafe"#))
        #expect(nearby.stdout.contains(#"Clear\u{1B}[2JBar"#))
        #expect(nearby.stdout.contains(#"Two\u{A}Lines"#))
        #expect(nearby.stdout.split(separator: "\n").count == 4)   // a header and three rows
        let lookup = try runGeodb(["lookup", db, "1"])
        #expect(lookup.stdout.hasPrefix(#"Evil\u{1B}]0;pwned\u{7}Cafe  (poi, cafe)"#))
        #expect(!lookup.stdout.contains("\u{1B}"))
        let json = try runGeodb(["search", db, "Evil", "--json"])
        #expect(json.stdout.contains(#""name": "Evil\u001b]0;pwned\u0007Cafe""#))
    }

    /// A search text that starts with '-' goes after `--`; without it the error says so.
    @Test func searchTextStartingWithADash() throws {
        let db = try TestDatabases.helsinki()
        let after = try runGeodb(["search", db, "--", "-Kamppi"])
        #expect(after.status == 0, "\(after.stderr)")
        let without = try runGeodb(["search", db, "-Kamppi"])
        #expect(without.status != 0 && without.stderr.contains("geodb search DB -- -text"))
    }

    /// `GEODB_TRACE_STATEMENTS=1`: each statement's time and purpose on standard error (Tools/README.md, "Where a
    /// query's time goes"); without it, nothing there.
    @Test func statementsAreTracedOnRequest() throws {
        let db = try TestDatabases.helsinki()
        let traced = try runProgram("/bin/sh", ["-c", #"GEODB_TRACE_STATEMENTS=1 exec "$0" search "$1" Kamppi"#, TestPaths.geodbBinary, db])
        #expect(traced.status == 0, "\(traced.stderr)")
        let lines = traced.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.wholeMatch(of: /\d+ [a-z][a-z ,]+( \[.+\])?/) != nil }, "\(traced.stderr)")
        // With the texts bound: the FTS5 expression of the word.
        #expect(lines.contains { $0.hasSuffix(" rows that match [\"kamppi\"]") }, "\(traced.stderr)")
        #expect(lines.contains { $0.contains(" search candidates") }, "\(traced.stderr)")
        #expect(try runGeodb(["search", db, "Kamppi"]).stderr.isEmpty)
    }
}

@Suite struct NearbyCLITests {
    @Test func nearbyAndCategories() throws {
        let db = try TestDatabases.helsinki()
        let cafes = try runGeodb(["nearby", db, "60.1699", "24.9384", "--category", "cafe", "--limit", "2"])
        #expect(cafes.status == 0, "\(cafes.stderr)")
        #expect(cafes.stdout.contains("Robert's Coffee") && cafes.stdout.contains("more: --after "))
        // Negative coordinates are numbers, not options.
        let south = try runGeodb(["nearby", db, "-44.0", "-176.5", "--category", "cafe"])
        #expect(south.status == 0 && south.stdout == "nothing within 500 m\n", "\(south.stderr)")
        let json = try runGeodb(["nearby", db, "--bbox", "24.93,60.16,24.95,60.17", "--category", "pharmacy", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["results"] as? [[String: Any]])?.first?["category_id"] as? String == "pharmacy")
        let unknown = try runGeodb(["nearby", db, "60.1699", "24.9384", "--category", "cofee"])
        #expect(unknown.status != 0 && unknown.stderr.contains("did you mean: cafe"))
        let categories = try runGeodb(["categories", db])
        #expect(categories.status == 0)
        #expect(categories.stdout.contains("food_and_drink") && categories.stdout.contains("  cafe "))
    }
}
