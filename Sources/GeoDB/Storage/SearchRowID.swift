// The rowid of a place's row in place_fts: its importance, descending, above its id. FTS5 returns matches
// in rowid order, so a search reading "the N most important places matching" stops after N rows instead of
// scoring every place that has a common word ("helsinki" is in the address of 84 k places on tiled ×50).
// docs/SCHEMA.md states the layout: other programs reading place_fts need it.

/// Encodes and decodes `place_fts` rowids.
package enum SearchRowID {
    /// Low bits: the place id (places up to 2^36, 68 billion).
    static let idBits = 36
    /// `rowid & placeIDMask` is the place id.
    package static let placeIDMask: Int64 = (1 << idBits) - 1
    /// High bits: importance 1…0 in this many steps (1.5e-8 apart: finer than any two rules of `Importance`).
    static let importanceSteps: Int64 = (1 << 26) - 1

    /// The rowid of place `id` of `importance` (0…1; outside is clamped): more important places get lower
    /// rowids, places of equal importance are in id order.
    package static func of(place id: Int64, importance: Double) -> Int64 {
        let clamped = importance.isNaN ? 0 : min(1, max(0, importance))
        let step = Int64(((1 - clamped) * Double(importanceSteps)).rounded(.down))
        return step << idBits | (id & placeIDMask)
    }

    /// The highest importance a place can have whose rowid follows `rowid`.
    static func highestImportance(after rowid: Int64) -> Double {
        1 - Double(rowid >> idBits) / Double(importanceSteps)
    }

    /// The place id a rowid stands for.
    package static func place(_ rowid: Int64) -> Int64 { rowid & placeIDMask }

    /// SQL for the place id of the rowid column `column` ("f.rowid").
    package static func placeIDSQL(_ column: String) -> String { "(\(column) & \(placeIDMask))" }
}
