// A search text split into the folded words and the house numbers / postcodes in it.

/// A search text split into words and house numbers / postcodes.
///
/// ```swift
/// let query = ParsedQuery("Aleksanterinkatu 52, Helsinki")   // words [aleksanterinkatu, helsinki], numbers [52]
/// ```
struct ParsedQuery {
    /// Folded words that are not numbers.
    var words: [String] {
        didSet { wordVariants = words.map(TextNormalizer.variants) }
    }
    /// Each of `words` with its index variants (`TextNormalizer.variants`): made once per query, not for each
    /// candidate ranked (looking up a word's abbreviations was half of what naming a candidate's best name cost).
    private(set) var wordVariants: [[String]]
    /// How many of `words` each comma-separated part of the text holds ("Marc Cain, Vaduz": 2, 1).
    var partSizes: [Int]
    /// Folded number-like words: "52", "12a", "00100" (a range "12-14" gives both ends).
    var numbers: [String]
    /// The number as written, folded without spaces ("12-14", "12a").
    var numberText: String?
    /// The text ends in a space or comma: while typing, its last word is done and another is coming.
    var endsWithSpace: Bool
    /// Bit i: word i was typed joined to the next one, by a hyphen or another mark inside a word ("Monte-Carlo",
    /// "Saint-Étienne": bit 0), one name, not a place and where it is. Bits, not a set of indices: a query is
    /// copied for every reading (a set cost Monaco's towns 0.5 % more instructions), and it has at most 12 words.
    private var joinedWords: UInt16 = 0

    /// Whether word `index` was typed joined to the next one (`joinedWords`).
    func isJoinedToNext(_ index: Int) -> Bool {
        (0..<16).contains(index) && joinedWords & (1 << index) != 0
    }

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
                    let tokens = TextNormalizer.tokens(folded)
                    for index in words.count..<(words.count + max(0, tokens.count - 1)) where index < 16 { joinedWords |= 1 << index }
                    words += tokens
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
        wordVariants = words.map(TextNormalizer.variants)
        joinedWords &= words.count > 1 ? (1 << (words.count - 1)) - 1 : 0
        self.partSizes = partSizes
        self.numbers = Array(numbers.prefix(4))
        self.numberText = numberText
        endsWithSpace = text.last.map { $0.isWhitespace || $0 == "," } ?? false
    }
}
