import Foundation
// What a country code is, for every layer that reads one (query options, Nominatim's and geodb's API
// parameters, CSV and GeoNames columns): they checked it five times in three ways, one of which took any
// two letters of any script.

/// ISO 3166-1 alpha-2 codes: two ASCII letters in either case, kept in upper case.
public enum CountryCode {
    /// The code in upper case, or nil when `text` is not two ASCII letters.
    ///
    /// ```swift
    /// CountryCode.parse("fi")   // "FI"
    /// ```
    public static func parse(_ text: some StringProtocol) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
        return String(decoding: bytes.map { $0 & 0xDF }, as: UTF8.self)
    }

    /// The country's name in `language` (ISO 639, "de", "ja", "fo") from the CLDR data Foundation carries,
    /// so that any database — a GeoNames one without country names too — names countries in the user's
    /// language. Nil for a language CLDR does not have (Foundation would answer in English).
    ///
    /// ```swift
    /// CountryCode.name("DE", language: "fr")   // "Allemagne"
    /// ```
    public static func name(_ code: String, language: String) -> String? {
        let language = language.lowercased()
        guard knownLanguages.contains(language), let code = parse(code) else { return nil }
        return Locale(identifier: language).localizedString(forRegionCode: code)
    }

    /// Whether CLDR knows `code` (upper case) as a country or territory.
    static func isRegion(_ code: String) -> Bool { regionCodes.contains(code) }

    /// The country that the folded `words` (as `TextNormalizer.tokens` gives them) name: its code (one word,
    /// a region CLDR knows: "fi"), or its CLDR name in English, in one of its own languages (those of
    /// CLDR's locales for the region: "suomi", "schweiz", "suisse") or in one of `languages`. Read from
    /// Foundation, so a file without country places still knows that "Finland" is one; nil for none.
    ///
    /// ```swift
    /// CountryCode.named(byWords: ["suomi"])   // "FI"
    /// ```
    public static func named(byWords words: [String], languages: [String] = []) -> String? {
        guard !words.isEmpty else { return nil }
        if words.count == 1, let code = parse(words[0]), regionCodes.contains(code) { return code }
        let key = words.joined(separator: " ")
        if let code = codesByName[key] { return code }
        for language in languages where knownLanguages.contains(language.lowercased()) {
            let locale = Locale(identifier: language.lowercased())
            if let code = regionCodes.first(where: { locale.localizedString(forRegionCode: $0).map(nameKey) == key }) { return code }
        }
        return nil
    }

    /// A name as `named(byWords:)` compares it: its folded words, one space apart.
    private static func nameKey(_ name: String) -> String {
        TextNormalizer.tokens(TextNormalizer.fold(name)).joined(separator: " ")
    }

    /// The two-letter regions CLDR knows (countries and territories; not "001" or "EU").
    private static let regionCodes: [String] = Locale.Region.isoRegions.map(\.identifier).filter { parse($0) == $0 }.sorted()

    /// The country's names in English and in its own languages (those of CLDR's locales for the region), English
    /// first, each name once: what a country is called by those who live there and by everyone else.
    /// Empty for a code CLDR does not know.
    ///
    /// ```swift
    /// CountryCode.ownNames("FI")   // [("en", "Finland"), ("fi", "Suomi"), ("se", "Suopma"), ("smn", "Suomâ")]
    /// ```
    package static func ownNames(_ code: String) -> [(language: String, name: String)] {
        guard let code = parse(code), regionCodes.contains(code) else { return [] }
        var names: [(language: String, name: String)] = []
        for language in ["en"] + (ownLanguages[code] ?? []) {
            let locale = language == "en" ? english : Locale(identifier: language)
            if let name = locale.localizedString(forRegionCode: code), !names.contains(where: { $0.name == name }) {
                names.append((language, name))
            }
        }
        return names
    }

    /// English, which names every region first: made once, not once a region.
    private static let english = Locale(identifier: "en")

    /// Each region's own languages: those CLDR has a locale of for it ("de_CH", "fr_CH", …), in identifier order.
    private static let ownLanguages: [String: [String]] = {
        var languages: [String: [String]] = [:]
        for identifier in Locale.availableIdentifiers.sorted() {
            let parts = identifier.split(separator: "_")
            guard parts.count == 2, let code = parse(parts[1]), code == parts[1] else { continue }
            languages[code, default: []].append(String(parts[0]))
        }
        return languages
    }()

    /// Country names in English and in each country's own languages (`ownNames`), by `nameKey`: about 1,100
    /// names, built in a few milliseconds (every language for every region would take 100 ms). English names
    /// first: a name two countries share in different languages (rare) names the one it is English for.
    private static let codesByName: [String: String] = {
        var table: [String: String] = [:]
        let names = regionCodes.map { ($0, ownNames($0)) }
        for (code, own) in names { if let english = own.first { table[nameKey(english.name)] = code } }
        for (code, own) in names {
            for (_, name) in own.dropFirst() where table[nameKey(name)] == nil { table[nameKey(name)] = code }
        }
        return table
    }()

    /// The languages CLDR names regions in.
    private static let knownLanguages: Set<String> = Set(Locale.availableIdentifiers.map { $0.split(separator: "_")[0].lowercased() })
}
