// The rowid of a row of place_fts: its search rank (importance, streets lifted), descending, above whether
// it holds the place's alternate names, above its place id. FTS5 returns matches in rowid order, so a
// search reading "the N highest-ranked places matching" stops after N rows instead of scoring every place
// that has a common word ("helsinki" is in the address of 84 k places on tiled ×50). A place's alternate
// names are a second row ranked lower by what a match through them loses: a village's own name comes before
// the alternates of 200 more important cities ("Shen": Shenkottai, not Santiago's Chinese name). docs/SCHEMA.md
// states the layout: other programs reading place_fts need it.

/// Encodes and decodes `place_fts` rowids.
package enum SearchRowID {
    /// Low bits: the place id (places up to 2^36, 68 billion).
    static let idBits = 36
    /// `rowid & placeIDMask` is the place id.
    package static let placeIDMask: Int64 = (1 << idBits) - 1
    /// The bit above the id: the row of the place's alternate names.
    static let alternateBit: Int64 = 1 << idBits
    /// High bits, above those: the rank 1…−`alternateRankDrop` in this many steps (2.2e-8 apart: finer than
    /// any two rules of `Importance`).
    static let rankSteps: Int64 = (1 << 26) - 1
    static let stepShift = idBits + 1

    /// The points a place can score apart from its names and the query's house number and location, on a
    /// scale of 0…1: `SearchRanking`'s importance points, plus its street bonus for a street. In this order
    /// a search can stop reading: no later match can outscore the ones read by its importance or by being a
    /// street (with the bonus left out, every search that found no street read on to its limit in case one
    /// followed: all 200 matches of "Stockmann" on tiled ×400, not 11).
    static func rank(importance: Double, kind: PlaceKind) -> Double {
        let clamped = importance.isNaN ? 0 : min(1, max(0, importance))
        return (clamped * SearchRanking.importanceWeight + (kind == .street ? SearchRanking.streetBonus : 0)) / rankScale
    }

    /// The points a rank of 1 stands for.
    static let rankScale = SearchRanking.importanceWeight + SearchRanking.streetBonus

    /// How much lower a row of alternate names ranks: the points a match through an alternate name loses
    /// (a whole alternate name loses half: `SearchRanking.bound(ofPlacesUpTo:)` adds it back for rows that
    /// may be one), on the scale of `rank`.
    static let alternateRankDrop = SearchRanking.alternatePenalty / rankScale

    /// The ranks the steps span: 1 down to −`alternateRankDrop`, the row of alternate names of a place of rank
    /// 0. (Clamped at 0, as up to version 14, such rows of places below rank `alternateRankDrop` all sat at
    /// the last step, bound as if up to 6 points better than they are: "bike" on tiled ×400 read 200
    /// bike stations' "city bike" rows before it could stop.)
    static let rankSpan = 1 + alternateRankDrop
    /// The highest rank of a row of alternate names: that of a place of rank 1, less `alternateRankDrop`.
    static let highestAlternateRank = 1 - alternateRankDrop

    /// The rowid of place `id` of `importance` (0…1; outside is clamped) and `kind`, or of the row of its
    /// `alternate` names (its rank lower by `alternateRankDrop`): higher ranks get lower rowids, rows of equal
    /// rank are in id order.
    package static func of(place id: Int64, importance: Double, kind: PlaceKind, alternate: Bool = false) -> Int64 {
        let rank = rank(importance: importance, kind: kind) - (alternate ? alternateRankDrop : 0)
        return step(ofRank: rank) << stepShift | (alternate ? alternateBit : 0) | (id & placeIDMask)
    }

    /// The step of the rows of `rank` (1…−`alternateRankDrop`).
    private static func step(ofRank rank: Double) -> Int64 {
        Int64(((1 - rank) / rankSpan * Double(rankSteps)).rounded(.down))
    }

    /// The lowest own row's rowid that a row of alternate names after `rowid` can stand for: its rank raised
    /// by `alternateRankDrop`, id 0.
    static func lowestOwnRowID(standingForAlternatesAfter rowid: Int64) -> Int64 {
        step(ofRank: min(1, highestRank(after: rowid) + alternateRankDrop)) << stepShift
    }

    /// Whether the row holds a place's alternate names.
    static func isAlternate(_ rowid: Int64) -> Bool { rowid & alternateBit != 0 }

    /// The highest rank a row that follows `rowid` can have (an alternate row's, lowered).
    static func highestRank(after rowid: Int64) -> Double {
        rank(ofStep: rowid >> stepShift)
    }

    /// The rank of the rows of a step (0 the highest, `rankSteps` the lowest).
    static func rank(ofStep step: Int64) -> Double {
        1 - Double(step) / Double(rankSteps) * rankSpan
    }

    /// The rowid below every row of a step and after every row of the steps before it (the own row of place
    /// id 0, which no place has).
    static func start(ofStep step: Int64) -> Int64 {
        step << stepShift
    }

    /// `of(place:importance:kind:alternate:)`'s step in SQL, for the place columns `importance` and `kind`
    /// and `alternate` (SQL that is 0 or 1); the same operations in the same order: the integrity check
    /// compares it with the rowids.
    static func stepSQL(importance: String, kind: String, alternate: String) -> String {
        """
        CAST((1 - ((min(1.0, max(0.0, \(importance))) * \(SearchRanking.importanceWeight) \
        + (CASE WHEN \(kind) = 'street' THEN \(SearchRanking.streetBonus) ELSE 0.0 END)) / \(rankScale) \
        - (CASE WHEN \(alternate) THEN \(alternateRankDrop) ELSE 0.0 END))) / \(rankSpan) * \(rankSteps) AS INTEGER)
        """
    }

    /// SQL for whether the rowid column `column` is a row of alternate names.
    static func isAlternateSQL(_ column: String) -> String { "((\(column) >> \(idBits)) & 1)" }

    /// The place id a rowid stands for.
    package static func place(_ rowid: Int64) -> Int64 { rowid & placeIDMask }

    /// SQL for the place id of the rowid column `column` ("f.rowid").
    package static func placeIDSQL(_ column: String) -> String { "(\(column) & \(placeIDMask))" }
}
