// Whole countries as users download them (SampleData/liechtenstein.osm.pbf, monaco.osm.pbf): every place
// knows where it lies, one result per real place, points where people expect them, towns by size,
// "…, Town" finds places without addr:city, reverse on land always answers.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct CountryHierarchyTests {
    static let liechtenstein = Result { try GeoDatabase(path: try TestDatabases.liechtenstein()) }
    static let monaco = Result { try GeoDatabase(path: try TestDatabases.monaco()) }

    static func search(_ db: GeoDatabase, _ text: String, limit: Int = 10, country: String? = nil) throws -> [PlaceResult] {
        var options = SearchOptions()
        options.limit = limit
        options.countryCode = country
        return try db.search(text, options: options)
    }

    static func reverse(_ db: GeoDatabase, _ lat: Double, _ lon: Double, level: ReverseLevel = .address) throws -> ReverseResult? {
        var options = ReverseOptions()
        options.level = level
        return try db.reverse(at: Coordinate(lat: lat, lon: lon), options: options).first
    }

    /// Rows of a plain SQL query on a test database.
    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        let db = try Connection(path: path, mode: .readOnly())
        let statement = try db.prepare(sql)
        return try statement.rows { row in (0..<row.columnCount).map { row.text($0) ?? "" } }
    }

    @Test func vaduzIsOneResultAtTheTown() throws {
        let db = try Self.liechtenstein.get()
        let results = try Self.search(db, "Vaduz", limit: 20)
        let places = results.filter { $0.name == "Vaduz" && $0.kind.addressLevel != nil }
        #expect(places.count == 1, "\(places.map(\.sourceRef?.description))")
        let vaduz = try #require(results.first)
        // The town node's point, population and tags; the municipality's polygon, level and country.
        #expect(vaduz.sourceRef?.description == "n1932181216" && vaduz.kind == .town && vaduz.population == 5229)
        #expect(vaduz.coordinate.distance(to: Coordinate(lat: 47.1392862, lon: 9.5227962)) < 1)
        #expect(vaduz.address.countryCode == "LI" && vaduz.address.country == "Liechtenstein")
        #expect(vaduz.address.city == nil)   // it is the municipality
        // The boundary relation's id finds the same place; --country LI keeps it.
        #expect(try db.lookup("r1155956").place.id == vaduz.id)
        #expect(try Self.search(db, "Vaduz", limit: 1, country: "LI").first?.id == vaduz.id)
        // Monaco: one Monaco, the city-state that is its country and its city.
        let monaco = try Self.search(try Self.monaco.get(), "Monaco", limit: 20)
            .filter { $0.name == "Monaco" && $0.kind.addressLevel != nil }
        #expect(monaco.count == 1 && monaco.first?.address.countryCode == "MC")
    }

    /// A country named as where a place is asks for a place in it, not for the country (Nominatim's "Place
    /// searches with a country component should not return countries"); named alone, it is the country.
    @Test func aCountryAsWhereAsksForAPlaceInIt() throws {
        let db = try Self.liechtenstein.get()
        #expect(try Self.search(db, "Liechtenstein").first?.kind == .country)
        for text in ["Liechtenstein, LI", "Liechtenstein Liechtenstein"] {
            let results = try Self.search(db, text)
            #expect(!results.isEmpty && !results.contains { $0.kind == .country }, "\(text)")
            #expect(results.allSatisfy { $0.address.countryCode == "LI" && $0.name?.contains("Liechtenstein") == true }, "\(text)")
        }
    }

    /// A postcode with its town is the postcode place first, as Nominatim answers ("Postcode search with
    /// address"), the town after it; not a postcode beyond the town's reach.
    @Test func aPostcodeWithItsTownIsThePostcode() throws {
        let db = try Self.liechtenstein.get()
        let mauren = try Self.search(db, "9486, Mauren")
        #expect(mauren.first?.kind == .postcode && mauren.first?.name == "9486", "\(mauren.map(\.displayName))")
        let schaan = try Self.search(db, "9494 Schaan")
        #expect(schaan.prefix(2).map(\.kind) == [.postcode, .town], "\(schaan.map(\.displayName))")
        #expect(try !Self.search(db, "9486, Balzers").contains { $0.kind == .postcode })
    }

    /// Towns answer at their place nodes, inside their municipalities (Schaan's boundary relation has its
    /// point 3.2 km away, Triesen's centroid lies in the mountains).
    @Test func townsAreWherePeopleExpectThem() throws {
        let db = try Self.liechtenstein.get()
        for (name, node, lat, lon) in [("Schaan", "n240079149", 47.1663397, 9.510312), ("Triesen", "n240092661", 47.106994, 9.5274876)] {
            let town = try #require(try Self.search(db, name, limit: 1).first)
            #expect(town.sourceRef?.description == node && town.coordinate.distance(to: Coordinate(lat: lat, lon: lon)) < 1, "\(name)")
        }
        // Every polygon's point lies inside it (the node of a merged place, else its centroid or label point).
        let path = try TestDatabases.liechtenstein()
        var outside: [String] = []
        var selection = PlaceSelection()
        selection.withGeometry = true
        try db.withSession { session in
            try session.forEachPlace(selection) { place, geometry in
                guard case .polygons(let polygons)? = geometry else { return }
                let p = Point7(place.coordinate)
                if !polygons.contains(where: { PolygonMath.polygonContains($0, lat: p.lat, lon: p.lon) }) { outside.append(place.sourceRef?.description ?? "") }
            }
        }
        #expect(outside.isEmpty, "\(outside.count) in \(path): \(outside.prefix(10))")
    }

    /// Every place inside Liechtenstein's boundary has the country code LI and a municipality (unless it
    /// is one, or the country, or a natural feature across municipalities, which lies in none of them).
    @Test func everyPlaceInLiechtensteinHasItsCountryAndMunicipality() throws {
        let db = try Self.liechtenstein.get()
        let path = try TestDatabases.liechtenstein()
        let municipalities = Set(try Self.rows(path, "SELECT a.place_id FROM area a WHERE a.level = 'city' AND a.country_code = 'LI'").map { $0[0] })
        #expect(municipalities.count == 11)
        var country: [[[Point7]]] = []
        var selection = PlaceSelection()
        selection.kinds = [.country]
        selection.withGeometry = true
        try db.withSession { session in
            try session.forEachPlace(selection) { place, geometry in
                if place.name == "Liechtenstein", case .polygons(let polygons)? = geometry { country = polygons }
            }
        }
        #expect(!country.isEmpty)
        var inside = 0
        var wrong: [String] = []
        try db.withSession { session in
            try session.forEachPlace(PlaceSelection()) { place, _ in
                let p = Point7(place.coordinate)
                guard country.contains(where: { PolygonMath.polygonContains($0, lat: p.lat, lon: p.lon) }) else { return }
                inside += 1
                let isArea = municipalities.contains(String(place.id)) || place.kind == .country || place.kind == .county
                let mayCross = ReverseLayer.feature(kind: place.kind, category: place.category?.text) == .natural
                if place.address.countryCode != "LI" || (!isArea && !mayCross && place.address.city == nil) {
                    wrong.append(place.sourceRef?.description ?? "")
                }
            }
        }
        #expect(inside > 15_000)
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(10))")
    }

    /// A lookup has the areas of the place's address with their ids, its own address tags apart from what
    /// the areas filled in, its admin level and the boundary merged into it.
    @Test func lookupListsTheAreasAroundAPlace() throws {
        let db = try Self.liechtenstein.get()
        let vaduz = try db.lookup("n1932181216")
        #expect(vaduz.adminLevel == 8 && vaduz.linkedRecords.map(\.description) == ["r1155956"])
        // The town's own tags give its postcode; Oberland and the country are its areas, not its tags.
        #expect(vaduz.ownAddress.postcode == "9490" && vaduz.ownAddress.county == nil && vaduz.place.address.county == "Oberland")
        #expect(vaduz.areas.map(\.level) == [.county, .country])
        #expect(vaduz.areas.map { $0.place.sourceRef?.description } == ["r1156142", "n3696525426"])
        #expect(vaduz.areas.map(\.adminLevel) == [6, 2] && vaduz.areas.allSatisfy { !$0.isNearestPlace })
        // A car park in Vaduz: in the town's boundary, and by the nearest place node in Ebenholz.
        let parking = try db.lookup("w529794592")
        let suburb = try #require(parking.areas.first)
        #expect(suburb.level == .suburb && suburb.place.name == "Ebenholz" && suburb.isNearestPlace && suburb.adminLevel == nil)
        #expect(parking.areas.first { $0.level == .city }?.place.id == vaduz.place.id)
        #expect(parking.adminLevel == nil && parking.linkedRecords.isEmpty && parking.ownAddress.isEmpty)
    }

    @Test func addressesAndPlacesWithTheirTownAndCountry() throws {
        let db = try Self.liechtenstein.get()
        // A street running through several municipalities is found with each, shown where it is in that one.
        for town in ["Triesen", "Triesenberg"] {
            let street = try #require(try Self.search(db, "Valünastrasse, \(town)", limit: 1).first)
            #expect(street.kind == .street && street.name == "Valünastrasse" && street.address.city == town)
            let here = try #require(try Self.reverse(db, street.lat, street.lon, level: .city))
            #expect(here.place.name == town, "\(street.coordinate)")
        }
        let address = try #require(try Self.search(db, "Austrasse 9, Vaduz, Liechtenstein", limit: 1).first)
        #expect(address.kind == .address && address.address.street == "Austrasse" && address.address.housenumber == "9")
        #expect(address.address.city == "Vaduz")
        #expect(try Self.search(db, "Vaduz, Liechtenstein", limit: 1).first?.sourceRef?.description == "n1932181216")

        // POIs without an addr:city of their own, by rule (every 40th named POI whose name is its own in
        // the database and has no digits, which read as house numbers), found as "Name, Town" with the town their municipality gives them.
        let path = try TestDatabases.liechtenstein()
        let pois = try Self.rows(path, """
            SELECT p.id, p.name, c.name FROM place p JOIN place_area_set pas ON pas.place_id = p.id
            JOIN area_set s ON s.id = pas.area_set_id JOIN place c ON c.id = s.city_id
            WHERE p.kind = 'poi' AND p.city IS NULL AND p.name IS NOT NULL AND s.country_code = 'LI'
              AND (SELECT count(*) FROM place q WHERE q.name = p.name) = 1 AND p.name NOT GLOB '*[0-9]*'
            ORDER BY p.id
            """).enumerated().filter { $0.offset % 40 == 0 }.map(\.element)
        #expect(pois.count >= 10)
        for poi in pois {
            let found = try Self.search(db, "\(poi[1]), \(poi[2])", limit: 1).first
            #expect(found.map { String($0.id) } == poi[0], "\(poi[1]), \(poi[2]) → \(found?.displayName ?? "nothing")")
        }
    }

    /// Towns list biggest first: the populations of the OSM place nodes.
    @Test func townsListByPopulation() throws {
        let towns = try Self.liechtenstein.get().withSession { try $0.hierarchical(town: "S") }
        #expect(towns.prefix(2).map(\.name) == ["Schaan", "Schellenberg"])
        let populations = towns.compactMap(\.population)
        #expect(populations == populations.sorted(by: >) && populations.first == 6002)
    }

    @Test func monacoReversesToItsWardAndNoMountainRange() throws {
        let db = try Self.monaco.get()
        let casino = try #require(try Self.reverse(db, 43.7396, 7.4276))
        #expect(casino.place.address.suburb == "Monte-Carlo" && casino.place.address.city == "Monaco")
        #expect(casino.place.address.country == "Monaco" && casino.place.address.countryCode == "MC")
        #expect(casino.place.address.state == nil && casino.hierarchySource == .polygons)
        // "Alpes Maritimes", a place=region (a mountain range), is a locality, nobody's state.
        #expect(try Self.search(db, "Alpes Maritimes", limit: 5).filter { $0.name == "Alpes Maritimes" }.allSatisfy { $0.kind == .locality })
        try db.withSession { session in
            try session.forEachPlace(PlaceSelection()) { place, _ in
                #expect(place.address.state != "Alpes Maritimes", "\(place.sourceRef?.description ?? "")")
            }
        }
        // Open sea far from Monaco, outside every area: nothing.
        #expect(try Self.reverse(db, 43.55, 7.45) == nil)
    }

    @Test func waterAndAreasOfInterestAtAPoint() throws {
        let lake = try #require(try Self.search(try Self.liechtenstein.get(), "Gampriner Seele", limit: 1).first)
        let atLake = try #require(try Self.reverse(try Self.liechtenstein.get(), lake.lat, lake.lon))
        #expect(atLake.water == "Gampriner Seele" && atLake.place.address.city == "Gamprin")
        var gardens = SearchOptions()
        gardens.kinds = [.poi]   // not the ward of the same name
        let garden = try #require(try Self.monaco.get().search("Jardin Exotique", options: gardens).first)
        let inGarden = try #require(try Self.reverse(try Self.monaco.get(), garden.lat, garden.lon))
        #expect(inGarden.areasOfInterest.contains("Jardin Exotique") && inGarden.water == nil)
    }

    /// In the mountains, far from any address, the municipality containing the point (Malbun in
    /// Triesenberg), not the nearest place node's; asked for a city, the municipality itself.
    @Test func ruralPointsReverseToTheirMunicipality() throws {
        let db = try Self.liechtenstein.get()
        let malbun = try #require(try Self.reverse(db, 47.1000, 9.6200))
        #expect(malbun.place.address.city == "Triesenberg" && malbun.place.address.countryCode == "LI")
        #expect(malbun.hierarchySource == .polygons)
        let city = try #require(try Self.reverse(db, 47.1000, 9.6200, level: .city))
        #expect(city.place.name == "Triesenberg" && city.place.match == .area && city.place.distanceM == 0)
        // A street crossing into the next municipality takes the municipality of the point.
        let street = try #require(try Self.reverse(db, 47.1100, 9.6000))
        #expect(street.place.address.city == "Triesenberg" && street.place.address.suburb != "Schaan")
    }

    /// Postcodes: the places made from the addresses' postcodes match by prefix ("949" lists 9490–9498) and
    /// scope street search (two streets called Austrasse, in 9490 Vaduz and 9495 Triesen).
    /// Each area's ISO 3166-2 code comes with the address, keyed by its level, with its boundary's admin
    /// level: the municipality's in Vaduz (its boundary merged into the town node, whose tags keep the code),
    /// the ward's in Monaco, a French département's and region's beside it.
    @Test func addressesCarryTheirAreasSubdivisionCodes() throws {
        let db = try Self.liechtenstein.get()
        let vaduzCode = SubdivisionCode(adminLevel: 8, code: "LI-11")
        let address = try #require(try Self.search(db, "Austrasse 9, Vaduz", limit: 1).first)
        #expect(address.address.city == "Vaduz" && address.address.subdivisionCodes == [.city: vaduzCode])
        #expect(try Self.reverse(db, 47.13168, 9.52287)?.place.address.subdivisionCodes == [.city: vaduzCode])
        // The town is the municipality: its own code at its own level, from the boundary it absorbed.
        let vaduz = try db.lookup("n1932181216").place
        #expect(vaduz.tags[SubdivisionCode.tag] == "LI-11" && vaduz.address.subdivisionCodes == [.city: vaduzCode])
        // The country has none (ISO3166-1 is no subdivision code), so neither has a place named only by it.
        #expect(try db.lookup("n3696525426").place.address.subdivisionCodes.isEmpty)
        // /v1 and --json: by level, the code alone.
        let json = String(decoding: ResultJSON.place(address).encoded() ?? [], as: UTF8.self)
        #expect(json.contains(#""address_iso3166_2":{"city":"LI-11"}"#), "\(json)")
        // A name that is not the set's area does not take its code.
        var retagged = address.address
        retagged.copy(.city, from: Address(city: "Schaan"))
        #expect(retagged.subdivisionCodes.isEmpty)

        let monaco = try Self.monaco.get()
        let casino = try #require(try Self.reverse(monaco, 43.7396, 7.4276))
        #expect(casino.place.address.subdivisionCodes == [.suburb: SubdivisionCode(adminLevel: 10, code: "MC-MC")])
        let nice = try #require(try Self.search(monaco, "Nice", limit: 5).first { $0.address.county == "Alpes-Maritimes" })
        #expect(nice.address.subdivisionCodes[.county] == SubdivisionCode(adminLevel: 6, code: "FR-06"))
        #expect(nice.address.subdivisionCodes[.state] == SubdivisionCode(adminLevel: 4, code: "FR-PAC"))
    }

    /// A city-state's city boundary merged into its country keeps its names, not its subdivision code: the
    /// survivor is the country, of admin level 2, and the code would be keyed by that level. A place node
    /// merged with its boundary takes the boundary's code (Vaduz, above).
    @Test func aCityStateKeepsNoCodeOfAnotherLevel() throws {
        let scratch = try ScratchDirectory()
        let ring = "<way id='1'><nd ref='1'/><nd ref='2'/><nd ref='3'/><nd ref='4'/><nd ref='1'/></way>\n"
        func boundary(_ id: Int, level: Int, tags: String) -> String {
            "<relation id='\(id)'><member type='way' ref='1' role='outer'/><tag k='type' v='boundary'/>"
                + "<tag k='boundary' v='administrative'/><tag k='admin_level' v='\(level)'/><tag k='name' v='Testburg'/>\(tags)</relation>\n"
        }
        let xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
            + "<node id='1' lat='10' lon='10'/><node id='2' lat='10' lon='10.1'/><node id='3' lat='10.1' lon='10.1'/><node id='4' lat='10.1' lon='10'/>\n"
            + "<node id='5' lat='10.05' lon='10.05'><tag k='amenity' v='cafe'/><tag k='name' v='Kaffee'/></node>\n" + ring
            + boundary(1, level: 2, tags: "<tag k='ISO3166-1' v='TB'/>")
            + boundary(2, level: 8, tags: "<tag k='ISO3166-2' v='TB-01'/><tag k='website' v='https://testburg.example'/>") + "</osm>\n"
        try xml.write(toFile: scratch.path("testburg.osm"), atomically: true, encoding: .utf8)
        _ = try TestDatabases.importFile(scratch.path("testburg.osm"), to: scratch.path("testburg.sqlite"))
        let db = try GeoDatabase(path: scratch.path("testburg.sqlite"))
        let testburg = try db.lookup("r1").place
        #expect(try db.lookup("r2").place.id == testburg.id)   // one place
        #expect(testburg.tags[SubdivisionCode.tag] == nil && testburg.tags["website"] == "https://testburg.example")
        let cafe = try #require(try Self.search(db, "Kaffee", limit: 1).first)
        #expect(cafe.address.city == "Testburg" && cafe.address.country == "Testburg" && cafe.address.subdivisionCodes.isEmpty)
    }

    /// Where no boundary names a country, the time zones imported beside the file do (tzdata's zone.tab):
    /// a cafe in Berlin with no boundary around it is in DE (a CSV row too); without the zones it has no
    /// country; one where the file has no zone but the nautical `Etc/GMT-2` has none either. The country is named
    /// too, as Nominatim's country grid names it, through the country place the zones give (a point, so a
    /// level from a place node, not a boundary: reverse says so).
    @Test func aPlaceNoBoundaryHoldsTakesItsTimeZonesCountry() throws {
        let scratch = try ScratchDirectory()
        let xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
            + "<node id='1' lat='52.52' lon='13.40'><tag k='amenity' v='cafe'/><tag k='name' v='Kaffee Mitte'/></node>\n"
            + "<node id='2' lat='0.5' lon='30.5'><tag k='amenity' v='cafe'/><tag k='name' v='Kaffee Fern'/></node>\n</osm>\n"
        try xml.write(toFile: scratch.path("cafes.osm"), atomically: false, encoding: .utf8)
        _ = try TestDatabases.importFiles([scratch.path("cafes.osm"), TestPaths.sampleData("timezones-small.geojson")],
                                          to: scratch.path("zoned.sqlite"))
        _ = try TestDatabases.importFile(scratch.path("cafes.osm"), to: scratch.path("plain.sqlite"))
        func country(_ path: String, _ name: String) throws -> String? {
            try #require(try Self.search(GeoDatabase(path: path), name, limit: 1).first { $0.name == name }).address.countryCode
        }
        #expect(try country(scratch.path("zoned.sqlite"), "Kaffee Mitte") == "DE")
        let zoned = try GeoDatabase(path: scratch.path("zoned.sqlite"))
        #expect(try Self.search(zoned, "Kaffee Mitte", limit: 1).first?.address.country == "Germany")
        let reversed = try #require(try Self.reverse(zoned, 52.52, 13.40))
        #expect(reversed.place.address.country == "Germany" && reversed.hierarchySource == .nearestPlace)
        #expect(try Self.rows(scratch.path("zoned.sqlite"), "SELECT from_nodes FROM area_set WHERE country_code = 'DE'") == [["country"]])
        #expect(try Self.search(GeoDatabase(path: scratch.path("plain.sqlite")), "Kaffee Mitte", limit: 1).first?.address.country == nil)
        #expect(try country(scratch.path("plain.sqlite"), "Kaffee Mitte") == nil)
        #expect(try country(scratch.path("zoned.sqlite"), "Kaffee Fern") == nil)
        #expect(TimeZoneCountry.code(ofZone: "Europe/Vaduz") == "LI" && TimeZoneCountry.code(ofZone: "Etc/GMT-2") == nil)
        // A CSV file's rows without a country column too.
        try "name,lat,lon\nKiosk Mitte,52.52,13.40\n".write(toFile: scratch.path("kiosk.csv"), atomically: false, encoding: .utf8)
        _ = try TestDatabases.importFiles([scratch.path("kiosk.csv"), TestPaths.sampleData("timezones-small.geojson")],
                                          to: scratch.path("kiosk.sqlite"))
        #expect(try country(scratch.path("kiosk.sqlite"), "Kiosk Mitte") == "DE")
    }

    /// The countries of the zones that no place is become places (`ZoneCountryPlaces`), as Nominatim's country
    /// table has every country: named in English and in their own languages, found by name and by code alone
    /// (not while it is typed), named in the language asked, and reverse far from every place answers the
    /// country of the zone there; the file's extent stays that of its data. A file of time zones alone gets none.
    @Test func theZonesCountriesArePlaces() throws {
        let scratch = try ScratchDirectory()
        try "<?xml version='1.0'?>\n<osm version='0.6'>\n<node id='1' lat='52.52' lon='13.40'><tag k='amenity' v='cafe'/><tag k='name' v='Kaffee Mitte'/></node>\n</osm>\n"
            .write(toFile: scratch.path("cafe.osm"), atomically: false, encoding: .utf8)
        let zoned = scratch.path("zoned.sqlite"), plain = scratch.path("plain.sqlite")
        _ = try TestDatabases.importFiles([scratch.path("cafe.osm"), TestPaths.sampleData("timezones-small.geojson")], to: zoned)
        _ = try TestDatabases.importFile(scratch.path("cafe.osm"), to: plain)
        #expect(try Self.rows(zoned, "SELECT country_code, name FROM place WHERE kind = 'country' ORDER BY country_code")
                == [["AU", "Australia"], ["DE", "Germany"], ["FI", "Finland"], ["IN", "India"], ["NZ", "New Zealand"], ["US", "United States"]])
        #expect(try Self.rows(zoned, "SELECT value FROM meta WHERE key = 'bbox'") == Self.rows(plain, "SELECT value FROM meta WHERE key = 'bbox'"))
        // Time zones alone stay a lookup table: no places to search beside region files.
        _ = try TestDatabases.importFile(TestPaths.sampleData("timezones-small.geojson"), to: scratch.path("zones.sqlite"))
        #expect(try Self.rows(scratch.path("zones.sqlite"), "SELECT count(*) FROM place") == [["0"]])
        let db = try GeoDatabase(path: zoned)
        #expect(try Self.search(db, "Suomi").first?.address.countryCode == "FI")
        let code = try db.withSession { try $0.explainSearch("de") }
        #expect(code.places.first?.name == "Germany" && code.explanation.results.first?.reading == .countryCode)
        #expect(try Self.search(db, "de", country: "FI").isEmpty)
        var typing = SearchOptions()
        typing.autocomplete = true
        #expect(try db.withSession { try $0.explainSearch("in", options: typing) }.explanation.attempts.allSatisfy { $0.reading != .countryCode })
        var french = SearchOptions()
        french.language = "fr"
        #expect(try db.search("Germany", options: french).first?.name == "Allemagne")
        // The middle of India, far from the cafe: the country; the sea of `Etc/GMT-2`: nothing.
        let india = try #require(try Self.reverse(db, 22, 79))
        #expect(india.place.name == "India" && india.place.match == .area)
        #expect(try Self.reverse(db, 0.5, 31.5) == nil)
    }

    @Test func postcodesMatchByPrefixAndScopeStreets() throws {
        let db = try Self.liechtenstein.get()
        let listed = try Self.search(db, "949", limit: 20)
        #expect(listed.prefix(9).map { $0.name ?? "" } == (0...8).map { "949\($0)" })
        #expect(listed.prefix(9).allSatisfy { $0.kind == .postcode && $0.address.countryCode == "LI" })
        let schaan = try #require(try Self.search(db, "9494", limit: 1).first)
        #expect(schaan.kind == .postcode && schaan.match == .exact && schaan.address.city == "Schaan")
        func streets(_ name: String, _ postcode: String) throws -> [String] {
            try db.withSession { try $0.structuredSearch(street: name, housenumber: nil, city: nil, postcode: postcode) }.map { $0.address.city ?? "" }
        }
        #expect(try streets("Austrasse", "9490") == ["Vaduz"])
        #expect(try streets("Austrasse", "9495") == ["Triesen"])
        #expect(try streets("Austrasse", "9494").isEmpty)
    }
}
