// Forward search on SampleData: each kind of query finds the expected OSM object first (or in the top 3
// where ties are legitimate); adversarial input never throws; XML- and PBF-built databases agree.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct ForwardSearchTests {
    let db: GeoDatabase

    init() throws { db = try GeoDatabase(path: try TestDatabases.helsinki()) }

    func search(_ text: String, autocomplete: Bool = false, near: Coordinate? = nil, kinds: [PlaceKind] = [],
                limit: Int = 10) throws -> [PlaceResult] {
        var options = SearchOptions()
        options.autocomplete = autocomplete
        options.near = near
        options.kinds = kinds
        options.limit = limit
        return try db.search(text, options: options)
    }

    /// (query, autocomplete, expected source id, must be first (else top 3), expected match)
    static let cases: [(String, Bool, String, Bool, String)] = [
        ("Mannerheimintie", false, "w22906934", true, "exact"),            // a street of 50 ways
        ("mannerheimintie", false, "w22906934", true, "exact"),            // lower case
        ("MANNERHEIMINTIE", false, "w22906934", true, "exact"),
        ("mannerh", true, "w22906934", true, "prefix"),                    // as you type
        ("Toolonlahdenkatu", false, "w8034129", true, "exact"),            // no diacritics → Töölönlahdenkatu
        ("Töölönlahdenkatu", false, "w8034129", true, "exact"),
        ("Pohjoisesplandi", false, "w24336395", true, "fuzzy"),             // one typo
        ("Pohjoisesplnadi", false, "w24336395", true, "fuzzy"),
        ("Pohjosesplandi", false, "w24336395", true, "fuzzy"),              // two typos in a long word
        ("Aleksanterinkatu 52", false, "n319515045", true, "exact"),       // street + number: the address
        ("52 Aleksanterinkatu", false, "n319515045", true, "exact"),
        ("Aleksanterinkatu 52, Helsinki", false, "n319515045", true, "exact"),
        ("aleksanterinkatu 52", false, "w122595241", false, "exact"),      // and Stockmann, which has that address
        ("Stockmann", false, "w122595241", true, "exact"),                 // a POI (the department store first)
        ("Helsinki", false, "n1372477580", true, "exact"),                 // the city
        ("Helsingfors", false, "n1372477580", true, "exact"),              // by its Swedish name
        ("Elielinaukio, laituri 21", false, "n302573164", true, "exact"),  // a name ending in a number, whole
        ("Mannerheimvägen", false, "w22906934", true, "exact"),
        ("Senaatintori", false, "r2919121", false, "exact"),               // a square (and its tram stops)
        ("Pohjoisesplnadi", true, "w24336395", true, "fuzzy"),              // typing with a typo: nothing else matches
        ("Pohjoisespl", true, "w24336395", true, "prefix"),
        ("Helsinki Stockmann", false, "w122595241", false, "exact"),        // its city is context: the name is exact
    ]

    @Test(arguments: cases.indices) func knownQuery(index: Int) throws {
        let (text, autocomplete, expected, first, match) = Self.cases[index]
        let results = try search(text, autocomplete: autocomplete)
        let position = results.firstIndex { $0.sourceRef?.description == expected }
        #expect(position != nil, "\(text): \(expected) not found in \(results.prefix(5).map(\.sourceRef?.description))")
        if let position {
            #expect(first ? position == 0 : position < 3, "\(text): \(expected) at \(position + 1)")
            #expect(results[position].match?.rawValue == match, "\(text): match \(results[position].match?.rawValue ?? "nil")")
        }
    }

    @Test func languageChoosesTheDisplayedName() throws {
        var options = SearchOptions()
        options.language = "sv"
        options.limit = 1
        let street = try #require(try db.search("Mannerheimintie", options: options).first)
        #expect(street.name == "Mannerheimvägen" && street.sourceRef?.description == "w22906934")
    }

    /// Typo search cuts words into trigrams of Unicode scalars, as FTS5 does: a Devanagari word, whose
    /// letters are several scalars each, once made FTS5 refuse the query as a phrase.
    @Test func typoSearchInScriptsWithCombiningLetters() throws {
        for text in ["कोलकत", "कोलकाताा", "ประเทศไทย", "Ελλάδαα"] {
            _ = try search(text)
            _ = try search(text, autocomplete: true)
        }
    }

    @Test func everyResultCarriesItsHierarchy() throws {
        var options = SearchOptions()
        options.limit = 1
        let store = try #require(try db.search("Stockmann", options: options).first)
        #expect(store.address.suburb == "Kluuvi" && store.address.street == "Aleksanterinkatu")
        #expect(store.address.city == "Helsinki")
        #expect(try db.lookup("w122595241").place.address.suburb == "Kluuvi")
        // An area gets only the levels above its own: a suburb is not its own suburb.
        options.kinds = [.suburb]
        let suburb = try #require(try db.search("Kluuvi", options: options).first)
        #expect(suburb.address.suburb == nil && suburb.address.city == "Helsinki")
    }

    /// The extract cuts Kluuvi's boundary: two of its ways end in nodes it lacks. The ring is closed from the
    /// last nodes it has, so the district is an area its addresses lie in (it was only a place node).
    @Test func aDistrictCutAtTheExtractEdgeIsStillAnArea() throws {
        let address = try #require(try search("Vilhonkatu 9, Kluuvi").first)
        #expect(address.sourceRef?.description == "n317570999" && address.address.suburb == "Kluuvi")
        // A structured city names the district too, as Nominatim's does; another district is no match.
        let structured = { (city: String) in
            try self.db.withSession { try $0.structuredSearch(street: "Vilhonkatu", housenumber: "9", city: city, postcode: nil) }
        }
        #expect(try structured("Kluuvi").first?.sourceRef?.description == "n317570999")
        #expect(try structured("Kamppi").first?.kind == .street)
    }

    /// No area of the extract names its country (it cuts Finland's boundary), but its places' addr:country
    /// all say FI: every place lies in Finland, those without the tag too.
    @Test func aCitysExtractLiesInTheCountryItsAddressesName() throws {
        var options = ReverseOptions()
        options.level = .address
        let park = try #require(try db.reverse(at: Coordinate(lat: 60.1745228, lon: 24.9413879), options: options).first)
        #expect(park.place.address.countryCode == "FI", "\(park.place.displayName)")
        var inFinland = SearchOptions()
        inFinland.countryCode = "FI"
        #expect(try db.search("Kluuvi", options: inFinland).first?.kind == .suburb)
    }

    /// "Street, District" for a long street and a district known by its place node: the street is shown at its
    /// point nearest the district (Kaartinkaupunki's end of Mannerheimintie, not its middle in Kluuvi), in that suburb.
    @Test func aStreetIsShownInTheDistrictAsked() throws {
        let street = try #require(try search("Mannerheimintie, Kaartinkaupunki").first)
        let district = try #require(try search("Kaartinkaupunki", kinds: [.suburb]).first)
        #expect(street.kind == .street && street.address.suburb == "Kaartinkaupunki" && street.address.city == "Helsinki")
        #expect(district.coordinate.distance(to: street.coordinate) < 500, "\(street.coordinate)")
    }

    /// The extract has no country place, yet "Finland", "Suomi" or "FI" after an address names its country
    /// (CLDR's names): the rest of the text is searched. A country only filters the places known to be elsewhere.
    @Test func aCountryTheFileHasNoPlaceForIsStillRead() throws {
        for text in ["Pieni Roobertinkatu 3 Helsinki Finland", "Pieni Roobertinkatu 3, Helsinki, FI", "3 Pieni Roobertinkatu Helsinki Suomi"] {
            let first = try #require(try search(text).first, "\(text)")
            #expect(first.address.street == "Pieni Roobertinkatu" && first.address.housenumber == "3", "\(text)")
        }
        #expect(try search("Pieni Roobertinkatu 3 Helsinki Sweden").allSatisfy { $0.address.countryCode == nil })
        #expect(InCountryReading.countryAtEnd(of: "Port Moresby, Papua New Guinea", languages: [])! == ("Port Moresby", "PG"))
        #expect(InCountryReading.countryAtEnd(of: "Pieni Roobertinkatu 3 Helsinki Finnland", languages: ["de"])! == ("Pieni Roobertinkatu 3 Helsinki", "FI"))
        #expect(InCountryReading.countryAtEnd(of: "Pieni Roobertinkatu 3 Helsinki Finnland", languages: []) == nil)
        #expect(InCountryReading.countryAtEnd(of: "Finland", languages: []) == nil)
        #expect(InCountryReading.countryAtEnd(of: "Rue 3 12", languages: []) == nil)
        // A code only in capitals: "de" and "al" end names more often than they name Germany and Albania.
        #expect(InCountryReading.countryAtEnd(of: "San Pedro de", languages: []) == nil)
        #expect(InCountryReading.countryAtEnd(of: "Marj AL", languages: [])! == ("Marj", "AL"))
        // Nor while its last word is being typed ("Ciudad Ch" is no Ciudad in Switzerland); once it is done, it is.
        func readings(_ text: String) throws -> [SearchReading] {
            var typing = SearchOptions()
            typing.autocomplete = true
            return try db.withSession { try $0.explainSearch(text, options: typing) }.explanation.attempts.map(\.reading)
        }
        #expect(try !readings("Pieni Roobertinkatu 3 Helsinki FI").contains(.inCountry))
        #expect(try readings("Pieni Roobertinkatu 3 Helsinki FI ").contains(.inCountry))
    }

    @Test func numberNotOnTheStreetFallsBackToTheStreetMarked() throws {
        let results = try search("Aleksanterinkatu 999")
        #expect(results.first?.kind == .street && results.first?.match == .fallback)
    }

    @Test func nearBiasesWithoutFiltering() throws {
        // Four tram stops are called Senaatintori: near each, that one comes first among them.
        for stop in ["n314026734", "n314026741", "n314030346"] {
            let here = try db.lookup(stop).place.coordinate
            let results = try search("Senaatintori", near: here, limit: 10)
            #expect(results.first { $0.category?.text == "railway=tram_stop" }?.sourceRef?.description == stop)
            #expect(results.allSatisfy { $0.distanceM != nil })
            #expect(results.contains { $0.sourceRef?.description == "r2919121" })   // the square is still there
        }
    }

    @Test func kindFilterAndCoordinates() throws {
        #expect(try search("Mannerheimintie", kinds: [.poi]).allSatisfy { $0.kind == .poi })
        let point = try #require(try search("60.1699, 24.9384").first)
        #expect(point.match == .coordinate && point.lat == 60.1699 && point.lon == 24.9384)
        let dms = try #require(try search("60°10'12\"N 24°56'18\"E").first)
        #expect(abs(dms.lat - 60.17) < 1e-9 && abs(dms.lon - (24 + 56.0 / 60 + 18.0 / 3600)) < 1e-9)
        #expect(try search("91.0, 24.9").first?.match != .coordinate)
    }

    @Test func structuredAndHierarchical() throws {
        let nine = try db.withSession { try $0.structuredSearch(street: "Mannerheimintie", housenumber: "9", city: "Helsinki", postcode: nil) }
        #expect(!nine.isEmpty && nine.allSatisfy { $0.address.housenumber == "9" && $0.match == .exact })
        #expect(try db.withSession { try $0.hierarchical(town: "Helsin") }.first?.sourceRef?.description == "n1372477580")
        let streets = try db.withSession { try $0.hierarchical(town: "Helsinki", street: "Manner") }
        #expect(streets.map(\.name).contains("Mannerheimintie"))
        #expect(streets.allSatisfy { $0.kind == .street && ($0.name ?? "").hasPrefix("Manner") })
        let numbers = try db.withSession { try $0.hierarchical(town: "Helsinki", street: "Mannerheimintie", housenumber: "1") }
        #expect(!numbers.isEmpty && numbers.allSatisfy { ($0.address.housenumber ?? "").hasPrefix("1") })
        #expect(numbers.first?.address.housenumber == "1")
        let crossings = try db.withSession { try $0.crossings(of: "Mannerheimintie") }
        #expect(Set(crossings.compactMap(\.name)).isSuperset(of: ["Kaivokatu", "Aleksanterinkatu", "Pohjoisesplanadi"]))
        #expect(!crossings.contains { $0.name == "Mannerheimintie" })
    }

    @Test func categoryNearAPlace() throws {
        let cafes = try search("cafe near Senaatintori")
        #expect(!cafes.isEmpty && cafes.allSatisfy { $0.categoryID == "cafe" && $0.match == .category })
        let square = try db.lookup("r2919121").place.coordinate
        #expect(cafes.allSatisfy { square.distance(to: $0.coordinate) <= 1_000 })
        #expect(cafes.map { $0.distanceM ?? 0 } == cafes.map { $0.distanceM ?? 0 }.sorted())
        #expect(try search("pharmacies near Stockmann").allSatisfy { $0.categoryID == "pharmacy" })
        // Not a category before "near": ordinary text.
        #expect(try search("Mannerheimintie near nothing").allSatisfy { $0.match != .category })
    }

    @Test func lookupHasEverything() throws {
        let details = try db.lookup("w122595241")
        #expect(details.place.name == "Stockmann" && details.source == "helsinki.osm.pbf")
        #expect(details.names.contains { $0.name == "Stockmann Helsingfors" && $0.lang == "sv" })
        #expect(details.geometry?.contains("polygon") == true)
        #expect(try db.lookup(String(details.place.id)).place.sourceRef?.description == "w122595241")
        #expect(throws: GeoDBError.self) { try db.lookup("n0") }
    }

    @Test func adversarialInputNeverThrows() throws {
        var inputs = ["\"", "\"\"", "*", "**", "-", "^", "NEAR", "NEAR(a b)", "a AND b", "OR", "NOT x", "(", ")", "()",
                      "a:b", "name:x", "{name}: x", "\u{0}", "\u{0}abc", "😀", "🇫🇮 Helsinki", "'; DROP TABLE place; --",
                      String(repeating: "a", count: 10_000), String(repeating: "mannerheimintie ", count: 500),
                      "a\"b", "\"mannerheimintie", "mann*", "-mannerheimintie", "+", "1 2 3 4 5 6 7 8 9 0", "  ", ""]
        var random = SplitMix(seed: 99)
        let alphabet = Array("aäöbcdefghijklmnopqrstuvwxyz0123456789 \"*-^():,.'{}+[]\u{0}😀")
        for _ in 0..<2000 {
            inputs.append(String((0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for input in inputs {
            _ = try search(input)
            _ = try search(input, autocomplete: true)
        }
    }

    @Test func xmlAndPBFDatabasesAnswerAlike() throws {
        let scratch = try ScratchDirectory()
        let xmlPath = scratch.path("xml.sqlite")
        _ = try TestDatabases.importFile(TestPaths.sampleData("helsinki.osm"), to: xmlPath)
        let xml = try GeoDatabase(path: xmlPath)
        for (text, autocomplete, _, _, _) in Self.cases {
            var options = SearchOptions()
            options.autocomplete = autocomplete
            #expect(try xml.search(text, options: options).map(\.sourceRef?.description) == db.search(text, options: options).map(\.sourceRef?.description))
        }
    }

    /// A street must not be lost behind the places that merely have it in their address: search reads
    /// at most 200 matches, most important first, and 250 malls on Testikatu are as important as the
    /// street itself (0.3: a POI with a wikidata tag), with lower ids. The street's bonus counts in the read
    /// order (schema 7): before it, the street was never read and a mall came first, as a prefix match.
    @Test func aStreetIsFoundBeforeHundredsOfPlacesOnIt() throws {
        let scratch = try ScratchDirectory()
        var xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
        for i in 0..<250 {
            xml += "<node id='\(i + 1)' lat='60.1\(String(format: "%03d", i))' lon='24.9'><tag k='shop' v='mall'/>"
                + "<tag k='wikidata' v='Q1'/><tag k='name' v='Kauppa \(i)'/><tag k='addr:street' v='Testikatu'/><tag k='addr:housenumber' v='\(i + 1)'/></node>\n"
        }
        xml += "<node id='1001' lat='60.1' lon='24.91'/><node id='1002' lat='60.1' lon='24.92'/>\n"
            + "<way id='1'><nd ref='1001'/><nd ref='1002'/><tag k='highway' v='residential'/><tag k='name' v='Testikatu'/></way>\n</osm>\n"
        try xml.write(toFile: scratch.path("street.osm"), atomically: true, encoding: .utf8)
        _ = try TestDatabases.importFile(scratch.path("street.osm"), to: scratch.path("street.sqlite"))
        let street = try GeoDatabase(path: scratch.path("street.sqlite"))
        let found = try street.search("Testikatu", options: SearchOptions())
        #expect(found.first?.kind == .street && found.first?.match == .exact, "\(found.prefix(3).map(\.displayName))")
        var typing = SearchOptions()
        typing.autocomplete = true
        #expect(try street.search("Testik", options: typing).first?.kind == .street)
    }

    /// A place's alternate names are indexed in a row ranked below its own names' (as a match through them
    /// scores lower): a village named "Zorbaville" is found, first, before 250 more important cities (of
    /// 20,000 people: not so much bigger that their other name should win) whose alternate name it is. In
    /// one row per place, the cities filled the 200 candidates search reads and the village was not found at
    /// all ("Shen" on cities500: Santiago's Chinese name, not Shenkottai).
    @Test func aPlaceNamedSoComesBeforeHundredsOfAlternateNames() throws {
        let scratch = try ScratchDirectory()
        var xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
        for i in 0..<250 {
            xml += "<node id='\(i + 1)' lat='\(30 + i / 25)' lon='\(-100 + i % 25)'><tag k='place' v='city'/>"
                + "<tag k='population' v='\(20_000 + i)'/><tag k='name' v='City \(i)'/><tag k='alt_name' v='Zorbaville'/></node>\n"
        }
        xml += "<node id='1001' lat='-30' lon='20'><tag k='place' v='village'/><tag k='name' v='Zorbaville'/></node>\n</osm>\n"
        try xml.write(toFile: scratch.path("places.osm"), atomically: true, encoding: .utf8)
        _ = try TestDatabases.importFile(scratch.path("places.osm"), to: scratch.path("places.sqlite"))
        let db = try GeoDatabase(path: scratch.path("places.sqlite"))
        let found = try db.search("Zorbaville", options: SearchOptions())
        #expect(found.first?.kind == .village && found.first?.match == .exact, "\(found.prefix(3).map(\.displayName))")
        #expect(found.count == 10 && found.dropFirst().allSatisfy { $0.kind == .city })
        var typing = SearchOptions()
        typing.autocomplete = true
        #expect(try db.search("Zorba", options: typing).first?.kind == .village)
        // The cities are still found through the name, each once.
        var all = SearchOptions()
        all.limit = 100
        let cities = try db.search("Zorbaville", options: all).filter { $0.kind == .city }
        #expect(cities.count == 99 && Set(cities.map(\.id)).count == 99)
    }

    /// While typing, a last word of one or two letters is not read as the town alone (it begins the names of
    /// thousands of areas); with three it is, and a finished word always.
    @Test func aWordJustBegunIsNoTownAlone() {
        func wheres(_ text: String, typing: Bool) -> [[String]] {
            let query = ParsedQuery(text)
            return WhatWhereReading.splits(of: query, typing: typing).map { Array(query.words[$0.where]) }
        }
        #expect(!wheres("Metro Rautatientori A", typing: true).contains(["a"]))
        #expect(wheres("Metro Rautatientori A", typing: true).contains(["rautatientori", "a"]))
        #expect(wheres("Metro Rautatientori A", typing: false).contains(["a"]))
        #expect(!wheres("Stockmann, He", typing: true).contains(["he"]) && wheres("Stockmann, Hel", typing: true).contains(["hel"]))
        // The town may come first, with or without a comma, in one to three words.
        #expect(wheres("Monaco Ville Rue Basse 37", typing: false).contains(["monaco", "ville"]))
        #expect(wheres("Vaduz, Städtle 38", typing: false) == [["stadtle"], ["vaduz"]])
        // A word typed with a hyphen is one name: no town inside it, but beside it.
        #expect(wheres("Monte-Carlo", typing: false).isEmpty)
        #expect(wheres("Avenue Monte-Carlo", typing: false) == [["monte", "carlo"], ["avenue"]])
        #expect(wheres("Cafe Aix-en-Provence", typing: false) == [["aix", "en", "provence"], ["cafe"]])
        #expect(wheres("Monte-Carlo 5", typing: false) == [["monte", "carlo"]])
    }

    /// A name typed with a hyphen finds the place so named (not read as a place "Monte" in an area "Carlo"),
    /// as the same words typed apart do, which still try the splits.
    @Test func aHyphenatedNameIsOneName() throws {
        let db = try GeoDatabase(path: try TestDatabases.cities())
        let hyphenated = try db.search("Aix-en-Provence")
        #expect(hyphenated.first?.name == "Aix-en-Provence", "\(hyphenated.map(\.displayName))")
        #expect(try db.search("Aix en Provence").first?.id == hyphenated.first?.id)
        #expect(WhatWhereReading.splits(of: ParsedQuery("Aix en Provence"), typing: false).count == 4)
    }

    /// A typo's near words are those one edit away, and those two away only when none is: one slip is the common
    /// case, and the words two edits from it ("mannerheimint", an abbreviation in addresses) were read and ranked
    /// for nothing. Two slips still find the word.
    @Test func typosAreReadAsTheNearestWords() throws {
        let reader = try DatabaseReader(path: try TestDatabases.helsinki(), immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        #expect(try index.rows(holding: ["mannerheimint"]) != nil)
        #expect(try index.similarWords(to: "mannerheimintei") == ["mannerheimintie"])
        #expect(try index.similarWords(to: "mannerheimnitei").contains("mannerheimintie"))
        #expect(try index.similarWords(to: "mannerheimnite", typing: true).contains("mannerheimintie"))
    }

    /// "…, Town" keeps to the town's area sets in SQL when they are few and by looking up each candidate's
    /// set when they are many (tiled ×400 has 17,870 sets naming "Helsinki"): both ways give the same
    /// candidates, in the same order, page after page.
    @Test func manyAreaSetsFilterAsFewDo() throws {
        let reader = try DatabaseReader(path: try TestDatabases.helsinki(), immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        for (match, town) in [("\"r\"*", "helsinki"), ("\"k\"*", "kluuvi"), ("\"ravintola\"", "helsinki"), ("\"a\"*", "kaisaniemi")] {
            let ids = try reader.rows("sets", """
                SELECT DISTINCT area_set_id FROM area_set_member
                WHERE place_id IN (SELECT rowid FROM area_name_fts WHERE area_name_fts MATCH ?1)
                """, [.text(town)]) { $0.int(0) }
            let inSQL = SearchIndex.AreaSetList(ids), lookedUp = SearchIndex.AreaSetList(ids, mostInSQL: 0)
            #expect(try index.areaSets(naming: [[town]]).count == ids.count && inSQL.json != nil && lookedUp.json == nil, "\(town)")
            var after: Int64?
            for _ in 0..<3 {
                let a = try index.candidateRows(match: match, options: SearchOptions(), inSets: inSQL, after: after, limit: 7)
                let b = try index.candidateRows(match: match, options: SearchOptions(), inSets: lookedUp, after: after, limit: 7)
                #expect(a.map(\.id) == b.map(\.id), "\(match), \(town)")
                #expect(!a.isEmpty || after != nil, "\(match), \(town): nothing to compare")
                after = a.last?.rowid
            }
        }
    }

    /// Whether words are a country's name is read from the rows holding their name key up to the last country's
    /// (`SearchIndex.countryRows`, which "9486 Liechtenstein" asks): Liechtenstein by its name in any language,
    /// and no country by a town's or a street's name, however many rows hold those.
    @Test func aCountryIsNamedByAnyOfItsNamesAndNoStreets() throws {
        let path = try TestDatabases.liechtenstein()
        let reader = try DatabaseReader(path: path, immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        let country = try #require(try GeoDatabase(path: path).search("Liechtenstein").first { $0.kind == .country })
        let names = try reader.rows("names", "SELECT name FROM place_name WHERE place_id = ?1 AND lang IN ('de', 'ru', 'el')",
                                    [.integer(country.id)]) { $0.text(0) ?? "" }
        #expect(names.count >= 3)
        for name in names + ["Liechtenstein"] {
            #expect(try index.countryRows(named: TextNormalizer.tokens(name)).map(SearchRowID.place) == [country.id], "\(name)")
        }
        for words in [["vaduz"], ["landstrasse"], ["schaan"], ["liechtensteinische"]] {
            #expect(try index.countryRows(named: words).isEmpty, "\(words)")
        }
    }

    /// A query's matches are listed once with which name columns hold one of its words
    /// (`SearchIndex.rowidsNaming`, through the FTS5 function `geodb_phrase_columns`): the rows it lists are
    /// the matches, and those it calls named in no language, or in a language only, are the rows FTS5's own
    /// column filters give, for words with other forms, prefixes and house numbers. An expression whose phrases
    /// FTS5 numbers otherwise (a word of no letters) is not classified at all.
    @Test func matchesListedKnowWhichHoldAWordInAName() throws {
        let reader = try DatabaseReader(path: try TestDatabases.liechtenstein(), immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        let queries: [(words: [[String]], numbers: [String])] = [
            ([["landstrasse", "landstr"]], ["1"]), ([["vaduz"], ["stadtle"]], []), ([["alte"], ["landstrasse", "landstr"]], []),
            ([["schaan"], ["la*"]], []), ([["eschner"], ["strasse", "str"]], []), ([["vaduz"], ["aulestrasse", "aulestr"]], []),
            ([["-", "vaduz"], ["stadtle"]], []),   // a phrase of no letters keeps its number
            ([["principaute", "p*"]], []),   // the country's official names in French, Spanish, ...
        ]
        var inLanguagesOnly = 0
        for (words, numbers) in queries {
            let groups = words + numbers.map { [$0] }
            let match = try #require(FTSQuery.groups(groups))
            let inNoLanguage = try #require(FTSQuery.groups([Array(words.joined())], column: FTSQuery.namesInNoLanguage))
            let inLanguages = try #require(FTSQuery.groups([Array(words.joined())], column: FTSQuery.namesInLanguages))
            let listed = try #require(try index.rowidsNaming(matching: match, phrases: FTSQuery.phraseCount(groups),
                                                             namePhrases: FTSQuery.phraseCount(words), limit: 100_000), "\(match)")
            func rows(_ expression: String) throws -> [Int64] {
                try reader.rows("matches", "SELECT rowid FROM place_fts WHERE place_fts MATCH ?1 ORDER BY rowid", [.text(expression)]) { $0.int(0) }
            }
            let all = try rows(match), named = try rows("(\(match)) AND \(inNoLanguage)")
            let namedInLanguages = try rows("(\(match)) AND (\(inLanguages) NOT \(inNoLanguage))")
            #expect(listed.map(\.rowid) == all, "\(match)")
            #expect(listed.filter { $0.names == .inNoLanguage }.map(\.rowid) == named, "\(match)")
            #expect(listed.filter { $0.names == .inLanguagesOnly }.map(\.rowid) == namedInLanguages, "\(match)")
            #expect(!named.isEmpty && named.count < all.count, "\(match): \(named.count) named of \(all.count)")
            inLanguagesOnly += namedInLanguages.count
        }
        #expect(inLanguagesOnly > 0)
        // Told of a phrase more than FTS5 numbers.
        let twoPhrases = [["vaduz"], ["stadtle"]]
        #expect(try index.rowidsNaming(matching: try #require(FTSQuery.groups(twoPhrases)), phrases: 3, namePhrases: 2, limit: 10) == nil)
    }

    /// The names of candidates are read in one statement and taken a tier at a time: each tier is what its
    /// definition in SQL gives (own names in the language asked for or none, and an unnamed address's street;
    /// own names in other languages; alternates), in the same order, for places of many names and few.
    @Test func namesReadAtOnceAreTheTiers() throws {
        let reader = try DatabaseReader(path: try TestDatabases.cities(), immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        let ids = try reader.rows("places", """
            SELECT place_id FROM place_name GROUP BY place_id ORDER BY count(*) DESC, place_id LIMIT 40
            """) { $0.int(0) } + (try reader.rows("places", "SELECT id FROM place ORDER BY id LIMIT 40") { $0.int(0) })
        let alternate = "type IN (SELECT value FROM json_each(?2))"
        let asked = "(lang IS NULL OR lower(lang) IN (SELECT value FROM json_each(?3)))"
        let street = "UNION ALL SELECT id, street FROM place WHERE id IN (SELECT value FROM json_each(?1)) AND name IS NULL AND street IS NOT NULL"
        let tiers: [(SearchIndex.NameRows, String)] = [
            (.own, "NOT \(alternate) AND \(asked) \(street)"), (.otherLanguages, "NOT \(alternate) AND NOT \(asked)"),
            (.ownInAnyLanguage, "NOT \(alternate) \(street)"), (.alternates, alternate),
        ]
        // Every word of Latin, Greek or Cyrillic letters begins with one of these.
        let words = "abcdefghijklmnopqrstuvwxyz0123456789".map { String($0) }
        for language in [nil, "de", "fr,en"] as [String?] {
            for (tier, condition) in tiers {
                var expected: [Int64: [String]] = [:]
                for (id, name) in try reader.rows("tier", """
                    SELECT place_id, name FROM place_name WHERE place_id IN (SELECT value FROM json_each(?1)) AND \(condition)
                    """, [.text(JSONText.array(ids)), .text(JSONText.array(PlaceName.alternateTypes))]
                        + (condition.contains("?3") ? [.text(JSONText.array(LanguagePreference.ordered(language)))] : []),
                    { ($0.int(0), $0.text(1) ?? "") }) {
                    // Less the names that cannot hold a word (of other scripts), as `names` leaves them out.
                    let firsts = Array(words.joined().utf8)
                    if tier == .alternates ? TextNormalizer.mayFold(name, toWordStartingWithOneOf: firsts)
                                           : TextNormalizer.mayHoldWord(name, startingWithOneOf: firsts) {
                        expected[id, default: []].append(name)
                    }
                }
                let read = try index.names(of: ids, tier, words: words, fuzzy: false, language: language).mapValues { $0.map(\.name) }
                #expect(read.filter { !$0.value.isEmpty } == expected.filter { !$0.value.isEmpty }, "\(tier), \(language ?? "none")")
                #expect(!expected.isEmpty || tier == .otherLanguages, "\(tier): nothing to compare")
            }
        }
    }
}
