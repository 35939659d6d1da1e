// What idx_place_kind holds (Schema/900_indexes.sql): the places of every kind but addresses.

/// `idx_place_kind` is a partial index. Addresses are most places of a country's file (Liechtenstein ×20:
/// 240,840 of 318,815), and their entries, 11 bytes a place, served only queries for addresses, which read
/// that many places either way, or a search's kind filter asking for them, which reads the place's row
/// instead (the matches of an address's words are mostly addresses). The kinds queries look up (the country
/// places, the nearest suburb, city or state of a point, a filter for streets or settlements) stay.
/// SQLite reads a partial index only for a query whose WHERE clause repeats its condition.
package enum KindIndex {
    /// The kind the index leaves out.
    static let leftOut = PlaceKind.address

    /// The index's condition on `place.kind` (`column`: as the query names it, `p.kind`), as
    /// Schema/900_indexes.sql writes it: a query that is to read the index adds it.
    package static func condition(on column: String = "kind") -> String { "\(column) <> '\(leftOut.rawValue)'" }

    /// Whether the index holds the places of all of `kinds`.
    package static func holds(_ kinds: [PlaceKind]) -> Bool { !kinds.contains(leftOut) }

    /// `column = 'kind'`, with the index's condition when the index holds the kind, so that SQLite can start
    /// from the index.
    package static func equals(_ kind: PlaceKind, on column: String = "kind") -> String {
        "\(column) = '\(kind.rawValue)'" + (holds([kind]) ? " AND " + condition(on: column) : "")
    }
}
