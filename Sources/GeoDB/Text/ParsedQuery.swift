// A search text split into the folded words and the house numbers / postcodes in it.

/// A search text split into words and house numbers / postcodes.
///
/// ```swift
/// let query = ParsedQuery("Aleksanterinkatu 52, Helsinki")   // words [aleksanterinkatu, helsinki], numbers [52]
/// ```
struct ParsedQuery {
    /// Folded words that are not numbers.
    var words: [String]
    /// Folded number-like words: "52", "12a", "00100" (a range "12-14" gives both ends).
    var numbers: [String]
    /// The number as written, folded without spaces ("12-14", "12a").
    var numberText: String?

    init(_ text: String) {
        var words: [String] = []
        var numbers: [String] = []
        var numberText: String?
        for raw in text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).prefix(16) {
            let folded = TextNormalizer.fold(String(raw))
            if folded.first?.isNumber == true, folded.count <= 10 {
                numberText = numberText ?? folded.filter { $0.isLetter || $0.isNumber || $0 == "-" }
                numbers += TextNormalizer.tokens(folded)
            } else {
                words += TextNormalizer.tokens(folded)
            }
        }
        self.words = Array(words.prefix(12))
        self.numbers = Array(numbers.prefix(4))
        self.numberText = numberText
    }
}
