// Why a search answered what it did: the ways of reading the text that were tried, how many candidates
// each gave, and each result's reading and score parts. `geodb search --explain` and /v1/search?explain=1
// show it, so that a ranking bug can be seen, not guessed.

/// One way of reading a search text.
public enum SearchReading: String, Codable, Sendable, CaseIterable {
    /// The text is a coordinate ("60.1699, 24.9384", degrees with N/E).
    case coordinates
    /// The text names a category, alone or "… near X" / "… in Town".
    case category
    /// Words and a position ("sporry weiher, N 47.10791° E 9.52676°"): the words searched within 0.1° of it.
    case nearPosition = "near_position"
    /// The words are a place's name (the plain reading).
    case name
    /// The text is a country's ISO code ("fr").
    case countryCode = "country_code"
    /// The text is a postcode or its beginning.
    case postcode
    /// "What, where": some words name the place, the others the areas it lies in ("Café, Vaduz").
    case whatWhere = "what_where"
    /// The last words name a country the file has no place for: the rest of the text, in that country.
    case inCountry = "in_country"
    /// A street and a house number it does not have: the street there, or an interpolated position.
    case streetNumber = "street_number"
    /// Words one or two edits from indexed ones (typos), as a name or "what, where".
    case fuzzy
    /// While typing a category word: the category itself, offered as a result.
    case categorySuggestion = "category_suggestion"
}

/// What a search tried and why its results rank as they do.
public struct SearchExplanation: Codable, Sendable {
    /// A reading tried and how many candidates it gave (before the limit).
    public struct Attempt: Codable, Sendable {
        public var reading: SearchReading
        public var candidates: Int
    }

    /// A result, the reading that found it and its score in parts: the points of the name matched (how it
    /// matched, own name or alternate, edits) and of the place (importance, the house number asked for,
    /// a street's bonus, nearness).
    public struct Result: Codable, Sendable {
        public var id: Int64
        /// Its name, or the line of its address for an address.
        public var name: String
        public var reading: SearchReading
        public var match: MatchClass?
        public var score: Double?
        public var nameScore: Double?
        public var placeScore: Double?
    }

    /// The readings in the order they ran.
    public var attempts: [Attempt] = []
    /// The results in their order.
    public var results: [Result] = []
}
