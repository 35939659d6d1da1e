// The example of docs/SWIFT.md ("Using geodb from Swift") compiles and runs: its code is the body below,
// and a test checks that the doc shows exactly this text.
import Foundation
import GeoDB
import Testing
import TestSupport

@Suite struct SwiftExampleTests {
    /// The docs/SWIFT.md example, run on SampleData (OSM, GeoNames cities15000, timezones) as `Tools/demo.sh` builds it.
    static func example(_ path: String) async throws -> [String] {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        let db = try GeoDatabase(path: path)
        // SWIFT.md:start
        // Forward search while the user types: typo- and diacritic-tolerant, best first.
        var options = SearchOptions()
        options.autocomplete = true
        options.limit = 3
        for place in try await db.search("mannerh", options: options) {
            print(place.displayName, place.lat, place.lon)
        }

        // Reverse geocoding: the address at a point, with its timezone.
        var reverse = ReverseOptions()
        reverse.includeTimeZone = true
        if let here = try await db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545), options: reverse).first {
            print(here.place.displayName, here.place.distanceM ?? 0, here.timezone ?? "")
        }

        // Cafes within 500 m, nearest first, a page at a time.
        let cafes = try await db.places(near: Coordinate(lat: 60.1699, lon: 24.9384), radius: 500, filter: try .resolve(["cafe"]))
        print(cafes.places.map { $0.name ?? "-" }, cafes.nextCursor ?? "last page")

        // The timezone at a point and its clock now.
        let zone = try await db.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384))
        print(zone.tzid, zone.utcOffsetSeconds ?? 0, zone.isDST ?? false)

        // One GeoDatabase serves many threads and tasks at once. (Synchronous code: the same calls without await.)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for text in ["Helsingfors", "Wien", "Tokio"] {
                group.addTask { try await db.search(text, options: SearchOptions()).first?.displayName ?? "-" }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        print(names.sorted())
        // SWIFT.md:end
        return printed
    }

    @Test func exampleRunsOnSampleData() async throws {
        let printed = try await Self.example(try TestDatabases.combined())
        #expect(printed.count == 7, "\(printed)")
        #expect(printed[0].hasPrefix("Mannerheimintie"))
        #expect(printed[3].contains("Aleksanterinkatu") || printed[3].contains(","), "\(printed[3])")
        #expect(printed[3].hasSuffix("Europe/Helsinki"))
        #expect(printed[5].hasPrefix("Europe/Helsinki"))
        #expect(printed[6].contains("Helsinki") && printed[6].contains("Vienna") && printed[6].contains("Tokyo"), "\(printed[6])")
    }

    @Test func docShowsThisExample() throws {
        let source = try String(contentsOf: TestPaths.root.appendingPathComponent("Tests/GeoDBImportTests/SwiftExampleTests.swift"),
                                encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasSuffix("// SWIFT.md:start") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// SWIFT.md:end") })
        let body = lines[(start + 1)..<end].map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : $0 }
        let expected = (["import GeoDB", "", "let db = try GeoDatabase(path: \"demo/combined.sqlite\")   // read-only; share it freely", ""]
                        + body).joined(separator: "\n")
        let doc = try String(contentsOf: TestPaths.root.appendingPathComponent("docs/SWIFT.md"), encoding: .utf8)
        #expect(doc.contains("```swift\n" + expected + "\n```"), "docs/SWIFT.md's example differs from this file; copy it:\n\(expected)")
    }
}
