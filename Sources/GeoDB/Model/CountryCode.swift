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

    /// The languages CLDR names regions in.
    private static let knownLanguages: Set<String> = Set(Locale.availableIdentifiers.map { $0.split(separator: "_")[0].lowercased() })
}
