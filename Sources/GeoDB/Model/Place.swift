// What a place is: its kind, its names, its address; the record importers write and queries read.

/// The kind of a place (`place.kind`). The raw value is what the database stores and JSON shows.
///
/// ```swift
/// let isAreaOrSettlement = result.kind.rank <= 20
/// ```
public enum PlaceKind: String, CaseIterable, Sendable, Codable {
    case country, state, county, city, town, village, hamlet, suburb, neighbourhood, locality, island, square
    case postcode, street, address, interpolation, poi, boundary
    /// A named lake, river (its area), reservoir, bay.
    case water
    /// A coordinate typed as search text: search answers only, never stored.
    case coordinate
    /// A category of the taxonomy offered while the user types ("coff" → Cafe): autocomplete answers only,
    /// never stored; its `categoryID` says which.
    case category

    /// Kinds that are towns and villages: what `--town` lists and what a city in an address names.
    package static let settlements: [PlaceKind] = [.city, .town, .village, .hamlet]

    /// The level of an address a place of this kind is for the places inside it (a suburb is their
    /// suburb, a town their city); nil for kinds that are no level of an address.
    package var addressLevel: AddressLevel? {
        switch self {
        case .neighbourhood: return .neighbourhood
        case .suburb: return .suburb
        case .city, .town, .village, .hamlet: return .city
        case .county: return .county
        case .state: return .state
        case .country: return .country
        case .postcode: return .postcode
        default: return nil
        }
    }

    /// Address rank, as in Nominatim: smaller is bigger (4 country … 30 house).
    public var rank: Int {
        switch self {
        case .country: return 4
        case .state: return 8
        case .county: return 12
        case .city: return 16
        case .town: return 17
        case .village: return 19
        case .hamlet, .suburb, .island: return 20
        case .postcode: return 21
        case .neighbourhood: return 22
        case .locality, .boundary, .water: return 24
        case .square: return 25
        case .street: return 26
        case .address, .interpolation, .poi, .coordinate, .category: return 30
        }
    }

    /// Base importance (0…1) before population and fame adjust it; ranks cities above streets above POIs.
    public var baseImportance: Double {
        switch self {
        case .country: return 0.9
        case .state: return 0.75
        case .city: return 0.7
        case .county: return 0.6
        case .town: return 0.55
        case .village: return 0.45
        case .suburb: return 0.4
        case .island, .hamlet, .neighbourhood, .water: return 0.35
        case .locality, .square, .street, .boundary: return 0.3
        case .postcode, .poi: return 0.25
        case .address: return 0.2
        case .interpolation, .coordinate, .category: return 0.1
        }
    }
}

/// A level of an address: what `PlaceResult.address` calls the areas around a place, and what an area
/// of the database is (`area.level`). The raw value is the address key.
///
/// ```swift
/// let town = result.address[level: .city]
/// ```
public enum AddressLevel: String, CaseIterable, Sendable, Codable {
    case neighbourhood, suburb, city, county, state, country, postcode

    /// The administrative levels from the smallest to the largest (postcode apart).
    public static let nested: [AddressLevel] = [.neighbourhood, .suburb, .city, .county, .state, .country]

    /// The position in `allCases` (and in `nested`, postcode last): levels index small arrays by it.
    package var ordinal: Int {
        switch self {
        case .neighbourhood: 0
        case .suburb: 1
        case .city: 2
        case .county: 3
        case .state: 4
        case .country: 5
        case .postcode: 6
        }
    }

    // By the case, not the raw string the default for raw-value enums hashes: the hierarchy phase keys
    // its per-cell caches by level.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The areas containing a point, less those of another country than the country area among them:
    /// where an extract cuts a neighbour's boundary, what is left of it can reach over the border.
    package static func withinCountry<Area>(_ areas: [AddressLevel: Area], code: (Area) -> String?) -> [AddressLevel: Area] {
        guard let country = areas[.country].flatMap(code) else { return areas }
        return areas.filter { code($0.value).map { $0 == country } ?? true }
    }
}

/// One name of a place (`place_name`).
package struct PlaceName: Hashable, Sendable {
    package var name: String
    /// The tag it came from without a language suffix: name, alt_name, old_name, official_name, …
    package var type: String
    /// Language from a `name:xx` style suffix; nil when the tag has none.
    package var lang: String?

    package init(name: String, type: String, lang: String? = nil) {
        self.name = name
        self.type = type
        self.lang = lang
    }

    /// Name types that are alternates, not the place's own name (OSM alt_name / old_name / short_name;
    /// GeoNames' alternate names are stored as alt_name): search ranks a match through one lower, and the
    /// index holds them in a row of their own (`SearchNames`).
    package static let alternateTypes = ["alt_name", "old_name", "short_name"]

    /// Whether the name is an alternate (`alternateTypes`; an array: three string compares beat hashing).
    package var isAlternate: Bool { Self.alternateTypes.contains(type) }
}

/// A place's names as its `place_fts` rows index them: its own names (name, official and local names) in one
/// row, those in a language (`name:xx`) that are not also among them in a column of their own, its alternate
/// names (`PlaceName.alternateTypes`) that are not also own names in a second row, ranked lower
/// (`SearchRowID`), so that a search reads places through their own names first.
/// Each list distinct, in `place_name` order: writers keep these for the places a later record can merge
/// into, and rebuild the rows' texts from them (to delete a row, contentless FTS5 needs its text).
package struct SearchNames: Equatable, Sendable {
    /// The main name (the first own name, whatever its language: the name the place is shown by), then its
    /// own names in no language.
    package private(set) var own: [String]
    /// Its own names in a language that are not among `own`: search ranks them below `own` unless the
    /// language is the one asked for.
    package private(set) var inLanguages: [String]
    package private(set) var alternate: [String]

    package init(_ names: [PlaceName]) {
        let main = names.firstIndex { !$0.isAlternate }
        // Most places have one or two names, all own and in no language: one pass, as before the split (it runs
        // for every place an import writes).
        guard names.contains(where: { $0.isAlternate || $0.lang != nil }) else {
            own = PlaceRecord.distinctNames(names.lazy.map(\.name))
            inLanguages = []
            alternate = []
            return
        }
        own = PlaceRecord.distinctNames(names.indices.lazy.filter { i in
            !names[i].isAlternate && (names[i].lang == nil || i == main)
        }.map { names[$0].name })
        inLanguages = Array(PlaceRecord.distinctNames(own + names.lazy.filter { !$0.isAlternate && $0.lang != nil }.map(\.name))[own.count...])
        let known = own + inLanguages
        alternate = Array(PlaceRecord.distinctNames(known + names.lazy.filter(\.isAlternate).map(\.name))[known.count...])
    }

    /// The main name first (the first own name, else the first alternate), then the others.
    package var all: [String] { own + inLanguages + alternate }

    /// With `names` added after these (as their `place_name` rows follow).
    package func adding(_ names: [PlaceName]) -> SearchNames {
        // Any language marks a name in one: which it is, these lists do not keep.
        SearchNames(own.map { PlaceName(name: $0, type: "name") } + inLanguages.map { PlaceName(name: $0, type: "name", lang: "") }
                    + alternate.map { PlaceName(name: $0, type: "alt_name") } + names)
    }

    /// The `name` and `lang_name` texts of the own names' row and the `name` text of the alternates' row
    /// (`PlaceRecord.nameSearchText`); each empty when there are no such names (`alternate`: no second row).
    package var texts: (own: String, inLanguages: String, alternate: String) {
        (PlaceRecord.nameSearchText(own), inLanguages.isEmpty ? "" : PlaceRecord.nameSearchText(inLanguages),
         alternate.isEmpty ? "" : PlaceRecord.nameSearchText(alternate))
    }
}

/// Everything written for one place: its row, names, geometry and index entries.
package struct PlaceRecord: Sendable {
    package var sourceRef: String
    package var kind: PlaceKind
    package var category: String?
    package var name: String?
    package var names: [PlaceName]
    package var coordinate: Coordinate
    /// Box of the whole place (its geometry), for the R*Tree.
    package var boundingBox: BoundingBox
    package var importance: Double
    package var adminLevel: Int?
    package var population: Int64?
    package var address: Address
    /// Display tags, in the order written to `place.tags` (JSON).
    package var tags: [(key: String, value: String)]
    package var geometry: Geometry?
    /// IANA time zone id (`place.timezone`), when the source has one (GeoNames does).
    package var timezone: String?
    /// For an OSM boundary: the source refs ("n123") of the nodes its relation names as its `label` and its
    /// `admin_centre`, which may be the place node of the same real place (the import merges them).
    package var labelNode: String?
    package var adminCentreNode: String?
    /// Other records of the source this place is made of (the other ways of a street or river), with metres
    /// from each one's middle to the place's point: linked to it in `place_link`, so each id finds it.
    package var mergedRecords: [(sourceRef: String, distanceM: Double)] = []
    /// For a place made of one OSM way: the entrance nodes among its nodes (`place_entrance`).
    package var entrances: [PlaceEntrance] = []

    package init(sourceRef: String, kind: PlaceKind, category: String?, name: String?, names: [PlaceName],
                coordinate: Coordinate, boundingBox: BoundingBox? = nil, importance: Double? = nil,
                adminLevel: Int? = nil, population: Int64? = nil, address: Address = Address(),
                tags: [(key: String, value: String)] = [], geometry: Geometry? = nil, timezone: String? = nil) {
        self.sourceRef = sourceRef
        self.kind = kind
        self.category = category
        self.name = name
        self.names = names
        self.coordinate = coordinate
        self.boundingBox = boundingBox ?? BoundingBox(coordinate)
        self.importance = importance ?? kind.baseImportance
        self.adminLevel = adminLevel
        self.population = population
        self.address = address
        self.tags = tags
        self.geometry = geometry
        self.timezone = timezone
    }

    /// The names as the search index holds them.
    package var searchNames: SearchNames { SearchNames(names) }

    /// Distinct names in order, joined by " ; " (so phrases do not run across them), then the extra forms
    /// `TextNormalizer.indexAlternatives` gives (ß→ss, ä→ae, abbreviations, …): the `name` text of a
    /// `place_fts` row (`SearchNames.texts`).
    package static func nameSearchText<C: Collection<String>>(_ names: C) -> String {
        // Appended, not joined, and the extra forms made distinct by sorting, not by a Set (hashing a String
        // normalises it): it runs once per place on the writer's thread (callgrind, Helsinki ×5 import:
        // 101.7 → 91.3 M instructions; most of the rest is `indexAlternatives`).
        var text = ""
        var extra: [String] = []
        if names.count == 1, let name = names.first {
            // One name (most places): `distinctNames` would allocate two arrays to return it (x5: 19 M).
            text = name
            extra = TextNormalizer.indexAlternatives(name)
        } else {
            for (i, name) in distinctNames(names).enumerated() {
                if i > 0 { text += " ; " }
                text += name
                extra += TextNormalizer.indexAlternatives(name)
            }
        }
        guard !extra.isEmpty else { return text }
        text += " ; "
        extra.sort()
        for (i, word) in extra.enumerated() where i == 0 || word != extra[i - 1] {
            if i > 0 { text += " " }
            text += word
        }
        return text
    }

    /// `names` without repeats, in order. Names are equal when their UTF-8 bytes are (not Swift's canonical
    /// equivalence, which normalises every non-ASCII name and is several times slower).
    package static func distinctNames<S: Sequence<String>>(_ names: S) -> [String] {
        distinct(names) { $0 }
    }

    /// `names` without repeated names (compared as by `distinctNames`), the first of each kept.
    package static func distinct(_ names: [PlaceName]) -> [PlaceName] { distinct(names, by: \.name) }

    static func distinct<S: Sequence>(_ items: S, by name: (S.Element) -> String) -> [S.Element] {
        // Most places have a few names: compare those directly; hash only long lists.
        var kept: [S.Element] = []
        var keys: [String] = []
        var seen: Set<UTF8Key>?
        for item in items {
            let key = name(item)
            if seen != nil {
                guard seen!.insert(UTF8Key(key)).inserted else { continue }
            } else {
                guard !keys.contains(where: { UTF8Key.equal($0, key) }) else { continue }
                keys.append(key)
                if keys.count == 16 { seen = Set(keys.map(UTF8Key.init)) }
            }
            kept.append(item)
        }
        return kept
    }
}

/// A string compared and hashed by its UTF-8 bytes.
struct UTF8Key: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: UTF8Key, b: UTF8Key) -> Bool { equal(a.text, b.text) }

    static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
