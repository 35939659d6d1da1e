// Addresses completed at import, as Nominatim completes them (SampleData/liechtenstein.osm.pbf): a house
// number tagged without a street gets the nearest named street, an address without a postcode the
// postcode of its street's addresses; both marked derived, found by search, shown by reverse. And a
// postcode asked for with its country.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct DerivedAddressTests {
    static let liechtenstein = Result { try GeoDatabase(path: try TestDatabases.liechtenstein()) }

    /// Industriestrasse 23, Triesen (w272649995) is tagged addr:housenumber=23, no street, no postcode.
    @Test func aHouseNumberWithoutAStreetGetsTheNearestNamedStreet() throws {
        let db = try Self.liechtenstein.get()
        let house = try db.lookup("w272649995").place
        #expect(house.address.housenumber == "23" && house.address.street == "Industriestrasse", "\(house.address)")
        #expect(house.address.derived == [.street, .postcode] && house.address.postcode == "9495")
        // Search finds it by that street, in its town.
        let found = try db.search("Industriestrasse 23, Triesen", options: { var o = SearchOptions(); o.limit = 3; return o }())
        #expect(found.first?.id == house.id, "\(found.map(\.displayName))")
        // Reverse at the house shows the street and postcode.
        let reverse = try #require(try db.reverse(at: house.coordinate).first)
        #expect(reverse.place.id == house.id && reverse.place.address.street == "Industriestrasse" && reverse.place.address.postcode == "9495")
        // JSON says which parts are derived; a tagged address says nothing.
        func compact(_ json: JSON) -> String { String(decoding: json.encoded() ?? [], as: UTF8.self) }
        let json = compact(ResultJSON.place(house))
        #expect(json.contains(#""address_derived":["street","postcode"]"#), "\(json)")
        let tagged = try #require(try db.search("Austrasse 11, Triesen").first)
        #expect(tagged.address.derived.isEmpty && !compact(ResultJSON.place(tagged)).contains("address_derived"))
    }

    /// A POI without a house number gets the nearest named street and its postcode too, as Nominatim
    /// parents it: "Die Burg Gutenberg - 6000 Jahre Geschichte" (n5771479194, tourism=information) stands by
    /// the footway Burgweg in Balzers. Shown, not indexed: a search for the street does not list it.
    @Test func aPOIGetsTheNearestNamedStreetButIsNotFoundByIt() throws {
        let db = try Self.liechtenstein.get()
        let poi = try db.lookup("n5771479194").place
        #expect(poi.address.street == "Burgweg" && poi.address.postcode == "9496" && poi.address.derived == [.street, .postcode],
                "\(poi.address)")
        let reverse = try #require(try db.reverse(at: poi.coordinate).first)
        #expect(reverse.place.id == poi.id && reverse.place.address.street == "Burgweg")
        let street = try db.search("Burgweg, Balzers", options: { var o = SearchOptions(); o.limit = 20; return o }())
        #expect(street.first?.kind == .street && !street.contains { $0.id == poi.id }, "\(street.map(\.displayName))")
        #expect(try db.search("6000 Jahre Geschichte").first?.id == poi.id)
    }

    /// In der Egerta 11, Schaan (w128189093) has a street but no postcode; its neighbours on the street
    /// carry 9494.
    @Test func anAddressWithoutAPostcodeGetsItsStreetsPostcode() throws {
        let db = try Self.liechtenstein.get()
        let house = try db.lookup("w128189093").place
        #expect(house.address.street == "In der Egerta" && house.address.postcode == "9494" && house.address.derived == [.postcode])
        // A postcode that disagrees with a derived one does not hide the address from a structured search.
        let structured = try db.withSession { try $0.structuredSearch(street: "In der Egerta", housenumber: "11", city: nil, postcode: "9490") }
        #expect(structured.first?.id == house.id)
    }

    /// "9486, li", "9486 Liechtenstein": the postcode, in that country.
    /// Far from any house that carries a postcode, an address or street gets its town's, when the town's
    /// tagged addresses all but agree on one: Fürstenweg 99 (w300851420) in Schaan, 9494; the Rüttiwaldstrasse
    /// (w8154751) in Planken, 9498.
    @Test func anAddressFarFromAnyTaggedHouseGetsItsTownsPostcode() throws {
        let db = try Self.liechtenstein.get()
        let house = try db.lookup("w300851420").place
        #expect(house.address.postcode == "9494" && house.address.derived == [.postcode], "\(house.address)")
        let street = try db.lookup("w8154751").place
        #expect(street.kind == .street && street.address.postcode == "9498" && street.address.derived == [.postcode], "\(street.address)")
    }

    /// A US ZIP+4 is read as its ZIP code (Nominatim's test data: "36067-1111, us" answers the postcode
    /// 36067); a range of house numbers or a code of other lengths is not one.
    @Test func aZIPPlus4IsItsZIPCode() {
        #expect(PostcodeReading.zipCode(ofZipPlus4: "36067-1111") == "36067")
        for text in ["12-14", "36067", "36067-111", "3606-11111", "36067-11a1", "36067-1111-2"] {
            #expect(PostcodeReading.zipCode(ofZipPlus4: text) == nil, "\(text)")
        }
    }

    @Test func aPostcodeWithItsCountryFindsThePostcode() throws {
        let db = try Self.liechtenstein.get()
        for text in ["9486, li", "9486, Liechtenstein", "9486 LI"] {
            let first = try #require(try db.search(text).first, "\(text)")
            #expect(first.kind == .postcode && first.name == "9486" && first.address.countryCode == "LI", "\(text): \(first.displayName)")
        }
        // Another country's code finds no postcode of Liechtenstein.
        #expect(try db.search("9486, at").allSatisfy { $0.kind != .postcode })
    }
}
