// Every public query call fed out-of-range and malformed options: each answers with the GeoDBError of
// its rule (QueryValidation), worded once, naming the option — never a trap, never another error type.
import Foundation
import GeoDB
import Testing
import TestSupport

/// One bad call: what it does, and the error it must throw.
struct BadCall: Sendable, CustomTestStringConvertible {
    var name: String
    var option: String?
    var message: String
    var call: @Sendable (GeoDatabase) throws -> Void

    var testDescription: String { name }
}

@Suite struct QueryValidationTests {
    static let helsinki = Result { try GeoDatabase(path: try TestDatabases.helsinkiWithTimeZones()) }
    static let here = Coordinate(lat: 60.1699, lon: 24.9384)
    static let range = "(latitude -90…90, longitude -180…180)"

    static func search(_ change: @escaping @Sendable (inout SearchOptions) -> Void) -> @Sendable (GeoDatabase) throws -> Void {
        { db in
            var options = SearchOptions()
            change(&options)
            _ = try db.search("Mannerheimintie", options: options)
            _ = try db.withSession { try $0.structuredSearch(street: "Mannerheimintie", housenumber: "1", city: nil, postcode: nil, options: options) }
        }
    }

    static func reverse(_ point: Coordinate = here, _ change: @escaping @Sendable (inout ReverseOptions) -> Void = { _ in })
        -> @Sendable (GeoDatabase) throws -> Void {
        { db in
            var options = ReverseOptions()
            change(&options)
            _ = try db.reverse(at: point, options: options)
        }
    }

    static let cases: [BadCall] = {
        var cases: [BadCall] = []
        // Result counts of every query kind, including the structured and hierarchical paths that trapped.
        for limit in [0, -1, 101, Int.max, Int.min] {
            cases.append(BadCall(name: "search limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…100)",
                                 call: search { $0.limit = limit }))
            cases.append(BadCall(name: "hierarchical limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…100)") { db in
                var options = SearchOptions()
                options.limit = limit
                _ = try db.withSession { try $0.hierarchical(town: "Helsinki", street: "Aleksanterinkatu", housenumber: "52", options: options) }
            })
            cases.append(BadCall(name: "town list limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…100)") { db in
                var options = SearchOptions()
                options.limit = limit
                _ = try db.withSession { try $0.hierarchical(town: "Helsinki", options: options) }
            })
            cases.append(BadCall(name: "crossings limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…100)") { db in
                var options = SearchOptions()
                options.limit = limit
                _ = try db.withSession { try $0.crossings(of: "Mannerheimintie", options: options) }
            })
            cases.append(BadCall(name: "reverse limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…100)",
                                 call: reverse { $0.limit = limit }))
        }
        for limit in [0, -5, 1001] {
            cases.append(BadCall(name: "nearby limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…1000)") { db in
                _ = try db.places(near: here, radius: 500, limit: limit)
            })
            cases.append(BadCall(name: "in-box limit \(limit)", option: "limit", message: "`limit` \(limit) is out of range (1…1000)") { db in
                _ = try db.withSession { try $0.places(in: BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96), limit: limit) }
            })
        }
        // Coordinates: out of range, NaN, infinite.
        let badPoints: [(Coordinate, String)] = [
            (Coordinate(lat: 95, lon: 0), "95, 0"), (Coordinate(lat: 0, lon: 180.5), "0, 180.5"),
            (Coordinate(lat: .nan, lon: 0), "nan, 0"), (Coordinate(lat: 0, lon: -.infinity), "0, -inf"),
            (Coordinate(lat: -90.000001, lon: 0), "-90.000001, 0"),
        ]
        for (point, text) in badPoints {
            cases.append(BadCall(name: "search near \(text)", option: "near", message: "`near` \(text) is out of range \(range)",
                                 call: search { $0.near = point }))
            cases.append(BadCall(name: "reverse at \(text)", option: "point", message: "`point` \(text) is out of range \(range)",
                                 call: reverse(point)))
            cases.append(BadCall(name: "nearby around \(text)", option: "center", message: "`center` \(text) is out of range \(range)") { db in
                _ = try db.places(near: point, radius: 500)
            })
            cases.append(BadCall(name: "in-box near \(text)", option: "near", message: "`near` \(text) is out of range \(range)") { db in
                _ = try db.withSession { try $0.places(in: BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96), near: point) }
            })
            cases.append(BadCall(name: "timezone at \(text)", option: "point", message: "`point` \(text) is out of range \(range)") { db in
                _ = try db.timeZone(at: point)
            })
            cases.append(BadCall(name: "timezone lookup at \(text)", option: "point", message: "`point` \(text) is out of range \(range)") { db in
                _ = try db.withSession { try $0.timeZones()?.tzid(at: point) }
            })
        }
        // Radii: zero, below a metre, negative, NaN, infinite, beyond the maximum.
        for (radius, text) in [(0.0, "0"), (0.5, "0.5"), (-1, "-1"), (.nan, "nan"), (.infinity, "inf"), (100_001, "100001")] {
            cases.append(BadCall(name: "nearby radius \(text)", option: "radius", message: "`radius` \(text) m is out of range (1…100000 m)") { db in
                _ = try db.places(near: here, radius: radius)
            })
        }
        for (radius, text) in [(0.0, "0"), (-3.0, "-3"), (.nan, "nan"), (30_000_000, "30000000")] {
            cases.append(BadCall(name: "reverse radius \(text)", option: "radius", message: "`radius` \(text) m is out of range (1…20000000 m)",
                                 call: reverse { $0.radius = radius }))
        }
        // Boxes: the minimum latitude above the maximum, corners out of range.
        let inverted = BoundingBox(minLat: 60.18, minLon: 24.93, maxLat: 60.16, maxLon: 24.96)
        let outside = BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 91, maxLon: 24.96)
        let invertedText = "`bbox` 24.93,60.18,24.96,60.16 has its minimum latitude above its maximum"
        let outsideText = "`bbox` 24.93,60.16,24.96,91 is out of range \(range)"
        cases.append(BadCall(name: "search bbox inverted", option: "bbox", message: invertedText, call: search { $0.bbox = inverted }))
        cases.append(BadCall(name: "search bbox outside", option: "bbox", message: outsideText, call: search { $0.bbox = outside }))
        cases.append(BadCall(name: "in-box inverted", option: "bbox", message: invertedText) { db in _ = try db.withSession { try $0.places(in: inverted) } })
        cases.append(BadCall(name: "in-box outside", option: "bbox", message: outsideText) { db in _ = try db.withSession { try $0.places(in: outside) } })
        cases.append(BadCall(name: "export selection inverted", option: "bbox", message: invertedText) { db in
            var selection = PlaceSelection()
            selection.bbox = inverted
            try db.withSession { try $0.forEachPlace(selection) { _, _ in } }
        })
        // Country codes.
        for code in ["FIN", "", "F1", "Ä"] {
            cases.append(BadCall(name: "country '\(code)'", option: "countryCode",
                                 message: "`countryCode` '\(code)' is not a two-letter ISO 3166-1 country code",
                                 call: search { $0.countryCode = code }))
        }
        // Cursors: garbage, and well-formed ones this query never printed.
        for cursor in ["zz", "", "-", "12-3", "4053b64c1ef38199-1965-1", String(repeating: "f", count: 40) + "-1"] {
            cases.append(BadCall(name: "cursor '\(cursor.prefix(20))'", option: "after",
                                 message: "`after` '\(cursor.prefix(64))' is not a cursor from a previous page of this query") { db in
                _ = try db.places(near: here, radius: 500, filter: try .resolve(["cafe"]), after: cursor)
            })
        }
        cases.append(BadCall(name: "cursor of another query", option: "after", message: "is not a cursor from a previous page") { db in
            guard let cursor = try db.places(near: here, radius: 500, filter: try .resolve(["cafe"]), limit: 2).nextCursor else { return }
            _ = try db.places(near: Coordinate(lat: 60.17, lon: 24.95), radius: 500, filter: try .resolve(["cafe"]), after: cursor)
        })
        return cases
    }()

    @Test(arguments: cases) func badOptionsAreRefused(_ bad: BadCall) throws {
        let db = try Self.helsinki.get()
        let error = #expect(throws: GeoDBError.self) { try bad.call(db) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.option == bad.option, "\(error?.option ?? "no option")")
        #expect(error?.message.contains(bad.message) == true, "\(error?.message ?? "no error")")
    }

    /// The cursor a page prints leads to the next page: refusing foreign cursors keeps real ones working.
    @Test func realCursorsStillPage() throws {
        let db = try Self.helsinki.get()
        let cafes = try CategoryFilter.resolve(["cafe"])
        let all = try db.places(near: Self.here, radius: 500, filter: cafes, limit: 1000).places.map(\.id)
        var paged: [Int64] = []
        var cursor: String?
        repeat {
            let page = try db.places(near: Self.here, radius: 500, filter: cafes, limit: 7, after: cursor)
            paged += page.places.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(all.count > 14 && paged == all)
    }

    /// Text is never an option: anything typed is searched (or found to be nothing), never refused.
    @Test(arguments: ["", " ", "\"", "*", "a OR b", "NEAR(a b)", "col:x", "-", String(repeating: "x", count: 10_000), "\u{0}", "😀"])
    func anyTextIsSearchable(_ text: String) throws {
        let db = try Self.helsinki.get()
        var options = SearchOptions()
        options.autocomplete = true
        _ = try db.search(text, options: options)
        _ = try db.search(text)
        _ = try db.withSession { try $0.hierarchical(town: text, street: text, housenumber: text) }
        _ = try db.withSession { try $0.structuredSearch(street: text, housenumber: text, city: text, postcode: text) }
        _ = try db.withSession { try $0.crossings(of: text) }
        #expect(throws: GeoDBError.self) { try db.lookup(text) }
    }
}
