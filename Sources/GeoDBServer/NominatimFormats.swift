// Nominatim's output formats, written from geodb places: xml (its default for /reverse and /lookup), json,
// jsonv2, geojson and geocodejson, with the field names, types and defaults Nominatim documents and its
// acceptance tests check (coordinates as strings in json, seven decimals in xml, a node's box 0.00005°
// around it, every JSON format sent as application/json).
import Foundation
import GeoDB

/// What a Nominatim request asked to see: the format and, for each place, which parts.
struct NominatimOutput {
    enum Format: String, CaseIterable {
        case xml, json, jsonv2, geojson, geocodejson
    }

    /// Nominatim's extra geometry outputs besides the point (`polygon_geojson`, `polygon_text`, …).
    enum GeometryOutput: String, CaseIterable {
        case geojson, text, svg, kml
    }

    var format: Format
    var address = false
    var names = false
    var extraTags = false
    /// `entrances=1`: each place's entrance nodes.
    var entrances = false
    var geometry: GeometryOutput?
    /// `polygon_threshold`: the degrees the geometry output is simplified by (Douglas–Peucker), 0 for none.
    var polygonThreshold = 0.0
    /// xml's `querystring` attribute; geocodejson's `geocoding.query`.
    var query: String?
    /// xml's root attributes beyond timestamp, attribution and querystring (`exclude_place_ids`, …).
    var rootAttributes: [(String, String)] = []
}

/// One place to write, with what was read for it and its address lines (each format writes them and the
/// display name made of them: worked out once).
struct NominatimPlace {
    let found: GeoDatabaseSet.MemberPlace
    /// The place's geometry as stored: its box.
    let geometry: Geometry?
    /// What the polygon outputs write: the geometry simplified by `polygon_threshold` (Nominatim's box stays
    /// the whole geometry's).
    let outline: Geometry?
    let names: [PlaceDetails.Name]?
    /// Read when asked (`entrances=1`), else nil.
    let entrances: [PlaceEntrance]?
    let fields: PlaceFields
    let address: [(String, String)]
    let displayName: String

    /// The administrative boundary merged into the place (its node labels the municipality's relation).
    let mergedBoundary: MergedBoundary?

    init(found: GeoDatabaseSet.MemberPlace, geometry: Geometry?, names: [PlaceDetails.Name]?, entrances: [PlaceEntrance]?,
         mergedBoundary: MergedBoundary?, output: NominatimOutput) {
        (self.found, self.geometry, self.names, self.entrances) = (found, geometry, names, entrances)
        self.mergedBoundary = mergedBoundary
        outline = output.polygonThreshold > 0 ? geometry?.douglasPeucker(tolerance: output.polygonThreshold) : geometry
        fields = PlaceFields(place: found.place)
        address = fields.nominatimAddress
        displayName = fields.nominatimDisplayName(address: address)
    }

    var place: PlaceResult { found.place }

    // A town whose node labels its municipality's relation is answered as Nominatim answers it: Nominatim
    // merges the node into the boundary, geodb the boundary into the node. So the relation's type and id,
    // class boundary and type administrative, the rank of its admin level (8: 16), and among its extra tags
    // the admin level and the node's place type as `linked_place`. The name, point and address stay the
    // node's in both.

    /// The OSM object answered: the merged boundary's relation, else the place's own.
    var osm: (type: String, id: Int64)? { mergedBoundary.map { ("relation", $0.relation) } ?? fields.osm }

    /// Class and type: boundary/administrative for a merged boundary, else the place's own tag.
    var osmTag: (key: String, value: String) { mergedBoundary == nil ? fields.osmTag : ("boundary", "administrative") }

    /// `place_rank` (and xml's `address_rank`): a merged boundary's by its admin level, as Nominatim's default
    /// address levels give it (2: 4, 4: 8, 8: 16, …), else the kind's.
    var rank: Int { mergedBoundary.map { min(max(2 * $0.adminLevel, 4), 25) } ?? place.kind.rank }

    /// `extratags`: the place's tags, and a merged boundary's admin level and the node's place type.
    var extraTags: [String: String] {
        guard let mergedBoundary else { return place.tags }
        var tags = place.tags
        tags["admin_level"] = String(mergedBoundary.adminLevel)
        if let placeType = place.category?.osmTag, placeType.key == "place" { tags["linked_place"] = placeType.value }
        return tags
    }
}

/// Writes places in Nominatim's formats. `single` answers are /reverse's: one object, or its error.
enum NominatimWriter {
    /// The answer to a request: the places in the asked format. A `single` answer without a place is
    /// Nominatim's 200 with "Unable to geocode".
    static func answer(_ places: [NominatimPlace], output: NominatimOutput, single: Bool) -> Answer {
        switch output.format {
        case .xml:
            return .text(xml(places, output: output, single: single), contentType: "text/xml; charset=utf-8")
        case .json, .jsonv2:
            if single && places.isEmpty { return .json(unableToGeocode) }
            let objects = places.map { object($0, output: output) }
            return .json(single ? objects[0] : .array(objects))
        case .geojson:
            if single && places.isEmpty { return .json(unableToGeocode) }
            return .json(.object([
                ("type", .string("FeatureCollection")), ("licence", .string(licence(places.map(\.place)))),
                ("features", .array(places.map { feature($0, output: output) })),
            ]))
        case .geocodejson:
            if single && places.isEmpty { return .json(unableToGeocode) }
            return .json(.object([
                ("type", .string("FeatureCollection")),
                ("geocoding", .fields([("version", .string("0.1.0")), ("attribution", .string(licence(places.map(\.place)))),
                                       ("licence", .string("ODbL")), ("query", output.query.map(JSON.string))])),
                ("features", .array(places.map { geocodeJSON($0, output: output) })),
            ]))
        }
    }

    /// What Nominatim's JSON formats answer for a point where nothing is.
    static let unableToGeocode = JSON.object([("error", .string("Unable to geocode"))])

    // MARK: JSON

    /// A place as json / jsonv2 write it.
    private static func object(_ item: NominatimPlace, output: NominatimOutput) -> JSON {
        let place = item.place, fields = item.fields, box = fields.boundingBox(geometry: item.geometry), tag = item.osmTag
        return .fields([
            ("place_id", .int(item.found.globalID)), ("licence", .string(licence([place]))),
            ("osm_type", item.osm.map { .string($0.type) }), ("osm_id", item.osm.map { .int($0.id) }),
            ("lat", .string(DegreesText.decimal(place.lat))), ("lon", .string(DegreesText.decimal(place.lon))),
            (output.format == .jsonv2 ? "category" : "class", .string(tag.key)), ("type", .string(tag.value)),
            ("place_rank", .int(Int64(item.rank))), ("importance", .number(place.importance ?? place.kind.baseImportance)),
            ("addresstype", .string(fields.addressType)), ("name", .string(place.name ?? "")),
            ("display_name", .string(item.displayName)),
            ("address", output.address ? .object(item.address.map { ($0.0, .string($0.1)) }) : nil),
            ("entrances", item.entrances.map(entrances)),
            ("extratags", output.extraTags ? .strings(item.extraTags) : nil),
            ("namedetails", item.names.map(nameDetails)),
            ("boundingbox", .array([box.minLat, box.maxLat, box.minLon, box.maxLon].map { .string(DegreesText.decimal($0)) })),
            ("geojson", output.geometry == .geojson ? JSON.geometry(item.outline, point: place.coordinate) : nil),
            ("geotext", output.geometry == .text ? .string(GeometryText.wkt(item.outline, point: place.coordinate)) : nil),
            ("svg", output.geometry == .svg ? .string(GeometryText.svg(item.outline, point: place.coordinate)) : nil),
            ("geokml", output.geometry == .kml ? .string(GeometryText.kml(item.outline, point: place.coordinate)) : nil),
        ])
    }

    /// A place as a feature of Nominatim's geojson format.
    private static func feature(_ item: NominatimPlace, output: NominatimOutput) -> JSON {
        let place = item.place, fields = item.fields, box = fields.boundingBox(geometry: item.geometry), tag = item.osmTag
        return .object([
            ("type", .string("Feature")),
            ("properties", .fields([
                ("place_id", .int(item.found.globalID)), ("osm_type", item.osm.map { .string($0.type) }),
                ("osm_id", item.osm.map { .int($0.id) }), ("place_rank", .int(Int64(item.rank))),
                ("category", .string(tag.key)), ("type", .string(tag.value)), ("importance", .number(place.importance ?? place.kind.baseImportance)),
                ("addresstype", .string(fields.addressType)), ("name", .string(place.name ?? "")),
                ("display_name", .string(item.displayName)),
                ("address", output.address ? .object(item.address.map { ($0.0, .string($0.1)) }) : nil),
                ("entrances", item.entrances.map(entrances)),
                ("extratags", output.extraTags ? .strings(item.extraTags) : nil), ("namedetails", item.names.map(nameDetails)),
            ])),
            ("bbox", .array([box.minLon, box.minLat, box.maxLon, box.maxLat].map(JSON.number))),
            ("geometry", JSON.geometry(output.geometry == .geojson ? item.outline : nil, point: place.coordinate)),
        ])
    }

    /// A place as a feature of GeocodeJSON (the spec Nominatim's geocodejson follows).
    private static func geocodeJSON(_ item: NominatimPlace, output: NominatimOutput) -> JSON {
        // The address parts only with address details (on by default in geocodejson), as Nominatim writes it.
        let place = item.place, fields = item.fields, tag = item.osmTag, address = output.address ? place.address : Address()
        // The areas by their usual admin_level in the country (AdminLevels), coarsest first.
        var admin: [(String, JSON)] = []
        for level in AddressLevel.nested.reversed() where level != .postcode {
            if let name = address[level: level], let adminLevel = AdminLevels.standard.adminLevel(of: level, country: address.countryCode) {
                admin.append(("level\(adminLevel)", .string(name)))
            }
        }
        return .object([
            ("type", .string("Feature")),
            ("properties", .object([("geocoding", .fields([
                ("place_id", .int(item.found.globalID)), ("osm_type", item.osm.map { .string($0.type) }),
                ("osm_id", item.osm.map { .int($0.id) }), ("osm_key", .string(tag.key)), ("osm_value", .string(tag.value)),
                ("type", .string(fields.photonType)), ("label", .string(item.displayName)), ("name", place.name.map(JSON.string)),
                ("housenumber", address.housenumber.map(JSON.string)), ("street", address.street.map(JSON.string)),
                ("locality", address.neighbourhood.map(JSON.string)), ("postcode", address.postcode.map(JSON.string)),
                ("city", address.city.map(JSON.string)), ("district", address.suburb.map(JSON.string)),
                ("county", address.county.map(JSON.string)), ("state", address.state.map(JSON.string)),
                ("country", address.country.map(JSON.string)),
                ("country_code", address.countryCode.map { .string($0.lowercased()) }),
                ("admin", admin.isEmpty ? nil : .object(admin)), ("entrances", item.entrances.map(entrances)),
                ("extra", output.extraTags ? .strings(item.extraTags) : nil), ("namedetails", item.names.map(nameDetails)),
            ]))])),
            ("geometry", JSON.geometry(output.geometry == .geojson ? item.outline : nil, point: place.coordinate)),
        ])
    }

    /// `entrances`: each door's node id, type, position (strings of seven decimals) and its other tags when it
    /// has any; null, not an empty list, for a place without, as Nominatim writes it.
    static func entrances(_ entrances: [PlaceEntrance]) -> JSON {
        guard !entrances.isEmpty else { return .null }
        return .array(entrances.map { door in
            .fields([("osm_id", .int(door.osmID)), ("type", .string(door.type)), ("lat", .string(fixed(door.coordinate.lat))),
                     ("lon", .string(fixed(door.coordinate.lon))), ("extratags", door.tags.isEmpty ? nil : .strings(door.tags))])
        })
    }

    /// `namedetails`: `name`, `name:sv`, `alt_name`, … as Nominatim keys them, each key once.
    static func nameDetails(_ names: [PlaceDetails.Name]) -> JSON {
        .object(nameDetailPairs(names).map { ($0.0, .string($0.1)) })
    }

    private static func nameDetailPairs(_ names: [PlaceDetails.Name]) -> [(String, String)] {
        var seen = Set<String>(), pairs: [(String, String)] = []
        for name in names {
            let key = name.lang.map { "\(name.type):\($0)" } ?? name.type
            if seen.insert(key).inserted { pairs.append((key, name.name)) }
        }
        return pairs
    }

    // MARK: XML

    /// Nominatim's XML: `<searchresults>` of `<place>` elements (search, lookup), or `<reversegeocode>` with
    /// one `<result>` and its `<addressparts>` (reverse).
    private static func xml(_ places: [NominatimPlace], output: NominatimOutput, single: Bool) -> String {
        let root = single ? "reversegeocode" : "searchresults"
        var xml = XMLWriter()
        xml.text("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n")
        xml.open(root, [("timestamp", timestamp()), ("attribution", licence(places.map(\.place))),
                        ("querystring", output.query ?? "")] + output.rootAttributes)
        if single && places.isEmpty { xml.element("error", text: "Unable to geocode") }
        for item in places {
            let place = item.place, fields = item.fields, box = fields.boundingBox(geometry: item.geometry), tag = item.osmTag
            var attributes: [(String, String)] = [("place_id", String(item.found.globalID))]
            if let osm = item.osm { attributes += [("osm_type", osm.type), ("osm_id", String(osm.id))] }
            if let name = place.name { attributes.append(("ref", name)) }
            attributes += [("lat", fixed(place.lat)), ("lon", fixed(place.lon)),
                           ("boundingbox", [box.minLat, box.maxLat, box.minLon, box.maxLon].map(fixed).joined(separator: ",")),
                           ("place_rank", String(item.rank)), ("address_rank", String(item.rank))]
            switch output.geometry {
            case .geojson?: attributes.append(("geojson", String(decoding: JSON.geometry(item.outline, point: place.coordinate).encoded() ?? [], as: UTF8.self)))
            case .text?: attributes.append(("geotext", GeometryText.wkt(item.outline, point: place.coordinate)))
            case .svg?: attributes.append(("geosvg", GeometryText.svg(item.outline, point: place.coordinate)))
            case .kml?, nil: break
            }
            // The parts below sit inside a search's <place>, beside a reverse's <result>.
            if single {
                xml.element("result", attributes, text: item.displayName)
            } else {
                xml.open("place", attributes + [("display_name", item.displayName), ("class", tag.key), ("type", tag.value),
                                                ("importance", String(place.importance ?? place.kind.baseImportance))])
            }
            if output.geometry == .kml { xml.text("<geokml>" + GeometryText.kml(item.outline, point: place.coordinate) + "</geokml>") }
            if output.address {
                if single { xml.open("addressparts") }
                for (key, value) in item.address { xml.element(key, text: value) }
                if single { xml.close("addressparts") }
            }
            if output.extraTags {
                xml.open("extratags")
                for (key, value) in item.extraTags.sorted(by: { $0.key < $1.key }) { xml.element("tag", [("key", key), ("value", value)]) }
                xml.close("extratags")
            }
            if let names = item.names {
                xml.open("namedetails")
                for (key, name) in nameDetailPairs(names) { xml.element("name", [("desc", key)], text: name) }
                xml.close("namedetails")
            }
            if let entrances = item.entrances {
                xml.open("entrances")
                for door in entrances {
                    let attributes = [("osm_id", String(door.osmID)), ("type", door.type), ("lat", fixed(door.coordinate.lat)),
                                      ("lon", fixed(door.coordinate.lon))]
                    if door.tags.isEmpty {
                        xml.element("entrance", attributes)
                    } else {
                        xml.open("entrance", attributes)
                        for (key, value) in door.tags.sorted(by: { $0.key < $1.key }) { xml.element("tag", [("key", key), ("value", value)]) }
                        xml.close("entrance")
                    }
                }
                xml.close("entrances")
            }
            if !single { xml.close("place") }
        }
        xml.close(root)
        return xml.output
    }

    /// Degrees with seven decimals, as Nominatim's XML writes them.
    static func fixed(_ degrees: Double) -> String { String(format: "%.7f", degrees) }

    /// "Thu, 26 Nov 2026 03:00:00 +00:00", the timestamp Nominatim's XML carries. Written from the C clock:
    /// a DateFormatter made per answer cost more than the rest of a small answer.
    private static func timestamp() -> String {
        var now = time(nil), parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +00:00"
    }

    // MARK: licence

    /// The attribution the data's licence asks for, by the sources of the places answered.
    static func licence(_ places: [PlaceResult]) -> String {
        var parts: [String] = []
        if places.isEmpty || places.contains(where: { $0.sourceRef?.osmObject != nil }) {
            parts.append(DataAttribution.openStreetMap.notice)
        }
        if places.contains(where: { $0.sourceRef?.format == .geonames }) { parts.append(DataAttribution.geoNames.notice) }
        return parts.joined(separator: "; ")
    }
}

/// XML text built element by element, every attribute value and text escaped.
struct XMLWriter {
    private(set) var output = ""

    mutating func text(_ raw: String) { output += raw }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        output += "<" + name + Self.attributes(attributes) + ">"
    }

    mutating func close(_ name: String) { output += "</" + name + ">" }

    /// `<name a="…">text</name>`, or `<name a="…"/>` without text.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil) {
        guard let text else {
            output += "<" + name + Self.attributes(attributes) + "/>"
            return
        }
        output += "<" + name + Self.attributes(attributes) + ">" + Self.escaped(text, quotes: false) + "</" + name + ">"
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escaped($0.1, quotes: true))\"" }.joined()
    }

    /// `&`, `<`, `>` (and in attribute values `"` and `'`) as entities; control characters XML 1.0 cannot hold
    /// are dropped (a tag value may hold any byte a mapper typed).
    static func escaped(_ text: String, quotes: Bool) -> String {
        // Most values need nothing: checked on the bytes before any copy.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                                        || (quotes && ($0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'"))) || $0 == 0xEF }) {
            return text
        }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default: if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
