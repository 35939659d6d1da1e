// The one table of how far a place reaches and when two records are one place (PlaceReach, SamePlace),
// which the importer, reverse geocoding, search and the server all read.
@testable import GeoDB
import Testing

@Suite struct PlaceReachTests {
    @Test func eachKindReachesAsFarAsItsTableSays() {
        #expect(PlaceReach.metres(PlaceKind.city) == 15_000 && PlaceReach.metres(PlaceKind.village) == 4_000)
        #expect(PlaceReach.metres(PlaceKind.poi) == nil && PlaceReach.metres(PlaceKind.street) == nil)
        // A level reaches as far as its farthest kind: a city 15 km, a suburb 2.5 km.
        #expect(PlaceReach.metres(AddressLevel.city) == 15_000 && PlaceReach.metres(AddressLevel.suburb) == 2_500)
        #expect(PlaceReach.townKinds.allSatisfy { PlaceReach.metres($0) != nil })
    }

    @Test func twoRecordsAreOnePlaceWithinTheSmallerReach() {
        #expect(SamePlace.maxDistance(.city, .village) == 4_000)   // a GeoNames city that OSM calls a village
        #expect(SamePlace.maxDistance(.country, .country) == 1_000_000)
        #expect(SamePlace.maxDistance(.poi, .poi) == 100)
        #expect(SamePlace.maxDistance(.poi, .street) == nil && SamePlace.maxDistance(.city, .county) == nil)
    }

    @Test func namesAreComparedOnceFolded() {
        let keys = Set(["Hèlsingfors", "HELSINGFORS", " Helsingfors "].map(SamePlace.nameKey))
        #expect(keys == ["helsingfors"])
        #expect(SamePlace.nameKey("Sankt Gallen") != SamePlace.nameKey("St. Gallen"))
    }
}

/// The other rules every layer shares: what a country code is, how degrees are written.
@Suite struct SharedRuleTests {
    @Test func countryCodesAreTwoASCIILetters() {
        #expect(CountryCode.parse("fi") == "FI" && CountryCode.parse("Li") == "LI")
        // Two letters of another script were a code to Nominatim's structured search.
        for text in ["éé", "ФИ", "FIN", "F1", "", "f"] { #expect(CountryCode.parse(text) == nil, "\(text)") }
    }

    @Test func degreesAreSevenDecimalsAtMostWithoutAMinusZero() {
        #expect(DegreesText.decimal(9.5212345678) == "9.5212346")
        #expect(DegreesText.decimal(-47) == "-47" && DegreesText.decimal(24.9400) == "24.94")
        // %.7f with its zeros trimmed wrote "-0" for a value that rounds to zero.
        #expect(DegreesText.decimal(-0.00000001) == "0")
    }

    /// A square drawn clockwise with a hole drawn counterclockwise: RFC 7946 wants the opposite, closed.
    @Test func geoJSONPolygonsAreClosedAndWoundByTheRightHandRule() {
        let p = { (lat: Int32, lon: Int32) in Point7(lat: lat, lon: lon) }
        let outer = [p(0, 0), p(10, 0), p(10, 10), p(0, 10)]   // (lat, lon): north, then east: clockwise
        let hole = [p(2, 2), p(2, 4), p(4, 4), p(4, 2)]         // east, then north: counterclockwise
        guard case .polygon(let rings) = GeoJSONGeometry(.polygons([[outer, hole]])).coordinates else {
            Issue.record("not a polygon")
            return
        }
        // Turned, and from their least point, as Nominatim writes them.
        #expect(rings[0] == [p(0, 0), p(0, 10), p(10, 10), p(10, 0), p(0, 0)])
        #expect(rings[1] == [p(2, 2), p(4, 2), p(4, 4), p(2, 4), p(2, 2)])
        #expect(GeoJSONGeometry(.polygons([[outer], [hole]])).type == "MultiPolygon")
    }
}
