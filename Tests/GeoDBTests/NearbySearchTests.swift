// Category search: every page of every query equals a brute-force scan, on Helsinki and on synthetic
// points around the antimeridian and the poles; known answers; plans; errors.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

/// A place as the brute force sees it.
struct ScannedPlace {
    var id: Int64
    var coordinate: Coordinate
    var kind: String
    var name: String?
    var category: String?
    var categoryID: String?
}

/// Every place of a database, read directly.
func scanPlaces(_ path: String) throws -> [ScannedPlace] {
    let db = try Connection(path: path, mode: .readOnly())
    return try db.prepare("""
        SELECT p.id, p.lat, p.lon, p.kind, p.name, p.category, pc.category_id
        FROM place p LEFT JOIN place_category pc ON pc.place_id = p.id
        """).rows { ScannedPlace(id: $0.int(0), coordinate: Coordinate(lat: $0.double(1), lon: $0.double(2)), kind: $0.text(3) ?? "",
                                 name: $0.text(4), category: $0.text(5), categoryID: $0.text(6)) }
}

func matches(_ place: ScannedPlace, _ filter: CategoryFilter) -> Bool {
    switch filter {
    case .anyNamedPOI: return place.kind == "poi" && place.name != nil
    case .categories(let ids): return place.categoryID.map(ids.contains) ?? false
    case .rawTag(let tag): return place.category == tag
    }
}

/// The places matching `filter` within `radius` of `center`, as (id, distance), nearest first, ties by id.
func bruteForce(_ all: [ScannedPlace], _ filter: CategoryFilter, center: Coordinate, radius: Double) -> [(Int64, Double)] {
    all.filter { matches($0, filter) }
        .map { ($0.id, center.distance(to: $0.coordinate)) }
        .filter { $0.1 <= radius }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
}

/// All pages of a query, concatenated, checking that cursors never repeat or skip.
func allPages(limit: Int, _ query: (String?) throws -> PlacePage) throws -> [PlaceResult] {
    var results: [PlaceResult] = []
    var cursor: String?
    repeat {
        let page = try query(cursor)
        #expect(page.places.count <= limit)
        results += page.places
        cursor = page.nextCursor
        if cursor != nil { #expect(page.places.count == limit) }
    } while cursor != nil
    return results
}

@Suite struct NearbySearchTests {
    static let helsinki: Result<String, Error> = Result { try TestDatabases.helsinki() }

    let taxonomy = Taxonomy.standard
    let filters: [CategoryFilter] = [
        .anyNamedPOI, .categories(Taxonomy.standard.descendants(of: "cafe")),
        .categories(Taxonomy.standard.descendants(of: "food_and_drink")), .categories(["pharmacy", "atm"]),
        .rawTag("amenity=restaurant"), .categories(["museum"]), .rawTag("shop=yes"),
        .rawTag("building=yes"),   // not in idx_place_category (RawTagIndex): from the R*Tree
    ]

    @Test func radiusPagesEqualBruteForceOnHelsinki() throws {
        let path = try Self.helsinki.get()
        let db = try GeoDatabase(path: path)
        let all = try scanPlaces(path)
        var random = SplitMix(seed: 42)
        for round in 0..<40 {
            let center = Coordinate(lat: Double.random(in: 60.160...60.183, using: &random),
                                    lon: Double.random(in: 24.930...24.958, using: &random))
            let radius = [25, 100, 300, 500, 1000, 3000][round % 6] * Double.random(in: 0.5...1.5, using: &random)
            let filter = filters[round % filters.count]
            let limit = radius < 200 ? 1 : [7, 20, 50][round % 3]
            let got = try allPages(limit: limit) {
                try db.places(near: center, radius: radius, filter: filter, limit: limit, after: $0)
            }
            let expected = bruteForce(all, filter, center: center, radius: radius)
            #expect(got.map(\.id) == expected.map(\.0), "round \(round): \(filter) r=\(radius) at \(center)")
            #expect(got.map { $0.distanceM ?? -1 } == expected.map(\.1))
        }
    }

    @Test func boxPagesEqualBruteForceOnHelsinki() throws {
        let path = try Self.helsinki.get()
        let db = try GeoDatabase(path: path)
        let all = try scanPlaces(path)
        var random = SplitMix(seed: 7)
        for round in 0..<30 {
            let lat = Double.random(in: 60.160...60.178, using: &random), lon = Double.random(in: 24.930...24.952, using: &random)
            let box = BoundingBox(minLat: lat, minLon: lon, maxLat: lat + Double.random(in: 0.001...0.01, using: &random),
                                  maxLon: lon + Double.random(in: 0.001...0.01, using: &random))
            let filter = filters[round % filters.count]
            let got = try allPages(limit: 7) { cursor in try db.withSession { try $0.places(in: box, filter: filter, limit: 7, after: cursor) } }
            let expected = all.filter { matches($0, filter) && box.contains($0.coordinate) }
                .map { ($0.id, box.center.distance(to: $0.coordinate)) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(got.map(\.id) == expected.map(\.0), "round \(round)")
        }
    }

    @Test func antimeridianAndPolesEqualBruteForce() throws {
        let path = try TestDatabases.synthetic()
        let db = try GeoDatabase(path: path)
        let all = try scanPlaces(path)
        #expect(all.count == 600)
        var random = SplitMix(seed: 3)
        let centers = [Coordinate(lat: 0, lon: 179.999), Coordinate(lat: 0.01, lon: -179.995), Coordinate(lat: -16.5, lon: 180),
                       Coordinate(lat: 89.99, lon: 10), Coordinate(lat: -89.995, lon: -170), Coordinate(lat: 65, lon: -180)]
        for (round, center) in centers.enumerated() {
            for radius in [200.0, 2_000, 20_000] {
                let filter = filters[(round + Int(radius)) % 4]
                let limit = Int.random(in: 1...20, using: &random)
                let got = try allPages(limit: limit) {
                    try db.places(near: center, radius: radius, filter: filter, limit: limit, after: $0)
                }
                let expected = bruteForce(all, filter, center: center, radius: radius)
                #expect(got.map(\.id) == expected.map(\.0), "\(center) r=\(radius) \(filter)")
                #expect(!expected.isEmpty || radius < 1000)
            }
        }
        // A box across the antimeridian (min lon > max lon).
        let box = BoundingBox(minLat: -0.05, minLon: 179.98, maxLat: 0.05, maxLon: -179.98)
        let got = try allPages(limit: 5) { cursor in try db.withSession { try $0.places(in: box, filter: .anyNamedPOI, limit: 5, after: cursor) } }
        let expected = all.filter { matches($0, .anyNamedPOI) && $0.coordinate.lat >= -0.05 && $0.coordinate.lat <= 0.05
            && ($0.coordinate.lon >= 179.98 || $0.coordinate.lon <= -179.98) }
        #expect(Set(got.map(\.id)) == Set(expected.map(\.id)))
        #expect(!got.isEmpty)
    }

    @Test func knownCafesNearTheStationComeInOrder() throws {
        let db = try GeoDatabase(path: try Self.helsinki.get())
        let point = Coordinate(lat: 60.1699, lon: 24.9384)
        let page = try db.places(near: point, radius: 500, filter: try .resolve(["cafe"]), limit: 3)
        #expect(page.places.map(\.name) == ["Robert's Coffee", "Cafe Java", "Ciao! Caffé"])
        #expect(page.places.first?.tags["opening_hours"] == "Mo-Fr 07:00-19:00; Sa 10:00-18:00")
        #expect(page.places.first?.address.street == "Mannerheimintie")
        #expect(page.nextCursor != nil)
        // A synonym finds the same; a parent includes cafes and restaurants.
        let synonym = try db.places(near: point, radius: 500, filter: try .resolve(["coffee"]), limit: 3)
        #expect(synonym.places.map(\.id) == page.places.map(\.id))
        let parent = try db.places(near: point, radius: 300, filter: try .resolve(["food_and_drink"]), limit: 1000)
        #expect(Set(parent.places.compactMap(\.categoryID)).isSuperset(of: ["cafe", "restaurant"]))
        // Raw tag: exactly the objects with that tag.
        let raw = try db.places(near: point, radius: 500, filter: try .resolve(["amenity=pharmacy"]), limit: 100)
        #expect(raw.places.allSatisfy { $0.category?.text == "amenity=pharmacy" })
        // Name filter, diacritics-insensitive.
        let engel = try db.places(near: point, radius: 2000, filter: try .resolve(["cafe"]), name: "ENGEL", limit: 5)
        #expect(engel.places.map(\.name) == ["Cafe Engel"])
    }

    /// Fire pits and pitches are looked for by category, named or not (as Nominatim keeps them): the two
    /// unnamed fire pits at the Wildschloss ruin in Vaduz, with the street they were given.
    @Test func unnamedFirePitsAreFoundByCategory() throws {
        let db = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let point = Coordinate(lat: 47.150, lon: 9.534)
        let pits = try db.places(near: point, radius: 150, filter: try .resolve(["fire pit"]), limit: 10).places
        #expect(pits.count == 2 && pits.allSatisfy { $0.categoryID == "firepit" })
        #expect(pits.allSatisfy { $0.address.street == "Wildschlossweg" })
        #expect(try db.places(near: point, radius: 150, filter: try .resolve(["bbq"]), limit: 10).places.map(\.id) == pits.map(\.id))
        let pitches = try db.places(near: point, radius: 3000, filter: try .resolve(["leisure=pitch"]), limit: 100).places
        #expect(pitches.contains { $0.name == nil })
    }

    @Test func planStartsFromTheCategoryWhenItIsRare() throws {
        let db = try QuerySession(path: try Self.helsinki.get())
        let wide = BoundingBox.covering(radius: 1000, around: Coordinate(lat: 60.1699, lon: 24.9384))[0]
        let narrow = BoundingBox.covering(radius: 50, around: Coordinate(lat: 60.1699, lon: 24.9384))[0]
        let common = CategoryFilter.categories(taxonomy.descendants(of: "food_and_drink"))
        #expect(try db.nearby.categoryFirst(.rawTag("amenity=pharmacy"), box: wide))
        #expect(try !db.nearby.categoryFirst(.rawTag("amenity=restaurant"), box: narrow))
        // Rarer in the box than places are, but not in the index (RawTagIndex): counting would scan `place`.
        #expect(try !db.nearby.categoryFirst(.rawTag("building=yes"), box: wide))
        let cases: [(CategoryFilter, BoundingBox, String)] = [
            (.categories(["pharmacy"]), wide, "INDEX idx_place_category_category_id_lat (category_id=? AND lat>? AND lat<?)"),
            (common, narrow, "INDEX idx_place_category_category_id_lat (category_id=? AND lat>? AND lat<?)"),
            (.rawTag("amenity=pharmacy"), wide, "INDEX idx_place_category (category=?)"),
            (.rawTag("amenity=restaurant"), narrow, "SCAN r VIRTUAL TABLE INDEX 2:"),   // the R*Tree with all four bounds
            (.rawTag("building=yes"), wide, "SCAN r VIRTUAL TABLE INDEX 2:"),
            (.anyNamedPOI, narrow, "SCAN r VIRTUAL TABLE INDEX 2:"),
        ]
        for (filter, box, expected) in cases {
            let sql = NearbySearch.candidateSQL(filter, categoryFirst: try db.nearby.categoryFirst(filter, box: box), byName: false)
            let plan = try db.db.connection.prepare("EXPLAIN QUERY PLAN " + sql)
                .rows(box.sqlValues + [filter.sqlValue]) { $0.text(3) ?? "" }
                .joined(separator: " | ")
            #expect(plan.contains(expected), "\(plan)")
            #expect(!plan.contains("SCAN p"), "full scan of place: \(plan)")
        }
    }

    @Test func badInputIsAClearError() throws {
        let db = try GeoDatabase(path: try Self.helsinki.get())
        let point = Coordinate(lat: 60.1699, lon: 24.9384)
        let unknown = #expect(throws: GeoDBError.self) { try CategoryFilter.resolve(["cofee"]) }
        #expect(unknown?.description.contains("did you mean: cafe") == true)
        for radius in [0.0, -5, 1e9, .nan] {
            #expect(throws: GeoDBError.self) { try db.places(near: point, radius: radius) }
        }
        #expect(throws: GeoDBError.self) { try db.places(near: Coordinate(lat: 91, lon: 0), radius: 100) }
        #expect(throws: GeoDBError.self) { try db.places(near: point, radius: 100, limit: 0) }
        #expect(throws: GeoDBError.self) { try db.places(near: point, radius: 100, after: "not-a-cursor") }
        // FTS syntax in a name filter is only ever words.
        for name in ["\"", "*", "NEAR(a b)", "-x", "a OR b", "(", "^"] {
            _ = try db.places(near: point, radius: 1000, name: name)
        }
    }
}
