// Nominatim's /details on SampleData/liechtenstein.osm.pbf: one place by OSM id or place id with the fields
// Nominatim's details page shows, its address as lines with ids, names in the caller's languages, and bad
// input answered 400.
import Foundation
@testable import GeoDB
@testable import GeoDBServer
import Testing
import TestSupport

@Suite(.serialized) struct NominatimDetailsTests {
    static let liechtenstein = Result { try ServerProcess([try TestDatabases.liechtenstein()]) }

    static func details(_ parameters: [(String, String)], headers: [String: String] = [:]) throws -> ServerProcess.Reply {
        try liechtenstein.get().get("/details", parameters, headers: headers)
    }

    /// A street is one place of its ways; /details of one of them with polygon_geojson answers that way's own
    /// line, as Nominatim (which keeps each way apart) does: a street's first way (w43327921) and another
    /// (w297699560 of Bergstrasse, w6062308).
    @Test func oneWayOfAStreetAnswersItsOwnLine() throws {
        for way in ["43327921", "297699560"] {
            let object = try Self.details([("osmtype", "W"), ("osmid", way), ("polygon_geojson", "1")]).object()
            let geometry = try #require(object["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "LineString", "w\(way)")
        }
        let database = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let (details, stored) = try database.withSession { session in
            let details = try session.lookup("w297699560")
            return (details, try session.geometry(ofPlace: details.place.id))
        }
        guard case .lineStrings(let lines)? = stored, let way = SourceReference("w297699560"), let other = SourceReference("w1") else {
            Issue.record("no lines"); return
        }
        #expect(details.place.sourceRef?.record == "w6062308" && lines.count == details.otherWays.count + 1)
        let line = try #require(details.line(ofWay: way, in: .lineStrings(lines)))
        #expect(lines.dropFirst().contains(line))
        #expect(details.line(ofWay: other, in: .lineStrings(lines)) == nil)
    }

    /// `hierarchy=1`: the houses and POIs on the street, by number, its derived ones too: Triesen's
    /// Industriestrasse lists house 23 (w272649995, tagged without a street); `group_hierarchy=1` groups them
    /// by type.
    @Test func hierarchyListsThePlacesOnTheStreet() throws {
        let server = try Self.liechtenstein.get()
        let street = try #require(try server.get("/search", [("q", "Industriestrasse, Triesen"), ("format", "json"), ("limit", "1")])
            .array().first)
        let reference: [(String, String)] = [("osmtype", "W"), ("osmid", "\(try #require(street["osm_id"] as? Int))")]
        let lines = try #require(try Self.details(reference + [("hierarchy", "1")]).object()["hierarchy"] as? [[String: Any]])
        #expect(lines.contains { $0["osm_id"] as? Int == 272649995 && $0["localname"] as? String == "23" })
        #expect(lines.count > 5 && lines.allSatisfy { $0["rank_address"] as? Int == 30 && $0["isaddress"] as? Bool == true })
        let grouped = try #require(try Self.details(reference + [("hierarchy", "1"), ("group_hierarchy", "1")]).object()["hierarchy"]
            as? [String: [[String: Any]]])
        #expect(grouped.values.reduce(0) { $0 + $1.count } == lines.count && grouped["house"] != nil, "\(grouped.keys)")
        #expect(try Self.details(reference).object()["hierarchy"] == nil)
    }

    @Test func aPlaceByOSMIdOrPlaceId() throws {
        let reply = try Self.details([("osmtype", "N"), ("osmid", "1932181216")])
        #expect(reply.status == 200 && reply.headers["content-type"] == "application/json; charset=utf-8")
        let vaduz = try reply.object()
        #expect(vaduz["osm_type"] as? String == "N" && vaduz["osm_id"] as? Int == 1932181216)
        #expect(vaduz["category"] as? String == "place" && vaduz["type"] as? String == "town" && vaduz["admin_level"] as? Int == 8)
        #expect(vaduz["localname"] as? String == "Vaduz" && (vaduz["names"] as? [String: String])?["name:la"] == "Dulcis Vallis")
        #expect((vaduz["addresstags"] as? [String: String])?["postcode"] == "9490" && vaduz["calculated_postcode"] as? String == "9490")
        #expect(vaduz["country_code"] as? String == "li" && vaduz["rank_address"] as? Int == 17 && vaduz["isarea"] as? Bool == true)
        #expect((vaduz["extratags"] as? [String: String])?["wikidata"] == "Q1844" && vaduz["calculated_wikipedia"] as? String == "de:Vaduz")
        // Its importance is the one search ranks by (a capital of 5,000 people with a wikidata tag), not its kind's.
        let stored = try GeoDatabase(path: try TestDatabases.liechtenstein()).withSession { try $0.lookup("n1932181216").importance }
        #expect(vaduz["importance"] as? Double == stored && vaduz["calculated_importance"] as? Double == stored)
        #expect(stored != PlaceKind.town.baseImportance)
        // Without polygon_geojson the geometry is the centroid; the optional sections are left out.
        #expect((vaduz["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect((vaduz["centroid"] as? [String: Any])?["type"] as? String == "Point")
        #expect(vaduz["address"] == nil && vaduz["keywords"] == nil)
        // The same place by its place id, at the old path too; the area it lies in is its parent.
        let placeID = try #require(vaduz["place_id"] as? Int)
        let again = try Self.liechtenstein.get().get("/details.php", [("place_id", String(placeID))]).object()
        #expect(again["osm_id"] as? Int == 1932181216 && again["parent_place_id"] as? Int == vaduz["parent_place_id"] as? Int)
    }

    /// Bergstrasse is one place of several ways: asked for by a way after its first, /details answers the
    /// street (as geodb's lookup does), and its ways are parts of it, not linked places.
    @Test func anyWayOfAStreetIsTheStreet() throws {
        let street = try Self.details([("osmtype", "W"), ("osmid", "297699560")]).object()
        #expect(street["localname"] as? String == "Bergstrasse" && street["category"] as? String == "highway")
        #expect(street["linked_places"] == nil)
        let details = try GeoDatabase(path: try TestDatabases.liechtenstein()).withSession { try $0.lookup("w297699560") }
        #expect(details.place.sourceRef?.description == "w6062308" && details.linkedRecords.isEmpty)
        #expect(details.otherWays.map(\.description).contains("w297699560"))
    }

    /// The Rhine is its waterway relation, one place of its member ways (not lines merged by name): found by
    /// the relation's id or a member's, which /details lists as its linked places, as Nominatim links them.
    @Test func aRiverIsItsWaterwayRelation() throws {
        let river = try Self.details([("osmtype", "R"), ("osmid", "123924")], headers: ["Accept-Language": "de"]).object()
        #expect(river["category"] as? String == "waterway" && river["type"] as? String == "river" && river["localname"] as? String == "Rhein")
        let linked = try #require(river["linked_places"] as? [[String: Any]])
        #expect(linked.contains { $0["osm_type"] as? String == "W" && $0["osm_id"] as? Int == 159018431 })
        let db = try GeoDatabase(path: try TestDatabases.liechtenstein())
        #expect(try db.withSession { try $0.lookup("w159018431") }.place.sourceRef?.description == "r123924")
        #expect(try db.search("Rhein", options: SearchOptions()).filter { $0.kind == .water && $0.name == "Rhein" }.count == 1)
    }

    /// The municipality's boundary is merged into the town's node: asked for by its id it answers the town,
    /// which lists it among its linked places unless `linkedplaces=0`.
    @Test func aMergedBoundaryIsALinkedPlace() throws {
        let town = try Self.details([("osmtype", "R"), ("osmid", "1155956")]).object()
        #expect(town["osm_id"] as? Int == 1932181216)
        let linked = try #require(town["linked_places"] as? [[String: Any]])
        #expect(linked.count == 1 && linked[0]["osm_type"] as? String == "R" && linked[0]["osm_id"] as? Int == 1155956)
        #expect(try Self.details([("osmtype", "R"), ("osmid", "1155956"), ("linkedplaces", "0")]).object()["linked_places"] == nil)
        // A place with nothing merged into it has no such field.
        #expect(try Self.details([("osmtype", "W"), ("osmid", "529794592")]).object()["linked_places"] == nil)
    }

    @Test func addressLinesHaveTheAreasWithTheirIds() throws {
        let parking = try Self.details([("osmtype", "W"), ("osmid", "529794592"), ("addressdetails", "1")]).object()
        let lines = try #require(parking["address"] as? [[String: Any]])
        #expect(lines.first?["osm_id"] as? Int == 529794592 && lines.first?["class"] as? String == "amenity")
        let town = try #require(lines.first { $0["localname"] as? String == "Vaduz" })
        #expect(town["osm_type"] as? String == "N" && town["osm_id"] as? Int == 1932181216 && town["admin_level"] as? Int == 8)
        #expect(town["distance"] as? Double == 0 && town["isaddress"] as? Bool == true && town["rank_address"] as? Int == 17)
        let county = try #require(lines.first { $0["localname"] as? String == "Oberland" })
        #expect(county["osm_type"] as? String == "R" && county["class"] as? String == "boundary" && county["admin_level"] as? Int == 6)
        // The suburb is the nearest place node, at its distance; the parent is the smallest area.
        let suburb = try #require(lines.first { $0["localname"] as? String == "Ebenholz" })
        #expect((suburb["distance"] as? Double).map { $0 > 0 } == true && parking["parent_place_id"] as? Int == suburb["place_id"] as? Int)
        #expect(lines.last?["type"] as? String == "country_code" && lines.last?["localname"] as? String == "li")
    }

    @Test func fullGeometryAndKeywords() throws {
        let vaduz = try Self.details([("osmtype", "N"), ("osmid", "1932181216"), ("polygon_geojson", "1"), ("keywords", "1")]).object()
        #expect((vaduz["geometry"] as? [String: Any])?["type"] as? String == "MultiPolygon")
        let keywords = try #require(vaduz["keywords"] as? [String: [[String: Any]]])
        #expect(keywords["name"]?.contains { $0["token"] as? String == "vaduz" } == true)
        #expect(keywords["address"]?.contains { $0["token"] as? String == "oberland" } == true)
    }

    /// `class` names the main tag of the place wanted: another one is not there.
    @Test func anotherClassOrAnUnknownPlaceIs404() throws {
        for parameters in [[("osmtype", "N"), ("osmid", "1932181216"), ("class", "highway")], [("osmtype", "R"), ("osmid", "1")],
                           [("place_id", "999999999999")]] {
            let reply = try Self.details(parameters)
            #expect(reply.status == 404 && reply.error?["code"] as? Int == 404, "\(parameters): \(reply.text.prefix(200))")
        }
        #expect(try Self.details([("osmtype", "N"), ("osmid", "1932181216"), ("class", "place")]).status == 200)
        // Flags as Nominatim reads them: anything but 0 is true.
        let flagged = try Self.details([("osmtype", "N"), ("osmid", "1932181216"), ("addressdetails", "maybe"), ("hierarchy", "2")])
        let flaggedBody = try flagged.object()
        #expect(flagged.status == 200 && flaggedBody["address"] != nil)
    }

    @Test(arguments: [
        ([("osmid", "1932181216")], "osmtype"), ([("osmtype", "X"), ("osmid", "1")], "osmtype"), ([("osmtype", "N")], "osmid"),
        ([("osmtype", "N"), ("osmid", "-4")], "osmid"), ([("place_id", "abc")], "place_id"),
        ([("osmtype", "N"), ("osmid", "1932181216"), ("format", "xml")], "format"),
    ] as [([(String, String)], String)])
    func badParametersAnswer400(parameters: [(String, String)], parameter: String) throws {
        let reply = try Self.details(parameters)
        #expect(reply.status == 400 && reply.error?["parameter"] as? String == parameter, "\(parameters): \(reply.text.prefix(200))")
    }

    /// `localname` in the first language of the parameter, else of the header, that the place has a name in.
    @Test func localNameInTheCallersLanguage() throws {
        let country = [("osmtype", "N"), ("osmid", "3696525426")]
        #expect(try Self.details(country + [("accept-language", "xx,fo,de")]).object()["localname"] as? String == "Liktinstein")
        #expect(try Self.details(country, headers: ["Accept-Language": "fo-FR;q=0.8,en;q=0.5"]).object()["localname"] as? String == "Liktinstein")
        #expect(try Self.details(country + [("accept-language", "xx")]).object()["localname"] as? String == "Liechtenstein")
    }

    @Test func debugIsAnHTMLPage() throws {
        let reply = try Self.details([("osmtype", "N"), ("osmid", "1932181216"), ("debug", "1")])
        #expect(reply.status == 200 && reply.headers["content-type"] == "text/html; charset=utf-8")
        #expect(reply.text.hasPrefix("<html>") && reply.text.contains("<body><pre>{") && reply.text.contains("\"osm_id\": 1932181216"))
    }

    /// Nominatim shows an interpolation line as `place=houses` and a house number on it (a search or
    /// reverse answer) as `place=house`, not by its `addr:interpolation` tag.
    @Test func anInterpolationIsPlaceHousesAndANumberOnItAHouse() throws {
        var line = try JSONDecoder().decode(PlaceResult.self, from: Data("""
            {"id": 1, "sourceId": "w1", "kind": "interpolation", "category": "addr:interpolation=odd", "displayName": "",
             "lat": 47.1, "lon": 9.5, "address": {}, "tags": {}}
            """.utf8))
        #expect(PlaceFields(place: line).osmTag == ("place", "houses"))
        line.match = .interpolated
        #expect(PlaceFields(place: line).osmTag == ("place", "house"))
    }
}
