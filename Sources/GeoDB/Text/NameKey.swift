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

    /// The `key` text of an index row holding `names`: their distinct keys, joined by spaces.
    package static func text<C: Collection<String>>(of names: C) -> String {
        var seen = Set<String>()
        return names.compactMap { of(words: TextNormalizer.tokens($0)) }.filter { seen.insert($0).inserted }.joined(separator: " ")
    }
}
