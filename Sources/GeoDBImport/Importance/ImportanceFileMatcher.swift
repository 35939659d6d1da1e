// The rows of an importance file that concern the places of an import, picked out as the file streams past.
import GeoDB

/// Matches the rows of an importance file to places by their `WikimediaReference`s: by Wikidata id first,
/// else by Wikipedia article. Memory holds the places' references (a few places in a hundred have one),
/// never the file: the world's file has tens of millions of rows, an import's places a few thousand to a
/// few million references. (The file in a scratch SQLite table with an index, as `AlternateNameStore` keeps
/// alternate names, would let places be looked up as they are written, but costs its whole size in inserts
/// and disk on every import, however few places it has: 5 M rows, 26 s and 545 MB against 1.7 s read here;
/// docs/DESIGN-NOTES.md.)
///
/// A row's value is taken from the first row of its id or article, as Nominatim's loader keeps the first row
/// of each id; the file gives every row of an item (its articles in all languages, their redirects) the
/// same value.
struct ImportanceFileMatcher {
    /// The places (their indexes in the list given) of each Wikidata id and each article.
    private var placesOfItem: [UInt64: [Int]] = [:]
    private var placesOfArticle: [[UInt8]: [Int]] = [:]
    /// The hashes of those articles (`hash`): a row's article is looked up only when its hash is one of these,
    /// so that most rows (no place's) cost a hash of their bytes, not an array made and hashed byte by byte.
    private var articleHashes: Set<Int> = []
    /// Each place's value from the file, by Wikidata id and by article.
    private var byItem: [Double?]
    private var byArticle: [Double?]
    /// A row's article, reused from row to row.
    private var key: [UInt8] = []

    /// Matches places with the references `references` (by place: its own tags', those of records merged
    /// into it).
    init(_ references: [[WikimediaReference]]) {
        byItem = Array(repeating: nil, count: references.count)
        byArticle = byItem
        for (place, ofPlace) in references.enumerated() {
            for reference in Set(ofPlace) {
                if let item = reference.wikidata { placesOfItem[item, default: []].append(place) }
                if let article = reference.article {
                    placesOfArticle[article, default: []].append(place)
                    articleHashes.insert(article.withUnsafeBufferPointer(Self.hash))
                }
            }
        }
    }

    /// Takes the row's value for the places it concerns.
    mutating func offer(_ row: ImportanceFileReader.Row) {
        if let item = row.wikidata, let places = placesOfItem[item] {
            for place in places where byItem[place] == nil { byItem[place] = row.importance }
        }
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: row.language)
        key.append(UInt8(ascii: ":"))
        key.append(contentsOf: row.title)
        guard articleHashes.contains(key.withUnsafeBufferPointer(Self.hash)), let places = placesOfArticle[key] else { return }
        for place in places where byArticle[place] == nil { byArticle[place] = row.importance }
    }

    /// The file's value for place `index`, and whether it came by Wikidata id (else by article); nil when
    /// the file has neither.
    func importance(of index: Int) -> (value: Double, byWikidata: Bool)? {
        if let value = byItem[index] { return (value, true) }
        return byArticle[index].map { ($0, false) }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
    }
}
