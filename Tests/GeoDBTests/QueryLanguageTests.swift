// The query forms Nominatim accepts besides plain names, on SampleData's Liechtenstein: a name or a category
// with a position (decimal, degrees with hemisphere letters), and a filter in brackets (an OSM tag or a
// category word) before the place.
@testable import GeoDB
import Testing
import TestSupport

@Suite struct QueryLanguageTests {
    static func search(_ text: String, country: String? = nil) throws -> [PlaceResult] {
        var options = SearchOptions()
        options.countryCode = country
        return try CountryHierarchyTests.liechtenstein.get().search(text, options: options)
    }

    @Test func aPositionIsFoundBeforeOrAfterTheWords() throws {
        let weiher = try #require(CoordinateParser.split("sporry weiher, N 47.10791° E 9.52676°"))
        #expect(weiher.rest == "sporry weiher" && abs(weiher.point.lat - 47.10791) < 1e-9 && abs(weiher.point.lon - 9.52676) < 1e-9)
        #expect(CoordinateParser.split("restaurant near 47.16712,9.51100")?.rest == "restaurant")
        #expect(CoordinateParser.split("\tsporry weiher\t, \tN 47.10791° \t\tE\t9.52676°")?.rest == "sporry weiher")
        #expect(CoordinateParser.split("47.150° N 9.5340493° E [leisure=firepit]")?.rest == "[leisure=firepit]")
        // Numbers after a street are a house number, not a position; an impossible position is none.
        #expect(CoordinateParser.split("Austrasse 9 10") == nil)
        #expect(CoordinateParser.split("sporry, N 47 15 7 W 9 61 26") == nil)
        #expect(CoordinateParser.split("47.1,9.5") == nil)   // a position alone is `parse`'s
    }

    /// A text that begins with an ASCII letter other than a hemisphere's is no position, told from its first byte
    /// before it is trimmed; every way a position can begin still reads as one: a digit, a sign, a hemisphere letter
    /// of either case, after spaces or a tab. A name beginning with a hemisphere letter is read whole, and is none.
    @Test func aPositionAloneBeginsAsPositionsDo() throws {
        for text in ["-33.86, 151.2", "+47.1, 9.5", " S 33.86 E 151.2", "\ts 33.86 e 151.2", "N 47.10791° E 9.52676°", "s 33.86, e 151.2",
                     "47.1 N 9.5 E", "\u{00A0}47.1, 9.5"] {
            #expect(CoordinateParser.parse(text) != nil, "\(text)")
        }
        for text in ["Vaduz", "vaduz 47.1 9.5", "Nendeln", "Schaan", "[natural=peak] 47.06512,9.53965", "\"47.1, 9.5\"", ""] {
            #expect(CoordinateParser.parse(text) == nil, "\(text)")
        }
    }

    @Test func wordsWithAPositionAreSearchedAroundIt() throws {
        let weiher = try #require(try Self.search("sporry weiher, N 47.10791° E 9.52676°").first)
        #expect(weiher.name == "Spörry Weiher" && weiher.kind == .water)
        // Without the position "sporry" is the pond in Vaduz; with one in Triesen, the places there.
        let near = try #require(try Self.search("sporry, 47.10791,9.52676").first)
        #expect(near.address.city == "Triesen" && (near.distanceM ?? .infinity) < 100)
        let restaurants = try Self.search("restaurant near 47.16712,9.51100")
        #expect(!restaurants.isEmpty && restaurants.allSatisfy { $0.categoryID == "restaurant" && ($0.distanceM ?? .infinity) < 12_000 })
        #expect(try Self.search("sporry, N 47 15 7 W 9 61 26").isEmpty)
    }

    @Test func aFilterInBracketsNamesWhatToFind() throws {
        let peaks = try Self.search("[natural=peak] 47.06512,9.53965")
        #expect(!peaks.isEmpty && peaks.allSatisfy { $0.category?.text == "natural=peak" })
        // The country asked for holds for a category too: Mittlerspitz is on the Liechtenstein side.
        #expect(try Self.search("[natural=peak] 47.06512,9.53965", country: "CH").isEmpty)
        let restaurants = try Self.search("[restaurant] Vaduz")
        #expect(!restaurants.isEmpty && restaurants.allSatisfy { $0.categoryID == "restaurant" && $0.address.city == "Vaduz" })
        // The place after the filter may be a street.
        let water = try Self.search("[amenity=drinking_water] Wissfläckaweg")
        #expect(!water.isEmpty && water.allSatisfy { $0.category?.text == "amenity=drinking_water" && ($0.distanceM ?? .infinity) < 1_000 })
        #expect(CategoryText("[no such thing] Vaduz") == nil && CategoryText("[=x] Vaduz") == nil)
    }
}
