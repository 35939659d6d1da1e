// The typed parts of a result: the source reference every layer shows and `lookup` takes back, the
// category's OSM tag the servers answer with, the address parts JSON keys them by.
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
}
