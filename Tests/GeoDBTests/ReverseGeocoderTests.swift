// Reverse geocoding on a hand-drawn map (exact answers) and on SampleData.
import Foundation
@testable import GeoDB
import Testing
import GeoDBImport
import TestSupport

@Suite struct ReverseGeocoderTests {
    let map: GeoDatabase

    init() throws {
        map = try GeoDatabase(path: try TestDatabases.fixture("reverse.osm"))
    }

    func answer(_ lat: Double, _ lon: Double, level: ReverseLevel = .address, radius: Double? = nil, limit: Int = 1,
                in db: GeoDatabase? = nil) throws -> [ReverseResult] {
        var options = ReverseOptions()
        options.level = level
        options.radius = radius
        options.limit = limit
        return try (db ?? map).reverse(at: Coordinate(lat: lat, lon: lon), options: options)
    }

    @Test func insideAHouseIsThatHouse() throws {
        let r = try #require(try answer(61.00025, 25.0011).first)
        #expect(r.place.sourceRef?.description == "w105" && r.place.distanceM == 0)
        #expect(r.place.address.housenumber == "3" && r.place.address.street == "Rinnakkaiskatu")
        #expect(r.place.address.city == "Testikylä" && r.hierarchySource == .nearestPlace)
    }

    @Test func cornerHouse() throws {
        let r = try #require(try answer(61.00008, 25.01010).first)
        #expect(r.place.sourceRef?.description == "n20" && (r.place.distanceM ?? 99) < 2)
        #expect(r.place.displayName == "Poikkikatu 1, 99999 Testikylä")
    }

    @Test func longStreetIsMeasuredToItsSegmentNotItsVertices() throws {
        // 11 m south of the footway-free part: Pitkäkatu's vertices are 500 m away, its segment 11 m.
        let r = try #require(try answer(61.0001, 25.0120).first)
        #expect(r.place.sourceRef?.description == "w100" && abs((r.place.distanceM ?? 0) - 11.12) < 0.05)
    }

    @Test func namedStreetBeatsANearlyAsCloseFootwayAndUnnamedRoadsAreNotAnswers() throws {
        // The unnamed service road is 5.6 m away, the footway "Polku" 5.6 m, Pitkäkatu 11.1 m.
        let r = try #require(try answer(61.0001, 25.0170).first)
        #expect(r.place.sourceRef?.description == "w100")
        let two = try answer(61.0001, 25.0170, limit: 2)
        #expect(two.map(\.place.sourceRef?.description) == ["w100", "w103"])
    }

    @Test func interpolatedNumber() throws {
        // Numbers 2…20 (even) along 25.002…25.008: 10 is 8/18 of the way.
        let r = try #require(try answer(61.0001, 25.002 + 0.006 * 8 / 18).first)
        #expect(r.place.kind == .interpolation && r.place.match == .interpolated)
        #expect(r.place.address.housenumber == "10" && r.place.address.street == "Pitkäkatu")
        // Placed where 10 lies on the line (8/18 of the way from 2 to 20), not at the query point or the middle.
        #expect(abs(r.place.lat - 61.00008) < 1e-6 && abs(r.place.lon - (25.002 + 0.006 * 8 / 18)) < 1e-6)
    }

    @Test func houseBetweenTwoStreetsAtStreetLevel() throws {
        // 11 m from Rinnakkaiskatu, 33 m from Pitkäkatu.
        #expect(try answer(61.0003, 25.0030, level: .street).first?.place.sourceRef?.description == "w102")
        #expect(try answer(61.0001, 25.0030, level: .street).first?.place.sourceRef?.description == "w100")
    }

    /// A database without boundaries answers a point far from everything with the nearest settlement, at
    /// any distance, marked as such (as reverse_geocoder does).
    @Test func farFromEverythingIsTheNearestSettlement() throws {
        let far = try #require(try answer(62.0, 26.0).first)
        #expect(far.place.name == "Testikylä" && far.place.match == .nearest && far.hierarchySource == .nearestPlace)
        #expect((far.place.distanceM ?? 0) > 100_000)
        #expect(try answer(62.0, 26.0, level: .city, radius: 200_000).first?.place.name == "Testikylä")
        #expect(throws: GeoDBError.self) { try answer(95, 0) }
        #expect(throws: GeoDBError.self) { try answer(0, 181) }
        #expect(throws: GeoDBError.self) { try answer(0, 0, radius: -1) }
    }

    /// An area level answers the finest place inside the area around the point, within its reach: zoomed to
    /// rank 22 (Nominatim's zoom 14) a point in Vaduz is in the village Ebenholz, a node 1.2 km away inside
    /// Vaduz, not in the neighbourhood Oberdorf 4 km away; at rank 18 (zoom 12) and at city level in Vaduz.
    @Test func areaLevelIsTheFinestPlaceInsideTheAreaAround() throws {
        let li = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let point = Coordinate(lat: 47.14052, lon: 9.52202)
        var options = ReverseOptions()
        options.level = .suburb
        options.maxRank = 22
        let ebenholz = try #require(try li.reverse(at: point, options: options).first)
        #expect(ebenholz.place.sourceRef?.description == "n3577169505" && ebenholz.place.name == "Ebenholz")
        #expect(abs((ebenholz.place.distanceM ?? 0) - 1_223) < 5)
        options.maxRank = 18
        #expect(try li.reverse(at: point, options: options).first?.place.name == "Vaduz")
        let city = try #require(try answer(point.lat, point.lon, level: .city, in: li).first)
        #expect(city.place.name == "Vaduz" && city.place.match == .area)
    }

    /// A POI nearer than any address or street answers: 1.8 m from the viewpoint Känzile, 23 m from the street.
    @Test func aPOIAFewMetresAwayBeatsTheStreet() throws {
        let li = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let r = try #require(try answer(47.14077, 9.52414, in: li).first)
        #expect(r.place.sourceRef?.description == "n315637019" && r.place.category?.description == "tourism=viewpoint")
        var options = ReverseOptions()
        options.layers = [.address]
        #expect(try li.reverse(at: Coordinate(lat: 47.14077, lon: 9.52414), options: options).first?.place.kind == .street)
    }

    /// Inside a building, the POI node in it answers (the office foo.li in Hampfländer 64, 2 m away), at the
    /// building's address; with addresses alone, the building.
    @Test func aPOINodeInsideABuildingBeatsTheBuilding() throws {
        let li = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let point = Coordinate(lat: 47.0629258, lon: 9.4879771)
        let r = try #require(try li.reverse(at: point).first)
        #expect(r.place.sourceRef?.description == "n6531458431" && r.place.name == "foo.li")
        #expect(r.place.address.housenumber == "64" && r.place.address.street == "Hampfländer")
        var options = ReverseOptions()
        options.layers = [.address]
        #expect(try li.reverse(at: point, options: options).first?.place.sourceRef?.description == "w165295777")
    }

    /// Features coarser than a street answer by rank first: 100 m from the peak Goldlochspitz (rank 18), the
    /// stream Schmarztobel (22) farther away answers when streams may (Nominatim's zoom 14), the peak when not.
    @Test func coarseFeaturesAnswerTheFinestRankFirst() throws {
        let li = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let point = Coordinate(lat: 47.0825, lon: 9.5685)
        var options = ReverseOptions()
        options.layers = [.natural]
        options.maxRank = 22
        #expect(try li.reverse(at: point, options: options).first?.place.name == "Schmarztobel")
        options.maxRank = 18
        #expect(try li.reverse(at: point, options: options).first?.place.name == "Goldlochspitz")
    }

    @Test func helsinkiAddressesAndStreets() throws {
        let helsinki = try GeoDatabase(path: try TestDatabases.helsinki())
        // At the Stockmann building: that building (its address).
        let stockmann = try #require(try answer(60.1683, 24.9421, in: helsinki).first)
        #expect(stockmann.place.sourceRef?.description == "w122595241" && stockmann.place.distanceM == 0)
        #expect(stockmann.place.address.street == "Aleksanterinkatu" && stockmann.place.address.city != nil)
        // On Mannerheimintie, street level.
        let street = try #require(try answer(60.1718147, 24.9355891, level: .street, in: helsinki).first)   // on its line
        #expect(street.place.name == "Mannerheimintie" && (street.place.distanceM ?? 9) < 1)
        // Points on known addresses return them: every 50th address node of the extract.
        let addresses = try helsinki.search("Aleksanterinkatu", options: { var o = SearchOptions(); o.kinds = [.address]; o.limit = 20; return o }())
        for a in addresses {
            let r = try #require(try answer(a.lat, a.lon, in: helsinki).first)
            #expect(r.place.distanceM == 0)
            #expect(r.place.address.housenumber == a.address.housenumber, "\(a.sourceRef?.description ?? "")")
        }
    }

    /// With a gazetteer beside the city (few geometries, many places), the street search still starts
    /// from the R*Tree, never from a scan of all geometries.
    @Test func streetSearchStartsFromTheRTree() throws {
        let session = try QuerySession(path: try TestDatabases.combined())
        let plan = try session.db.connection.prepare("EXPLAIN QUERY PLAN " + ReverseGeocoder.streetsInBoxSQL)
            .rows([.real(24.9), .real(60.1), .real(25.0), .real(60.2)]) { $0.text(3) ?? "" }
        #expect(plan.first?.hasPrefix("SCAN r VIRTUAL TABLE") == true, "\(plan)")
        #expect(!plan.contains("SCAN g"), "\(plan)")
    }

    /// GeoNames only: the nearest populated place by great-circle distance, for random points over the
    /// whole sphere and points at the antimeridian and the poles, equals a brute-force haversine scan.
    @Test func geonamesNearestPlaceEqualsBruteForce() throws {
        let path = try TestDatabases.cities()
        let cities = try GeoDatabase(path: path)
        let all = try scanPlaces(path).filter { ["city", "town", "village", "hamlet"].contains($0.kind) }
        #expect(all.count > 30_000)
        var random = SplitMix(seed: 5)
        var points = [Coordinate(lat: 0, lon: 180), Coordinate(lat: -17.7, lon: -179.9), Coordinate(lat: -17.7, lon: 179.9),
                      Coordinate(lat: 65.5, lon: -180), Coordinate(lat: 89.99, lon: 0), Coordinate(lat: -89.99, lon: 45),
                      Coordinate(lat: 48.2, lon: 16.37), Coordinate(lat: 60.17, lon: 24.94)]
        for _ in 0..<2_000 {
            // Uniform on the sphere: latitude from the arcsine of a uniform number.
            points.append(Coordinate(lat: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                                     lon: Double.random(in: -180...180, using: &random)))
        }
        for point in points {
            let got = try answer(point.lat, point.lon, level: .city, radius: 20_000_000, in: cities).first
            let expected = all.map { ($0.id, point.distance(to: $0.coordinate)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(got?.place.id == expected?.0, "\(point): got \(got?.place.name ?? "nothing"), expected place \(expected?.0 ?? 0)")
        }
        // The five nearest, in order (ties by id), within 30 km; with none so near, the five nearest at any
        // distance, marked as such.
        for point in points.prefix(60) {
            let answers = try answer(point.lat, point.lon, level: .city, radius: 30_000, limit: 5, in: cities)
            let byDistance = all.map { ($0.id, point.distance(to: $0.coordinate)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            let near = byDistance.filter { $0.1 <= 30_000 }
            #expect(answers.map(\.place.id) == (near.isEmpty ? byDistance : near).prefix(5).map(\.0), "\(point)")
            #expect(answers.allSatisfy { ($0.place.match == .nearest) == near.isEmpty }, "\(point)")
        }
        let vienna = try #require(try answer(48.2, 16.37, level: .city, in: cities).first)
        #expect(vienna.place.name == "Vienna" && vienna.place.address.country == "Austria")
        #expect(vienna.place.timezone == "Europe/Vienna")
    }

    @Test func answersCarryTheTimeZoneOfThePoint() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("tz.sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"), TestPaths.sampleData("timezones-small.geojson")],
                             output: path)
        let db = try GeoDatabase(path: path)
        var options = ReverseOptions()
        options.includeTimeZone = true
        let r = try #require(try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545), options: options).first)
        #expect(r.timezone == "Europe/Helsinki")
        #expect(try map.reverse(at: Coordinate(lat: 61.00025, lon: 25.0011)).first?.timezone == nil)
    }
}
