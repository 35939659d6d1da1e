// The POI category taxonomy (Schema/categories.tsv): ids, parents, synonyms and the OSM tags mapped
// to each category, and how a user's `--category` words resolve against it.
import Foundation

/// One category of the taxonomy.
///
/// ```swift
/// let cafe = Taxonomy.standard.category("cafe")   // parent food_and_drink
/// ```
public struct Category: Sendable, Codable, Equatable {
    /// Taxonomy id, e.g. `cafe`.
    public var id: String
    /// Parent id; nil at the top.
    public var parent: String?
    /// Human label.
    public var label: String
    /// Other words that find it.
    public var synonyms: [String]
    /// OSM tags mapped to this category: `key=value`, or `key=*` for any value of the key.
    public var osmTags: [String]
}

/// The category taxonomy compiled into geodb.
///
/// ```swift
/// let t = Taxonomy.standard
/// let coffee = try t.resolve("coffee")   // .categories(["cafe"])
/// ```
public struct Taxonomy: Sendable {
    /// Bumped whenever Schema/categories.tsv changes; stored in `meta` as `taxonomy_version`.
    public static let version = 2

    /// The taxonomy of `Schema/categories.tsv`, compiled in.
    ///
    /// ```swift
    /// Taxonomy.standard.descendants(of: "food_and_drink")   // ["food_and_drink", "cafe", "restaurant", …]
    /// ```
    public static let standard = Taxonomy(tsv: SchemaFiles.categoriesTSV)

    /// Categories in file order (parents before their children).
    public let categories: [Category]
    private let byID: [String: Int]
    private let children: [String: [String]]
    private let words: [String: String]   // lower-cased id, label and synonyms → id
    /// `words` in key order, for the words beginning with a prefix: autocomplete asks on every keystroke, and
    /// filtering the whole dictionary was 5 % of an as-you-type search on cities500.
    private let sortedWords: [(key: String, value: String)]

    init(tsv: String) {
        var categories: [Category] = []
        // Split on bytes: every run of the CLI builds the table, and split Character by Character (and trimmed by
        // Foundation, through NSString) it cost 26.7 M instructions, ten times a search for "Vaduz" (now 7.1 M).
        // Trimmed of what Foundation's `.whitespaces` holds (spaces and tabs).
        func text(_ bytes: Substring.UTF8View) -> String { String(decoding: bytes, as: UTF8.self) }
        func list(_ field: Substring.UTF8View) -> [String] {
            field.split(separator: UInt8(ascii: ",")).compactMap { item in
                let scalars = text(item).unicodeScalars
                let isSpace = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
                guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
                else { return nil }
                return String(scalars[first...last])
            }
        }
        for line in tsv.utf8.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 5 else { continue }
            categories.append(Category(id: text(fields[0]), parent: fields[1].isEmpty ? nil : text(fields[1]), label: text(fields[2]),
                                       synonyms: list(fields[3]), osmTags: list(fields[4])))
        }
        self.categories = categories
        byID = Dictionary(categories.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var children: [String: [String]] = [:]
        for c in categories { if let p = c.parent { children[p, default: []].append(c.id) } }
        self.children = children
        var words: [String: String] = [:]
        for c in categories {
            for word in [c.id, c.label] + c.synonyms where words[word.lowercased()] == nil {
                words[word.lowercased()] = c.id
            }
        }
        self.words = words
        sortedWords = words.sorted { $0.key < $1.key }
    }

    /// The category with this id.
    ///
    /// ```swift
    /// let label = Taxonomy.standard.category("atm")?.label
    /// ```
    public func category(_ id: String) -> Category? { byID[id].map { categories[$0] } }

    /// The category and all its descendants.
    ///
    /// ```swift
    /// let all = Taxonomy.standard.descendants(of: "money")   // ["money", "atm", "bank", …]
    /// ```
    public func descendants(of id: String) -> [String] {
        var result = [id]
        var index = 0
        while index < result.count {
            result += children[result[index]] ?? []
            index += 1
        }
        return result
    }

    /// Categories one of whose words (id, label, synonyms) starts with `prefix` (lower-cased), the shortest
    /// such word first: what autocomplete offers for "coff" or "pharm".
    ///
    /// ```swift
    /// let offered = Taxonomy.standard.categories(startingWith: "coff")   // ["cafe"]
    /// ```
    public func categories(startingWith prefix: String) -> [String] {
        let prefix = prefix.lowercased()
        // The words beginning with `prefix` are a run of the sorted ones, from the first not below it.
        var low = 0, high = sortedWords.count
        while low < high {
            let middle = (low + high) / 2
            if sortedWords[middle].key < prefix { low = middle + 1 } else { high = middle }
        }
        var seen = Set<String>()
        return sortedWords[low...].prefix { $0.key.hasPrefix(prefix) }.sorted { ($0.key.count, $0.key) < ($1.key.count, $1.key) }
            .map(\.value).filter { seen.insert($0).inserted }
    }

    /// Words that map a free-text category (a CSV column, a synonym) to a category id, lower-cased.
    public var wordIndex: [String: String] { words }

    /// What a user's category word means.
    ///
    /// ```swift
    /// if case .categories(let ids) = try Taxonomy.standard.resolve("coffee") { print(ids) }   // ["cafe"]
    /// ```
    public enum Resolution: Equatable, Sendable {
        /// Taxonomy categories (the named one and its descendants).
        case categories([String])
        /// A raw OSM tag (`amenity=cafe`): exactly the places with that tag, mapped or not.
        case rawTag(String)
    }

    /// Resolves an id (`cafe`), a parent (`food_and_drink`), a synonym (`coffee`) or a raw tag
    /// (`amenity=cafe`); throws with close matches when nothing fits.
    ///
    /// ```swift
    /// let resolution = try Taxonomy.standard.resolve("Coffee shop")
    /// ```
    public func resolve(_ text: String) throws -> Resolution {
        let word = text.trimmingCharacters(in: .whitespaces)
        if word.contains("=") { return .rawTag(word) }
        if let id = words[word.lowercased()] { return .categories(descendants(of: id)) }
        let suggestions = closeMatches(to: word.lowercased())
        throw GeoDBError(.invalidArgument, "unknown category '\(word)'",
                         remedy: suggestions.isEmpty ? "see `geodb categories`"
                             : "did you mean: \(suggestions.joined(separator: ", "))?")
    }

    /// Category ids whose id, label or synonyms start like `word` or are within two edits of it.
    func closeMatches(to word: String) -> [String] {
        var scored: [(Int, String)] = []
        for (candidate, id) in words {
            let distance = candidate.hasPrefix(word) || word.hasPrefix(candidate) ? 0 : EditDistance.between(word, candidate)
            if distance <= 2 { scored.append((distance, id)) }
        }
        var seen = Set<String>()
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1).filter { seen.insert($0).inserted }.prefix(5).map { $0 }
    }
}
