// Nominatim's `entrances=1` on SampleData/liechtenstein.osm.pbf: a building's entrance nodes in /lookup,
// /reverse, /search and /details, in each format's shape (json, jsonv2, geojson, geocodejson, xml), null when
// a place has none, left out when not asked.
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct NominatimEntranceTests {
    static func server() throws -> ServerProcess { try ServerAPITests.server() }

    /// Rathaus Vaduz (way 28712183) and its two doors, by node id, as Nominatim writes them.
    static let townHall = "W28712183"
    static let doors: [[String: String]] = [
        ["osm_id": "9723046556", "type": "yes", "lat": "47.1406168", "lon": "9.5218968"],
        ["osm_id": "9723046557", "type": "main", "lat": "47.1407957", "lon": "9.5220114"],
    ]

    /// An `entrances` array as text fields, to compare with `doors`.
    static func texts(_ value: Any?) throws -> [[String: String]] {
        let items = try #require(value as? [[String: Any]], "entrances: \(String(describing: value))")
        return items.map { item in item.filter { $0.key != "extratags" }.mapValues { "\($0)" } }
    }

    @Test(arguments: ["json", "jsonv2"]) func lookupAndReverse(format: String) throws {
        let server = try Self.server()
        let lookup = try server.get("/lookup", [("osm_ids", Self.townHall), ("entrances", "1"), ("format", format)]).array()
        #expect(try Self.texts(lookup.first?["entrances"]) == Self.doors)
        // The coordinates are strings with seven decimals, the id a number.
        let first = try #require((lookup.first?["entrances"] as? [[String: Any]])?.first)
        #expect(first["lat"] is String && first["osm_id"] is Int && first["extratags"] == nil)

        // Reverse at the main door finds the building.
        let reverse = try server.get("/reverse", [("lat", "47.14078"), ("lon", "9.52199"), ("zoom", "18"), ("entrances", "1"),
                                                  ("format", format)]).object()
        #expect(reverse["osm_id"] as? Int == 28712183)
        #expect(try Self.texts(reverse["entrances"]) == Self.doors)
    }

    @Test func geojsonGeocodejsonAndXML() throws {
        let server = try Self.server()
        let geojson = try server.get("/lookup", [("osm_ids", Self.townHall), ("entrances", "1"), ("format", "geojson")]).object()
        let feature = try #require((geojson["features"] as? [[String: Any]])?.first)
        #expect(try Self.texts((feature["properties"] as? [String: Any])?["entrances"]) == Self.doors)

        let geocodejson = try server.get("/lookup", [("osm_ids", Self.townHall), ("entrances", "1"), ("format", "geocodejson")]).object()
        let geocoding = ((geocodejson["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any]
        #expect(try Self.texts(geocoding?["entrances"]) == Self.doors)

        // XML: an <entrances> element in the place, an <entrance> per door; a door's other tags as <tag>s.
        let text = try server.get("/lookup", [("osm_ids", "\(Self.townHall),W213915484"), ("entrances", "1")]).text
        let places = try NominatimFormatTests.parseXML(text).children
        #expect(places.count == 2 && places.allSatisfy { ($0["children"] as? [[String: Any]] ?? []).contains { $0["tag"] as? String == "entrances" } })
        #expect(text.contains(#"<entrances><entrance osm_id="9723046556" type="yes" lat="47.1406168" lon="9.5218968"/><entrance osm_id="9723046557" type="main" lat="47.1407957" lon="9.5220114"/></entrances>"#))
        #expect(text.contains(#"<entrance osm_id="2235603635" type="yes" lat="47.1071411" lon="9.5275785"><tag key="addr:city" value="Triesen"/>"#))
    }

    @Test func detailsSearchAndPlacesWithout() throws {
        let server = try Self.server()
        let details = try server.get("/details", [("osmtype", "W"), ("osmid", "213915484"), ("entrances", "1")]).object()
        let door = try #require((details["entrances"] as? [[String: Any]])?.first)
        #expect(door["osm_id"] as? Int == 2235603635 && door["type"] as? String == "yes")
        #expect((door["extratags"] as? [String: String])?["addr:housenumber"] == "7")
        #expect((door["extratags"] as? [String: String])?["survey:date"] == nil)

        let search = try server.get("/search", [("q", "Rathaus Vaduz"), ("entrances", "1"), ("limit", "1")]).array()
        #expect(search.first?["osm_id"] as? Int == 28712183)
        #expect(try Self.texts(search.first?["entrances"]) == Self.doors)

        // A place without entrances: null, as Nominatim writes it; not asked: no field.
        let town = try server.get("/lookup", [("osm_ids", "N1932181216"), ("entrances", "1"), ("format", "json")]).array()
        #expect(town.first?.keys.contains("entrances") == true && town.first?["entrances"] is NSNull)
        let plain = try server.get("/lookup", [("osm_ids", Self.townHall), ("format", "json")]).array()
        #expect(plain.first?.keys.contains("entrances") == false)
        let plainDetails = try server.get("/details", [("osmtype", "W"), ("osmid", "28712183")]).object()
        #expect(plainDetails.keys.contains("entrances") == false)
    }
}
