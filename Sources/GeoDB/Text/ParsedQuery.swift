// A search text split into the folded words and the house numbers / postcodes in it.

/// A search text split into words and house numbers / postcodes.
///
/// ```swift
/// let query = ParsedQuery("Aleksanterinkatu 52, Helsinki")   // words [aleksanterinkatu, helsinki], numbers [52]
/// ```
struct ParsedQuery {
    /// Folded words that are not numbers.
    var words: [String]
    /// How many of `words` each comma-separated part of the text holds ("Marc Cain, Vaduz": 2, 1).
    var partSizes: [Int]
    /// Folded number-like words: "52", "12a", "00100" (a range "12-14" gives both ends).
    var numbers: [String]
    /// The number as written, folded without spaces ("12-14", "12a").
    var numberText: String?
    /// The text ends in a space or comma: while typing, its last word is done and another is coming.
    var endsWithSpace: Bool

    init(_ text: String) {
        var words: [String] = []
        var numbers: [String] = []
        var numberText: String?
        var partSizes: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let before = words.count
            for raw in part.split(whereSeparator: \.isWhitespace) {
                let folded = TextNormalizer.fold(String(raw))
                if folded.first?.isNumber == true, folded.count <= 10 {
                    numberText = numberText ?? folded.filter { $0.isLetter || $0.isNumber || $0 == "-" }
                    numbers += TextNormalizer.tokens(folded)
                } else {
                    words += TextNormalizer.tokens(folded)
                }
            }
            if words.count > before { partSizes.append(words.count - before) }
        }
        // At most 12 words (and the parts they fill).
        while words.count > 12, let last = partSizes.last {
            let cut = min(last, words.count - 12)
            words.removeLast(cut)
            if cut == last { partSizes.removeLast() } else { partSizes[partSizes.count - 1] -= cut }
        }
        self.words = words
        self.partSizes = partSizes
        self.numbers = Array(numbers.prefix(4))
        self.numberText = numberText
        endsWithSpace = text.last.map { $0.isWhitespace || $0 == "," } ?? false
    }
}
