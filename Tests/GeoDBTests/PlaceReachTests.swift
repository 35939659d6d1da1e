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
