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
        guard !words.isEmpty else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (i, word) in words.enumerated() {
            if i > 0 { hash = (hash ^ 0x20) &* 0x0000_0100_0000_01B3 }
            for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return String(hash & 0xFF_FFFF_FFFF, radix: 36)
    }

    /// The token of an index row one of whose names begins with the folded `word`: "w" and the key of the word
    /// alone. Search reads the rows that have no name beginning with a query word apart, as out of reach of
    /// `SearchRanking`'s bonus for a name that begins with the words ("bike" in a hundred "… bike station"s).
    /// Such a token can coincide with a whole name's key; the row is then read as one that may be either,
    /// which costs time, never an answer.
    package static func firstWord(_ word: String) -> String { "w" + (of(words: [word]) ?? "") }

    /// The `key` text of an index row holding `names`: their distinct keys and, with `firstWords`, the
    /// distinct `firstWord` tokens of their first words, joined by spaces.
    package static func text<C: Collection<String>>(of names: C, firstWords: Bool) -> String {
        var seen = Set<String>()
        var keys: [String] = []
        for name in names {
            let words = TextNormalizer.tokens(name)
            guard let key = of(words: words) else { continue }
            if seen.insert(key).inserted { keys.append(key) }
            if firstWords, case let first = firstWord(words[0]), seen.insert(first).inserted { keys.append(first) }
        }
        return keys.joined(separator: " ")
    }

    /// The `meta` key of a file whose `place_name_key` rows hold `firstWord` tokens (files written before do not).
    package static let firstWordsMetaKey = "name_key_first_words"
}
