// Which parts of a result's text the query matched: the ranges an autocomplete list shows in bold.

/// Finds the words of a text that query words match, as `TextRange`s.
///
/// ```swift
/// Highlighter.ranges(in: "Stockmann, Aleksanterinkatu 52", words: ["stock"], numbers: [], lastIsPrefix: true)
/// // [TextRange(start: 0, end: 5)]
/// ```
enum Highlighter {
    /// Ranges of `text` matched by the folded query `words` (whole; the last one also as a word's
    /// beginning when `lastIsPrefix`; a word within the typo distance of one, in full) and `numbers`.
    static func ranges(in text: String, words: [String], numbers: [String], lastIsPrefix: Bool) -> [TextRange] {
        var ranges: [TextRange] = []
        for (start, word) in Self.words(of: text) {
            let folded = TextNormalizer.fold(String(word))
            if words.contains(folded) || numbers.contains(folded) || words.contains(where: { TextNormalizer.variants($0).contains(folded) }) {
                ranges.append(TextRange(start: start, end: start + word.count))
            } else if lastIsPrefix, let last = words.last, folded.hasPrefix(last) {
                ranges.append(TextRange(start: start, end: start + Self.characters(of: word, folding: last)))
            } else if folded.count >= 4, words.contains(where: { $0.count >= 4 && isTypo(of: folded, $0, prefix: lastIsPrefix && $0 == words.last) }) {
                ranges.append(TextRange(start: start, end: start + word.count))
            }
        }
        return ranges
    }

    /// The words of `text` (runs of letters and digits) with the Character offset each starts at.
    private static func words(of text: String) -> [(Int, Substring)] {
        var result: [(Int, Substring)] = []
        var offset = 0
        var start: (offset: Int, index: String.Index)?
        for index in text.indices {
            let isWordCharacter = text[index].isLetter || text[index].isNumber
            if isWordCharacter && start == nil { start = (offset, index) }
            if !isWordCharacter, let open = start {
                result.append((open.offset, text[open.index..<index]))
                start = nil
            }
            offset += 1
        }
        if let open = start { result.append((open.offset, text[open.index...])) }
        return result
    }

    /// How many Characters of `word` fold to at least `prefix`'s length ("Ärzte" for "ae": 1).
    private static func characters(of word: Substring, folding prefix: String) -> Int {
        var folded = 0
        var count = 0
        for character in word where folded < prefix.count {
            folded += TextNormalizer.fold(String(character)).count
            count += 1
        }
        return count
    }

    private static func isTypo(of word: String, _ queryWord: String, prefix: Bool) -> Bool {
        let limit = EditDistance.allowed(for: queryWord)
        return (prefix ? EditDistance.toPrefix(of: word, queryWord, limit: limit) : EditDistance.between(word, queryWord, limit: limit)) <= limit
    }
}
