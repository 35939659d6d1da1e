// Nominatim's formats and defaults as its clients and its own acceptance tests read them: XML (the default
// of /reverse and /lookup), every JSON format sent as application/json, address details on by default in
// /reverse and /lookup, the display name as its address lines, JSONP, the geometry text formats, the
// debug page, and the inputs Nominatim answers rather than refuses.
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct NominatimFormatTests {
    static func server() throws -> ServerProcess { try ServerAPITests.server() }

    /// Python's XML parser, the one Nominatim's test suite reads answers with: the root element's tag,
    /// its attributes, and each child's tag with its attributes and text.
    static func parseXML(_ text: String) throws -> (root: String, attributes: [String: String], children: [[String: Any]]) {
        let script = """
            import json, sys, xml.etree.ElementTree as E
            root = E.fromstring(sys.stdin.buffer.read())
            print(json.dumps({"root": root.tag, "attributes": root.attrib,
                              "children": [{"tag": c.tag, "attributes": c.attrib, "text": c.text,
                                            "children": [{"tag": g.tag, "attributes": g.attrib, "text": g.text} for g in c]} for c in root]}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerClientTests.python)
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "not XML: \(text.prefix(300))")
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (parsed["root"] as? String ?? "", parsed["attributes"] as? [String: String] ?? [:], parsed["children"] as? [[String: Any]] ?? [])
    }

    @Test func searchAndLookupAnswerXML() throws {
        let server = try Self.server()
        let reply = try server.get("/search", [("q", "Austrasse 9, Vaduz"), ("format", "xml"), ("addressdetails", "1")])
        #expect(reply.status == 200 && reply.headers["content-type"] == "text/xml; charset=utf-8")
        let search = try Self.parseXML(reply.text)
        #expect(search.root == "searchresults" && search.attributes["querystring"] == "Austrasse 9, Vaduz")
        #expect(search.attributes["more_url"]?.contains("format=xml") == true)
        let place = try #require(search.children.first)
        let attributes = try #require(place["attributes"] as? [String: String])
        #expect(place["tag"] as? String == "place" && attributes["osm_type"] == "way" && attributes["osm_id"] == "364542906")
        // Seven decimals, as Nominatim writes them; the address as child elements.
        #expect(attributes["lat"]?.split(separator: ".").last?.count == 7)
        let parts = (place["children"] as? [[String: Any]] ?? []).map { ($0["tag"] as? String ?? "", $0["text"] as? String ?? "") }
        #expect(parts.contains { $0 == ("road", "Austrasse") } && parts.contains { $0 == ("house_number", "9") })

        // /lookup's default format is XML, and it has the address without being asked.
        let lookup = try Self.parseXML(try server.get("/lookup", [("osm_ids", "W364542906,X99,N0,,N1932181216")]).text)
        #expect(lookup.root == "searchresults" && lookup.children.count == 2)   // ids that are no OSM id are skipped
        #expect(((lookup.children.first?["children"] as? [[String: Any]]) ?? []).contains { $0["tag"] as? String == "road" })
        let tooMany = try server.get("/lookup", [("osm_ids", (1...51).map { "N\($0)" }.joined(separator: ",")), ("format", "json")])
        #expect(tooMany.status == 400 && tooMany.error?["message"] as? String == "Too many object IDs.")
        // In xml (asked, or /lookup's default) the error is Nominatim's XML error.
        let xmlError = try server.get("/lookup", [("osm_ids", (1...51).map { "N\($0)" }.joined(separator: ","))])
        #expect(xmlError.status == 400 && xmlError.headers["content-type"] == "text/xml; charset=utf-8")
        let error = try Self.parseXML(xmlError.text)
        #expect(error.root == "error" && error.children.map { $0["text"] as? String } == ["400", "Too many object IDs."])
    }

    @Test func reverseDefaultsToXMLWithTheAddress() throws {
        let server = try Self.server()
        let reply = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287")])
        let reverse = try Self.parseXML(reply.text)
        #expect(reverse.root == "reversegeocode")
        let result = try #require(reverse.children.first { $0["tag"] as? String == "result" })
        #expect((result["text"] as? String)?.hasPrefix("9, Austrasse") == true)   // Nominatim's order: number, street
        let parts = try #require(reverse.children.first { $0["tag"] as? String == "addressparts" }?["children"] as? [[String: Any]])
        #expect(parts.contains { $0["tag"] as? String == "road" && $0["text"] as? String == "Austrasse" })
        // The settlement keyed by what it is: Vaduz is a town.
        #expect(parts.contains { $0["tag"] as? String == "town" && $0["text"] as? String == "Vaduz" })
        // addressdetails=0 leaves it out; Nominatim reads any other value as true.
        let bare = try Self.parseXML(try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("addressdetails", "0")]).text)
        #expect(!bare.children.contains { $0["tag"] as? String == "addressparts" })
        let yes = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("format", "json"), ("addressdetails", "no")]).object()
        #expect(yes["address"] != nil)
        // A point off the globe is nothing there, in every format, as Nominatim answers it.
        for format in ["json", "geojson", "geocodejson"] {
            let off = try server.get("/reverse", [("lat", "91.3"), ("lon", "0.4"), ("format", format)])
            let body = try off.object()
            #expect(off.status == 200 && body["error"] as? String == "Unable to geocode", "\(format)")
        }
        let offXML = try Self.parseXML(try server.get("/reverse", [("lat", "-700"), ("lon", "0.4")]).text)
        #expect(offXML.children.map { $0["tag"] as? String } == ["error"])
        // A client naming a Photon parameter (geopy's Photon sends limit) gets Photon's GeoJSON.
        let photon = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("limit", "1")]).object()
        #expect(photon["type"] as? String == "FeatureCollection")
    }

    /// Without `layer`, Nominatim's reverse asks the address and poi layers: the Känzile viewpoint 2 m away
    /// answers, not the Schlossweg 9 m away (which `layer=address` gives).
    @Test func reverseAsksAddressesAndPOIsByDefault() throws {
        let server = try Self.server()
        let here = [("lat", "47.14077"), ("lon", "9.52414"), ("format", "jsonv2")]
        let nearest = try server.get("/reverse", here).object()
        #expect(nearest["category"] as? String == "tourism" && nearest["name"] as? String == "Känzile", "\(nearest)")
        #expect(try server.get("/reverse", here + [("layer", "address")]).object()["category"] as? String == "highway")
    }

    @Test func geocodeJSONHasTheAddressUnlessAskedNot() throws {
        let server = try Self.server()
        func first(_ details: String) throws -> [String: Any] {
            let collection = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("format", "geocodejson"),
                                                         ("addressdetails", details)]).object()
            let feature = try #require((collection["features"] as? [[String: Any]])?.first)
            return try #require((feature["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
        }
        #expect(try first("1")["street"] as? String == "Austrasse" && first("1")["country"] as? String == "Liechtenstein")
        // The areas under their admin_level in Liechtenstein: Oberland 6, Vaduz 8, the country 2.
        let admin = try first("1")["admin"] as? [String: String]
        #expect(admin?["level2"] == "Liechtenstein" && admin?["level6"] == "Oberland" && admin?["level8"] == "Vaduz")
        let bare = try first("0")
        #expect(bare["street"] == nil && bare["country"] == nil && bare["label"] != nil)
        // Structured fields in quotes, as some forms send them.
        let quoted = try server.get("/search", [("street", "\"9 Austrasse\""), ("city", "\"Vaduz\""), ("format", "json")]).array()
        #expect(quoted.first?["osm_id"] as? Int == 364542906)
    }

    /// A village of the municipality is keyed as what it is, beside the municipality (Rotenboden in Triesenberg).
    @Test func anAreaIsKeyedByWhatItIs() throws {
        let found = try #require(try Self.server().get("/search", [("q", "Bündaweg, Triesenberg"), ("format", "json"),
                                                                  ("addressdetails", "1"), ("limit", "1")]).array().first)
        let address = try #require(found["address"] as? [String: String])
        #expect(address["road"] == "Bündaweg" && address["village"] == "Rotenboden" && address["city"] == "Triesenberg")
    }

    /// Each area's ISO 3166-2 code under `ISO3166-2-lvl<admin_level>`, right after the area, in every format
    /// but geocodejson (Nominatim's own has none there), and never in the display name: a house in Vaduz
    /// has its municipality's, the town its own.
    @Test func subdivisionCodesKeyedByAdminLevel() throws {
        let server = try Self.server()
        let point = [("lat", "47.13168"), ("lon", "9.52287")]
        for format in ["json", "jsonv2"] {
            let object = try server.get("/reverse", point + [("format", format)]).object()
            let address = try #require(object["address"] as? [String: String])
            #expect(address["ISO3166-2-lvl8"] == "LI-11" && address["town"] == "Vaduz", "\(format)")
            #expect((object["display_name"] as? String)?.contains("LI-11") == false, "\(format)")
        }
        // In the order of the answer: after the town it belongs to (the body's key order, as written).
        let text = try server.get("/reverse", point + [("format", "json")]).text
        let town = try #require(text.range(of: #""town":"Vaduz""#)), code = try #require(text.range(of: #""ISO3166-2-lvl8":"LI-11""#))
        #expect(town.upperBound <= code.lowerBound)
        let xml = try Self.parseXML(try server.get("/reverse", point).text)
        let parts = try #require(xml.children.first { $0["tag"] as? String == "addressparts" }?["children"] as? [[String: Any]])
        #expect(parts.contains { $0["tag"] as? String == "ISO3166-2-lvl8" && $0["text"] as? String == "LI-11" })
        let geojson = try server.get("/search", [("q", "Vaduz"), ("format", "geojson"), ("addressdetails", "1"), ("limit", "1")]).object()
        let properties = (geojson["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]
        #expect((properties?["address"] as? [String: String])?["ISO3166-2-lvl8"] == "LI-11")
        let geocodejson = try server.get("/reverse", point + [("format", "geocodejson")]).object()
        let geocoding = (geocodejson["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]
        #expect(geocoding?["geocoding"] != nil && !String(describing: geocoding ?? [:]).contains("LI-11"))
    }

    @Test func everyJSONFormatIsSentAsJSON() throws {
        let server = try Self.server()
        for format in ["json", "jsonv2", "geojson", "geocodejson"] {
            let reply = try server.get("/search", [("q", "Vaduz"), ("format", format), ("limit", "1")])
            #expect(reply.headers["content-type"] == "application/json; charset=utf-8", "\(format)")
        }
        // JSONP: the answer passed to the named function; a name that is no JavaScript name is refused.
        let wrapped = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("limit", "1"), ("json_callback", "app.show_1")])
        #expect(wrapped.headers["content-type"] == "application/javascript; charset=utf-8")
        #expect(wrapped.text.hasPrefix("app.show_1([{") && wrapped.text.hasSuffix("}])"))
        for name in ["1asd", "bar(foo)", "foo; evil", "XXX['bad']"] {
            let refused = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("json_callback", name)])
            #expect(refused.status == 400 && refused.error?["message"] as? String == "Invalid json_callback value", "\(name)")
        }
    }

    @Test func geometryTextFormats() throws {
        let server = try Self.server()
        func first(_ output: String, _ format: String = "json") throws -> [String: Any] {
            try #require(try server.get("/search", [("q", "Vaduz"), ("format", format), ("limit", "1"), ("polygon_" + output, "1")]).array().first)
        }
        // Vaduz's municipality boundary, with its exclaves (the node and the boundary are one place).
        #expect((try first("text")["geotext"] as? String)?.hasPrefix("MULTIPOLYGON(((9.") == true)
        let svg = try #require(try first("svg")["svg"] as? String)
        #expect(svg.hasPrefix("M 9.") && svg.contains(" -47.") && svg.hasSuffix(" Z"))
        #expect((try first("kml")["geokml"] as? String)?.hasPrefix("<MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>9.") == true)
        #expect((try first("geojson")["geojson"] as? [String: Any])?["type"] as? String == "MultiPolygon")
        let two = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("polygon_text", "1"), ("polygon_svg", "1")])
        #expect(two.status == 400 && two.error?["message"] as? String == "Too many polygon output options selected.")
    }

    /// A building's outline as Nominatim writes it: from its least point, counterclockwise (libosmium's ring,
    /// checked against `osmium export`), and simplified by `polygon_threshold` (Douglas–Peucker in degrees),
    /// still a closed ring; the box stays the whole building's.
    @Test func polygonThresholdSimplifiesTheOutline() throws {
        let server = try Self.server()
        func outline(_ threshold: String?) throws -> (points: [String], box: [String]) {
            let reply = try server.get("/reverse", [("lat", "47.13803"), ("lon", "9.52264"), ("format", "json"), ("polygon_text", "1")]
                                       + (threshold.map { [("polygon_threshold", $0)] } ?? []))
            let place = try reply.object()
            #expect(place["osm_id"] as? Int == 297699572)   // Städtle 45, Vaduz
            let text = try #require(place["geotext"] as? String)
            #expect(text.hasPrefix("POLYGON((") && text.hasSuffix("))"))
            return (text.dropFirst(9).dropLast(2).split(separator: ",").map(String.init), place["boundingbox"] as? [String] ?? [])
        }
        let full = try outline(nil)
        #expect(full.points.count == 19 && full.points.first == full.points.last)
        #expect(Array(full.points.prefix(2)) == ["9.5225313 47.1380723", "9.5225398 47.1379347"])
        let slightly = try outline("0.00001")
        #expect(slightly.points.count == 13 && slightly.points.first == full.points.first && slightly.points.last == full.points.last)
        #expect(Set(slightly.points).isSubset(of: full.points) && slightly.box == full.box)
        let much = try outline("0.9")
        #expect(much.points.count == 4 && much.points.first == much.points.last)
        #expect(try outline("0").points == full.points)
    }

    /// /reverse answers a street at its point nearest the query (PostGIS's ST_ClosestPoint), as Nominatim does,
    /// not at the street's middle; other places keep their point.
    @Test func reverseAnswersAStreetAtItsClosestPoint() throws {
        let server = try Self.server()
        let street = try server.get("/reverse", [("lat", "47.13368"), ("lon", "9.52942"), ("format", "jsonv2")]).object()
        #expect(street["osm_id"] as? Int == 6062308 && street["name"] as? String == "Bergstrasse")
        #expect(street["lat"] as? String == "47.1336817" && street["lon"] as? String == "9.5294315")
        let lookedUp = try #require(try server.get("/lookup", [("osm_ids", "W6062308"), ("format", "json")]).array().first)
        #expect(lookedUp["lat"] as? String != "47.1336817")
    }

    @Test func debugShowsHowTheSearchReadTheText() throws {
        let reply = try Self.server().get("/search", [("q", "restaurant in Vaduz"), ("debug", "1")])
        #expect(reply.headers["content-type"] == "text/html; charset=utf-8")
        let page = try Self.parseXML(reply.text)
        #expect(page.root == "html" && !reply.text.contains("<script"))
        #expect(reply.text.contains("Readings tried: category") && reply.text.contains("Restaurant Engel"))
    }

    @Test func inputNominatimAcceptsIsAccepted() throws {
        let server = try Self.server()
        // Items that are no country code are skipped; OSM ids may be excluded, and are echoed in upper case.
        #expect(try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("countrycodes", "li,1,undefined")]).array().count > 0)
        let excluded = try Self.parseXML(try server.get("/search", [("q", "Vaduz"), ("format", "xml"),
                                                                  ("exclude_place_ids", "123,n1932181216,W789")]).text)
        #expect(excluded.attributes["exclude_place_ids"] == "123,N1932181216,W789")
        #expect(!excluded.children.contains { ($0["attributes"] as? [String: String])?["osm_id"] == "1932181216" })
        for bad in ["abc", "X123", "N:100", "-123"] {
            let reply = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("exclude_place_ids", bad)])
            #expect(reply.status == 400 && reply.error?["message"] as? String == "Invalid exclude ID: \(bad)")
        }
        // Text that is only a position is answered with the place there.
        let there = try #require(try server.get("/search", [("q", "47.13168, 9.52287"), ("format", "json")]).array().first)
        #expect(there["osm_id"] as? Int == 364542906)
        #expect(try server.get("/search", [("q", "-21.0,-33.0"), ("format", "json")]).array().isEmpty)
        // .php paths, as older clients call them.
        #expect(try server.get("/search.php", [("q", "Vaduz"), ("format", "json")]).array().count > 0)
        // Lists geodb keeps nothing for: empty, in Nominatim's shape.
        for path in ["/deletable", "/polygons", "/polygons.php"] {
            let reply = try server.get(path, [("days", "7")])
            let list = try reply.array()
            #expect(reply.status == 200 && list.isEmpty, "\(path)")
        }
        #expect(try server.get("/polygons", [("format", "xml")]).status == 400)
    }
}
