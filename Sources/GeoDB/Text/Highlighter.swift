// Which parts of a result's text the query matched: the ranges an autocomplete list shows in bold.

/// Finds the words of a text that query words match, as `TextRange`s. Made once per query (the query's words,
/// their variants and typo limits), then asked of each result's text.
///
/// ```swift
/// Highlighter(words: ["stock"], numbers: [], lastIsPrefix: true).ranges(in: "Stockmann, Aleksanterinkatu 52")
/// // [TextRange(start: 0, end: 5)]
/// ```
struct Highlighter: Sendable, Equatable {
    /// The folded query words with their variants, and the numbers: a text word equal to one is matched whole.
    private let whole: Set<String>
    /// The last query word when it is being typed (`lastIsPrefix`): a text word it begins is matched that far.
    private let typed: String?
    /// The query words long enough to have typos (4 letters or more), with how many edits each allows.
    private let typoWords: [(word: String, count: Int, limit: Int, prefix: Bool)]

    /// What it was made of: two highlighters of the same find the same ranges (`==`).
    private let query: Query
    private struct Query: Equatable {
        let words: [String], numbers: [String], lastIsPrefix: Bool
    }

    /// A highlighter of the folded query `words` (whole; the last one also as a word's beginning when
    /// `lastIsPrefix`; a word within the typo distance of one, in full) and `numbers`.
    init(words: [String], numbers: [String], lastIsPrefix: Bool) {
        query = Query(words: words, numbers: numbers, lastIsPrefix: lastIsPrefix)
        // Made once per query, not per result or per word of a text: every result of every search is
        // highlighted (the server's profile of "Mannerheimintie": 8 % of its time here, most in these and the
        // typo tests; made per result, they were 29,000 instructions of each).
        whole = Set(words.flatMap(TextNormalizer.variants) + numbers)
        typed = lastIsPrefix ? words.last : nil
        typoWords = words.filter { $0.count >= 4 }.map {
            (word: $0, count: $0.count, limit: EditDistance.allowed(for: $0), prefix: lastIsPrefix && $0 == words.last)
        }
    }

    static func == (a: Highlighter, b: Highlighter) -> Bool { a.query == b.query }

    /// The ranges of `text`, in Characters, that the query matches.
    func ranges(in text: String) -> [TextRange] {
        if let ranges = singleScalarRanges(in: text) { return ranges }
        var ranges: [TextRange] = []
        for (start, length, word) in Self.words(of: text) {
            let folded = TextNormalizer.fold(String(word))
            if let found = matched(folded, count: folded.count, wordLength: length, prefixLength: { Self.characters(of: word, folding: $0) }) {
                ranges.append(TextRange(start: start, end: start + found))
            }
        }
        return ranges
    }

    /// How many Characters of a text word (`wordLength` of them, folding to `folded` of `count` Characters) the
    /// query matches: all of it when it is a query word or a typo of one, a beginning (`prefixLength` of the
    /// typed word) when it begins with the word being typed; nil for none.
    private func matched(_ folded: String, count: Int, wordLength: Int, prefixLength: (String) -> Int) -> Int? {
        if whole.contains(folded) { return wordLength }
        if let typed, folded.hasPrefix(typed) { return prefixLength(typed) }
        guard count >= 4 else { return nil }
        let typo = typoWords.contains { query in
            // More letters apart than edits allowed is no typo (as a whole word; a word being typed may be
            // a beginning of a longer one).
            guard query.prefix ? count >= query.count - query.limit : abs(count - query.count) <= query.limit else { return false }
            return Self.isTypo(of: folded, query.word, prefix: query.prefix, limit: query.limit)
        }
        return typo ? wordLength : nil
    }

    /// `ranges` of text in which each scalar is one Character (none from the combining marks up, no "\r"; "\r\n" is
    /// one Character of two): ASCII and the Latin, Finnish, German, French names of most files. Read from its UTF-8
    /// bytes, without Character properties, which cost more than the rest of highlighting a name with an "ä"
    /// (Helsinki's street names). Nil for other text.
    private func singleScalarRanges(in text: String) -> [TextRange]? {
        var text = text
        return text.withUTF8 { bytes -> [TextRange]? in
            var ranges: [TextRange] = []
            // The word being read: where it starts in bytes and in Characters, and whether it is all ASCII.
            var word: (byte: Int, character: Int, ascii: Bool)?
            var (index, character) = (0, 0)
            while index <= bytes.count {
                // The scalar at `index` (past the end: none, which ends a word) and its length in bytes.
                var (isWordScalar, isASCII, length) = (false, true, 1)
                if index < bytes.count {
                    let lead = bytes[index]
                    if lead < 0x80 {
                        guard lead != 0x0D else { return nil }
                        isWordScalar = Self.isWordScalar[Int(lead)]
                    } else {
                        // Two bytes hold the scalars up to U+07FF; the others are above the single-Character ones.
                        guard lead & 0xE0 == 0xC0, index + 1 < bytes.count else { return nil }
                        let value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        guard value < Self.singleScalarCharactersBelow else { return nil }
                        (isWordScalar, isASCII, length) = (Self.isWordScalar[Int(value)], false, 2)
                    }
                }
                if isWordScalar {
                    if word == nil { word = (index, character, true) }
                    if !isASCII { word?.ascii = false }
                } else if let open = word {
                    word = nil
                    let found = matched(UnsafeBufferPointer(rebasing: bytes[open.byte..<index]), ascii: open.ascii,
                                        characters: character - open.character)
                    if let found { ranges.append(TextRange(start: open.character, end: open.character + found)) }
                }
                index += length
                character += 1
            }
            return ranges
        }
    }

    /// `matched` of a word given as its UTF-8 `bytes`, `characters` Characters long, one scalar each. An ASCII word
    /// (of letters and digits) folds to its bytes lower-cased: `TextNormalizer.asciiWord`.
    private func matched(_ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool, characters: Int) -> Int? {
        if ascii {
            let folded = TextNormalizer.asciiWord(bytes, letters: bytes.count)
            // Each Character of the word folds to one: a typed word it begins is matched that many Characters.
            return matched(folded, count: bytes.count, wordLength: characters, prefixLength: { $0.count })
        }
        let word = String(decoding: bytes, as: UTF8.self)
        let folded = TextNormalizer.fold(word)
        // Counting Characters costs more than the rest of a word's test, and most words fold to ASCII.
        let count = folded.utf8.allSatisfy { $0 < 0x80 } ? folded.utf8.count : folded.count
        return matched(folded, count: count, wordLength: characters, prefixLength: { Self.characters(of: word[...], folding: $0) })
    }

    /// The words of `text` (runs of letters and numbers) with the Character offset each starts at and its length
    /// in Characters.
    private static func words(of text: String) -> [(start: Int, length: Int, word: Substring)] {
        var result: [(start: Int, length: Int, word: Substring)] = []
        var offset = 0
        var start: (offset: Int, index: String.Index)?
        for index in text.indices {
            let isWordCharacter = text[index].isLetter || text[index].isNumber
            if isWordCharacter && start == nil { start = (offset, index) }
            if !isWordCharacter, let open = start {
                result.append((open.offset, offset - open.offset, text[open.index..<index]))
                start = nil
            }
            offset += 1
        }
        if let open = start { result.append((open.offset, offset - open.offset, text[open.index...])) }
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

    private static func isTypo(of word: String, _ queryWord: String, prefix: Bool, limit: Int) -> Bool {
        (prefix ? EditDistance.toPrefix(of: word, queryWord, limit: limit) : EditDistance.between(word, queryWord, limit: limit)) <= limit
    }
}
