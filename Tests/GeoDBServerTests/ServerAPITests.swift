// `geodb serve` as clients use it, on SampleData: Nominatim's, Photon's and geodb's own API, with the
// shapes and types their documentation gives, several files served as one, and bad input answered 400.
import Foundation
import GeoDB
@testable import GeoDBServer
import Testing
import TestSupport

@Suite(.serialized) struct ServerAPITests {
    /// One server on Liechtenstein for the whole suite (starting one takes ~0.1 s, but the database once).
    static let liechtenstein = Result { try ServerProcess([try TestDatabases.liechtenstein()]) }

    static func server() throws -> ServerProcess { try liechtenstein.get() }

    // MARK: Nominatim

    @Test func nominatimFreeTextSearchFindsTheAddress() throws {
        let reply = try Self.server().get("/search", [("q", "Austrasse 9, Vaduz"), ("format", "jsonv2"), ("addressdetails", "1")])
        #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("application/json") == true)
        let first = try #require(try reply.array().first)
        #expect(first["osm_type"] as? String == "way" && first["osm_id"] as? Int == 364542906)
        // Nominatim writes coordinates and boxes as strings.
        #expect((first["lat"] as? String).flatMap(Double.init).map { abs($0 - 47.13168) < 0.0001 } == true)
        #expect((first["boundingbox"] as? [String])?.count == 4)
        #expect(first["category"] is String && first["place_rank"] as? Int == 30)
        let address = try #require(first["address"] as? [String: String])
        #expect(address["road"] == "Austrasse" && address["house_number"] == "9" && address["town"] == "Vaduz")   // keyed by what Vaduz is, as Nominatim does
        #expect(address["country_code"] == "li" && address["postcode"] == "9490")
    }

    /// One polygon, one GeoJSON: Vaduz's boundary from `geodb export --geometry full` and from Nominatim's
    /// `polygon_geojson=1` has the same rings, wound by RFC 7946's rule (the server wrote them as stored).
    @Test func theSamePolygonFromExportAndFromTheServer() throws {
        let served = try Self.server().get("/search", [("q", "Vaduz"), ("format", "json"), ("polygon_geojson", "1"), ("limit", "1")]).array()
        let fromServer = try #require((served.first as? [String: Any])?["geojson"] as? [String: Any])
        let export = try runGeodb(["export", try TestDatabases.liechtenstein(), "--geometry", "full", "--kind", "town"])
        #expect(export.status == 0)
        let features = try #require((try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        let vaduz = try #require(features.first { ($0["properties"] as? [String: Any])?["source_id"] as? String == "n1932181216" })
        let fromExport = try #require(vaduz["geometry"] as? [String: Any])
        #expect(fromServer["type"] as? String == "MultiPolygon" && fromExport["type"] as? String == "MultiPolygon")
        let serverRings = try #require(fromServer["coordinates"] as? [[[[Double]]]])
        let exportRings = try #require(fromExport["coordinates"] as? [[[[Double]]]])
        #expect(serverRings == exportRings)
        // Outer rings counterclockwise: a positive signed area (x = lon, y = lat).
        for polygon in serverRings {
            let ring = polygon[0]
            let area = zip(ring, ring.dropFirst()).reduce(0.0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
            #expect(area > 0 && ring.first == ring.last)
        }
    }

    /// /v1/search?explain=1 answers why, per file: the readings tried and each result's reading.
    @Test func searchExplainsItself() throws {
        let answer = try Self.server().get("/v1/search", [("q", "Austrasse, Triesen"), ("limit", "3"), ("explain", "1")]).object()
        let explain = try #require((answer["explain"] as? [[String: Any]])?.first)
        #expect(explain["file"] as? String != nil && (explain["attempts"] as? [[String: Any]])?.count == 2)
        let first = try #require((explain["results"] as? [[String: Any]])?.first)
        #expect(first["reading"] as? String == "what_where")
        #expect(first["id"] as? Int == (answer["results"] as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try Self.server().get("/v1/search", [("q", "Vaduz")]).object()["explain"] == nil)
    }

    @Test func nominatimStructuredSearchAndFormats() throws {
        let server = try Self.server()
        let structured = try server.get("/search", [("street", "9 Austrasse"), ("city", "Vaduz"), ("format", "json")]).array()
        #expect(structured.first?["osm_id"] as? Int == 364542906 && structured.first?["class"] is String)
        // Areas alone ask for what the most specific field names, as Nominatim restricts the rank: `city=Steg`
        // is Triesenberg's village, not the street or the bus stops named Steg.
        let city = try server.get("/search", [("city", "Steg"), ("format", "jsonv2")]).array()
        #expect(city.first?["addresstype"] as? String == "village"
                && city.allSatisfy { ["place", "boundary"].contains($0["category"] as? String) }, "\(city.map { $0["display_name"] ?? "" })")
        let geojson = try server.get("/search", [("q", "Vaduz"), ("format", "geojson"), ("limit", "1")])
        #expect(geojson.headers["content-type"] == "application/json; charset=utf-8")   // as Nominatim sends it
        let feature = try #require((try geojson.object()["features"] as? [[String: Any]])?.first)
        // Vaduz's node labels its municipality's relation: answered as Nominatim answers it, the boundary.
        let vaduz = try #require(feature["properties"] as? [String: Any])
        #expect(vaduz["osm_type"] as? String == "relation" && vaduz["osm_id"] as? Int == 1155956 && vaduz["place_rank"] as? Int == 16
                && vaduz["category"] as? String == "boundary" && vaduz["type"] as? String == "administrative", "\(vaduz)")
        let tags = try #require(try server.get("/search", [("q", "Vaduz"), ("format", "jsonv2"), ("limit", "1"), ("extratags", "1")])
            .array().first?["extratags"] as? [String: String])
        #expect(tags["admin_level"] == "8" && tags["linked_place"] == "town" && tags["wikidata"] == "Q1844")
        #expect((feature["bbox"] as? [Double])?.count == 4)
        let geocode = try server.get("/search", [("q", "Vaduz"), ("format", "geocodejson"), ("limit", "1")]).object()
        let properties = try #require(((geocode["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
        #expect(properties["type"] as? String == "city" && properties["name"] as? String == "Vaduz" && properties["country_code"] as? String == "li")
        #expect((geocode["geocoding"] as? [String: Any])?["query"] as? String == "Vaduz")
        // namedetails and extratags as Nominatim keys them.
        let details = try #require(try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("limit", "1"),
                                                             ("namedetails", "1"), ("extratags", "1")]).array().first)
        #expect((details["namedetails"] as? [String: String])?["name:de"] == "Vaduz")
        #expect((details["extratags"] as? [String: String])?["wikidata"] == "Q1844")
    }

    @Test func nominatimFiltersAndLimits() throws {
        let server = try Self.server()
        let all = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("limit", "1000")]).array()
        #expect(all.count > 1 && all.count <= 40)   // Nominatim's cap
        let firstID = try #require(all.first?["place_id"] as? Int)
        let excluded = try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("exclude_place_ids", "\(firstID)")]).array()
        #expect(!excluded.isEmpty && !excluded.contains { $0["place_id"] as? Int == firstID })
        #expect(try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("countrycodes", "mc,fr")]).array().isEmpty)
        #expect(try server.get("/search", [("q", "Vaduz"), ("format", "json"), ("countrycodes", "li")]).array().count > 0)
        // A structured country within countrycodes: the country when they agree, nothing when they differ (the
        // country's name matched no word of another's official names).
        #expect(try server.get("/search", [("country", "li"), ("format", "json"), ("countrycodes", "li")]).array().first?["name"] as? String
                == "Liechtenstein")
        #expect(try server.get("/search", [("country", "de"), ("format", "json"), ("countrycodes", "li")]).array().isEmpty)
        #expect(try server.get("/search", [("country", "Deutschland"), ("format", "json"), ("countrycodes", "li")]).array().isEmpty)
        // A structured field sent empty counts as absent: this is a free-text search, not "q with street".
        #expect(try server.get("/search", [("q", "Vaduz"), ("city", ""), ("format", "json")]).array().first?["name"] as? String == "Vaduz")
        // A viewbox around Schaan, bounded: only places inside it.
        let bounded = try server.get("/search", [("q", "strasse"), ("format", "json"), ("viewbox", "9.49,47.18,9.53,47.16"), ("bounded", "1")]).array()
        #expect(!bounded.isEmpty && bounded.allSatisfy { place in
            let lat = Double(place["lat"] as? String ?? "") ?? 0, lon = Double(place["lon"] as? String ?? "") ?? 0
            return (47.16...47.18).contains(lat) && (9.49...9.53).contains(lon)
        })
        let towns = try server.get("/search", [("q", "Vaduz"), ("format", "jsonv2"), ("featureType", "city")]).array()
        // Towns, answered as their boundaries where their node labels one, as Nominatim answers them.
        #expect(!towns.isEmpty && towns.allSatisfy { ["place", "boundary"].contains($0["category"] as? String) })
    }

    @Test func nominatimReverseLookupAndStatus() throws {
        let server = try Self.server()
        let house = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("format", "jsonv2"), ("addressdetails", "1")]).object()
        #expect((house["address"] as? [String: String])?["road"] == "Austrasse")
        let town = try server.get("/reverse", [("lat", "47.1392"), ("lon", "9.5227"), ("zoom", "10"), ("format", "json")]).object()
        #expect(town["name"] as? String == "Vaduz" && town["osm_type"] as? String == "relation" && town["class"] as? String == "boundary")
        let sea = try server.get("/reverse", [("lat", "-60"), ("lon", "-150"), ("zoom", "18"), ("format", "json")]).object()
        #expect(sea["error"] as? String == "Unable to geocode")

        let looked = try server.get("/lookup", [("osm_ids", "W364542906,N1932181216,N1"), ("format", "json")]).array()
        #expect(looked.map { $0["osm_id"] as? Int } == [364542906, 1932181216])   // unknown ids left out, order kept
        // Vaduz asked for by its node is the node (class place); by its boundary, the boundary.
        #expect(looked.last?["class"] as? String == "place")
        let boundary = try server.get("/lookup", [("osm_ids", "R1155956"), ("format", "json")]).array()
        #expect(boundary.first?["osm_type"] as? String == "relation" && boundary.first?["class"] as? String == "boundary")

        #expect(try server.get("/status").text == "OK")
        let status = try server.get("/status", [("format", "json")]).object()
        #expect(status["status"] as? Int == 0 && status["data_updated"] is String)
        #expect((status["databases"] as? [[String: Any]])?.first?["places"] as? Int ?? 0 > 10_000)
    }

    // MARK: Photon

    @Test func photonSearchAndReverse() throws {
        let server = try Self.server()
        let reply = try server.get("/api", [("q", "vadu"), ("lat", "47.1"), ("lon", "9.5"), ("limit", "5")])
        let features = try #require(try reply.object()["features"] as? [[String: Any]])
        let first = try #require(features.first?["properties"] as? [String: Any])
        #expect(first["name"] as? String == "Vaduz" && first["type"] as? String == "city" && first["osm_type"] as? String == "N")
        #expect(first["osm_key"] as? String == "place" && first["countrycode"] as? String == "LI")
        #expect(((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])?.count == 2)

        let roads = try #require(try server.get("/api", [("q", "vadu"), ("osm_tag", "highway")]).object()["features"] as? [[String: Any]])
        #expect(!roads.isEmpty && roads.allSatisfy { ($0["properties"] as? [String: Any])?["osm_key"] as? String == "highway" })
        let notRoads = try #require(try server.get("/api", [("q", "vadu"), ("osm_tag", "!highway")]).object()["features"] as? [[String: Any]])
        #expect(!notRoads.isEmpty && notRoads.allSatisfy { ($0["properties"] as? [String: Any])?["osm_key"] as? String != "highway" })
        let streets = try #require(try server.get("/api", [("q", "vadu"), ("layer", "street")]).object()["features"] as? [[String: Any]])
        #expect(!streets.isEmpty && streets.allSatisfy { ($0["properties"] as? [String: Any])?["type"] as? String == "street" })
        // A street's extent, in Photon's order: min lon, max lat, max lon, min lat.
        let extent = try #require((streets.first?["properties"] as? [String: Any])?["extent"] as? [Double])
        #expect(extent.count == 4 && extent[0] <= extent[2] && extent[1] >= extent[3])

        // /reverse with a parameter only Photon has is Photon's (without, Nominatim's: NominatimFormatTests).
        let near = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("limit", "1")]).object()
        #expect(near["type"] as? String == "FeatureCollection")
        #expect(((near["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["street"] as? String == "Austrasse")
    }

    // MARK: geodb's own API

    @Test func autocompleteHighlightsAndSearchPages() throws {
        let server = try Self.server()
        let typed = try server.get("/v1/autocomplete", [("q", "vadu"), ("limit", "3")]).object()
        let first = try #require((typed["results"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == "Vaduz" && first["match"] as? String == "prefix")
        #expect((first["highlights"] as? [[String: Int]])?.first == ["start": 0, "end": 4])

        // Pages are slices of one deeper search, joined without gaps or repeats.
        let deep = try #require(try server.get("/v1/search", [("q", "strasse"), ("limit", "10")]).object()["results"] as? [[String: Any]])
        let page1 = try server.get("/v1/search", [("q", "strasse"), ("limit", "5")]).object()
        let next = try #require(page1["next"] as? String)
        let page2 = try server.get("/v1/search", [("q", "strasse"), ("limit", "5"), ("after", next)]).object()
        let joined = ((page1["results"] as? [[String: Any]]) ?? []) + ((page2["results"] as? [[String: Any]]) ?? [])
        #expect(joined.map { $0["id"] as? Int } == deep.map { $0["id"] as? Int } && deep.count == 10)
        let foreign = try server.get("/v1/search", [("q", "other"), ("after", next)])
        #expect(foreign.status == 400 && foreign.error?["parameter"] as? String == "after")
    }

    @Test func nearbyPagesCategoriesPlacesAndMaps() throws {
        let server = try Self.server()
        let cafes = try server.get("/v1/nearby", [("lat", "47.14"), ("lon", "9.52"), ("category", "cafe"), ("radius", "2000"), ("limit", "2")]).object()
        let first = try #require(cafes["results"] as? [[String: Any]])
        #expect(first.count == 2 && first.allSatisfy { $0["category_id"] as? String == "cafe" })
        let next = try #require(cafes["next"] as? String)
        let second = try #require(try server.get("/v1/nearby", [("lat", "47.14"), ("lon", "9.52"), ("category", "cafe"), ("radius", "2000"),
                                                                ("limit", "2"), ("after", next)]).object()["results"] as? [[String: Any]])
        #expect(second.count == 2 && (second[0]["distance_m"] as? Double ?? 0) >= (first[1]["distance_m"] as? Double ?? .infinity))

        let categories = try #require(try server.get("/v1/categories").object()["categories"] as? [[String: Any]])
        #expect(categories.contains { $0["id"] as? String == "cafe" && ($0["places"] as? Int ?? 0) > 0 })

        // A street's details come with its line.
        let street = try server.get("/v1/place", [("ref", "w6071236")]).object()
        #expect(["LineString", "MultiLineString"].contains((street["geometry"] as? [String: Any])?["type"] as? String ?? ""))
        #expect(try server.get("/v1/place", [("ref", "w1")]).status == 404)
        #expect(try server.get("/v1/place", [("ref", "0")]).status == 404)

        let map = try server.get("/v1/map", [("bbox", "9.515,47.135,9.525,47.145"), ("limit", "500")]).object()
        #expect(map["truncated"] as? Bool == true)   // central Vaduz has more than 500 places to draw
        #expect(try server.get("/v1/map", [("bbox", "9.515,47.135,9.525,47.145"), ("limit", "10000")]).object()["truncated"] as? Bool == false)
        let kinds = Set((map["features"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String })
        #expect(kinds.contains("street") && kinds.contains("poi"))
        let types = Set((map["features"] as? [[String: Any]] ?? []).compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String })
        #expect(types.contains("Point") && (types.contains("LineString") || types.contains("MultiLineString")) && types.contains("Polygon"))
    }

    @Test func theServerDescribesItself() throws {
        let server = try Self.server()
        let openAPI = try server.get("/openapi.json").object()
        #expect((openAPI["openapi"] as? String)?.hasPrefix("3.") == true)
        let paths = try #require(openAPI["paths"] as? [String: Any])
        for path in ["/v1/search", "/v1/autocomplete", "/v1/reverse", "/v1/nearby", "/v1/timezone", "/v1/categories", "/v1/place", "/v1/map", "/v1/page-config"] {
            #expect(paths[path] != nil, "\(path) is not in the OpenAPI document")
        }
        // Every reading an explanation can name is in the document's enums of readings (two of them lacked
        // near_position).
        func readingEnums(_ value: Any) -> [[String]] {
            if let list = value as? [String], list.contains("what_where") { return [list] }
            if let object = value as? [String: Any] { return object.values.flatMap(readingEnums) }
            if let array = value as? [Any] { return array.flatMap(readingEnums) }
            return []
        }
        let readings = readingEnums(openAPI)
        #expect(readings.count == 2 && readings.allSatisfy { $0 == SearchReading.allCases.map(\.rawValue) }, "\(readings)")
        let page = try server.get("/")
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true && page.text.contains(#"<div id="map""#))
        _ = try server.get("/v1/search", [("q", "Vaduz")])
        let metrics = try server.get("/metrics").text
        #expect(metrics.contains(#"geodb_http_requests_total{endpoint="search",status="200"}"#))
        #expect(metrics.contains(#"geodb_http_request_duration_seconds_bucket{endpoint="search",le="+Inf"}"#))
        #expect(metrics.contains("process_resident_memory_bytes"))
    }

    @Test func compressionAndCORS() throws {
        let server = try Self.server()
        let zipped = try server.get("/v1/map", [("bbox", "9.4,47.0,9.7,47.3"), ("limit", "300")], headers: ["Accept-Encoding": "gzip"])
        #expect(zipped.headers["content-encoding"] == "gzip" && zipped.headers["access-control-allow-origin"] == "*")
        #expect((try zipped.object()["features"] as? [Any])?.isEmpty == false)   // URLSession unzipped it
        let small = try server.get("/status", headers: ["Accept-Encoding": "gzip"])
        #expect(small.headers["content-encoding"] == nil)   // too small to gain
        let refused = try server.get("/v1/map", [("bbox", "9.4,47.0,9.7,47.3"), ("limit", "300")], headers: ["Accept-Encoding": "gzip;q=0, identity"])
        #expect(refused.status == 200 && refused.headers["content-encoding"] == nil)
    }

    // MARK: bad input

    /// Every endpoint answers bad parameters with 400 and a JSON error naming the parameter.
    @Test(arguments: [
        ("/search", [("q", "x"), ("limit", "lots")], "limit"), ("/search", [(String, String)](), "q"),
        ("/search", [("q", "x"), ("street", "y")], "street"), ("/search", [("q", "x"), ("viewbox", "1,2,3")], "viewbox"),
        ("/search", [("q", "x"), ("viewbox", "1,2,1,2")], "viewbox"), ("/search", [("q", "x"), ("layer", "moon")], "layer"),
        ("/search", [("q", "x"), ("exclude_place_ids", "a")], "exclude_place_ids"),
        ("/reverse", [("lat", "47"), ("format", "json")], "lon"), ("/reverse", [("lat", "1e400"), ("lon", "9"), ("format", "json")], "lat"),
        ("/reverse", [("lat", "47"), ("lon", "9"), ("zoom", "99"), ("format", "json")], "zoom"),
        ("/search", [("q", "x"), ("polygon_threshold", "1m")], "polygon_threshold"), ("/reverse", [("lat", "47"), ("lon", "9"), ("layer", "moon"), ("format", "json")], "layer"),
        ("/status", [("format", "yaml")], "format"),
        ("/reverse", [("lat", "nan"), ("lon", "9"), ("format", "jsonv2")], "lat"),
        ("/v1/search", [("q", "x"), ("limit", "99999999999999999999999")], "limit"), ("/v1/autocomplete", [("q", "x"), ("lat", "1")], "lon"),
        ("/v1/search", [("q", "x"), ("kinds", "dragon")], "kinds"), ("/v1/search", [("q", "x"), ("country", "Liechtenstein")], "country"),
        ("/v1/structured", [(String, String)](), "street"), ("/v1/reverse", [("lat", "47"), ("lon", "9"), ("level", "galaxy")], "level"),
        ("/v1/nearby", [("lat", "47"), ("lon", "9"), ("radius", "-5")], "radius"), ("/v1/nearby", [("lat", "47"), ("lon", "9"), ("after", "zz")], "after"),
        ("/v1/timezone", [("lat", "47"), ("lon", "9"), ("at", "yesterday")], "at"), ("/v1/place", [(String, String)](), "ref"), ("/v1/map", [("bbox", "a,b,c,d")], "bbox"), ("/v1/map", [("bbox", "9,47,9.1,47.1"), ("limit", "100000")], "limit"),
    ] as [(String, [(String, String)], String?)])
    func badParametersAnswer400(path: String, parameters: [(String, String)], parameter: String?) throws {
        let reply = try Self.server().get(path, parameters)
        #expect(reply.status == 400, "\(path) \(parameters): \(reply.status) \(reply.text.prefix(200))")
        let error = try #require(reply.error, "\(reply.text.prefix(200))")
        #expect(error["code"] as? Int == 400 && (error["message"] as? String)?.isEmpty == false)
        if let parameter { #expect(error["parameter"] as? String == parameter, "\(path): \(reply.text)") }
    }

    @Test func malformedRequestsAnswer400JSON() throws {
        let server = try Self.server()
        for target in ["/search?q=%E0%A4%A", "/v1/search?q=%ZZ", "/api?q=%FF%FE", "/v1/categories?x=%G1", "/v1/nearby?lat=%",
                       "/v1/search?q=" + String(repeating: "a", count: 2_000), "/search?q=" + String(repeating: "a", count: 100_000)] {
            let reply = try server.rawGet(target)
            #expect(reply.status == 400, "\(target.prefix(60)): \(reply.status)")
            #expect(reply.body.hasPrefix(#"{"error":{"code":400,"#), "\(target.prefix(60)): \(reply.body.prefix(200))")
        }
        let missing = try server.get("/no/such/endpoint")
        #expect(missing.status == 404 && missing.error?["code"] as? Int == 404)
        let notAllowed = try server.request("DELETE", "/v1/search?q=x")
        #expect(notAllowed.status == 405 && notAllowed.headers["allow"] == "GET, HEAD" && notAllowed.error?["code"] as? Int == 405)
        let head = try server.request("HEAD", "/status")
        #expect(head.status == 200 && head.body.isEmpty)
        // Times as RFC 3339 allows them, with fractional seconds.
        let zone = try server.get("/v1/timezone", [("lat", "47.1"), ("lon", "9.5"), ("at", "2026-07-01T12:00:00.250Z")])
        #expect(zone.status != 400, "\(zone.text)")
    }
}

/// The page, its Leaflet and the OpenAPI document the binary serves are the files in Sources/GeoDBServer/Web/,
/// served with their types, Leaflet from the binary (the page needs no network).
@Suite struct WebResourceTests {
    @Test func theServedFilesAreTheWebFolders() throws {
        let web = TestPaths.root.appendingPathComponent("Sources/GeoDBServer/Web")
        let read = { (name: String) in try String(contentsOf: web.appendingPathComponent(name), encoding: .utf8) }
        let (page, openAPI, leafletJS, leafletCSS) = (try read("index.html"), try read("openapi.json"),
                                                      try read("leaflet/leaflet.js"), try read("leaflet/leaflet.css"))
        #expect(WebResources.page == page && WebResources.openAPI == openAPI && WebResources.leafletJS == leafletJS
                && WebResources.leafletCSS == leafletCSS, "run Tools/generate/generate-web-resources.sh")
        #expect(try JSONSerialization.jsonObject(with: Data(openAPI.utf8)) is [String: Any])
    }

    @Test func thePageAndLeafletAreServed() throws {
        let server = try ServerAPITests.server()
        let page = try server.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("/leaflet/leaflet.js") && page.text.contains("/leaflet/leaflet.css"))
        for (path, type, body) in [("/leaflet/leaflet.js", "text/javascript; charset=utf-8", WebResources.leafletJS),
                                   ("/leaflet/leaflet.css", "text/css; charset=utf-8", WebResources.leafletCSS)] {
            let reply = try server.get(path)
            #expect(reply.status == 200 && reply.headers["content-type"] == type, "\(path): \(reply.status) \(reply.headers)")
            #expect(reply.headers["cache-control"] == "public, max-age=86400" && reply.text == body, "\(path)")
        }
    }

    /// /v1/page-config: no tiles unless --tiles, the credits of the served sources, the view on the data.
    @Test func thePageConfiguration() throws {
        let config = try ServerAPITests.server().get("/v1/page-config").object()
        #expect(config["tiles"] is NSNull)
        let credits = try #require(config["attribution"] as? [[String: Any]])
        #expect(credits.map { $0["text"] as? String } == ["© OpenStreetMap contributors"])
        #expect(credits.first?["url"] as? String == "https://www.openstreetmap.org/copyright")
        let view = try #require(config["view"] as? [String: Double])
        #expect(view["min_lat"]! < 47.14 && view["max_lat"]! > 47.14 && view["min_lon"]! < 9.52 && view["max_lon"]! > 9.52)   // Vaduz

        let tiles = "https://tile.example.org/{z}/{x}/{y}.png"
        let withTiles = try ServerProcess([try TestDatabases.liechtenstein(), try TestDatabases.cities()],
                                          options: ["--tiles", tiles, "--tiles-attribution", "© Example"])
        defer { withTiles.stop() }
        let both = try withTiles.get("/v1/page-config").object()
        #expect((both["tiles"] as? [String: String]) == ["url": tiles, "attribution": "© Example"])
        #expect((both["attribution"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["© OpenStreetMap contributors", "GeoNames"])
        let refused = try runGeodb(["serve", try TestDatabases.liechtenstein(), "--tiles", "tile.example.org/{z}/{x}.png"])
        #expect(refused.status == 64 && refused.stderr.contains("--tiles"), "\(refused.stderr)")
    }
}
