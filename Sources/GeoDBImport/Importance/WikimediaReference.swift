// What a place's `wikidata` and `wikipedia` tags name, in the form an importance file (Nominatim's
// wikimedia-importance.csv.gz) keys its rows by: a Wikidata id, and a Wikipedia article as language and
// title with underscores for spaces.
import GeoDB

/// A place's Wikidata item and Wikipedia article, as the rows of an importance file are matched to them.
struct WikimediaReference: Hashable {
    /// The number of the `wikidata` tag's id ("Q1844" → 1844); nil without the tag, or when it is not one
    /// id ("Q1;Q2": Nominatim compares the whole value with the file's, and no row has such a value).
    var wikidata: UInt64?
    /// The `wikipedia` tag's article as the file writes it, `language:Title` ("de:Ruine_Schalun"); nil
    /// without the tag or without a language before its title.
    var article: [UInt8]?

    var isEmpty: Bool { wikidata == nil && article == nil }

    /// From the values of a place's `wikidata` and `wikipedia` tags.
    init(wikidata: String?, wikipedia: String?) {
        self.wikidata = wikidata.flatMap { Self.wikidataNumber(Array($0.utf8)[...]) }
        article = wikipedia.flatMap(Self.article(ofTag:))
    }

    /// From a record's tags, as they are written.
    init(tags: [(key: String, value: String)]) {
        self.init(wikidata: tags.first { $0.key == "wikidata" }?.value, wikipedia: tags.first { $0.key == "wikipedia" }?.value)
    }

    /// Whether a record's tags name a Wikidata item or Wikipedia article.
    static func isTagged(_ tags: [(key: String, value: String)]) -> Bool {
        tags.contains { $0.key == "wikidata" || $0.key == "wikipedia" }
    }

    /// "Q" and 1 to 18 digits (Wikidata's item ids), as a number; nil for anything else.
    static func wikidataNumber(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.first == UInt8(ascii: "Q"), (2...19).contains(bytes.count) else { return nil }
        var number: UInt64 = 0
        for byte in bytes.dropFirst() {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            number = number * 10 + UInt64(byte - 0x30)
        }
        return number
    }

    /// The file's key of an article: its row's language and title as written, joined by ":".
    static func article(language: some Collection<UInt8>, title: some Collection<UInt8>) -> [UInt8] {
        Array(language) + [UInt8(ascii: ":")] + Array(title)
    }

    /// A `wikipedia` tag ("de:Ruine Schalun") as the file's key of its article, read as Nominatim reads it:
    /// the language is what stands before the first colon when that is 2 or 3 characters ("en", "bar"),
    /// lowercased; the title the rest; both without surrounding white space, and the title's spaces underscores
    /// (the file has a title as Wikipedia's URLs do, and mappers write it either way). %-escapes stay as they
    /// are, as Nominatim leaves them when it reads this file.
    static func article(ofTag value: String) -> [UInt8]? {
        guard let colon = value.firstIndex(of: ":"), (2...3).contains(value.distance(from: value.startIndex, to: colon)) else { return nil }
        let language = value[..<colon].trimmingSpaces.lowercased()
        let title = value[value.index(after: colon)...].trimmingSpaces.replacing(" ", with: "_")
        guard !language.isEmpty, !title.isEmpty else { return nil }
        return article(language: language.utf8, title: title.utf8)
    }
}
