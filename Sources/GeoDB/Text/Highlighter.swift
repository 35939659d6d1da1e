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
        // Made once, not per word of the text: every result of every search is highlighted (the server's
        // profile of "Mannerheimintie": 8 % of its time here, most in these and the typo tests).
        let whole = Set(words.flatMap(TextNormalizer.variants) + numbers)
        let typoWords = words.filter { $0.count >= 4 }.map { (word: $0, count: $0.count, limit: EditDistance.allowed(for: $0)) }
        for (start, word) in Self.words(of: text) {
            let folded = TextNormalizer.fold(String(word))
            if whole.contains(folded) {
                ranges.append(TextRange(start: start, end: start + word.count))
            } else if lastIsPrefix, let last = words.last, folded.hasPrefix(last) {
                ranges.append(TextRange(start: start, end: start + Self.characters(of: word, folding: last)))
            } else if folded.count >= 4, typoWords.contains(where: { query in
                let prefix = lastIsPrefix && query.word == words.last
                // More letters apart than edits allowed is no typo (as a whole word; a word being typed may be
                // a beginning of a longer one).
                guard prefix ? folded.count >= query.count - query.limit : abs(folded.count - query.count) <= query.limit else { return false }
                return isTypo(of: folded, query.word, prefix: prefix)
            }) {
                ranges.append(TextRange(start: start, end: start + word.count))
            }
        }
        return ranges
    }

    /// The words of `text` (runs of letters and digits) with the Character offset each starts at.
    private static func words(of text: String) -> [(Int, Substring)] {
        // ASCII but for "\r" ("\r\n" is one Character of two bytes).
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return asciiWords(of: text) }
        // Telling letters Character by Character cost more than the rest of highlighting a name with an "ä"
        // (Helsinki's street names): text in which each scalar is one Character is read a scalar at a time.
        if text.unicodeScalars.allSatisfy({ $0.value < Self.singleScalarCharactersBelow && $0 != "\r" }) {
            return words(of: text, in: text.unicodeScalars) { Self.isWordScalar[Int($0.value)] }
        }
        return words(of: text, in: text) { $0.isLetter || $0.isNumber }
    }

    /// The words of `text` read as `units` (its Characters, or its scalars when each is one Character), those
    /// for which `isWordUnit` holds, with the offset of the unit each starts at.
    private static func words<Units: Collection>(of text: String, in units: Units, isWordUnit: (Units.Element) -> Bool)
        -> [(Int, Substring)] where Units.Index == String.Index {
        var result: [(Int, Substring)] = []
        var offset = 0
        var start: (offset: Int, index: String.Index)?
        for index in units.indices {
            let isWordCharacter = isWordUnit(units[index])
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

    /// `words(of:)` for ASCII text without "\r", on its bytes (each byte a Character): most display names; the
    /// Character properties cost more than the rest of highlighting.
    private static func asciiWords(of text: String) -> [(Int, Substring)] {
        var result: [(Int, Substring)] = []
        let bytes = Array(text.utf8)
        var start: Int?
        for offset in 0...bytes.count {
            let isWordCharacter = offset < bytes.count && (bytes[offset] | 0x20 >= UInt8(ascii: "a") && bytes[offset] | 0x20 <= UInt8(ascii: "z")
                                                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]))
            if isWordCharacter && start == nil { start = offset }
            if !isWordCharacter, let open = start {
                let utf8 = text.utf8
                result.append((open, text[utf8.index(utf8.startIndex, offsetBy: open)..<utf8.index(utf8.startIndex, offsetBy: offset)]))
                start = nil
            }
        }
        return result
    }

    /// Below this scalar (the combining marks), no scalar but "\r" joins another into one Character: in such
    /// text (the Latin, Finnish, German, French names of most files) each scalar is one Character.
    private static let singleScalarCharactersBelow: UInt32 = 0x300

    /// Whether each scalar below `singleScalarCharactersBelow` is a letter or a number, as `Character`'s
    /// `isLetter`/`isNumber` say of it.
    private static let isWordScalar: [Bool] = (0..<singleScalarCharactersBelow).map { value in
        let character = Character(Unicode.Scalar(value)!)
        return character.isLetter || character.isNumber
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
