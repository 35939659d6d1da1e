// The rowid of a place's row in place_fts: its search rank (importance, streets lifted), descending, above
// its id. FTS5 returns matches in rowid order, so a search reading "the N highest-ranked places matching"
// stops after N rows instead of scoring every place that has a common word ("helsinki" is in the address
// of 84 k places on tiled ×50). docs/SCHEMA.md states the layout: other programs reading place_fts need it.

/// Encodes and decodes `place_fts` rowids.
package enum SearchRowID {
    /// Low bits: the place id (places up to 2^36, 68 billion).
    static let idBits = 36
    /// `rowid & placeIDMask` is the place id.
    package static let placeIDMask: Int64 = (1 << idBits) - 1
    /// High bits: the rank 1…0 in this many steps (1.5e-8 apart: finer than any two rules of `Importance`).
    static let rankSteps: Int64 = (1 << 26) - 1

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

    /// The rowid of place `id` of `importance` (0…1; outside is clamped) and `kind`: higher-ranked places
    /// get lower rowids, places of equal rank are in id order.
    package static func of(place id: Int64, importance: Double, kind: PlaceKind) -> Int64 {
        let step = Int64(((1 - rank(importance: importance, kind: kind)) * Double(rankSteps)).rounded(.down))
        return step << idBits | (id & placeIDMask)
    }

    /// The highest rank a place can have whose rowid follows `rowid`.
    static func highestRank(after rowid: Int64) -> Double {
        1 - Double(rowid >> idBits) / Double(rankSteps)
    }

    /// `of(place:importance:kind:)`'s step in SQL, for the place columns `importance` and `kind` (the same
    /// operations in the same order: the integrity check compares it with the rowids).
    static func stepSQL(importance: String, kind: String) -> String {
        """
        CAST((1 - (min(1.0, max(0.0, \(importance))) * \(SearchRanking.importanceWeight) \
        + (CASE WHEN \(kind) = 'street' THEN \(SearchRanking.streetBonus) ELSE 0.0 END)) / \(rankScale)) * \(rankSteps) AS INTEGER)
        """
    }

    /// The place id a rowid stands for.
    package static func place(_ rowid: Int64) -> Int64 { rowid & placeIDMask }

    /// SQL for the place id of the rowid column `column` ("f.rowid").
    package static func placeIDSQL(_ column: String) -> String { "(\(column) & \(placeIDMask))" }
}
