// How a geodb place reads in the vocabularies of OpenStreetMap geocoders: its OSM type and id, its
// class and type (`amenity`/`cafe`), Photon's layer, Nominatim's address keys and bounding box.
import GeoDB

/// A place in the terms Nominatim and Photon use.
struct PlaceFields {
    let place: PlaceResult

    /// `node`/`way`/`relation` and the OSM id, for places from OSM (`n123`); nil for GeoNames and CSV.
    var osm: (type: String, id: Int64)? { place.sourceRef?.osmObject }

    /// The OSM key and value (`amenity`, `cafe`): the place's own tag when its category is one, else what
    /// its kind is in OSM (`place=city`, `highway=road`). An interpolation line is `place=houses` and a
    /// house number placed along it `place=house`, as Nominatim shows them, not `addr:interpolation=odd`.
    var osmTag: (key: String, value: String) {
        if place.kind == .interpolation { return place.match == .interpolated ? ("place", "house") : ("place", "houses") }
        if let tag = place.category?.osmTag { return tag }
        switch place.kind {
        case .street: return ("highway", "road")
        case .address: return ("place", "house")
        case .water: return ("natural", "water")
        case .boundary: return ("boundary", "administrative")
        case .poi: return ("amenity", "yes")
        default: return ("place", place.kind.rawValue)
        }
    }

    /// Photon's `type` (its layer): house, street, locality, district, city, county, state, country, other.
    var photonType: String { PhotonLayer(kind: place.kind).rawValue }

    /// Nominatim's `addresstype`: the key the place itself would have in an address.
    var addressType: String {
        switch place.kind {
        case .street: return "road"
        case .address: return "building"
        case .interpolation: return "place"   // as Nominatim types a house number placed along a line
        case .poi: return osmTag.key
        default: return place.kind.rawValue
        }
    }

    /// Nominatim's `address`: the place itself under its address type for a POI or an area (its name),
    /// then its address with Nominatim's keys (`road`, `house_number`, `country_code` in lower case), each
    /// area's ISO 3166-2 code after it (`subdivisionKey`; a place that is an area has its own).
    var nominatimAddress: [(String, String)] {
        var out: [(String, String)] = []
        if let name = place.name, place.kind != .street, place.kind != .address { out.append((addressType, name)) }
        for (ours, key) in Self.nominatimKeys where ours != .countryCode {
            // An area under what it is, as Nominatim keys it: a town, a village of the municipality.
            // (Each key once: a village in a village municipality keeps `suburb`.)
            let byKind = AddressLevel(rawValue: ours.rawValue).flatMap { Self.areaKey($0, kind: place.address.areaKinds[$0]) }
            let theirs = byKind.flatMap { kindKey in out.contains { $0.0 == kindKey } ? nil : kindKey } ?? key
            if let value = place.address[ours], !out.contains(where: { $0.1 == value && $0.0 == theirs }) {
                if place.kind == .street && ours == .street { out.append(("road", place.name ?? value)); continue }
                out.append((theirs, value))
            }
            if let level = AddressLevel(rawValue: ours.rawValue), let code = place.address.subdivisionCodes[level] {
                let key = Self.subdivisionKey(code)
                if !out.contains(where: { $0.0 == key }) { out.append((key, code.code)) }
            }
        }
        if place.kind == .street, !out.contains(where: { $0.0 == "road" }), let name = place.name { out.insert(("road", name), at: 0) }
        if let code = place.address.countryCode { out.append(("country_code", code.lowercased())) }
        return out
    }

    /// Nominatim's key of each address part, in the order its address lists them.
    static let nominatimKeys: [(part: Address.Part, key: String)] = [
        (.housenumber, "house_number"), (.street, "road"), (.neighbourhood, "neighbourhood"), (.suburb, "suburb"), (.city, "city"),
        (.county, "county"), (.state, "state"), (.postcode, "postcode"), (.country, "country"), (.countryCode, "country_code"),
    ]

    /// Nominatim's key of an area's ISO 3166-2 code: by the admin level of its boundary (`ISO3166-2-lvl8`), as
    /// Nominatim writes it in every format but geocodejson.
    static func subdivisionKey(_ code: SubdivisionCode) -> String { subdivisionKeyPrefix + String(code.adminLevel) }
    private static let subdivisionKeyPrefix = "ISO3166-2-lvl"

    /// Nominatim's key of an address part (`road` for the street).
    static func nominatimKey(_ part: Address.Part) -> String {
        nominatimKeys.first { $0.part == part }?.key ?? part.rawValue
    }

    /// Nominatim's address key of the area of `level` when it is a place of `kind`: a settlement (or a
    /// part of a municipality) by what it is — `town`, `village`, `hamlet`, `city` — other areas by their level.
    static func areaKey(_ level: AddressLevel, kind: PlaceKind?) -> String? {
        switch (level, kind) {
        case (.city, .town?), (.city, .village?), (.city, .hamlet?), (.city, .city?),
             (.suburb, .village?), (.suburb, .hamlet?), (.suburb, .town?), (.neighbourhood, .hamlet?):
            kind!.rawValue
        default: nil
        }
    }

    /// Nominatim's `display_name` from its `address` lines (`nominatimAddress`): in order, each once ("Dorfbäckerei Herrmann, 29, Gnetsch,
    /// Mäls, Balzers, 9496, Liechtenstein"), where geodb's own puts the number after the street. Codes are
    /// not names: the country's and the areas' are left out, as Nominatim leaves them.
    func nominatimDisplayName(address: [(String, String)]) -> String {
        var parts: [String] = []
        for (key, value) in address where key != "country_code" && !key.hasPrefix(Self.subdivisionKeyPrefix) && !parts.contains(value) {
            parts.append(value)
        }
        return parts.isEmpty ? place.displayName : parts.joined(separator: ", ")
    }

    /// The box Nominatim gives: the place's geometry's, or for a point a box sized by what the place is (as
    /// Nominatim sizes place nodes by rank).
    func boundingBox(geometry: Geometry?) -> BoundingBox {
        if let box = geometry?.boundingBox { return box }
        // Nominatim's extents around a place node, by its place type; 0.00005° (about 5 m) for anything else.
        let half: Double = switch place.kind {
        case .country: 7
        case .state: 2.6
        case .county: 0.7
        case .city, .postcode: 0.16
        case .island: 0.32
        case .town: 0.04
        case .village, .hamlet, .suburb: 0.02
        case .neighbourhood, .locality: 0.01
        default: 0.00005
        }
        return BoundingBox(minLat: max(-90, place.lat - half), minLon: max(-180, place.lon - half),
                           maxLat: min(90, place.lat + half), maxLon: min(180, place.lon + half))
    }

    /// Whether the place may have a line or polygon worth reading for its box.
    var mayHaveGeometry: Bool {
        switch place.kind {
        case .address, .poi, .coordinate, .category: return false
        default: return true
        }
    }
}

/// Photon's layers, and which geodb places are in each: a place's `type` in Photon's answers and what its
/// `layer` filter keeps.
enum PhotonLayer: String, CaseIterable {
    case house, street, locality, district, city, county, state, country, other

    init(kind: PlaceKind) {
        switch kind {
        case .address, .interpolation, .poi: self = .house
        case .street, .square: self = .street
        case .neighbourhood, .hamlet, .locality: self = .locality
        case .suburb: self = .district
        case .city, .town, .village: self = .city
        case .county: self = .county
        case .state: self = .state
        case .country: self = .country
        default: self = .other
        }
    }

    /// The kinds of places in this layer.
    var kinds: [PlaceKind] { PlaceKind.allCases.filter { PhotonLayer(kind: $0) == self } }
}
