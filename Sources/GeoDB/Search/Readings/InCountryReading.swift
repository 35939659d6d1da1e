// A country the file has no place for ("Pieni Roobertinkatu 3 Helsinki Finland" in a city's file, or "…, FI"):
// the rest of the text, keeping the places in that country and those of no known country.
import Foundation

/// The last words of a text read as a country by CLDR's names: the search of the text before them, in
/// that country.
struct InCountryReading {
    /// The text before the country's words.
    let rest: String
    /// The country they name.
    let code: String
    /// The options of the search of `rest`: three times as deep, since the country filters it afterwards.
    let options: SearchOptions

    /// The reading when the text ends in a country's name or capitalised code and nothing matched it whole;
    /// nil otherwise. Not while the last word is being typed: "Ciudad Ch" is no Ciudad in Switzerland.
    init?(text: String, query: ParsedQuery, options: SearchOptions, found: [RankedCandidate]) {
        guard !found.contains(where: { $0.match == .exact }), !options.autocomplete || query.endsWithSpace,
              let (rest, code) = Self.countryAtEnd(of: text, languages: LanguagePreference.ordered(options.language)) else { return nil }
        self.rest = rest
        self.code = code
        var wider = options
        wider.limit = min(SearchOptions.maxLimit, options.limit * 3)
        self.options = wider
    }

    /// The places `found` for `rest` that lie in the country or in none known, at most `limit`. Not countries:
    /// a text that names a country as where a place is asks for a place in it ("Liechtenstein, LI" is
    /// something named Liechtenstein in Liechtenstein, as Nominatim reads it, not the country again).
    func keep(_ found: [PlaceResult], limit: Int) -> [PlaceResult] {
        Array(found.filter { place in
            place.kind != .country && place.address.countryCode.map { $0.uppercased() == code } ?? true
        }.prefix(limit))
    }

    /// The text before its last words (at most four, no number among them) when they name a country by
    /// CLDR (`CountryCode.named`), the longest such words, and that country; nil when they do not or
    /// nothing would be left. A code counts only typed in capitals ("FI"): "de", "la", "al" are words.
    static func countryAtEnd(of text: String, languages: [String]) -> (rest: String, code: String)? {
        var pieces: [Substring] = []
        var rest = Substring(text)
        while pieces.count < 4, let end = rest.lastIndex(where: { !$0.isWhitespace && $0 != "," }) {
            let start = rest[...end].lastIndex(where: { $0.isWhitespace || $0 == "," }).map(rest.index(after:)) ?? rest.startIndex
            pieces.insert(rest[start...end], at: 0)
            rest = rest[..<start]
        }
        var words: [String] = []
        var found: (rest: String, code: String)?
        for piece in pieces.reversed() {
            let folded = TextNormalizer.fold(String(piece))
            guard folded.first?.isNumber != true else { break }
            words.insert(contentsOf: TextNormalizer.tokens(folded), at: 0)
            guard words.count <= 4 else { break }
            if words.count == 1, CountryCode.parse(words[0]) != nil, piece != piece.uppercased() { continue }
            let before = text[..<piece.startIndex].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: ",")))
            if !before.isEmpty, let code = CountryCode.named(byWords: words, languages: languages) { found = (before, code) }
        }
        return found
    }
}
