// The database contract (docs/SCHEMA.md) read by another language: Tools/verify/schema-contract.py runs every SQL
// example of the doc as written and answers radius, category, geometry and timezone questions with
// Python's standard sqlite3 module and the doc alone; its answers must equal the Swift library's.
import Foundation
import GeoDB
import Testing
import TestSupport

/// A python3 on the PATH, if there is one.
enum Python {
    static let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        .map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite(.enabled(if: Python.path != nil, "needs python3 (apt install python3)"))
struct SchemaContractTests {

    /// The script's report on the Helsinki + Monaco + timezones database, for `points`.
    static func report(points: [Coordinate]) throws -> [String: Any] {
        let scratch = try ScratchDirectory()
        let pointsFile = scratch.path("points.json")
        try JSONSerialization.data(withJSONObject: points.map { [$0.lat, $0.lon] }).write(to: URL(fileURLWithPath: pointsFile))
        let script = TestPaths.root.appendingPathComponent("Tools/verify/schema-contract.py").path
        let doc = TestPaths.root.appendingPathComponent("docs/SCHEMA.md").path
        let result = try runProgram(try #require(Python.path),
                                    [script, try TestDatabases.helsinkiMonacoTimeZones(), "--doc", doc, "--points", pointsFile])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Points all over the world (a 15° grid) and around the zones' borders in Europe.
    static let points: [Coordinate] = stride(from: -75.0, through: 75, by: 15).flatMap { lat in
        stride(from: -180.0, to: 180, by: 15).map { Coordinate(lat: lat, lon: $0) }
    } + stride(from: 54.0, through: 61, by: 0.5).flatMap { lat in
        stride(from: 5.0, through: 32, by: 1.5).map { Coordinate(lat: lat, lon: $0) }
    }

    @Test func pythonAndTheDocAnswerWhatTheSwiftLibraryDoes() throws {
        let report = try Self.report(points: Self.points)
        let db = try GeoDatabase(path: try TestDatabases.helsinkiMonacoTimeZones())
        let center = Coordinate(lat: 60.1699, lon: 24.9384)

        // Every SQL example of the doc ran (the script fails on any that does not) and found something.
        let examples = try #require(report["examples"] as? [[String: Any]])
        #expect(examples.count >= 7)
        for example in examples { #expect((example["rows"] as? [Any])?.isEmpty == false, "\(example["label"] ?? "")") }
        // The doc's name search holds the library's best autocomplete answer.
        var autocomplete = SearchOptions()
        autocomplete.autocomplete = true
        let best = try #require(try db.search("manner", options: autocomplete).first)
        let names = try #require(examples.first { ($0["label"] as? String)?.hasPrefix("Names") == true }?["rows"] as? [[Any]])
        #expect(names.contains { ($0.first as? Int).map(Int64.init) == best.id })

        // Cafes within 500 m: same ids in the same order (distance, then id).
        let cafes = try #require((report["cafes_500m"] as? [String: Any])?["ids"] as? [Int]).map(Int64.init)
        let swiftCafes = try db.places(near: center, radius: 500, filter: try .resolve(["cafe"]), limit: 1000).places.map(\.id)
        #expect(cafes == swiftCafes && cafes.count > 40)
        // All places within 500 m, narrowed to named POIs: the library's default nearby answer.
        var namedPOIs = Set<Int64>()
        try db.withSession { session in
            try session.forEachPlace(PlaceSelection()) { place, _ in
                if place.kind == .poi && place.name != nil { namedPOIs.insert(place.id) }
            }
        }
        let radius = try #require((report["radius"] as? [String: Any])?["ids"] as? [Int]).map(Int64.init)
        #expect(radius.filter(namedPOIs.contains) == (try db.places(near: center, radius: 500, limit: 1000).places.map(\.id)))

        // Every place's address by the doc's hierarchy rule: the library's.
        let addresses = try #require(report["addresses"] as? [String: [String: String]])
        var compared = 0
        try db.withSession { session in
            try session.forEachPlace(PlaceSelection()) { place, _ in
                #expect(addresses[String(place.id)] == place.address.dictionary, "\(place.sourceRef?.description ?? "")")
                compared += 1
            }
        }
        #expect(compared == addresses.count && addresses.values.contains { $0["suburb"] != nil })

        // Category totals: the library's counts with children.
        let counts = try #require(report["category_counts"] as? [String: Int])
        let roots = try db.withSession { try $0.categories() }.filter { $0.parent == nil }
        #expect(counts.count == roots.count)
        for root in roots { #expect(counts[root.id].map(Int64.init) == root.placesWithChildren, "\(root.id)") }

        // One geometry blob decoded in Python: the library's points.
        let geometry = try #require(report["geometry"] as? [String: Any])
        let placeID = Int64(try #require(geometry["place_id"] as? Int))
        let parts = try #require(geometry["parts"] as? [[[Double]]])
        var selection = PlaceSelection()
        selection.kinds = [.street]
        selection.withGeometry = true
        var swiftLines: [[Point7]]?
        try db.withSession { session in
            try session.forEachPlace(selection) { place, geometry in
                if place.id == placeID, case .lineStrings(let lines)? = geometry { swiftLines = lines }
            }
        }
        let decoded = parts.map { $0.map { Point7(Coordinate(lat: $0[1], lon: $0[0])) } }
        #expect(decoded == swiftLines && decoded.count > 1)

        // Timezones by the doc's rules: the library's zone at every point.
        let zones = try #require(report["timezones"] as? [[String: Any]])
        #expect(zones.count == Self.points.count)
        var steps: Set<Int> = []
        for zone in zones {
            let lat = try #require(zone["lat"] as? Double), lon = try #require(zone["lon"] as? Double)
            let swift = try db.timeZone(at: Coordinate(lat: lat, lon: lon)).tzid
            #expect(zone["tzid"] as? String == swift, "\(lat), \(lon)")
            steps.insert(zone["step"] as? Int ?? 0)
        }
        #expect(steps.isSuperset(of: [1, 2, 5]), "the points exercise the grid, the polygons and the ocean: \(steps)")
    }
}
