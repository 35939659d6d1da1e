// Decides what an OSM object becomes (a place, an address, a POI, a street, nothing) from its tags.
import Foundation
import GeoDB

/// How an OSM object is imported: kind, raw category and admin level.
struct OSMClassification: Equatable {
    var kind: PlaceKind
    var category: String?
    var adminLevel: Int?
}

enum OSMClassifier {
    /// Values that never make a POI for keys whose other values do (infrastructure, not destinations).
    static let ignoredValues: [OSMKey: Set<String>] = [
        .railway: ["rail", "tram", "subway", "light_rail", "narrow_gauge", "abandoned", "disused", "platform_edge",
                    "switch", "buffer_stop", "level_crossing", "crossing", "signal", "razed", "construction", "proposed", "stop",
                    "turntable", "miniature", "funicular", "monorail", "preserved", "railway_crossing"],
        .highway: [],  // highway= is a POI only for the values in `highwayPOIs`
        .natural: ["coastline", "yes", "water"],   // named water is a water body (`waterCategory`)
        .manMade: ["pipeline", "cutline", "street_cabinet", "manhole", "clearcut"],
        .emergency: ["fire_hydrant", "yes", "no"],
        .publicTransport: ["stop_area", "stop_area_group", "stop_position"],
        .building: ["no"],
        .amenity: ["bench", "waste_basket", "grit_bin", "parking_space", "parking_entrance", "vending_machine",
                    "bicycle_parking", "waste_disposal", "hunting_stand", "clock", "loading_dock"],
        // A river's area is water (`waterCategory`); its name is the river's, whose line is the place.
        .waterway: ["riverbank"],
        // Water (`waterCategory`); the land use of settlements names a part of one (Nominatim: an address
        // level), which is not a feature.
        .landuse: ["reservoir", "basin", "residential", "industrial", "commercial", "retail"],
    ]

    /// Values that make a POI only when named: features, not destinations, but a name makes them places
    /// people look for (a wood, a ridge, a bridge, a river's line), as Nominatim imports them.
    static let namedOnlyValues: [OSMKey: Set<String>] = [
        .natural: ["tree_row", "wood", "scrub", "grassland", "wetland", "bare_rock", "sand", "heath", "ridge",
                    "cliff", "tree"],
        .manMade: ["embankment", "breakwater", "groyne", "dyke", "pier", "bridge"],
    ]
    /// Keys whose every value makes a POI only when named (`waterway`: a stream; `landuse`: a wood's name).
    static let namedOnlyKeys: Set<OSMKey> = [.waterway, .landuse]

    static let highwayPOIs: Set<String> = ["bus_stop", "rest_area", "services", "motorway_junction", "trailhead"]

    /// Unnamed POIs are kept for these categories, because people look for them by category alone.
    static let usefulUnnamed: Set<String> = [
        "amenity=atm", "amenity=toilets", "amenity=parking", "amenity=charging_station", "amenity=fuel",
        "amenity=post_box", "amenity=drinking_water", "amenity=bicycle_rental", "amenity=car_sharing",
        "amenity=recycling", "amenity=pharmacy", "amenity=telephone", "amenity=shelter", "amenity=bank",
        "amenity=cafe", "amenity=restaurant", "amenity=fast_food", "amenity=bar", "amenity=pub",
        "amenity=post_office", "amenity=defibrillator", "emergency=defibrillator", "amenity=taxi",
        "amenity=car_wash", "amenity=library", "amenity=police", "amenity=hospital", "amenity=clinic",
        "amenity=doctors", "amenity=dentist", "shop=supermarket", "shop=convenience", "shop=bakery",
        "tourism=information", "tourism=viewpoint", "leisure=playground", "leisure=pitch", "leisure=firepit",
        "amenity=bbq", "highway=bus_stop", "railway=tram_stop", "railway=station", "railway=subway_entrance",
        "public_transport=platform",
    ]

    /// Highway types that make streets when named.
    static let streetTypes: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
        "pedestrian", "service", "track", "road", "footway", "cycleway", "path", "steps", "bridleway",
        "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link", "busway",
    ]

    static func placeKind(forPlaceValue value: String) -> PlaceKind? {
        switch value {
        case "country": return .country
        case "state", "province": return .state
        // A region is as often a mountain range or a wine country as an administrative unit: never a state.
        case "region": return .locality
        case "county", "district", "municipality": return .county
        case "city": return .city
        case "town": return .town
        case "village": return .village
        case "hamlet", "isolated_dwelling", "farm", "allotments": return .hamlet
        case "suburb", "borough": return .suburb
        case "quarter", "neighbourhood", "city_block", "plot": return .neighbourhood
        case "locality": return .locality
        case "island", "islet", "archipelago": return .island
        case "square": return .square
        default: return nil
        }
    }

    static func kind(forAdminLevel level: Int) -> PlaceKind {
        switch level {
        case ...2: return .country
        case 3...4: return .state
        case 5...6: return .county
        case 7...8: return .city
        case 9...10: return .suburb
        default: return .neighbourhood
        }
    }

    /// What an object with these tags becomes; nil when it is not a place (streets are handled apart).
    /// `isArea` says whether the object is a closed way or a multipolygon/boundary relation.
    static func classify(_ tags: OSMTags, hasName: Bool, isArea: Bool) -> OSMClassification? {
        if isArea, let boundary = tags[.boundary] {
            let level = tags[.adminLevel].flatMap { Int($0) }
            if boundary == "administrative", hasName, let level {
                let kind = tags[.place].flatMap(placeKind(forPlaceValue:)) ?? kind(forAdminLevel: level)
                return OSMClassification(kind: kind, category: "boundary=administrative", adminLevel: level)
            }
            // A country's land without its territorial waters (Monaco's, where the full boundary is cut).
            if boundary == "land_area", hasName, level == 2, tags[.iso3166Alpha2] ?? tags[.iso3166] != nil {
                return OSMClassification(kind: .country, category: "boundary=land_area", adminLevel: 2)
            }
            if boundary == "postal_code", tags[.postalCode] != nil {
                return OSMClassification(kind: .postcode, category: "boundary=postal_code")
            }
        }
        if hasName, let value = tags[.place], let kind = placeKind(forPlaceValue: value) {
            return OSMClassification(kind: kind, category: "place=\(value)")
        }
        if hasName, let category = waterCategory(tags) {
            return OSMClassification(kind: .water, category: category)
        }
        if let category = poiCategory(tags, hasName: hasName), hasName || usefulUnnamed.contains(category) {
            if category.hasPrefix("building=") && !hasName {
                return tags[.addrHousenumber] != nil ? OSMClassification(kind: .address, category: category) : nil
            }
            return OSMClassification(kind: .poi, category: category)
        }
        if tags[.addrHousenumber] != nil || tags[.addrHousename] != nil {
            return OSMClassification(kind: .address, category: tags[.building].map { "building=\($0)" })
        }
        if isArea, hasName, let boundary = tags[.boundary], boundary != "administrative" {
            return OSMClassification(kind: .boundary, category: "boundary=\(boundary)")
        }
        return nil
    }

    /// The category of a water body: a lake, reservoir or pond (`natural=water`, `water=*`), a river's area
    /// (`waterway=riverbank`), a bay or strait; nil for anything else.
    static func waterCategory(_ tags: OSMTags) -> String? {
        if let natural = tags[.natural], ["water", "bay", "strait"].contains(natural) {
            return tags[.water].map { "water=\($0)" } ?? "natural=\(natural)"
        }
        if tags[.waterway] == "riverbank" { return "waterway=riverbank" }
        if let landuse = tags[.landuse], landuse == "reservoir" || landuse == "basin" { return "landuse=\(landuse)" }
        return nil
    }

    /// The first POI key present with a value that makes a POI, as 'key=value'; some only when the object
    /// has a name (`namedOnlyValues`, `namedOnlyKeys`).
    static func poiCategory(_ tags: OSMTags, hasName: Bool = true) -> String? {
        // One pass: of the tags whose key makes a POI, the one whose key comes first (`OSMKey` lists the POI
        // keys in priority order). Asking for each key in turn scanned a building's tags 18 times.
        let best = tags.tags.withUnsafeBufferPointer { buffer -> Int? in
            var best: Int?
            for i in buffer.indices where buffer[i].info.key.isPOIKey {
                if let best, buffer[best].info.key.rawValue <= buffer[i].info.key.rawValue { continue }
                if makesPOI(buffer[i].info.key, buffer[i].value, hasName: hasName) { best = i }
            }
            return best
        }
        guard let best else { return nil }
        return "\(tags.tags[best].info.key.text)=\(tags.tags[best].value)"
    }

    /// Whether a tag with POI key `key` makes its object a POI.
    private static func makesPOI(_ key: OSMKey, _ value: String, hasName: Bool) -> Bool {
        guard value != "no" else { return false }
        if key == .highway { return highwayPOIs.contains(value) }   // highway= only for these values
        if !hasName, namedOnlyKeys.contains(key) || namedOnlyValues[key]?.contains(value) == true { return false }
        return ignoredValues[key]?.contains(value) != true
    }

    /// The family and value of a way whose named segments are merged into one line (a street:
    /// `highway=residential`; a river: `waterway=river`), nil for other ways.
    static func lineType(_ tags: OSMTags) -> (family: LineCollector.Family, value: String)? {
        if let highway = tags[.highway], streetTypes.contains(highway), tags[.area] != "yes" || highway == "pedestrian" {
            return (.highway, highway)
        }
        if let waterway = tags[.waterway], LineCollector.isLine(.waterway, waterway), tags[.area] != "yes" {
            return (.waterway, waterway)
        }
        return nil
    }

    /// Name tags indexed for search: `name`, `name:xx` and these, each optionally with a `:xx` language.
    static let nameTypes = ["name", "alt_name", "old_name", "official_name", "short_name", "loc_name",
                            "int_name", "nat_name", "reg_name"]

    /// Every name of an object, with type and language; values with ';' are several names.
    /// Runs for every tagged object, so it works on UTF-8 bytes rather than Characters.
    static func names(_ tags: OSMTags) -> [PlaceName] {
        var result: [PlaceName] = []
        for i in tags.tags.indices where tags.tags[i].info.isName {
            let tag = tags.tags[i]
            let type = nameTypes[Int(tag.info.nameType)]
            let lang = tag.info.languageColon == 0 ? nil
                : String(decoding: tag.key.utf8.dropFirst(Int(tag.info.languageColon) + 1), as: UTF8.self)
            let value = tag.value
            // Searched in the bytes: through `String.UTF8View` it cost ~24 instructions a byte.
            let isList = value.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ";")) }
                ?? value.utf8.contains(UInt8(ascii: ";"))
            if isList {
                var seen = Set<String>()
                for part in value.split(separator: ";") {
                    let name = part.trimmingSpaces
                    if !name.isEmpty && seen.insert(name).inserted { result.append(PlaceName(name: name, type: type, lang: lang)) }
                }
            } else {
                let name = value.utf8.first == 0x20 || value.utf8.last == 0x20 ? value[...].trimmingSpaces : value
                if !name.isEmpty { result.append(PlaceName(name: name, type: type, lang: lang)) }
            }
        }
        // The plain name first: it is the display name.
        if let index = result.firstIndex(where: { $0.type == "name" && $0.lang == nil }), index != 0 {
            result.insert(result.remove(at: index), at: 0)
        }
        return result
    }

    /// Whether an object has any name tag (cheaper than `names`: nothing is allocated).
    static func hasName(_ tags: OSMTags) -> Bool {
        tags.tags.contains(where: \.info.isName)
    }

    /// The index in `nameTypes` of a name key's type and the byte offset of its ':'; compares raw bytes.
    static func nameTypeIndex(_ key: String) -> (type: Int, colon: Int?)? {
        var key = key
        return key.withUTF8 { bytes -> (type: Int, colon: Int?)? in
            let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
            let typeEnd = colon ?? bytes.count
            // Every type ends in "name": check that before comparing whole types.
            guard typeEnd >= 4, bytes[typeEnd - 4] == UInt8(ascii: "n"), bytes[typeEnd - 3] == UInt8(ascii: "a"),
                  bytes[typeEnd - 2] == UInt8(ascii: "m"), bytes[typeEnd - 1] == UInt8(ascii: "e") else { return nil }
            let typeBytes = UnsafeBufferPointer(rebasing: bytes[..<typeEnd])
            guard let type = nameTypeBytes.firstIndex(where: { $0.elementsEqual(typeBytes) }) else { return nil }
            guard let colon else { return (type, nil) }
            guard isLanguageCode(UnsafeBufferPointer(rebasing: bytes[(colon + 1)...])) else { return nil }
            return (type, colon)
        }
    }

    private static let nameTypeBytes = nameTypes.map { Array($0.utf8) }

    /// 'fi', 'sv', 'zh-Hans', 'be-tarask': two or three lower-case letters, then optional '-' subtags.
    static func isLanguageCode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count),
              first.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { byte in
                let lower = byte | 0x20
                return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= 48 && byte <= 57)
            }
        }
    }

    static func address(_ tags: OSMTags) -> Address {
        Address(housenumber: tags[.addrHousenumber],
                street: tags[.addrStreet] ?? tags[.addrPlace],
                postcode: tags[.addrPostcode] ?? tags[.postalCode],
                city: tags[.addrCity],
                countryCode: (tags[.addrCountry] ?? tags[.iso3166Alpha2] ?? tags[.iso3166] ?? countryOfSubdivision(tags))
                    .map { $0.uppercased() })
    }

    /// The country part of an ISO 3166-2 subdivision code ("MC-FO" → "MC").
    static func countryOfSubdivision(_ tags: OSMTags) -> String? {
        guard let code = tags[.iso3166Subdivision], let dash = code.firstIndex(of: "-"),
              code.distance(from: code.startIndex, to: dash) == 2 else { return nil }
        return String(code[..<dash])
    }

    /// Tags worth showing with a result; prefixes match whole key families.
    static let displayKeys: Set<String> = [
        "opening_hours", "website", "url", "phone", "email", "fax", "wheelchair", "cuisine", "brand", "operator",
        "wikidata", "wikipedia", "level", "ele", "description", "internet_access", "outdoor_seating", "takeaway",
        "delivery", "fee", "stars", "smoking", "capacity", "addr:housename", "addr:unit", "addr:floor",
        "addr:suburb", "addr:district", "addr:interpolation", "denomination", "religion", "sport", "toilets:wheelchair",
        "drive_through", "self_service", "access", "ref", "network", "brand:wikidata", "heritage", "start_date",
        // A boundary's subdivision code, which addresses of the places inside show (`SubdivisionCode`).
        SubdivisionCode.tag,
    ]
    static let displayPrefixes = ["contact:", "payment:", "diet:", "fuel:", "socket:"]

    static func isDisplayKey(_ key: String) -> Bool {
        displayKeys.contains(key) || displayPrefixes.contains(where: { key.hasPrefix($0) })
    }

    static func displayTags(_ tags: OSMTags) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for i in tags.tags.indices where tags.tags[i].info.isDisplayed { result.append((tags.tags[i].key, tags.tags[i].value)) }
        return result
    }

    /// What an entrance node is, as Nominatim keeps entrances: its type the value of `entrance`, else of
    /// `routing:entrance`; its other tags, but those about the data rather than the door (`isMetaKey`).
    static func entrance(_ tags: OSMTags) -> (type: String, tags: [(key: String, value: String)])? {
        guard let type = tags[.entrance] ?? tags[.routingEntrance] else { return nil }
        let other = tags.tags.filter { $0.info.key != .entrance && $0.info.key != .routingEntrance && !isMetaKey($0.key) }
        return (type, other.map { ($0.key, $0.value) })
    }

    /// Whether a tag is a note about the data (its source, a fixme, an import's ids) rather than about the object:
    /// the keys Nominatim leaves out of an entrance's tags.
    static func isMetaKey(_ key: String) -> Bool {
        metaKeys.contains(key) || key.hasSuffix("source") || metaKeyPrefixes.contains { key.hasPrefix($0) }
    }

    private static let metaKeys: Set<String> = [
        "note", "attribution", "comment", "fixme", "created_by", "tiger:cfcc", "tiger:reviewed", "import", "ref:bygningsnr",
        "building:ruian:type", "type", "is_in:postcode",
    ]
    private static let metaKeyPrefixes = [
        "note:", "source:", "nysgissam:", "NHD:", "nhd:", "gnis:", "geobase:", "yh:", "osak:", "naptan:", "CLC:", "it:fvg:",
        "lacounty:", "ref:linz:", "survey:", "ref:ruian:",
    ]

    /// A population tag as a number; OSM writes '12 345', '12,345' or '~12000' at times.
    static func population(_ tags: OSMTags) -> Int64? {
        guard let text = tags[.population] else { return nil }
        let digits = text.utf8.filter { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }
}

extension Substring {
    var trimmingSpaces: String { trimmingCharacters(in: .whitespaces) }
}
