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
}
