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

    /// Country names in English and in each country's own languages, by `nameKey`: about 1,100 names,
    /// built in a few milliseconds (every language for every region would take 100 ms).
    private static let codesByName: [String: String] = {
        var table: [String: String] = [:]
        let english = Locale(identifier: "en")
        for code in regionCodes { english.localizedString(forRegionCode: code).map { table[nameKey($0)] = code } }
        for identifier in Locale.availableIdentifiers {
            let parts = identifier.split(separator: "_")
            guard parts.count == 2, let code = parse(parts[1]), code == parts[1], regionCodes.contains(code) else { continue }
            // English names were first and stay (a name two countries share in different languages is rare).
            if let name = Locale(identifier: String(parts[0])).localizedString(forRegionCode: code), table[nameKey(name)] == nil {
                table[nameKey(name)] = code
            }
        }
        return table
    }()

    /// The languages CLDR names regions in.
    private static let knownLanguages: Set<String> = Set(Locale.availableIdentifiers.map { $0.split(separator: "_")[0].lowercased() })
}
