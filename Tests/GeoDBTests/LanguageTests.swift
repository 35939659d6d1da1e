// Names in the user's language: a place's own name:xx, and the country from the CLDR names Foundation
// carries, so a GeoNames-only database names Germany "Deutschland" for German.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct LanguageTests {
    @Test func countryNamesComeFromCLDR() {
        #expect(CountryCode.name("DE", language: "de") == "Deutschland" && CountryCode.name("de", language: "fr") == "Allemagne")
        #expect(CountryCode.name("LI", language: "ja") == "リヒテンシュタイン" && CountryCode.name("LI", language: "fo") == "Liktinstein")
        // A language CLDR does not have is no language (Foundation would answer in English); a bad code no country.
        #expect(CountryCode.name("DE", language: "zz") == nil && CountryCode.name("D1", language: "de") == nil)
    }

    @Test func searchAndReverseNameTheCountryInTheAskedLanguage() throws {
        let cities = try GeoDatabase(path: try TestDatabases.cities())
        var german = SearchOptions()
        german.language = "de"
        let berlin = try #require(try cities.search("Berlin", options: german).first { $0.address.countryCode == "DE" })
        #expect(berlin.address.country == "Deutschland" && berlin.displayName.hasSuffix("Deutschland"))
        #expect(try cities.search("Berlin").first { $0.address.countryCode == "DE" }?.address.country == "Germany")

        let liechtenstein = try CountryHierarchyTests.liechtenstein.get()
        var japanese = ReverseOptions()
        japanese.language = "ja"
        let answer = try #require(try liechtenstein.reverse(at: Coordinate(lat: 47.14, lon: 9.55), options: japanese).first)
        #expect(answer.place.address.country == "リヒテンシュタイン" && answer.place.displayName.hasSuffix("リヒテンシュタイン"))
    }

    /// A list of languages in Accept-Language form names a place in the first of them it has a name in: a
    /// language it lacks is skipped, a region falls back to its language, weights order the list. Helsinki
    /// has `name:sv` Helsingfors and no `name:xx`.
    @Test(arguments: [("xx,sv", "Helsingfors"), ("sv-FI", "Helsingfors"), ("fi;q=0.5, sv", "Helsingfors"), ("xx", "Helsinki"),
                      ("fi,sv", "Helsinki")])
    func aListOfLanguagesFallsBack(languages: String, name: String) throws {
        var options = SearchOptions()
        options.language = languages
        let helsinki = try #require(try GeoDatabase(path: try TestDatabases.helsinki()).search("Helsinki", options: options).first)
        #expect(helsinki.kind == .city && helsinki.name == name, "\(helsinki.displayName)")
    }

    /// The areas of an address are named in the asked language too, in search and reverse: Stockmann lies in
    /// Kluuvi (sv Gloet) in Helsinki (sv Helsingfors); a language they have no name in leaves them as they are.
    @Test func addressPartsAreInTheAskedLanguage() throws {
        let db = try GeoDatabase(path: try TestDatabases.helsinki())
        var search = SearchOptions()
        search.language = "sv"
        let store = try #require(try db.search("Aleksanterinkatu 52", options: search).first)
        #expect(store.address.city == "Helsingfors" && store.address.suburb == "Gloet", "\(store.address)")
        #expect(store.displayName.hasSuffix("Helsingfors"), "\(store.displayName)")
        var reverse = ReverseOptions()
        reverse.language = "sv"
        let here = try #require(try db.reverse(at: store.coordinate, options: reverse).first)
        #expect(here.place.address.city == "Helsingfors" && here.place.address.suburb == "Gloet", "\(here.place.address)")
        reverse.language = "xx"
        let asTagged = try #require(try db.reverse(at: store.coordinate, options: reverse).first)
        #expect(asTagged.place.address.city == "Helsinki" && asTagged.place.address.suburb == "Kluuvi")
    }

    @Test func languagePreferenceReadsAcceptLanguage() {
        #expect(LanguagePreference.ordered("fo-FR;q=0.8,en-ca;q=0.5,en;q=0.3") == ["fo-fr", "fo", "en-ca", "en"])
        #expect(LanguagePreference.ordered("de;q=0.2, zh , fr ;q=0.9") == ["zh", "fr", "de"])
        #expect(LanguagePreference.ordered("de;q=5,*,fr") == ["fr"])
        #expect(LanguagePreference.ordered(nil).isEmpty)
    }
}
