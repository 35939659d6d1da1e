// Photon's API as Photon 1.x answers it, on Liechtenstein: its parameters checked as Photon checks them
// (an unknown one is a 400, limit cut to 1…50), its errors as {"message"}, its filters (osm_tag with
// key:!value, include/exclude categories, countrycode, layers), names by lang or Accept-Language, and
// reverse as the places nearest a point within a radius. Tools/verify/photon-expectations.py measures
// the same against Photon's documentation and tests.
import Foundation
import GeoDB
@testable import GeoDBServer
import Testing
import TestSupport

@Suite(.serialized) struct PhotonAPITests {
    static func properties(_ reply: ServerProcess.Reply) throws -> [[String: Any]] {
        let features = try #require(try reply.object()["features"] as? [[String: Any]], "\(reply.text.prefix(300))")
        return features.map { $0["properties"] as? [String: Any] ?? [:] }
    }

    static func metres(_ feature: [String: Any], from lat: Double, _ lon: Double) -> Double? {
        guard let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double], point.count == 2 else { return nil }
        return Coordinate(lat: point[1], lon: point[0]).distance(to: Coordinate(lat: lat, lon: lon))
    }

    @Test(arguments: [
        ("/api", [(String, String)]()), ("/api", [("q", "x"), ("bogus", "1")]), ("/api", [("q", "x"), ("limit", "NaN")]),
        ("/api", [("q", "x"), ("osm_tag", "bad:bad:bad")]), ("/api", [("q", "x"), ("osm_tag", "shop:")]), ("/api", [("q", "x"), ("include", "abc")]),
        ("/api", [("q", "x"), ("exclude", "a.b,!c.d")]), ("/api", [("q", "x"), ("zoom", "far")]), ("/api", [("q", "x"), ("location_bias_scale", "NaN")]),
        ("/api", [("q", "x"), ("layer", "suburb")]), ("/api", [("q", "x"), ("bbox", "9.6,47.1,9.8")]),
        ("/photon/reverse", [("lat", "47.1")]), ("/photon/reverse", [("lat", "47.1"), ("lon", "9.5"), ("radius", "0")]),
        ("/photon/reverse", [("lat", "47.1"), ("lon", "9.5"), ("q", "x")]), ("/reverse", [("lat", "47.1"), ("lon", "9.5"), ("limit", "1"), ("bogus", "1")]),
    ] as [(String, [(String, String)])])
    func badParametersAnswerPhotonsError(path: String, parameters: [(String, String)]) throws {
        let reply = try ServerAPITests.server().get(path, parameters)
        #expect(reply.status == 400, "\(path) \(parameters): \(reply.status) \(reply.text.prefix(200))")
        #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect((try reply.object()["message"] as? String)?.isEmpty == false, "\(reply.text.prefix(200))")
    }

    @Test func limitsAreCutNotRefused() throws {
        let server = try ServerAPITests.server()
        #expect(try Self.properties(server.get("/api", [("q", "strasse"), ("limit", "0")])).count == 1)
        #expect(try Self.properties(server.get("/api", [("q", "strasse"), ("limit", "500")])).count == PhotonAPI.maxLimit)
        #expect(try Self.properties(server.get("/api", [("q", "strasse")])).count == 15)   // Photon's default
        let answer = try server.get("/api", [("q", "vaduz"), ("limit", "1"), ("bbox", "9.62,47.20,9.49,47.08")])   // corners in any order
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/json; charset=utf-8")
    }

    @Test func tagFiltersAsPhotonReadsThem() throws {
        let server = try ServerAPITests.server()
        // key:!value keeps the key's places but those of that value.
        let roads = try Self.properties(server.get("/api", [("q", "schaan"), ("limit", "50"), ("osm_tag", "highway:!residential")]))
        #expect(!roads.isEmpty && roads.allSatisfy { $0["osm_key"] as? String == "highway" && $0["osm_value"] as? String != "residential" })
        let notTowns = try Self.properties(server.get("/api", [("q", "schaan"), ("limit", "50"), ("osm_tag", ":!town")]))
        #expect(notTowns.count > 1 && !notTowns.contains { $0["osm_value"] as? String == "town" })
        // Categories: osm.<key>.<value> and its prefixes; a list in include is an OR, repeated includes an AND.
        let towns = try Self.properties(server.get("/api", [("q", "schaan"), ("include", "osm.place.town")]))
        #expect(towns.count == 1 && towns[0]["name"] as? String == "Schaan")
        let either = try Self.properties(server.get("/api", [("q", "schaan"), ("limit", "50"), ("include", "osm.place.town,osm.highway")]))
        #expect(Set(either.compactMap { $0["osm_key"] as? String }) == ["place", "highway"])
        #expect(try Self.properties(server.get("/api", [("q", "schaan"), ("include", "osm.place.town"), ("include", "osm.highway")])).isEmpty)
        let noRoads = try Self.properties(server.get("/api", [("q", "schaan"), ("limit", "50"), ("exclude", "osm.highway")]))
        #expect(!noRoads.isEmpty && !noRoads.contains { $0["osm_key"] as? String == "highway" })
        // Country codes, in any case; another country's answers nothing.
        #expect(try Self.properties(server.get("/api", [("q", "vaduz"), ("countrycode", "li")])).allSatisfy { $0["countrycode"] as? String == "LI" })
        #expect(try Self.properties(server.get("/api", [("q", "vaduz"), ("countrycode", "DE")])).isEmpty)
    }

    @Test func namesByLangOrAcceptLanguage() throws {
        let server = try ServerAPITests.server()
        let river = [("q", "rhein"), ("osm_tag", "waterway:river")]
        #expect(try Self.properties(server.get("/api", river + [("lang", "en")])).first?["name"] as? String == "Rhine")
        // The river is its waterway relation (R123924), whose name:fr is Rhin (its ways say Le Rhin).
        #expect(try Self.properties(server.get("/api", river, headers: ["Accept-Language": "fr-CH, fr;q=0.9"])).first?["name"] as? String == "Rhin")
        #expect(try Self.properties(server.get("/api", river + [("lang", "default")], headers: ["Accept-Language": "fr"])).first?["name"] as? String == "Rhein")
    }

    @Test func geometryAnswersTheShape() throws {
        let answer = try ServerAPITests.server().get("/api", [("q", "Vaduz"), ("limit", "1"), ("geometry", "1")]).object()
        let feature = try #require((answer["features"] as? [[String: Any]])?.first)
        #expect(["Polygon", "MultiPolygon"].contains((feature["geometry"] as? [String: Any])?["type"] as? String))
    }

    @Test func reverseIsTheNearestWithinTheRadius() throws {
        let server = try ServerAPITests.server()
        // Ten places, nearest first, each within the default 1 km.
        let near = try #require(try server.get("/photon/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("limit", "10")]).object()["features"] as? [[String: Any]])
        let distances = near.compactMap { Self.metres($0, from: 47.13168, 9.52287) }
        #expect(distances.count == 10 && distances == distances.sorted() && distances.allSatisfy { $0 <= 1000 })
        // Nothing within 50 m in the mountains: nothing, not the nearest town.
        #expect(try Self.properties(server.get("/photon/reverse", [("lat", "47.08"), ("lon", "9.60"), ("radius", "0.05")])).isEmpty)
        // The pharmacies nearest a point, by their tag.
        let pharmacies = try #require(try server.get("/photon/reverse", [("lat", "47.14"), ("lon", "9.52"), ("osm_tag", "amenity:pharmacy"),
                                                                         ("limit", "5"), ("radius", "5")]).object()["features"] as? [[String: Any]])
        #expect(pharmacies.count >= 3 && pharmacies.allSatisfy { ($0["properties"] as? [String: Any])?["osm_value"] as? String == "pharmacy" })
        // Layers keep their own places only: a district layer never answers a locality.
        let districts = try Self.properties(server.get("/photon/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("layer", "district"), ("radius", "3"), ("limit", "5")]))
        #expect(districts.allSatisfy { $0["type"] as? String == "district" })
        let town = try Self.properties(server.get("/reverse", [("lat", "47.1392862"), ("lon", "9.5227962"), ("layer", "city"), ("layer", "house"), ("limit", "10")]))
        #expect(town.first?["name"] as? String == "Vaduz" && town.contains { $0["type"] as? String == "house" })
        #expect(Set(town.compactMap { $0["type"] as? String }).isSubset(of: ["city", "house"]))
    }
}
