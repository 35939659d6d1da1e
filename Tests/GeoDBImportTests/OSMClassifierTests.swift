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
        // A stop tagged both ways is a bus stop, as Nominatim and Photon answer it.
        ([("public_transport", "platform"), ("highway", "bus_stop"), ("bus", "yes")], "highway=bus_stop"),
        ([("public_transport", "platform"), ("railway", "platform")], "public_transport=platform"),
        ([("name", "Esplanadi")], nil),
    ] as [([(String, String)], String?)])
    func poiCategoryFollowsKeyPriority(tags: [(String, String)], category: String?) {
        #expect(OSMClassifier.poiCategory(OSMTags(tags)) == category)
    }

    /// Which POIs take the nearest named street as their address (`AddressCompleter`): destinations at a
    /// street, not natural features or land.
    @Test func aPOIAtAStreet() {
        for category in ["amenity=cafe", "tourism=information", "highway=bus_stop", "shop=bakery", "historic=monument"] {
            #expect(AddressCompleter.isAtAStreet(category: category), "\(category)")
        }
        for category in ["natural=peak", "waterway=river", "landuse=forest", "aeroway=aerodrome", "place=locality", nil] {
            #expect(!AddressCompleter.isAtAStreet(category: category), "\(String(describing: category))")
        }
    }
}
