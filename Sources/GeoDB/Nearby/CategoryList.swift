// The taxonomy stored in a database, with how many places each category has (`geodb categories`).

/// A category with its place counts.
///
/// ```swift
/// let cafes = try db.withSession { try $0.categories() }.first { $0.id == "cafe" }?.places
/// ```
public struct CategoryCount: Codable, Sendable {
    /// Taxonomy id, e.g. `cafe`.
    public var id: String
    /// The parent category id; nil for a top-level category.
    public var parent: String?
    /// Human label, e.g. "Café".
    public var label: String
    /// Other words that find this category ("coffee").
    public var synonyms: [String]
    /// OSM tags mapped to it (`amenity=cafe`; `shop=*` catches a whole key).
    public var osmTags: [String]
    /// Places in exactly this category.
    public var places: Int64
    /// Places in this category and all its descendants.
    public var placesWithChildren: Int64
    /// Depth in the tree (0 for top-level categories).
    public var depth: Int
}

extension NearbySearch {
    /// The database's taxonomy in tree order (each parent followed by its children).
    func categories() throws -> [CategoryCount] {
        let rows = try db.rows("read the taxonomy", "SELECT id, parent, label, synonyms, osm_tags, place_count FROM category") { row in
            CategoryCount(id: row.text(0) ?? "", parent: row.text(1), label: row.text(2) ?? "",
                          synonyms: (row.text(3) ?? "").split(separator: ",").map(String.init),
                          osmTags: (row.text(4) ?? "").split(separator: ",").map(String.init),
                          places: row.int(5), placesWithChildren: 0, depth: 0)
        }
        var children: [String: [CategoryCount]] = [:]
        var roots: [CategoryCount] = []
        for row in rows {
            if let parent = row.parent { children[parent, default: []].append(row) } else { roots.append(row) }
        }
        var ordered: [CategoryCount] = []
        func visit(_ category: CategoryCount, depth: Int) -> Int64 {
            let index = ordered.count
            var entry = category
            entry.depth = depth
            ordered.append(entry)
            var total = category.places
            for child in children[category.id] ?? [] { total += visit(child, depth: depth + 1) }
            ordered[index].placesWithChildren = total
            return total
        }
        for root in roots { _ = visit(root, depth: 0) }
        return ordered
    }
}
