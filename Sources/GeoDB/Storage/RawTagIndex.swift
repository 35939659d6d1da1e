// What idx_place_category holds (Schema/900_indexes.sql): the places of every raw tag but the common building tags.

/// `idx_place_category` is a partial index. An address's building tag (`building=yes`, `building=house`, …)
/// is the category of most places of a map file (Liechtenstein ×20: 240,840 of 318,815), and entries for the
/// common ones were 16 bytes a place that served only queries for such a tag, which read hundreds of
/// thousands of them as fast from the R*Tree or `place` itself. Rare building tags (`building=church`) stay.
/// SQLite reads a partial index only for a query whose WHERE clause repeats its condition.
package enum RawTagIndex {
    /// The tags the index leaves out: the most used values of `building` on addresses (Liechtenstein's six
    /// most used are 11,436 of its places' 11,999 building tags; `terrace` is common in other countries).
    static let commonBuildingTags = ["building=yes", "building=house", "building=detached", "building=apartments",
                                     "building=residential", "building=semidetached_house", "building=terrace"]

    /// The index's condition on `place.category` (`column`: as the query names it, `p.category`), as
    /// Schema/900_indexes.sql writes it: a query that is to read the index adds it. A conjunction of `<>`, not
    /// `NOT IN (…)`: the same rows, but SQLite evaluates it four times as fast, which the index's build pays per
    /// place (Liechtenstein ×20: 0.20 → 0.05 s of the import), and each term is one the planner matches alone.
    package static func condition(on column: String = "category") -> String {
        commonBuildingTags.map { "\(column) <> '\($0)'" }.joined(separator: " AND ")
    }

    /// Whether the index holds the places of `tag` (compared as bytes, as SQL compares).
    package static func holds(_ tag: String) -> Bool { !commonBuildingTags.contains { $0.utf8.elementsEqual(tag.utf8) } }

    /// `p.category = <parameter>`, the parameter bound to `tag`, with the index's condition when the index
    /// holds the tag, so that SQLite can start from the index.
    package static func equals(_ parameter: String, tag: String) -> String {
        "p.category = \(parameter)" + (holds(tag) ? " AND " + condition(on: "p.category") : "")
    }
}
