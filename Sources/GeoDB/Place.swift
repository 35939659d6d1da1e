// What a place is: its kind, its names, its address; the record importers write and queries read.

/// The kind of a place (`place.kind`). The raw value is what the database stores.
public enum PlaceKind: String, CaseIterable, Sendable, Codable {
    case country, state, county, city, town, village, hamlet, suburb, neighbourhood, locality, island, square
    case postcode, street, address, interpolation, poi, boundary

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
        case .locality, .boundary: return 24
        case .square: return 25
        case .street: return 26
        case .address, .interpolation, .poi: return 30
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
        case .island, .hamlet, .neighbourhood: return 0.35
        case .locality, .square, .street, .boundary: return 0.3
        case .postcode, .poi: return 0.25
        case .address: return 0.2
        case .interpolation: return 0.1
        }
    }
}

/// One name of a place (`place_name`).
public struct PlaceName: Hashable, Sendable {
    public var name: String
    /// The tag it came from without a language suffix: name, alt_name, old_name, official_name, …
    public var type: String
    /// Language from a `name:xx` style suffix; nil when the tag has none.
    public var lang: String?

    public init(name: String, type: String, lang: String? = nil) {
        self.name = name
        self.type = type
        self.lang = lang
    }
}

/// Address parts of a place (`place.housenumber` … `place.country_code`).
public struct Address: Hashable, Sendable {
    public var housenumber: String?
    public var street: String?
    public var postcode: String?
    public var city: String?
    public var countryCode: String?

    public init(housenumber: String? = nil, street: String? = nil, postcode: String? = nil,
                city: String? = nil, countryCode: String? = nil) {
        self.housenumber = housenumber
        self.street = street
        self.postcode = postcode
        self.city = city
        self.countryCode = countryCode
    }

    public var isEmpty: Bool { housenumber == nil && street == nil && postcode == nil && city == nil && countryCode == nil }

    /// "street housenumber postcode city", the text the search index holds for the address, plus the
    /// street's extra normalized forms.
    public var searchText: String {
        let extra = street.map { TextNormalizer.indexAlternatives($0) } ?? []
        return ([street, housenumber, postcode, city].compactMap { $0 } + extra).joined(separator: " ")
    }
}

/// Everything written for one place: its row, names, geometry and index entries.
public struct PlaceRecord: Sendable {
    public var sourceRef: String
    public var kind: PlaceKind
    public var category: String?
    public var name: String?
    public var names: [PlaceName]
    public var coordinate: Coordinate
    /// Box of the whole place (its geometry), for the R*Tree.
    public var boundingBox: BoundingBox
    public var importance: Double
    public var adminLevel: Int?
    public var population: Int64?
    public var address: Address
    /// Display tags, in the order written to `place.tags` (JSON).
    public var tags: [(key: String, value: String)]
    public var geometry: Geometry?

    public init(sourceRef: String, kind: PlaceKind, category: String?, name: String?, names: [PlaceName],
                coordinate: Coordinate, boundingBox: BoundingBox? = nil, importance: Double? = nil,
                adminLevel: Int? = nil, population: Int64? = nil, address: Address = Address(),
                tags: [(key: String, value: String)] = [], geometry: Geometry? = nil) {
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
    }

    /// Whether this place's polygon contains other places (admin and place areas): those go into `area_rtree`.
    public var isContainerArea: Bool {
        guard case .polygons? = geometry else { return false }
        return kind.rank < PlaceKind.street.rank
    }

    /// The names as one text for the search index: distinct names, separated so phrases do not run across
    /// them, then the extra forms `TextNormalizer.indexAlternatives` gives (ß→ss, ä→ae, abbreviations, …).
    public var nameSearchText: String {
        var seen = Set<String>()
        var parts: [String] = []
        var extra: [String] = []
        for n in names where seen.insert(n.name).inserted {
            parts.append(n.name)
            extra += TextNormalizer.indexAlternatives(n.name)
        }
        if !extra.isEmpty { parts.append(Array(Set(extra)).sorted().joined(separator: " ")) }
        return parts.joined(separator: " ; ")
    }
}
