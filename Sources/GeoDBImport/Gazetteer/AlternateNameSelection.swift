// What a GeoNames place's alternate names become: its name in each language (as OSM's `name:xx`), its
// alternate names (ranked lower by search), its Wikidata id, or nothing. The rules, in one place.
import GeoDB

/// The names alternate names files give a place, applied to its record before it is written:
/// - **A name in each language.** Of the names in a language (an ISO 639 code, with a region or variant:
///   "de", "zh-CN") that are neither historic nor colloquial, one becomes the place's name in it (type `name`,
///   `lang` the code): the preferred ones (isPreferredName) first, then a full name before a short one
///   (isShortName), then the first in the file. So a short name is the language's name only when no full name
///   is preferred over it ("California" stays an alternate of "State of California" unless only it is
///   preferred). One per language, as OSM has one `name:xx`: `--lang` shows it.
/// - **Alternates**: the language's other names (`short_name` when short, else `alt_name`), historic names
///   (`old_name`) and colloquial ones (`alt_name`), in their language when they have one; abbreviations
///   ('abbr') `short_name`; names without a language code `alt_name`.
/// - **The Wikidata id** ('wkdt'): the place's `wikidata` tag, as OSM places keep it (what an importance file
///   is matched by); the first one when several.
/// - **Not added**: a name equal to the place's main name once folded (search finds it through that name, and
///   `--lang` falls back to it), an alternate the place already has as a name. The dump's own alternate
///   names without a language (its `alternatenames` column, which GeoNames derives from the same table)
///   that the files give a label are dropped: each name is stored once, with what the files say of it.
/// (Postal codes, airport codes and links never get here: `AlternateNamesReader` skips them. The V2
/// columns `from` and `to` are not used.)
enum AlternateNameSelection {
    static func apply(_ given: [AlternateName], to place: inout PlaceRecord, counts: inout AlternateNameCounts) {
        let kinds = given.map(\.kind)
        // Per language, the index of its name.
        var best: [String: Int] = [:]
        for (i, name) in given.enumerated() where name.flags.isDisjoint(with: [.historic, .colloquial]) {
            guard case .language(let code) = kinds[i] else { continue }
            if let current = best[code], rank(given[current]) <= rank(name) { continue }
            best[code] = i
        }
        let mainName = MainName(place.name ?? "")
        var languageNames: [PlaceName] = [], alternates: [PlaceName] = [], labelled: [PlaceName] = []
        var duplicates = 0, wikidata = false
        for (i, name) in given.enumerated() {
            let language: String?
            switch kinds[i] {
            case .notAName: continue
            case .wikidata:
                if !wikidata && isWikidataID(name.name) && !place.tags.contains(where: { $0.key == "wikidata" }) {
                    place.tags.append(("wikidata", name.name))
                    wikidata = true
                }
                continue
            case .language(let code): language = code
            case .abbreviation, .unlabelled: language = nil
            }
            labelled.append(PlaceName(name: name.name, type: ""))
            if mainName.isFolded(name.name) {
                duplicates += 1
            } else if let language, best[language] == i {
                languageNames.append(PlaceName(name: name.name, type: "name", lang: language))
            } else {
                alternates.append(PlaceName(name: name.name, type: alternateType(name, kinds[i]), lang: language))
            }
        }
        // Alternates once, and not as a name the place has; the dump's not as one the files label (`labelled`
        // are of no type, so they are no alternates either: the filter leaves the dump's).
        let own = place.names.filter { !$0.isAlternate } + languageNames
        let added = PlaceRecord.distinct(own + alternates).filter(\.isAlternate)
        duplicates += alternates.count - added.count
        let unlabelled = PlaceRecord.distinct(own + labelled + place.names.filter(\.isAlternate)).filter(\.isAlternate)
        place.names = own + added + unlabelled

        if !languageNames.isEmpty || !added.isEmpty || wikidata { counts.places += 1 }
        counts.languageNames += languageNames.count
        counts.alternates += added.count
        counts.duplicates += duplicates
        counts.wikidataIDs += wikidata ? 1 : 0
    }

    /// A place's main name folded, and whether a name is it once folded.
    private struct MainName {
        let folded: String
        /// Its first letter or digit, when ASCII: names that cannot fold to a word beginning so are not
        /// folded (`TextNormalizer.mayFold`), since Foundation's folding of other scripts costs microseconds
        /// a name (cities500 with names in 20 languages: 0.4 s of the reading thread).
        let first: [UInt8]?

        init(_ name: String) {
            folded = TextNormalizer.fold(name)
            // Folded: ASCII letters are lower case.
            first = folded.utf8.first { (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) || $0 >= 0x80 }
                .flatMap { $0 < 0x80 ? [$0] : nil }
        }

        func isFolded(_ name: String) -> Bool {
            if let first, !TextNormalizer.mayFold(name, toWordStartingWithOneOf: first) { return false }
            return TextNormalizer.fold(name) == folded
        }
    }

    /// Smaller is better: preferred before not, then full before short.
    private static func rank(_ name: AlternateName) -> Int {
        (name.flags.contains(.preferred) ? 0 : 2) + (name.flags.contains(.short) ? 1 : 0)
    }

    private static func alternateType(_ name: AlternateName, _ kind: AlternateName.Kind) -> String {
        if name.flags.contains(.historic) { return "old_name" }
        if kind == .abbreviation || name.flags.contains(.short) && !name.flags.contains(.colloquial) { return "short_name" }
        return "alt_name"
    }

    /// "Q1726": what OSM's `wikidata` tag holds.
    static func isWikidataID(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count >= 2 && bytes.count <= 12 && bytes.first == UInt8(ascii: "Q")
            && bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

/// What the alternate names files of an import gave the places of its dumps (`AlternateNameSelection`).
public struct AlternateNameCounts: Sendable {
    /// Places given a name, an alternate or a Wikidata id.
    public var places = 0
    /// Names in a language (type `name`, `lang` set).
    public var languageNames = 0
    /// Alternate names (`alt_name`, `old_name`, `short_name`).
    public var alternates = 0
    /// Names not added: equal to the place's main name once folded, or alternates it had as a name.
    public var duplicates = 0
    /// Places given a `wikidata` tag.
    public var wikidataIDs = 0
}
