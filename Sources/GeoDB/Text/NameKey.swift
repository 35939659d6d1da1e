// The key of a whole name: what `place_name_key` indexes, so that search finds the places one of whose
// names is exactly the query without reading every place whose names merely hold its words.
import Foundation

/// A name's folded words (`TextNormalizer.tokens`) as one short ASCII token: the low 40 bits of a 64-bit
/// FNV-1a hash of the words joined by spaces, in base 36 (at most 8 characters: 13 for all 64 bits made
/// cities15000's keys 6.2 MB, a tenth of the file). Two names with the same words have the same key; two
/// different names can share one (about 45 pairs among 10 million names: the index then gives a place that
/// is not an exact match, which ranking scores as what it is). Search asks for the keys of the word sequences an exact match can be
/// (`SearchRanking.rank`'s whole texts), so every place named exactly so is among the rows found.
package enum NameKey {
    /// The key of a name given as its folded words; nil for a name without words.
    package static func of(words: [String]) -> String? {
        hashes(of: words).map { key(of: $0.whole) }
    }

    /// The token of an index row one of whose names begins with the folded `word`: "w" and the key of the word
    /// alone. Search reads the rows that have no name beginning with a query word apart, as out of reach of
    /// `SearchRanking`'s bonus for a name that begins with the words ("bike" in a hundred "… bike station"s).
    /// Such a token can coincide with a whole name's key; the row is then read as one that may be either,
    /// which costs time, never an answer.
    package static func firstWord(_ word: String) -> String { "w" + (of(words: [word]) ?? "") }

    /// The token of an index row one of whose names' first word begins with the folded `word` (typed so far) or
    /// with its first `prefixScalars` Unicode scalars: "p" and the key of those (a name's first word is keyed for
    /// its first 1 to `prefixScalars`). A row without the token of a longer word has no name beginning with it
    /// either; one with it may still not. While typing, search reads the rows that have none of the query
    /// words' as out of reach of `leadingBonus`.
    package static func firstWordPrefix(_ typed: String) -> String {
        let hash = typed.unicodeScalars.prefix(prefixScalars).reduce(offsetBasis) { hash, scalar in scalar.utf8.reduce(hash, mix) }
        return key(of: hash, prefix: UInt8(ascii: "p"))
    }

    /// The longest first-word prefix keyed (`firstWordPrefix`): the typed words people send most are their first
    /// letters, and each length more is a token more for every name; a fourth letter cost 1.2 % more of cities500's
    /// file (its hundreds of alternate names a city) for what the third tells of it.
    static let prefixScalars = 3

    /// The token of an index row one of whose names in a language (`SearchNames.inLanguages`, place_fts's
    /// `lang_name`) is the folded `words`, and none in no language is: "l" and the name's key. Search reads
    /// those rows apart, ranked as names in another language than the one asked for (`inLanguage(_:)` of a
    /// key made by `of(words:)`).
    package static func inLanguage(_ key: String) -> String { "l" + key }

    /// The house number a place's row keys are made with (`text(of:…number:)`): the number folded, when that is
    /// one word of ASCII letters and digits ("12", "12B" as "12b"), which the row's address holds as a word of the
    /// full-text index too, and search compares as it is (`TextNormalizer.houseNumber`); nil for none, for
    /// ranges and lists ("12-14", "5;7") and for numbers of several words ("13 A"), which a query's number word
    /// does not match in the index either.
    package static func numberToken(of housenumber: String?) -> String? {
        guard let housenumber else { return nil }
        let number = TextNormalizer.fold(housenumber)
        guard !number.isEmpty, number.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        return number
    }

    /// The key of `name` with the house number token `number` after its words: the key of the name's folded
    /// words and the number (`of(words: words + [number])`). A row whose names are keyed so holds, for a query
    /// of one word and that number, every place one of whose names is the word and whose number is the one
    /// asked (search's answers to "Aleksanterinkatu 5"): read from the keys alone, not by walking the rows of the
    /// word and of the number ("Aleksanterinkatu 5" on tiled Helsinki ×400: 800 matches of 48,800 and 32,400 rows).
    package static func numbered(_ name: String, number: String) -> String? {
        hashes(of: name).map { numberedKey(of: $0.whole, number: number) }
    }

    /// The `numbered` key of a name whose hash is `hash`.
    private static func numberedKey(of hash: UInt64, number: String) -> String {
        key(of: extended(hash, by: number))
    }

    /// The `key` text of an index row holding `names` and `inLanguages`: the distinct keys of `names`, those of
    /// `inLanguages` that are not among them as `inLanguage` tokens, with `number` (a `numberToken`) the keys of
    /// all of them with the number (`numbered`), the first-word tokens `firstWords` says of all their first words,
    /// and the `firstWordPrefix` tokens of those of `leadingAlso` (a place's own row: its alternate names, so that
    /// an own row without a word's prefix token says no name of the place begins with it), joined by spaces.
    package static func text<C: Collection<String>>(of names: C, inLanguages: [String] = [], number: String? = nil,
                                                    firstWords: FirstWordTokens, leadingAlso: [String] = []) -> String {
        var tokens: [String] = []
        tokens.reserveCapacity((firstWords == .none ? 1 : 2) * (number == nil ? 1 : 2) * (names.count + inLanguages.count))
        func addFirstWord(_ hash: Hashes, whole: Bool = true) {
            guard firstWords != .none else { return }
            if whole { tokens.append(key(of: hash.firstWord, prefix: UInt8(ascii: "w"))) }
            guard firstWords == .wholeAndPrefixes else { return }
            withUnsafeBytes(of: hash.prefixes) { prefixes in
                for i in 0..<hash.prefixCount {
                    tokens.append(key(of: prefixes.load(fromByteOffset: i * MemoryLayout<UInt64>.stride, as: UInt64.self),
                                      prefix: UInt8(ascii: "p")))
                }
            }
        }
        var ownKeys: Set<String> = []
        for name in names {
            guard let hash = hashes(of: name) else { continue }
            tokens.append(key(of: hash.whole))
            if !inLanguages.isEmpty { ownKeys.insert(tokens[tokens.count - 1]) }
            if let number { tokens.append(numberedKey(of: hash.whole, number: number)) }
            addFirstWord(hash)
        }
        if !inLanguages.isEmpty {
            for name in inLanguages {
                guard let hash = hashes(of: name) else { continue }
                let whole = key(of: hash.whole)
                if !ownKeys.contains(whole) { tokens.append(inLanguage(whole)) }
                if let number { tokens.append(numberedKey(of: hash.whole, number: number)) }
                addFirstWord(hash)
            }
        }
        if firstWords == .wholeAndPrefixes {
            for name in leadingAlso { if let hash = hashes(of: name) { addFirstWord(hash, whole: false) } }
        }
        var text = ""
        func add(_ token: String) {
            if !text.isEmpty { text += " " }
            text += token
        }
        // A row's few tokens (most: a name's key, its first word's and its prefixes') are compared directly,
        // without the arrays `distinctNames` makes; a country's hundreds of names go through its set.
        if tokens.count > 16 {
            for token in PlaceRecord.distinctNames(tokens) { add(token) }
        } else {
            for i in tokens.indices where !tokens[..<i].contains(tokens[i]) { add(tokens[i]) }
        }
        return text
    }

    /// The hashes of a name's folded words: all of them, the first alone, and the first's first 1 to
    /// `prefixScalars` Unicode scalars (`prefixCount` of `prefixes`: as many as it has, at most three).
    private struct Hashes {
        var whole: UInt64
        var firstWord: UInt64
        var prefixes: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var prefixCount = 0

        /// Records `hash` as that of the first word's first `prefixCount + 1` scalars.
        mutating func addPrefix(_ hash: UInt64) {
            withUnsafeMutableBytes(of: &prefixes) { $0.storeBytes(of: hash, toByteOffset: prefixCount * MemoryLayout<UInt64>.stride, as: UInt64.self) }
            prefixCount += 1
        }
    }

    /// The hashes of a name's folded words (`TextNormalizer.tokens`); nil for a name without words. An ASCII
    /// name (most) is hashed as its words' bytes are read, without making the words: this runs for every name
    /// an import indexes, on the writer's thread.
    private static func hashes(of name: String) -> Hashes? {
        var hash = offsetBasis, firstWord = offsetBasis, words = 0
        var found = Hashes(whole: 0, firstWord: 0)
        let ascii = TextNormalizer.forEachASCIIWordByte(of: name) { byte, beginsWord in
            if beginsWord {
                if words == 1 { firstWord = hash }
                if words > 0 { hash = mix(hash, 0x20) }
                words += 1
            }
            hash = mix(hash, byte)
            if words == 1 && found.prefixCount < prefixScalars { found.addPrefix(hash) }
        }
        guard ascii else { return hashes(of: TextNormalizer.tokens(name)) }
        guard words > 0 else { return nil }
        (found.whole, found.firstWord) = (hash, words == 1 ? hash : firstWord)
        return found
    }

    /// The hashes of folded words: FNV-1a over the words joined by spaces, over the first alone, and over the
    /// first's first scalars.
    private static func hashes(of words: [String]) -> Hashes? {
        guard let first = words.first else { return nil }
        var hashes = Hashes(whole: 0, firstWord: 0)
        var firstWord = offsetBasis
        for scalar in first.unicodeScalars {
            for byte in scalar.utf8 { firstWord = mix(firstWord, byte) }
            if hashes.prefixCount < prefixScalars { hashes.addPrefix(firstWord) }
        }
        (hashes.whole, hashes.firstWord) = (words.dropFirst().reduce(firstWord, extended), firstWord)
        return hashes
    }

    /// The hash of words whose hash is `hash` with `word` after them.
    private static func extended(_ hash: UInt64, by word: String) -> UInt64 {
        var hash = mix(hash, 0x20)
        for byte in word.utf8 { hash = mix(hash, byte) }
        return hash
    }

    private static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    @inline(__always)
    private static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    /// The low 40 bits of `hash` in base 36, lower case, after `prefix` when given: `String(_:radix:)`'s
    /// digits, written into the string's own storage (a key fits a small string, so nothing is allocated).
    private static func key(of hash: UInt64, prefix: UInt8? = nil) -> String {
        var value = hash & 0xFF_FFFF_FFFF
        var digits: (UInt64, UInt64) = (0, 0)   // 16 bytes: a prefix and the 8 digits of 40 bits
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                let digit = UInt8(value % 36)
                start -= 1
                buffer[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                value /= 36
            } while value > 0
            if let prefix {
                start -= 1
                buffer[start] = prefix
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// The `meta` key saying which first-word tokens a file's `place_name_key` rows hold (`FirstWordTokens`).
    package static let firstWordsMetaKey = "name_key_first_words"
}

/// Which first-word tokens a file's place_name_key rows hold: its `meta` value of `NameKey.firstWordsMetaKey`
/// ("0", "1", "2"; files imported before they existed have none). Rows are deleted by their texts (contentless
/// FTS5), so a file appended to gets rows as its own are.
package enum FirstWordTokens: Int, Sendable {
    case none = 0
    /// `NameKey.firstWord` tokens of each row's names.
    case whole = 1
    /// As `whole`, and for rows of own names `NameKey.firstWordPrefix` tokens of their first 1 to 3 scalars; a
    /// row of own names with names in a language (place_fts's `lang_name`) holds those of its place's alternate
    /// names too (`NameKey.text`'s `leadingAlso`).
    case wholeAndPrefixes = 2

    /// The tokens rows of alternate names get: no prefixes.
    package var ofAlternates: FirstWordTokens { self == .wholeAndPrefixes ? .whole : self }

    /// The tokens `meta` says, from its value.
    package init(metaValue: String?) {
        self = metaValue.flatMap(Int.init).flatMap(FirstWordTokens.init(rawValue:)) ?? .none
    }

    /// What new rows get.
    package static let current = FirstWordTokens.wholeAndPrefixes
}
