// A search text that asks for a kind of place rather than a name: "restaurant", "cafes", "pharmacy near
// Vaduz", "restaurants in Schaan", "atm Monaco". Parsing only; ForwardSearch finds the places.

/// A search text read as a category and, optionally, where to look.
///
/// ```swift
/// let text = CategoryText("pharmacies near Vaduz")   // filter: pharmacy, place: "Vaduz", placeIsTown: false
/// ```
struct CategoryText {
    var filter: CategoryFilter
    /// The text naming where to look ("Vaduz"); nil for the category alone.
    var place: String?
    /// The place must be a town or area: the text had no "near"/"in"/comma before it ("atm Monaco"), so a
    /// name that merely starts with a category word ("Restaurant Torkel") is not read as one.
    var placeIsTown: Bool
    /// The words that name the category, as typed ("post", "fast food"); nil for a bracketed filter.
    var words: String?

    private init(filter: CategoryFilter, place: String?, placeIsTown: Bool, words: String?) {
        self.filter = filter
        self.place = place
        self.placeIsTown = placeIsTown
        self.words = words
    }

    /// Words that join a category to a place.
    static let connectors: Set<String> = ["near", "nearby", "around", "in", "at"]

    /// Nil when no leading part of the text is a category word or synonym of the taxonomy (singular or
    /// plural).
    init?(_ text: String, taxonomy: Taxonomy = .standard) {
        if let bracketed = Self.bracketed(text, taxonomy: taxonomy) {
            self = bracketed
            return
        }
        let parts = text.split(separator: ",", maxSplits: 1).map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        guard let first = parts.first, !first.isEmpty else { return nil }
        var words = first
        var place: [String] = parts.count > 1 ? parts[1] : []
        var placeIsTown = false
        if let connector = words.firstIndex(where: { Self.connectors.contains($0.lowercased()) }) {
            guard connector > 0, place.isEmpty, connector < words.count - 1 else { return nil }
            place = Array(words[(connector + 1)...])
            words = Array(words[..<connector])
        }
        // "restaurant", "fast food Vaduz": the longest leading words that are a category; the rest a town.
        for count in stride(from: min(words.count, 3), through: 1, by: -1) {
            guard let filter = Self.resolve(words.prefix(count).joined(separator: " "), taxonomy: taxonomy) else { continue }
            if count < words.count {
                guard place.isEmpty else { return nil }
                place = Array(words[count...])
                placeIsTown = true
            }
            self.init(filter: filter, place: place.isEmpty ? nil : place.joined(separator: " "), placeIsTown: placeIsTown,
                      words: words.prefix(count).joined(separator: " "))
            return
        }
        return nil
    }

    /// Nominatim's filter in brackets before the place: "[amenity=drinking_water] Wissfläckaweg" (an OSM tag),
    /// "[restaurant] Vaduz" (a category word). The place may be any place, not only a town.
    private static func bracketed(_ text: String, taxonomy: Taxonomy) -> CategoryText? {
        // Every search text is asked this first: trimming it with Foundation cost more than the rest.
        guard text.utf8.contains(UInt8(ascii: "[")) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") else { return nil }
        let inside = trimmed[trimmed.index(after: trimmed.startIndex)..<close].trimmingCharacters(in: .whitespaces)
        let filter: CategoryFilter
        if let equals = inside.firstIndex(of: "="), equals > inside.startIndex, inside.index(after: equals) < inside.endIndex {
            filter = .rawTag(inside)
        } else if let named = resolve(inside, taxonomy: taxonomy) {
            filter = named
        } else {
            return nil
        }
        var place = trimmed[trimmed.index(after: close)...].split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        if let first = place.first, connectors.contains(first.lowercased()) { place.removeFirst() }
        return CategoryText(filter: filter, place: place.isEmpty ? nil : place.joined(separator: " "), placeIsTown: false, words: nil)
    }

    /// The taxonomy categories a word or phrase names, as written or as the singular of a plural ("cafes",
    /// "pharmacies", "fast foods"). Raw tags are not read from free text.
    static func resolve(_ phrase: String, taxonomy: Taxonomy) -> CategoryFilter? {
        let phrase = phrase.lowercased()
        guard !phrase.contains("=") else { return nil }
        var forms = [phrase]
        if phrase.hasSuffix("ies") { forms.append(String(phrase.dropLast(3)) + "y") }
        if phrase.hasSuffix("es") { forms.append(String(phrase.dropLast(2))) }
        if phrase.hasSuffix("s") { forms.append(String(phrase.dropLast())) }
        // The word index directly, not `Taxonomy.resolve`: that one explains a miss with close matches, which
        // costs an edit distance to every word of the taxonomy, and nearly every search text is a miss.
        let index = taxonomy.wordIndex
        guard let id = forms.lazy.compactMap({ index[$0] }).first else { return nil }
        return .categories(taxonomy.descendants(of: id))
    }
}
