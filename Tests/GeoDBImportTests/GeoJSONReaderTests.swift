// The streaming GeoJSON reader and the timezone import: valid input in its many spellings, exact number
// rounding, chunk boundaries, and one clear error naming the feature for each kind of bad input.
import Foundation
import GeoDB
import GeoDBSQLite
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct GeoJSONReaderTests {
    func features(_ path: String) throws -> [GeoJSONFeature] {
        var out: [GeoJSONFeature] = []
        try GeoJSONReader(path: path, displayName: (path as NSString).lastPathComponent).read { out.append($0) }
        return out
    }

    func features(text: String) throws -> [GeoJSONFeature] {
        let scratch = try ScratchDirectory()
        let path = scratch.path("t.geojson")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try features(path)
    }

    @Test func fixtureInAllItsSpellings() throws {
        let all = try features(TestPaths.fixture("timezones-fixture.geojson"))
        #expect(all.map { $0.properties["tzid"] ?? "" } == ["Test/West", "Test/Enclave", "Test/East", "Test/North", "Test/Big",
                                                           "Test/Small", "Test/Triangle", "Test/Dateline", "Test/Polar"])
        #expect(all.map(\.index) == Array(0..<9))
        #expect(all[0].properties == ["tzid": "Test/West"])   // non-string properties are skipped
        #expect(all[0].polygons.count == 1 && all[0].polygons[0].count == 2)   // outer ring and hole
        // 4.5e0, 45E-1, altitudes ignored, closing position dropped.
        #expect(all[1].polygons == [[[Point7(lat: 45_000_000, lon: 45_000_000), Point7(lat: 45_000_000, lon: 55_000_000),
                                      Point7(lat: 55_000_000, lon: 55_000_000), Point7(lat: 55_000_000, lon: 45_000_000)]]])
        #expect(all[7].polygons.count == 2)
    }

    @Test func numbersRoundExactlyToTenMillionths() throws {
        let ring = "[[24.93845678, -0.00000005], [1e-05, 60.12345674999], [180, -90], [-180.0000000, 90], [24.93845678, -0.00000005]]"
        let f = try features(text: #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"X"},"geometry":{"type":"Polygon","coordinates":["# + ring + "]}}]}")
        #expect(f[0].polygons[0][0] == [Point7(lat: -1, lon: 249_384_568), Point7(lat: 601_234_567, lon: 100),
                                        Point7(lat: -900_000_000, lon: 1_800_000_000), Point7(lat: 900_000_000, lon: -1_800_000_000)])
    }

    @Test func escapesByteOrderMarkAndDuplicatePositions() throws {
        let text = "\u{FEFF}{ \"features\" : [ { \"geometry\" : { \"coordinates\" : [ [ [0,0],[1,0],[1,0],[1,1],[0,0] ] ], \"type\" : \"Polygon\" },"
            + " \"properties\" : { \"tzid\" : \"A\\/B \\u00e9\\ud83d\\ude00\\n\" }, \"type\" : \"Feature\" } ], \"type\" : \"FeatureCollection\" }\n"
        let f = try features(text: text)
        #expect(f[0].properties["tzid"] == "A/B é😀\n")
        #expect(f[0].polygons[0][0].count == 3)   // the repeated (1, 0) merged
    }

    /// Features and numbers crossing the reader's 1 MiB chunks.
    @Test func largeFileAcrossChunks() throws {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        var expectedSum: Int64 = 0
        for i in 0..<400 {
            var ring: [String] = []
            for k in 0..<200 {
                let lon = String(format: "%.7f", -170.0 + Double(i) * 0.5 + Double(k) * 0.001234567)
                let lat = String(format: "%.7f", -60.0 + Double(k % 50) * 0.1234567)
                ring.append("[\(lon), \(lat)]")
                // Seven decimals: the units are the digits.
                expectedSum += Int64(lon.replacingOccurrences(of: ".", with: ""))! + Int64(lat.replacingOccurrences(of: ".", with: ""))!
            }
            ring.append(ring[0])
            text += (i == 0 ? "" : ",\n") + "  {\"type\": \"Feature\", \"properties\": {\"tzid\": \"Z\(i)\"}, \"geometry\": {\"type\": \"MultiPolygon\", \"coordinates\": [[[" + ring.joined(separator: ", ") + "]]]}}"
        }
        text += "\n]}\n"
        #expect(text.utf8.count > 2 << 20)
        let f = try features(text: text)
        #expect(f.count == 400)
        let sum = f.reduce(Int64(0)) { $0 + $1.polygons[0][0].reduce(0) { $0 + Int64($1.lat) + Int64($1.lon) } }
        #expect(sum == expectedSum)
    }

    @Test(arguments: [
        ("hello", "byte offset 0: not GeoJSON"),
        (#"{"type":"Feature","properties":{},"geometry":null}"#, "a GeoJSON Feature where a FeatureCollection was expected"),
        (#"{"type":"FeatureCollection"}"#, "no \"features\" member"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}}]}"#,
         "feature 0: ring 0 of polygon 0 has 3 positions; a ring needs at least 4"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}"#,
         "feature 0: ring 0 of polygon 0 is not closed"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[181,0],[1,1],[0,0]]]}}]}"#,
         "feature 0: coordinates out of range"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#,
         "a Point geometry; timezone boundaries must be Polygon or MultiPolygon"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"MultiPolygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#,
         "the coordinates of a MultiPolygon must be nested 4 deep, not 3"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},{"type":"Feature","properties":{"tzid":"B"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,"#,
         "feature 1: the file ends early (truncated?)"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0] [1,1],[0,0]]]}}]}"#,
         "feature 0: expected ',' or ']', found '['"),
    ])
    func badInput(text: String, message: String) throws {
        let error = #expect(throws: GeoDBError.self) { _ = try features(text: text) }
        #expect(error?.code == .badInput)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.hasPrefix("t.geojson: ") == true)
    }

    @Test func detection() throws {
        #expect(try InputFormat.detect(path: TestPaths.fixture("timezones-fixture.geojson")) == .timezoneGeoJSON)
        #expect(try InputFormat.detect(path: TestPaths.sampleData("timezones-small.geojson")) == .timezoneGeoJSON)
        let scratch = try ScratchDirectory()
        let other = scratch.path("roads.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#
            .write(toFile: other, atomically: true, encoding: .utf8)
        let error = #expect(throws: GeoDBError.self) { _ = try InputFormat.detect(path: other) }
        #expect(error?.code == .unsupportedInput)
        #expect(error?.message.contains("no \"tzid\" property") == true)
    }
}

@Suite struct TimeZoneImportTests {
    @Test func featureWithoutTzidFailsAndLeavesTheOutputAlone() throws {
        let setup = try ImportFailureTests.Setup()
        var text = try String(contentsOfFile: TestPaths.fixture("timezones-fixture.geojson"), encoding: .utf8)
        text = text.replacingOccurrences(of: #""properties": { "tzid": "Test/East" }"#, with: #""properties": { "name": "Test/East" }"#)
        let error = try setup.failingImport(try setup.write("bad.geojson", Data(text.utf8)))
        #expect(error?.message == "bad.geojson: feature 2: no \"tzid\" property (timezone boundaries name their zone in it)")
    }

    @Test func ringErrorsNameTheFeature() throws {
        let setup = try ImportFailureTests.Setup()
        var text = try String(contentsOfFile: TestPaths.fixture("timezones-fixture.geojson"), encoding: .utf8)
        text = text.replacingOccurrences(of: "[[50, 0], [60, 0], [50, 10], [50, 0]]", with: "[[50, 0], [60, 0], [50, 10], [50, 1]]")
        let error = try setup.failingImport(try setup.write("open.geojson", Data(text.utf8)))
        #expect(error?.message.hasPrefix("open.geojson: feature 6: ring 0 of polygon 0 is not closed") == true)
    }

    @Test func placesAndTimezonesInOneDatabase() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("helsinki.sqlite")
        let summary = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"), TestPaths.sampleData("timezones-small.geojson")],
                                       output: output)
        #expect(summary.places == 2529 + 6)   // and the countries of the zones (ZoneCountryPlacesTests)
        let tz = try #require(summary.timeZones)
        #expect(tz.zones == 7 && tz.polygons == 36 && tz.holes == 28 && tz.features == 7)
        #expect(tz.gridCells > 0 && tz.gridLevel == TimeZoneImport.gridLevel)
        let db = try GeoDatabase(path: output)
        #expect(db.hasTimeZones)
        #expect(try db.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384)).tzid == "Europe/Helsinki")
        let info = try db.info()
        #expect(info.meta["timezone_count"] == "7")
        #expect(info.sources.map(\.format) == ["osm.pbf", "timezone.geojson"])
        let checks = try IntegrityCheck.run(path: output)
        let failed = checks.filter { !$0.ok }
        #expect(failed.isEmpty, "\(failed)")
        #expect(checks.contains { $0.name == "rtreecheck(timezone_rtree)" })
    }

    @Test func oneTimezoneFilePerDatabase() throws {
        let scratch = try ScratchDirectory()
        let small = TestPaths.sampleData("timezones-small.geojson")
        let error = #expect(throws: GeoDBError.self) {
            _ = try Importer.run(inputs: [small, small], output: scratch.path("twice.sqlite"))
        }
        #expect(error?.message.contains("already has timezones") == true)
    }
}
