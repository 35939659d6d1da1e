// How far one word is from another, as users mistype: optimal string alignment (Damerau–Levenshtein
// without repeated edits of one substring), where swapping two adjacent letters is one edit, not two.

/// Edit distances between words, over Unicode scalars.
///
/// ```swift
/// EditDistance.between("prgaue", "prague")            // 1: "ga" swapped
/// EditDistance.toPrefix(of: "stockholm", "stcokh")    // 1: "stcokh" is one swap from "stockh"
/// ```
enum EditDistance {
    /// How many edits a typed word may be from the word meant: two from 8 letters, else one. (Words
    /// under 4 letters get no typo candidates at all: `SearchIndex.similarWords`.)
    static func allowed(for word: String) -> Int {
        word.count >= 8 ? 2 : 1
    }

    /// Insertions, deletions, substitutions and adjacent transpositions turning `a` into `b`; stops early
    /// (returning `limit + 1`) once the distance must exceed `limit`.
    static func between(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        return rows(a, b, limit: limit).last ?? limit + 1
    }

    /// The least distance between `typed` and a beginning of `word`: how far what the user has typed so far
    /// is from the word they may be typing. Stops early like `between`.
    static func toPrefix(of word: String, _ typed: String, limit: Int = .max) -> Int {
        let typed = Array(typed.unicodeScalars), word = Array(word.unicodeScalars)
        // The last row holds the distance from all of `typed` to each beginning of `word`.
        return rows(typed, word, limit: limit).min() ?? limit + 1
    }

    /// The last row of the optimal-string-alignment table of `a` against `b`: entry j is the distance from
    /// `a` to `b[..<j]`. Empty when every entry of a row exceeds `limit`.
    private static func rows(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> [Int] {
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in a.indices {
            current[0] = i + 1
            var rowMinimum = current[0]
            for j in b.indices {
                var cost = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { cost = min(cost, beforePrevious[j - 1] + 1) }
                current[j + 1] = cost
                rowMinimum = min(rowMinimum, cost)
            }
            if limit != .max && rowMinimum > limit { return [] }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous
    }
}
