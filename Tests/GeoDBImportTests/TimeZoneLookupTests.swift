// Timezone lookups: a hand-drawn fixture whose answers are known, exactness against a brute-force
// reference, the grid against plain polygon tests, known places with their clocks, and the world file
// against GeoNames.
import Foundation
import GeoDB
import GeoDBSQLite
@testable import GeoDBImport
import Testing
import TestSupport

/// Tests/Fixtures/timezones-fixture.geojson (lon →, lat ↑; squares in degrees):
///
///     20 ┌─────────┐
///        │  North  │
///     10 ├─────────┼─────────┐         ┌─────────┐       ┌
///        │  West   │  East   │         │  Big    │       │ ╲  Triangle
///        │ ┌─────┐ │         │         │ ┌──┐    │       │   ╲
///        │ │ [E] │ │         │         │ │Sm│    │       │     ╲
///        │ └─────┘ │         │         │ └──┘    │       │       ╲
///      0 └─────────┴─────────┘         └─────────┘       └────────
///        0  4   6  10        20        30 32 34  40      50       60
///
/// West has a hole (4…6)² with Enclave (4.5…5.5)² inside it; Small overlaps Big (not a hole);
/// Dateline is two squares lat −20…−10, lon 170…180 and −180…−170; Polar covers lat 80…90.
@Suite struct TimeZoneLookupTests {
    static let fixture = TestPaths.fixture("timezones-fixture.geojson")

    func lookup(_ input: String = fixture, gridLevel: Int = TimeZoneImport.gridLevel) throws -> TimeZoneLookup {
        try TimeZoneLookup(path: try TimeZoneTestData.database(input, gridLevel: gridLevel))
    }

    @Test(arguments: [
        (5.0, 2.0, "Test/West"), (5.0, 5.0, "Test/Enclave"), (5.0, 15.0, "Test/East"), (15.0, 5.0, "Test/North"),
        (5.0, 35.0, "Test/Big"), (3.0, 33.0, "Test/Small"), (2.0, 52.0, "Test/Triangle"),
        (-15.0, 175.0, "Test/Dateline"), (-15.0, -175.0, "Test/Dateline"),
        (-15.0, 179.9999999, "Test/Dateline"), (-15.0, -179.9999999, "Test/Dateline"),
        (-15.0, 180.0, "Test/Dateline"), (-15.0, -180.0, "Test/Dateline"),
        (85.0, 0.0, "Test/Polar"), (90.0, 0.0, "Test/Polar"), (90.0, 180.0, "Test/Polar"), (89.9999999, -180.0, "Test/Polar"),
    ])
    func fixturePolygons(lat: Double, lon: Double, tzid: String) throws {
        let match = try lookup().zone(at: Coordinate(lat: lat, lon: lon))
        #expect(match.tzid == tzid)
        #expect(match.source == .polygon)
    }

    @Test func pointsOnBordersBelongToTheZoneEastThenNorth() throws {
        let tz = try lookup()
        // The West/East border (lon 10) goes east; the West/North border (lat 10) goes north.
        #expect(try tz.zone(at: Coordinate(lat: 5, lon: 10)).candidates == ["Test/East"])
        #expect(try tz.zone(at: Coordinate(lat: 10, lon: 5)).candidates == ["Test/North"])
        #expect(try tz.tzid(at: Coordinate(lat: 0, lon: 5)) == "Test/West")     // south edge: inside
        #expect(try tz.tzid(at: Coordinate(lat: 5, lon: 0)) == "Test/West")     // west edge: inside
        // The hole's south edge: the point moves north, into the hole; West is 0 m away.
        let onHoleSouth = try tz.zone(at: Coordinate(lat: 4, lon: 5))
        #expect(onHoleSouth.tzid == "Test/West" && onHoleSouth.source == .nearest && onHoleSouth.distanceMeters == 0)
        // The hole's west edge (lon 4): the point moves east, into the hole, which Enclave does not reach.
        let onHoleEdge = try tz.zone(at: Coordinate(lat: 5, lon: 4))
        #expect(onHoleEdge.candidates.isEmpty)
        // Enclave's west edge is inside Enclave; its east edge is in the hole.
        #expect(try tz.tzid(at: Coordinate(lat: 5, lon: 4.5)) == "Test/Enclave")
        #expect(try tz.zone(at: Coordinate(lat: 5, lon: 5.5)).source == .nearest)
        // On the triangle's hypotenuse the point moves east, out of it: the nearest zone, 0 m away.
        let hypotenuse = try tz.zone(at: Coordinate(lat: 5, lon: 55))
        #expect(hypotenuse.tzid == "Test/Triangle" && hypotenuse.source == .nearest && hypotenuse.distanceMeters == 0)
    }

    @Test func holesNearestAndOcean() throws {
        let tz = try lookup()
        // In West's hole, 0.1° (11 km) from its edge and 0.4° from Enclave: the nearest zone is West.
        let inHole = try tz.zone(at: Coordinate(lat: 4.1, lon: 4.1))
        #expect(inHole.tzid == "Test/West" && inHole.source == .nearest)
        #expect(inHole.candidates.isEmpty)
        #expect(abs((inHole.distanceMeters ?? 0) - 11_100) < 100)
        // Far from everything: the nautical zone of the longitude.
        for (lon, tzid) in [(-30.0, "Etc/GMT+2"), (0.0, "Etc/GMT"), (-7.5, "Etc/GMT"), (7.5, "Etc/GMT-1"), (100.0, "Etc/GMT-7"),
                            (172.5, "Etc/GMT-12"), (-172.6, "Etc/GMT+12"), (-180.0, "Etc/GMT+12")] {
            let match = try tz.zone(at: Coordinate(lat: -50, lon: lon))
            #expect(match.tzid == tzid && match.source == .ocean, "lon \(lon): \(match)")
        }
        // The nearest search sees across the antimeridian: 0.1° east of Dateline's western square.
        let across = try tz.zone(at: Coordinate(lat: -9.95, lon: -179.95))
        #expect(across.tzid == "Test/Dateline" && across.source == .nearest)
    }

    /// The nearest-zone search window ends exactly on the antimeridian: at the poles (it spans all
    /// longitudes) and 22,224 m east of -180° on the equator. These crashed once. (Etc/GMT-2 of the
    /// small file reaches the North Pole.)
    @Test(arguments: [(90.0, 0.0, "Etc/GMT-2"), (-90.0, 0.0, "Etc/GMT"), (0.0, -179.800135, "Etc/GMT+12"),
                      (0.0, 179.800135, "Etc/GMT-12")])
    func searchWindowOnTheAntimeridian(lat: Double, lon: Double, tzid: String) throws {
        let tz = try lookup(TestPaths.sampleData("timezones-small.geojson"))
        #expect(try tz.tzid(at: Coordinate(lat: lat, lon: lon)) == tzid)
    }

    @Test func overlappingZonesSmallestPolygonFirst() throws {
        let tz = try lookup()
        let match = try tz.zone(at: Coordinate(lat: 3, lon: 33))
        #expect(match.tzid == "Test/Small")
        #expect(match.candidates == ["Test/Small", "Test/Big"])
        #expect(try tz.zone(at: Coordinate(lat: 8, lon: 38)).candidates == ["Test/Big"])
    }

    @Test func unknownZonesStillAnswerTheirId() throws {
        let answer = try lookup().timeZone(at: Coordinate(lat: 5, lon: 2))
        #expect(answer.tzid == "Test/West")
        #expect(!answer.knownToSystem)
        #expect(answer.utcOffsetSeconds == nil && answer.localTime == nil && answer.timeZone == nil)
    }

    @Test func invalidCoordinatesAreRefused() throws {
        let tz = try lookup()
        for c in [Coordinate(lat: 91, lon: 0), Coordinate(lat: 0, lon: -180.5), Coordinate(lat: .nan, lon: 0)] {
            let error = #expect(throws: GeoDBError.self) { _ = try tz.tzid(at: c) }
            #expect(error?.code == .invalidArgument)
        }
    }

    /// Every answer equals the brute-force reference: random points, every vertex, and points one unit
    /// (1e-7°) around vertices, with and without the grid.
    @Test(arguments: ["timezones-fixture.geojson", "timezones-small.geojson"])
    func answersEqualBruteForce(file: String) throws {
        let input = file.contains("fixture") ? TestPaths.fixture(file) : TestPaths.sampleData(file)
        let reference = try ReferenceZones(path: input)
        let withGrid = try lookup(input), withoutGrid = try lookup(input, gridLevel: -1)
        var points: [Point7] = []
        var random = TestRandom(state: 42)
        for polygon in reference.polygons {
            let xs = polygon.rings[0].map(\.x), ys = polygon.rings[0].map(\.y)
            let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
            for _ in 0..<300 {
                points.append(Point7(lat: Int32(Double(y0) + random.next() * Double(y1 - y0)),
                                     lon: Int32(Double(x0) + random.next() * Double(x1 - x0))))
            }
            for ring in polygon.rings {
                for v in ring.prefix(60) {
                    for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
                        let x = v.x + Int64(dx), y = v.y + Int64(dy)
                        if abs(x) <= 1_800_000_000 && abs(y) <= 900_000_000 { points.append(Point7(lat: Int32(y), lon: Int32(x))) }
                    }
                }
            }
        }
        var mismatches: [String] = []
        for p in points {
            // The lookup moves latitude 90 and longitude 180 as the grid does; ask the reference there too.
            let q = TimeZoneGrid.Position(p).point
            let expected = reference.containing(q)
            let c = p.coordinate
            let a = try withGrid.zone(at: c), b = try withoutGrid.zone(at: c)
            if a != b { mismatches.append("\(c): grid \(a) vs none \(b)") }
            if expected.isEmpty {
                if a.source == .polygon { mismatches.append("\(c): \(a.tzid) but no polygon contains it") }
            } else if a.candidates != expected || a.tzid != expected[0] || a.source != .polygon {
                mismatches.append("\(c): \(a.candidates) expected \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(points.count): \(mismatches.prefix(5))")
    }

    /// Each stored grid cell lies wholly in its zone: its corners' insides and random points agree.
    @Test func gridCellsAgreeWithPolygons() throws {
        let path = try TimeZoneTestData.database(TestPaths.sampleData("timezones-small.geojson"))
        let db = try Connection(path: path, mode: .readOnly())
        let zones = Dictionary(uniqueKeysWithValues: try db.prepare("SELECT id, tzid FROM timezone").rows { ($0.int(0), $0.text(1) ?? "") })
        let rows = try db.prepare("SELECT cell, timezone_id FROM timezone_grid").rows { (Int($0.int(0)), $0.int(1)) }
        #expect(rows.count > 10_000)
        let polygonsOnly = try lookup(TestPaths.sampleData("timezones-small.geojson"), gridLevel: -1)
        var random = TestRandom(state: 7)
        for (index, row) in rows.enumerated() where index % 7 == 0 {
            let cell = try #require(TimeZoneGrid.Cell(id: row.0))
            #expect(cell.id == row.0)
            let last = cell.size - 1
            for (dx, dy) in [(0, 0), (last, 0), (0, last), (last, last), (Int(random.next() * Double(last)), Int(random.next() * Double(last)))] {
                let p = TimeZoneGrid.Position(x: cell.minX + dx, y: cell.minY + dy).point
                let match = try polygonsOnly.zone(at: p.coordinate)
                #expect(match.candidates == [zones[row.1] ?? ""], "cell \(row.0) level \(cell.level) at \(p.coordinate)")
            }
        }
    }

    /// Known places on SampleData/timezones-small.geojson, in winter and summer.
    @Test(arguments: [
        // lat, lon, tzid, January offset/DST/abbreviation, July offset/DST/abbreviation
        (60.1699, 24.9384, "Europe/Helsinki", 7200, false, "EET", 10800, true, "EEST"),
        (52.5200, 13.4050, "Europe/Berlin", 3600, false, "CET", 7200, true, "CEST"),
        (40.7128, -74.0060, "America/New_York", -18000, false, "EST", -14400, true, "EDT"),
        (22.5726, 88.3639, "Asia/Kolkata", 19800, false, "IST", 19800, false, "IST"),
        (-31.5553, 159.0821, "Australia/Lord_Howe", 39600, true, "+11", 37800, false, "+1030"),
        (-44.0, -176.5, "Pacific/Chatham", 49500, true, "+1345", 45900, false, "+1245"),
    ] as [(Double, Double, String, Int, Bool, String, Int, Bool, String)])
    func knownPlaces(_ place: (Double, Double, String, Int, Bool, String, Int, Bool, String)) throws {
        let (lat, lon, tzid, winterOffset, winterDST, winterName, summerOffset, summerDST, summerName) = place
        let tz = try lookup(TestPaths.sampleData("timezones-small.geojson"))
        let systemNames = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/\(tzid)")
        for (date, offset, dst, name) in [(Self.january, winterOffset, winterDST, winterName), (Self.july, summerOffset, summerDST, summerName)] {
            let a = try tz.timeZone(at: Coordinate(lat: lat, lon: lon), date: date)
            #expect(a.tzid == tzid && a.source == .polygon && a.candidates == [tzid])
            #expect(a.knownToSystem && a.timeZone?.identifier == tzid)
            #expect(a.utcOffsetSeconds == offset && a.isDST == dst)
            if systemNames { #expect(a.abbreviation == name) }
            #expect(a.localTime == ISO8601Text.local(Int64(date.timeIntervalSince1970), offset: offset))
            if tzid == "Asia/Kolkata" { #expect(a.nextTransition == nil) } else { #expect(a.nextTransition != nil) }
        }
    }

    static let january = Date(timeIntervalSince1970: 1_768_478_400)   // 2026-01-15T12:00:00Z
    static let july = Date(timeIntervalSince1970: 1_782_907_200)      // 2026-07-01T12:00:00Z

    @Test func clockDetails() throws {
        let tz = try lookup(TestPaths.sampleData("timezones-small.geojson"))
        let helsinki = try tz.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384), date: Self.july)
        #expect(helsinki.localTime == "2026-07-01T15:00:00+03:00")
        #expect(helsinki.nextTransition.map(ISO8601Text.utc) == "2026-10-25T01:00:00Z")
        #expect(helsinki.nextUTCOffsetSeconds == 7200)
        let chatham = try tz.timeZone(at: Coordinate(lat: -44.0, lon: -176.5), date: Self.july)
        #expect(chatham.localTime == "2026-07-02T00:45:00+12:45")
        // Jungholz, an Austrian village in a hole of Germany's polygon; the small file has no Vienna zone.
        let jungholz = try tz.timeZone(at: Coordinate(lat: 47.5745, lon: 10.4480), date: Self.july)
        #expect(jungholz.tzid == "Europe/Berlin" && jungholz.source == .nearest && jungholz.candidates.isEmpty)
        // Open ocean in the file's one ocean zone, and outside it.
        #expect(try tz.zone(at: Coordinate(lat: 34.0, lon: 25.0)).tzid == "Etc/GMT-2")
        let atlantic = try tz.timeZone(at: Coordinate(lat: 0, lon: -30), date: Self.july)
        #expect(atlantic.tzid == "Etc/GMT+2" && atlantic.source == .ocean && atlantic.utcOffsetSeconds == -7200)
    }

    @Test func lazyAndEagerLoadingAnswerAlike() throws {
        let path = try TimeZoneTestData.database(TestPaths.sampleData("timezones-small.geojson"))
        let lazy = try TimeZoneLookup(path: path, loading: .lazy), eager = try TimeZoneLookup(path: path, loading: .eager)
        var random = TestRandom(state: 3)
        for _ in 0..<5000 {
            let c = Coordinate(lat: random.next() * 180 - 90, lon: random.next() * 360 - 180)
            #expect(try lazy.zone(at: c) == eager.zone(at: c))
        }
    }

    @Test func databaseWithoutTimezones() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("places.sqlite")
        _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: path)
        let db = try GeoDatabase(path: path)
        #expect(!db.hasTimeZones)
        #expect(try db.withSession { try $0.timeZones() } == nil)
        let error = #expect(throws: GeoDBError.self) { _ = try TimeZoneLookup(path: path) }
        #expect(error?.message.contains("has no timezones") == true)
        let viaDatabase = #expect(throws: GeoDBError.self) { _ = try db.timeZone(at: Coordinate(lat: 60, lon: 25)) }
        #expect(viaDatabase?.remedy?.contains("import timezone boundaries") == true)
    }
}

/// The simplified world file (SampleData/timezones.geojson), when present.
@Suite(.enabled(if: TimeZoneTestData.hasWorldFile,
                "needs SampleData/timezones.geojson (the world timezone file, 6 MB)"))
struct WorldTimeZoneTests {
    func lookup() throws -> TimeZoneLookup {
        try TimeZoneLookup(path: try TimeZoneTestData.database(TimeZoneTestData.worldFile), loading: .eager)
    }

    @Test(arguments: [
        (-18.1416, 178.4419, "Pacific/Fiji"), (-16.8, -179.97, "Pacific/Fiji"),    // both sides of the antimeridian
        (-16.5, 179.99, "Pacific/Fiji"), (-16.5, -179.99, "Pacific/Fiji"),
        (65.5, 179.9, "Asia/Anadyr"), (65.5, -179.9, "Asia/Anadyr"),
        (0.0, 179.9, "Etc/GMT-12"), (0.0, -179.9, "Etc/GMT+12"), (0.0, -30.0, "Etc/GMT+2"),
        (-44.0, -176.5, "Pacific/Chatham"), (-31.5553, 159.0821, "Australia/Lord_Howe"),
        (89.9, 0.0, "Etc/GMT"), (90.0, 0.0, "Etc/GMT"), (-89.9, 0.0, "Antarctica/McMurdo"), (-90.0, 120.0, "Antarctica/McMurdo"),
        (47.5745, 10.4480, "Europe/Vienna"),   // Jungholz: in a hole of Germany
        (26.30, 88.95, "Asia/Dhaka"),          // Dahagram-Angarpota: in a hole of India
        (60.1699, 24.9384, "Europe/Helsinki"), (22.5726, 88.3639, "Asia/Kolkata"),
    ])
    func places(lat: Double, lon: Double, tzid: String) throws {
        let match = try lookup().zone(at: Coordinate(lat: lat, lon: lon))
        #expect(match.tzid == tzid && match.source == .polygon)
    }

    @Test func urumqiInsideShanghai() throws {
        let match = try lookup().zone(at: Coordinate(lat: 43.8, lon: 87.6))
        #expect(match.tzid == "Asia/Urumqi")
        #expect(match.candidates == ["Asia/Urumqi", "Asia/Shanghai"])
    }

    /// GeoNames' timezone column is a public oracle that lags the boundaries in places: assert a floor and
    /// report the rate.
    @Test func agreementWithGeoNamesCities15000() throws {
        let cities = TestPaths.sampleData("cities15000.txt")
        let tz = try lookup()
        var compared = 0, agreed = 0
        for line in try String(contentsOfFile: cities, encoding: .utf8).split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count > 17, let lat = Double(f[4]), let lon = Double(f[5]), !f[17].isEmpty else { continue }
            compared += 1
            if try tz.tzid(at: Coordinate(lat: lat, lon: lon)) == f[17] { agreed += 1 }
        }
        let rate = Double(agreed) / Double(max(compared, 1))
        print("timezone agreement with GeoNames cities15000: \(agreed)/\(compared) = \(String(format: "%.3f", rate * 100)) %")
        #expect(compared > 30_000)
        #expect(rate >= 0.99)
    }
}
