// What a category search looks for: taxonomy categories (with their descendants), one raw OSM tag, or
// every named POI; and how the words a user gives resolve to it.
import GeoDBSQLite

/// What to look for: taxonomy categories (with their descendants), a raw OSM tag, or every named POI.
///
/// ```swift
/// let food = try CategoryFilter.resolve(["food_and_drink"])   // .categories([cafe, restaurant, …])
/// ```
public enum CategoryFilter: Equatable, Sendable {
    case anyNamedPOI
    case categories([String])
    case rawTag(String)

    /// Resolves user words (`cafe`, `food_and_drink`, `coffee`, `amenity=cafe`); several are an OR.
    /// Throws for an unknown word, with close matches.
    ///
    /// ```swift
    /// let filter = try CategoryFilter.resolve(["coffee", "pharmacy"])   // cafes or pharmacies
    /// ```
    public static func resolve(_ words: [String], taxonomy: Taxonomy = .standard) throws -> CategoryFilter {
        guard !words.isEmpty else { return .anyNamedPOI }
        var ids: [String] = []
        var raw: [String] = []
        for word in words {
            switch try taxonomy.resolve(word) {
            case .categories(let found): ids += found
            case .rawTag(let tag): raw.append(tag)
            }
        }
        if !raw.isEmpty && !ids.isEmpty {
            throw GeoDBError(.invalidArgument, "mix of taxonomy categories and raw tags",
                             remedy: "give either categories (cafe, pharmacy) or one raw OSM tag (amenity=cafe)")
        }
        if raw.count > 1 { throw GeoDBError(.invalidArgument, "only one raw OSM tag at a time") }
        if let tag = raw.first { return .rawTag(tag) }
        var seen = Set<String>()
        return .categories(ids.filter { seen.insert($0).inserted })
    }

    /// The value queries bind for the filter: the kind `poi`, the category ids as a JSON array, or the tag.
    var sqlValue: SQLiteValue {
        switch self {
        case .anyNamedPOI: return .text(PlaceKind.poi.rawValue)
        case .categories(let ids): return .text(JSONText.array(ids))
        case .rawTag(let tag): return .text(tag)
        }
    }
}
