// `geodb timezone` as a user runs it: negative coordinates as plain arguments, text and JSON, --all,
// --batch from a file and standard input, and clear errors.
import Foundation
import Testing
import TestSupport

@Suite struct TimezoneCLITests {
    /// A database with the small timezone file, built with the binary.
    static func database(_ scratch: ScratchDirectory) throws -> String {
        let db = scratch.path("tz.sqlite")
        let result = try runGeodb(["import", TestPaths.sampleData("timezones-small.geojson"), "--output", db])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("timezones-small.geojson (timezone.geojson, 219 KB): 7 zones, 36 polygons (28 holes)"))
        return db
    }

    @Test func negativeCoordinatesAndText() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database(scratch)
        let chatham = try runGeodb(["timezone", db, "-44.0", "-176.5", "--at", "2026-07-01T12:00:00Z"])
        #expect(chatham.status == 0, "\(chatham.stderr)")
        #expect(chatham.stdout == """
            Pacific/Chatham
              UTC offset       +12:45, standard time
              abbreviation     +1245
              local time       2026-07-02T00:45:00+12:45
              next transition  2026-09-26T14:00:00Z (to +13:45)
              found by         polygon

            """)
        // Options may come first, and the point may be written with a negative latitude only.
        let kolkata = try runGeodb(["timezone", "--at", "2026-01-15", db, "22.5726", "88.3639"])
        #expect(kolkata.stdout.hasPrefix("Asia/Kolkata\n  UTC offset    +05:30, standard time\n"))
        let ocean = try runGeodb(["timezone", db, "0", "-30"])
        #expect(ocean.stdout.hasPrefix("Etc/GMT+2\n") && ocean.stdout.contains("found by      longitude"))
    }

    @Test func json() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database(scratch)
        let result = try runGeodb(["timezone", db, "60.1699", "24.9384", "--at", "2026-07-01T12:00:00Z", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["tzid"] as? String == "Europe/Helsinki")
        #expect(object["utc_offset_seconds"] as? Int == 10800)
        #expect(object["utc_offset"] as? String == "+03:00")
        #expect(object["is_dst"] as? Bool == true)
        #expect(object["local_time"] as? String == "2026-07-01T15:00:00+03:00")
        #expect(object["next_transition"] as? String == "2026-10-25T01:00:00Z")
        #expect(object["source"] as? String == "polygon")
        #expect(object["known_to_system"] as? Bool == true)
        #expect(object["candidates"] as? [String] == ["Europe/Helsinki"])
        #expect(object["at"] as? String == "2026-07-01T12:00:00Z")
    }

    @Test func allCandidatesAndNearest() throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("fixture.sqlite")
        #expect(try runGeodb(["import", TestPaths.fixture("timezones-fixture.geojson"), "-o", db]).status == 0)
        let overlap = try runGeodb(["timezone", db, "3", "33", "--all"])
        #expect(overlap.stdout.contains("candidates  Test/Small, Test/Big"))
        #expect(overlap.stdout.contains("unknown: Test/Small is not in this system's tz database"))
        #expect(try runGeodb(["timezone", db, "3", "33"]).stdout.contains("overlap   2 zones contain the point (--all lists them)"))
        let near = try runGeodb(["timezone", db, "4.1", "4.1"])
        #expect(near.stdout.contains("found by  nearest zone, 11.1 km away (no polygon contains the point)"))
    }

    @Test func batchFromFileAndStandardInput() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database(scratch)
        let points = scratch.path("points.csv")
        try "name,lat,lon\nHelsinki,60.1699,24.9384\n\"Chatham, NZ\",-44.0,-176.5\nocean,0,-30\n".write(toFile: points, atomically: true, encoding: .utf8)
        let expected = """
            lat,lon,tzid,utc_offset_seconds,dst,abbreviation,local_time,source
            60.1699,24.9384,Europe/Helsinki,10800,true,EEST,2026-07-01T15:00:00+03:00,polygon
            -44.0,-176.5,Pacific/Chatham,45900,false,+1245,2026-07-02T00:45:00+12:45,polygon
            0,-30,Etc/GMT+2,-7200,false,-02,2026-07-01T10:00:00-02:00,ocean

            """
        let fromFile = try runGeodb(["timezone", db, "--batch", points, "--at", "2026-07-01T12:00:00Z"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout == expected)

        // No header: the first two columns; from standard input.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.geodbBinary)
        process.arguments = ["timezone", db, "--batch", "-", "--at", "2026-07-01T12:00:00Z"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("60.1699,24.9384\n-44.0,-176.5\r\n0,-30\n".utf8))
        try input.fileHandleForWriting.close()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout == expected)
    }

    @Test func errors() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database(scratch)
        let missing = try runGeodb(["timezone", db])
        #expect(missing.status == 64 && missing.stderr.contains("missing the point"))
        let range = try runGeodb(["timezone", db, "-91", "0"])
        #expect(range.status == 64 && range.stderr.contains("LAT LON -91, 0 is out of range (latitude -90…90, longitude -180…180)"))
        let words = try runGeodb(["timezone", db, "north", "east"])
        #expect(words.status == 64 && words.stderr.contains("is not a latitude and longitude"))
        let at = try runGeodb(["timezone", db, "0", "0", "--at", "yesterday"])
        #expect(at.status == 64 && at.stderr.contains("--at 'yesterday' is not an ISO 8601 time"))

        let places = scratch.path("places.sqlite")
        #expect(try runGeodb(["import", TestPaths.fixture("grid.osm"), "-o", places]).status == 0)
        let none = try runGeodb(["timezone", places, "60", "25"])
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("Error: \(places) has no timezones (import timezone boundaries"))

        let bad = scratch.path("bad.csv")
        // A bad row is answered as one (source 'error'), the rows after it too; the command fails with the count.
        try "lat,lon\n60,25\n60,x\n91,0\n4.1,4.1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let batch = try runGeodb(["timezone", db, "--batch", bad, "--at", "2026-07-01T12:00:00Z"])
        #expect(batch.status == 1)
        #expect(batch.stderr == """
            warning: \(bad): line 3: expected a latitude and longitude, got '60,x'
            warning: \(bad): line 4: LAT LON 91, 0 is out of range (latitude -90…90, longitude -180…180)
            Error: \(bad): 2 rows are not a point (answered with source 'error')

            """)
        let rows = batch.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) }
        #expect(rows == ["source", "polygon", "error", "error", "ocean"])
    }

    /// The benchmark tool the integrator calls from Tools/bench/bench.py: its JSON keys and agreement count.
    @Test func benchmarkToolPrintsJSON() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database(scratch)
        let points = scratch.path("points.txt")
        let rows = [("Helsinki", 60.1699, 24.9384, "Europe/Helsinki"), ("Kolkata", 22.5726, 88.3639, "Asia/Kolkata"),
                    ("Chatham", -44.0, -176.5, "Pacific/Auckland")]
        try rows.enumerated().map { i, r in
            (["\(i + 1)", r.0, r.0, ""] + ["\(r.1)", "\(r.2)"] + Array(repeating: "", count: 11) + [r.3, "2026-01-01"]).joined(separator: "\t")
        }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let bench = URL(fileURLWithPath: TestPaths.geodbBinary).deletingLastPathComponent().appendingPathComponent("geodb-bench").path
        let answers = scratch.path("answers.txt")
        let result = try runGeodb(["timezone", db, points, "--rounds", "1", "--answers", answers], binary: bench)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["points"] as? Int == 3)
        #expect(object["geonames_compared"] as? Int == 3)
        #expect(abs((object["geonames_agreement"] as? Double ?? 0) - 2.0 / 3.0) < 1e-9)
        for key in ["lookups_per_second", "full_answers_per_second", "eager_load_seconds", "lazy_first_pass_seconds", "grid_hit_rate"] {
            #expect((object[key] as? Double ?? -1) >= 0, "\(key)")
        }
        #expect((object["latency_ns"] as? [String: Any])?["p99"] != nil)
        #expect(try String(contentsOfFile: answers, encoding: .utf8) == "Europe/Helsinki\nAsia/Kolkata\nPacific/Chatham\n")
    }
}
