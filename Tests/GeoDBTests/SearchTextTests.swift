// The texts the search index holds for a place's names and address, against their plain definitions.
@testable import GeoDB
import Testing
import TestSupport

@Suite struct SearchTextTests {
    /// `nameSearchText` gives its definition (distinct names joined by " ; ", then the distinct extra forms,
    /// sorted, joined by " "), written the plain way, on SampleData's GeoNames places: each row's name,
    /// ASCII name and alternate names, whose extra forms repeat across names.
    @Test func nameTextEqualsItsDefinitionOnGazetteerNames() throws {
        func definition(_ names: [String]) -> String {
            let distinct = PlaceRecord.distinctNames(names)
            let extra = Set(distinct.flatMap { TextNormalizer.indexAlternatives($0) })
            return (distinct + (extra.isEmpty ? [] : [extra.sorted().joined(separator: " ")])).joined(separator: " ; ")
        }
        let text = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        var places: [[String]] = [[], ["Main St"], ["Töölönkatu", "Toolonkatu", "Töölönkatu"], ["St. John's", "St Johns"]]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3 else { continue }
            places.append([String(fields[1]), String(fields[2])] + fields[3].split(separator: ",").map(String.init))
        }
        places += places.compactMap(\.first).map { [$0] }   // each name alone too: most places have one
        #expect(places.count > 40_000)
        // Places where two names give the same extra form: the case the removal of repeats is for.
        #expect(places.contains { names in
            let extra = PlaceRecord.distinctNames(names).flatMap { TextNormalizer.indexAlternatives($0) }
            return Set(extra).count < extra.count
        })
        let differing = places.filter { PlaceRecord.nameSearchText($0) != definition($0) }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
    }

    /// A place's names split into its two index rows: own names (any type but the alternates') in one,
    /// alternates that are not also own names in the other; and after a merge adds a record's names
    /// (`SearchNames.adding`, which writers keep) the same as made from all the `place_name` rows, which
    /// `inspect --check` and deleting a row rebuild from. On SampleData's GeoNames places split in two.
    @Test func searchNamesSplitAndGrowAsTheirRows() throws {
        let split = SearchNames([PlaceName(name: "Turku", type: "name"), PlaceName(name: "Åbo", type: "name", lang: "sv"),
                                 PlaceName(name: "TKU", type: "short_name"), PlaceName(name: "Turku", type: "alt_name"),
                                 PlaceName(name: "Aboa", type: "old_name"), PlaceName(name: "TKU", type: "alt_name")])
        #expect(split.own == ["Turku"] && split.inLanguages == ["Åbo"] && split.alternate == ["TKU", "Aboa"])
        #expect(split.texts.own == "Turku" && split.texts.inLanguages == PlaceRecord.nameSearchText(["Åbo"]) && split.texts.alternate == "TKU ; Aboa")
        // The main name is the first own name in whatever language; names in a language that are also in none are
        // in none alone.
        let inLanguages = SearchNames([PlaceName(name: "Vaduz", type: "name", lang: "de"), PlaceName(name: "Vaduz", type: "name"),
                                       PlaceName(name: "Vadouz", type: "name", lang: "fr"), PlaceName(name: "Vaduz", type: "official_name", lang: "it")])
        #expect(inLanguages.own == ["Vaduz"] && inLanguages.inLanguages == ["Vadouz"] && inLanguages.all == ["Vaduz", "Vadouz"])
        #expect(SearchNames([PlaceName(name: "Turku", type: "name")]).texts.alternate.isEmpty)

        let text = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3 else { continue }
            let rows = [PlaceName(name: String(fields[1]), type: "name"), PlaceName(name: String(fields[2]), type: "ascii_name")]
                + fields[3].split(separator: ",").map { PlaceName(name: String($0), type: "alt_name") }
            let first = Array(rows.prefix(rows.count / 2 + 1)), known = SearchNames(first)
            // As a merge adds them: the names not yet known, a main name as an alternate.
            let added = PlaceRecord.distinct(known.all.map { PlaceName(name: $0, type: "") } + rows.dropFirst(first.count))
                .dropFirst(known.all.count)
            #expect(known.adding(Array(added)) == SearchNames(first + added), "\(fields[1])")
            checked += 1
        }
        #expect(checked > 20_000)
    }

    /// `Address.searchColumns` of a named place is its parts in order, the missing ones left out, then the
    /// street's extra forms, joined by " " (empty parts included, as `joined` would), all in `address`;
    /// a place without names has its street and the street's forms in `street` instead.
    @Test func addressColumnsEqualTheirDefinition() {
        let addresses = [
            Address(),
            Address(housenumber: "52"),
            Address(housenumber: "5", street: "Östra Tullgatan St", postcode: "00100", city: "Helsinki", state: "Uusimaa",
                    country: "Finland"),
            Address(housenumber: "", street: "Main St", city: ""),
            Address(street: "Mannerheimintie", country: "Suomi"),
        ]
        for address in addresses {
            let streetWords = address.street.map { [$0] + TextNormalizer.indexAlternatives($0) } ?? []
            let others = [address.housenumber, address.postcode, address.city, address.state, address.country].compactMap { $0 }
            let named = address.searchColumns(named: true)
            #expect(named.street == "")
            #expect(named.address == (Array(streetWords.prefix(1)) + others + streetWords.dropFirst()).joined(separator: " "))
            let unnamed = address.searchColumns(named: false)
            #expect(unnamed.street == streetWords.joined(separator: " "))
            #expect(unnamed.address == others.joined(separator: " "))
        }
        #expect(addresses[2].searchColumns(named: true).address.hasPrefix("Östra Tullgatan St 5 00100 Helsinki Uusimaa Finland oestra "))
        #expect(addresses[2].searchColumns(named: false) == ("Östra Tullgatan St oestra tullgatan st tullg street str saint sankt", "5 00100 Helsinki Uusimaa Finland"))
    }
}
