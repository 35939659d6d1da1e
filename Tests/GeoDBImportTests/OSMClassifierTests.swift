// Which tag makes an object's POI category when it has several POI keys.
@testable import GeoDBImport
import Testing

@Suite struct OSMClassifierTests {
    @Test(arguments: [
        ([("amenity", "cafe"), ("building", "yes")], "amenity=cafe"),          // the first key of the priority
        ([("building", "yes"), ("shop", "bakery")], "shop=bakery"),            // whatever the tags' order
        ([("railway", "rail"), ("building", "yes")], "building=yes"),          // an ignored value passes it on
        ([("amenity", "bench"), ("shop", "kiosk")], "shop=kiosk"),
        ([("shop", "no"), ("tourism", "hotel")], "tourism=hotel"),             // "no" is no POI
        ([("highway", "residential"), ("building", "no")], nil),               // highway only for some values
        ([("highway", "bus_stop"), ("name", "Rautatientori")], "highway=bus_stop"),
        ([("name", "Esplanadi")], nil),
    ] as [([(String, String)], String?)])
    func poiCategoryFollowsKeyPriority(tags: [(String, String)], category: String?) {
        #expect(OSMClassifier.poiCategory(OSMTags(tags)) == category)
    }
}
