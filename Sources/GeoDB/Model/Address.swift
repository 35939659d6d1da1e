// A place's address as typed parts: what the importer writes into the `place` columns and what every query
// answers (its own parts, then the areas around it). One type for both, so a key cannot be misspelt in one
// layer and right in another, and one list of the keys JSON shows.

/// The parts of an address.
///
/// ```swift
/// let line = [result.address.street, result.address.housenumber].compactMap { $0 }.joined(separator: " ")
/// let town = result.address[level: .city]
/// ```
public struct Address: Hashable, Sendable {
    /// A part's name, which is its key in JSON.
    public enum Part: String, CaseIterable, Sendable {
        case housenumber, street, postcode, neighbourhood, suburb, city, county, state, country
        case countryCode = "country_code"
    }

    public var housenumber: String?
    public var street: String?
    public var postcode: String?
    public var neighbourhood: String?
    public var suburb: String?
    /// The settlement: a city, town, village or hamlet.
    public var city: String?
    public var county: String?
    /// First-level subdivision name (an admin_level 4 boundary, GeoNames admin1 name, a CSV state column).
    public var state: String?
    /// Country name (a country boundary, GeoNames country table, a CSV country column).
    public var country: String?
    /// ISO 3166-1 alpha-2, upper case.
    public var countryCode: String?
    /// What the areas of the address are, when they are places geodb knows (a tag names no kind): the
    /// settlement a town or a village, the part of it a suburb or a village of the municipality. Not address
    /// parts: Nominatim keys each area by what it is.
    public var areaKinds: [AddressLevel: PlaceKind] = [:]
    /// The ISO 3166-2 codes of the areas of the address that have one, by level; a place that is an area
    /// has its own at its own level (Nominatim lists a result's own code with its address). Not address
    /// parts: an area's code says which subdivision it is, and Nominatim keys it by admin level.
    public var subdivisionCodes: [AddressLevel: SubdivisionCode] = [:]
    /// The parts import derived rather than read from the place's tags (`place.derived`): a street from the
    /// nearest named street, a postcode from the addresses around. Not an address part.
    public var derived: [Part] = []

    public init(housenumber: String? = nil, street: String? = nil, postcode: String? = nil,
                neighbourhood: String? = nil, suburb: String? = nil, city: String? = nil, county: String? = nil,
                countryCode: String? = nil, state: String? = nil, country: String? = nil) {
        self.housenumber = housenumber
        self.street = street
        self.postcode = postcode
        self.neighbourhood = neighbourhood
        self.suburb = suburb
        self.city = city
        self.county = county
        self.countryCode = countryCode
        self.state = state
        self.country = country
    }

    public subscript(part: Part) -> String? {
        get {
            switch part {
            case .housenumber: housenumber
            case .street: street
            case .postcode: postcode
            case .neighbourhood: neighbourhood
            case .suburb: suburb
            case .city: city
            case .county: county
            case .state: state
            case .country: country
            case .countryCode: countryCode
            }
        }
        set {
            switch part {
            case .housenumber: housenumber = newValue
            case .street: street = newValue
            case .postcode: postcode = newValue
            case .neighbourhood: neighbourhood = newValue
            case .suburb: suburb = newValue
            case .city: city = newValue
            case .county: county = newValue
            case .state: state = newValue
            case .country: country = newValue
            case .countryCode: countryCode = newValue
            }
        }
    }

    /// The part an area of this level fills.
    public subscript(level level: AddressLevel) -> String? {
        get { self[Part(level)] }
        set { self[Part(level)] = newValue }
    }

    /// The parts that are set, in `Part` order: what JSON shows.
    public var parts: [(part: Part, value: String)] {
        Part.allCases.compactMap { part in self[part].map { (part, $0) } }
    }

    /// `derived` as `place.derived` stores it: the parts' keys, comma-separated.
    public var derivedText: String? { derived.isEmpty ? nil : derived.map(\.rawValue).joined(separator: ",") }

    /// The parts that are set by key (`country_code` for the code).
    public var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: parts.map { ($0.part.rawValue, $0.value) })
    }

    public var isEmpty: Bool { Part.allCases.allSatisfy { self[$0] == nil } }

    /// Takes `part` from `other`: an area with what it is and its code.
    public mutating func copy(_ part: Part, from other: Address) {
        if let level = AddressLevel(rawValue: part.rawValue) {
            setArea(level, name: other[level: level], kind: other.areaKinds[level], code: other.subdivisionCodes[level])
        } else {
            self[part] = other[part]
        }
    }

    /// Sets an area, what it is and its code together, so that neither ever describes another area's name.
    public mutating func setArea(_ level: AddressLevel, name: String?, kind: PlaceKind?, code: SubdivisionCode? = nil) {
        self[level: level] = name
        areaKinds[level] = name == nil ? nil : kind
        subdivisionCodes[level] = name == nil ? nil : code
    }

    /// The address columns of the search index's rows of a place (docs/SCHEMA.md, `place_fts`): "street
    /// housenumber postcode city state country" plus the street's extra normalized forms
    /// (`TextNormalizer.indexAlternatives`) in `address`; except that a place without a name (`named`
    /// false: `place.name` is NULL, an address) has its street and the street's forms in `street`, since search compares them as
    /// its name (`SearchIndex.names`). So a row matching no query word in `name` or `street` can match only
    /// through where it is, and ranks below any name holding the words: search reads such rows last.
    /// Writers rebuild the texts from the `place` columns when they merge a record into a place: keep them
    /// a function of those only. `streetForms`: the street's `indexAlternatives`, when the caller has them
    /// (the import keeps those of the streets it met last: addresses name the same streets over and over).
    package func searchColumns(named: Bool, streetForms: [String]? = nil) -> (street: String, address: String) {
        // Appended part by part, without an array of the parts and `joined`: it runs once per place on the
        // writer's thread (callgrind, Helsinki ×5 import: 62.8 → 40.5 M instructions). Parts are joined by
        // " ", empty ones included, as `joined` would.
        var streetText = "", text = ""
        var streetStarted = false, started = false
        func add(_ part: String?, toStreet: Bool) {
            guard let part else { return }
            if toStreet {
                if streetStarted { streetText += " " }
                streetStarted = true
                streetText += part
            } else {
                if started { text += " " }
                started = true
                text += part
            }
        }
        add(street, toStreet: !named)
        add(housenumber, toStreet: false)
        add(postcode, toStreet: false)
        add(city, toStreet: false)
        add(state, toStreet: false)
        add(country, toStreet: false)
        // A loop, not `forEach(add)`: passing `add` as a value boxes the texts and checks every access at run time.
        if let street { for word in streetForms ?? TextNormalizer.indexAlternatives(street) { add(word, toStreet: !named) } }
        return (streetText, text)
    }
}

/// An area's ISO 3166-2 subdivision code ("LI-11", "DE-BY"): the `ISO3166-2` tag of its boundary, which
/// import keeps in `place.tags`, with the boundary's OSM `admin_level`, by which Nominatim keys it
/// (`ISO3166-2-lvl8`). An area without an admin level has none: the code would have no key there.
///
/// ```swift
/// let code = result.address.subdivisionCodes[.city]?.code   // "LI-11" in Vaduz
/// ```
public struct SubdivisionCode: Hashable, Sendable {
    public var adminLevel: Int
    public var code: String

    public init(adminLevel: Int, code: String) {
        self.adminLevel = adminLevel
        self.code = code
    }

    /// The code of a place with these `admin_level` and tags; nil unless it has both.
    package init?(adminLevel: Int?, tags: [String: String]) {
        self.init(adminLevel: adminLevel, code: tags[Self.tag])
    }

    package init?(adminLevel: Int?, code: String?) {
        guard let adminLevel, let code, !code.isEmpty else { return nil }
        self.init(adminLevel: adminLevel, code: code)
    }

    /// The OSM tag that holds it, kept among a place's display tags.
    package static let tag = "ISO3166-2"

    /// SQL reading the code and the admin level (in that order; NULL when absent) of the `place` row named
    /// `alias`, for `init(adminLevel:code:)`.
    package static func columns(of alias: String) -> String {
        "json_extract(\(alias).tags, '$.\"\(tag)\"'), \(alias).admin_level"
    }
}

extension Address.Part {
    /// The part an area of `level` fills (the level's raw value is the part's key).
    public init(_ level: AddressLevel) {
        switch level {
        case .neighbourhood: self = .neighbourhood
        case .suburb: self = .suburb
        case .city: self = .city
        case .county: self = .county
        case .state: self = .state
        case .country: self = .country
        case .postcode: self = .postcode
        }
    }
}

/// JSON: an object of the parts that are set, keyed by `Part`'s raw values.
extension Address: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.singleValueContainer().decode([String: String].self)
        self.init()
        for (key, value) in object { if let part = Part(rawValue: key) { self[part] = value } }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dictionary)
    }
}
