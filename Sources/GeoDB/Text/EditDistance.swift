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
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit, toPrefix: false)
    }

    /// The least distance between `typed` and a beginning of `word`: how far what the user has typed so far
    /// is from the word they may be typing. Stops early like `between`.
    static func toPrefix(of word: String, _ typed: String, limit: Int = .max) -> Int {
        distance(Array(typed.unicodeScalars), Array(word.unicodeScalars), limit: limit, toPrefix: true)
    }

    /// The optimal-string-alignment distance from `a` to `b` (`toPrefix`: to the nearest beginning of `b`), or
    /// `limit + 1` once every entry of a row of the table exceeds `limit`. The table's last three rows live in
    /// one buffer on the stack: three arrays per call were most of the cost of a highlighter's typo tests.
    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int, toPrefix: Bool) -> Int {
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
            // Where each row starts in `rows`: entry j of a row is the distance from a[..<i] to b[..<j].
            var (beforePrevious, previous, current) = (0, width, 2 * width)
            for j in 0..<width { rows[beforePrevious + j] = 0; rows[previous + j] = j }
            for i in a.indices {
                rows[current] = i + 1
                var rowMinimum = i + 1
                for j in b.indices {
                    var cost = min(rows[previous + j + 1] + 1, rows[current + j] + 1, rows[previous + j] + (a[i] == b[j] ? 0 : 1))
                    if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { cost = min(cost, rows[beforePrevious + j - 1] + 1) }
                    rows[current + j + 1] = cost
                    rowMinimum = min(rowMinimum, cost)
                }
                if limit != .max && rowMinimum > limit { return limit + 1 }
                (beforePrevious, previous, current) = (previous, current, beforePrevious)
            }
            // The last row: from all of `a` to each beginning of `b`, its last entry to all of it.
            guard toPrefix else { return rows[previous + width - 1] }
            var least = Int.max
            for j in 0..<width { least = min(least, rows[previous + j]) }
            return least
        }
    }
}
