// The typed parts of a result: the source reference every layer shows and `lookup` takes back, the
// category's OSM tag the servers answer with, the address parts JSON keys them by, the line a result shows.
import Foundation
import Testing
@testable import GeoDB

@Suite struct ResultModelTests {
    @Test func sourceReferencesReadBackAsTheyAreShown() throws {
        for text in ["n123", "w45", "r6", "geonames:658225", "csv:stores.csv:17", "csv:a:b.csv:x-1"] {
            #expect(SourceReference(text)?.description == text)
        }
        #expect(SourceReference("w45")?.osmObject?.type == "way" && SourceReference("w45")?.osmObject?.id == 45)
        #expect(SourceReference("geonames:658225")?.osmObject == nil)
        // The file name may hold colons; the record is after the last.
        #expect(SourceReference("csv:a:b.csv:x-1")?.file == "a:b.csv" && SourceReference("csv:a:b.csv:x-1")?.record == "x-1")
        for text in ["", "x12", "n", "n-1", "geonames:", "csv:", "csv:file", "42"] { #expect(SourceReference(text) == nil, "\(text)") }
        let json = try JSONEncoder().encode([SourceReference("csv:stores.csv:17")])
        #expect(String(decoding: json, as: UTF8.self) == #"["csv:stores.csv:17"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SourceReference].self, from: Data(#"["x"]"#.utf8)) }
    }

    @Test func aCategoryIsAnOSMTagOnlyWhenItIsOne() {
        #expect(SourceCategory("amenity=cafe").osmTag! == ("amenity", "cafe"))
        #expect(SourceCategory("addr:interpolation=even").osmTag! == ("addr:interpolation", "even"))
        #expect(SourceCategory("geonames=PPLA").osmTag == nil)   // GeoNames' feature code
        #expect(SourceCategory("Coffee shop").osmTag == nil && SourceCategory("=x").osmTag == nil)
    }

    @Test func addressPartsAreKeyedAsJSONShowsThem() throws {
        var address = Address(housenumber: "9", street: "Austrasse", city: "Vaduz", countryCode: "LI")
        address[.county] = "Oberland"
        #expect(address[level: .city] == "Vaduz" && address.county == "Oberland")
        #expect(address.parts.map(\.part) == [.housenumber, .street, .city, .county, .countryCode])
        #expect(address.dictionary == ["housenumber": "9", "street": "Austrasse", "city": "Vaduz", "county": "Oberland", "country_code": "LI"])
        // Every area level is a part of the same name.
        for level in AddressLevel.allCases { #expect(Address.Part(level).rawValue == level.rawValue) }
        // The settlement's kind goes with its name, and is no part of JSON.
        var town = Address()
        town.setArea(.city, name: "Vaduz", kind: .town)
        address.copy(.city, from: town)
        #expect(address.city == "Vaduz" && address.areaKinds[.city] == .town && address.dictionary["city"] == "Vaduz")
        address.copy(.city, from: Address(city: "Schaan"))
        #expect(address.city == "Schaan" && address.areaKinds[.city] == nil)
        address.setArea(.city, name: nil, kind: .village)
        #expect(address.areaKinds[.city] == nil)
        address.city = "Vaduz"
        let decoded = try JSONDecoder().decode(Address.self, from: JSONEncoder().encode(address))
        #expect(decoded == address && !decoded.isEmpty && Address().isEmpty)
    }

    /// `displayName` is written from the address it has now, in the style of its answer, and a result
    /// encoded and decoded writes the same line (issue 32: display names computed, not stored).
    @Test func theDisplayNameFollowsTheAddressInTheAnswersStyle() throws {
        var house = try JSONDecoder().decode(PlaceResult.self, from: Data("""
            {"id": 7, "sourceId": "n7", "kind": "address", "name": "Haus Sonne", "displayName": "ignored", "lat": 47.1, "lon": 9.5,
             "address": {"housenumber": "9", "street": "Austrasse", "postcode": "9490", "city": "Vaduz", "suburb": "Ebenholz",
                         "country": "Liechtenstein"}, "tags": {}}
            """.utf8))
        #expect(house.displayStyle == .place && house.displayName == "Haus Sonne, Austrasse 9, 9490 Vaduz")
        house.address.postcode = "9494"
        #expect(house.displayName == "Haus Sonne, Austrasse 9, 9494 Vaduz")
        var number = house
        (number.kind, number.match) = (.interpolation, .interpolated)
        #expect(number.displayName == "Austrasse 9, 9494 Vaduz")
        house.displayStyle = .reverse   // an address answers reverse without its name, with its areas
        #expect(house.displayName == "Austrasse 9, Ebenholz, 9494 Vaduz, Liechtenstein")
        var point = house
        point.kind = .coordinate
        point.displayStyle = .coordinate(near: DisplayStyle.NearPlace(name: "Haus Sonne", kind: .address))
        #expect(point.displayName == "47.100000, 9.500000 (near Haus Sonne, Austrasse 9, 9494 Vaduz)")
        for result in [house, point] {
            let decoded = try JSONDecoder().decode(PlaceResult.self, from: JSONEncoder().encode(result))
            #expect(decoded == result && decoded.displayName == result.displayName)
        }
        // The usual style is no key of its own: the encoding is what it was.
        house.displayStyle = .place
        let keys = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(house)) as? [String: Any]).keys
        #expect(keys.contains("displayName") && !keys.contains("displayStyle"))
    }
}
