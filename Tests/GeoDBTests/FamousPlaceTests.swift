// Issue 36's examples on the world gazetteer: a famous place's other name, typed whole, finds it before a
// small place of that own name, and a whole name typed as-you-type finds the place so named before bigger
// places whose names go on, unless they are far bigger.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct FamousPlaceTests {
    static let world = Result { try GeoDatabase(path: try TestDatabases.citiesWithNamesakes()) }

    static func first(_ text: String, typing: Bool = false, limit: Int = 5) throws -> [PlaceResult] {
        var options = SearchOptions()
        options.limit = limit
        options.autocomplete = typing
        return try world.get().search(text, options: options)
    }

    /// Each of these is the own name of a village of SampleData/geonames-namesakes.txt (7,032 people at most) and
    /// another name of a city of half a million or more: the city first, the village still found.
    @Test(arguments: [("Cologne", "Köln"), ("Bombay", "Mumbai"), ("Moskva", "Moscow"), ("Breslau", "Wrocław"),
                      ("Posen", "Poznań")])
    func aBigCitysOtherNameBeatsAVillagesOwnName(text: String, city: String) throws {
        let found = try Self.first(text)
        #expect(found.first?.name == city && found.first?.match == .exact, "\(found.map(\.displayName))")
        #expect(found.contains { $0.name == text && $0.kind == .village }, "\(found.map(\.displayName))")
    }

    /// Typed as-you-type, a whole name: the place so named, the big city among them ("München" and "milano" are
    /// Munich's and Milan's other names: Münchenstein and Milanówek are a hundredth their size), also when a
    /// place as big begins with it (Kentron, 133,000 people: Kent has 127,000). A text ending in a space says a
    /// word follows: the bigger place whose name goes on ("Hulan " → Hulan Ergi, 265,000; Hulan has 109,000).
    @Test(arguments: [("München", "Munich"), ("milano", "Milan"), ("Charlotte", "Charlotte"), ("Kent", "Kent"),
                      ("Hulan", "Hulan"), ("Hulan ", "Hulan Ergi")])
    func aWholeNameTypedIsThePlaceSoNamed(typed: String, place: String) throws {
        let found = try Self.first(typed, typing: true)
        #expect(found.first?.name == place, "\(found.map(\.displayName))")
    }

    /// Importance follows population past what a kind says (a city of a million 0.9); below that, the kind's
    /// base raised a little by population orders the places of a kind; above a million, half as fast.
    @Test func importanceFollowsPopulation() {
        #expect(abs(Importance.of(kind: .city, population: 1_000_000) - 0.9) < 1e-9)
        #expect(abs(Importance.of(kind: .city, population: 100_000) - (0.7 + pow(100_000, 0.25) / 500)) < 1e-9)
        #expect(Importance.of(kind: .village, population: 700) < Importance.of(kind: .village, population: 7_000))
        #expect(abs(Importance.of(kind: .city, population: 3_162_278) - 0.95) < 1e-6)
        #expect(Importance.of(kind: .country, population: 5_000_000) > Importance.of(kind: .city, population: 5_000_000))
        #expect(Importance.of(kind: .city, population: 20_000, bonus: 0.1) > Importance.of(kind: .city, population: 20_000))
    }
}
