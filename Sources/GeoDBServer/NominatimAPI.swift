// Nominatim's API (/search, /reverse, /lookup, /status) answered from geodb files, with the parameters real
// clients send and the field names and types Nominatim documents (lat/lon as strings in json and jsonv2,
// boundingbox as four strings, address keys road/house_number/city/country_code). What geodb has no
// equivalent for is listed in the README's compatibility table.
import Foundation
import GeoDB
import Hummingbird

/// The Nominatim endpoints.
struct NominatimAPI: Sendable {
    let endpoints: Endpoints
    private var served: ServedDatabases { endpoints.served }

    /// Nominatim's output formats that geodb writes (not xml or html).
    enum Format: String {
        case json, jsonv2, geojson, geocodejson
    }

    /// What the caller asked to see of each place.
    struct Details {
        var format: Format
        var address = false
        var names = false
        var extraTags = false
        var polygon = false
        var query: String?
    }

    func register(on router: Router<BasicRequestContext>) {
        endpoints.get("/search", name: "nominatim_search", on: router) { try await search($0, $1) }
        endpoints.get("/reverse", name: "reverse", on: router) { parameters, request in
            // Nominatim's and Photon's reverse share the path: Nominatim's clients name a format (its
            // default, xml, is not one geodb writes), Photon's never do.
            parameters.has("format") ? try await reverse(parameters, request) : try await PhotonAPI(endpoints: endpoints).reverse(parameters, request)
        }
        endpoints.get("/lookup", name: "nominatim_lookup", on: router) { try await lookup($0, $1) }
        endpoints.get("/status", name: "status", on: router) { parameters, _ in try status(parameters) }
        NominatimDetails(endpoints: endpoints).register(on: router)
    }

    // MARK: /search

    func search(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let details = try self.details(parameters, default: .jsonv2)
        let limit = min(try parameters.int("limit", in: 0...1_000_000) ?? 10, 40)   // Nominatim's cap: 40
        var options = try searchOptions(parameters, request: request)
        let countries = try countryCodes(parameters)
        let excluded = Set(try parameters.list("exclude_place_ids").map { item throws(APIError) -> Int64 in
            guard let id = Int64(item) else { throw .badParameter("exclude_place_ids", "'\(item.prefix(40))' is not a place id") }
            return id
        })
        if countries.count == 1 { options.countryCode = countries[0] }
        // Filters geodb's search cannot apply itself are applied to a deeper list.
        let filtered = countries.count > 1 || !excluded.isEmpty
        options.limit = filtered ? SearchOptions.maxLimit : max(limit, 1)

        let structured = ["street", "city", "county", "state", "country", "postalcode", "amenity"].filter { parameters.string($0) != nil }
        var found: [GeoDatabaseSet.MemberPlace]
        let query: String
        if let q = parameters.string("q") {
            guard structured.isEmpty else {
                throw APIError.badParameter(structured[0], "structured parameters cannot be combined with 'q'")
            }
            query = q
            found = try await served.files.search(q, options: options, offset: 0, limit: options.limit).places
        } else {
            guard !structured.isEmpty else { throw APIError.missing("q") }
            (query, found) = try await structuredSearch(parameters, options: options)
        }
        found = found.filter { place in
            !excluded.contains(place.globalID)
                && (countries.count < 2 || countries.contains(place.place.address.countryCode?.uppercased() ?? ""))
        }
        var described = details
        described.query = query
        return try await answer(Array(found.prefix(limit)), details: described)
    }

    /// Nominatim's structured search: `street` ("9 Austrasse" or "Austrasse 9") with `city` (or the county or
    /// state) and `postalcode` is geodb's structured search; `amenity` and bare areas are searched as text.
    private func structuredSearch(_ parameters: QueryParameters, options: SearchOptions) async throws -> (String, [GeoDatabaseSet.MemberPlace]) {
        var options = options
        if let country = parameters.string("country").flatMap(CountryCode.parse) { options.countryCode = country }
        let town = parameters.string("city") ?? parameters.string("county") ?? parameters.string("state")
        let areas = ["city", "county", "state", "country", "postalcode"].compactMap(parameters.string)
        if let street = parameters.string("street"), parameters.string("amenity") == nil {
            var words = street.split(separator: " ").map(String.init)
            var number: String?
            if let last = words.last, words.count > 1, last.first?.isNumber == true { number = words.removeLast() }
            else if let first = words.first, words.count > 1, first.first?.isNumber == true { number = words.removeFirst() }
            let found = try await served.files.structuredSearch(street: words.joined(separator: " "), housenumber: number, city: town,
                                                          postcode: parameters.string("postalcode"), options: options)
            return (([street] + areas).joined(separator: ", "), found)
        }
        let text = ([parameters.string("amenity"), parameters.string("street")].compactMap { $0 } + areas).joined(separator: ", ")
        return (text, try await served.files.search(text, options: options, offset: 0, limit: options.limit).places)
    }

    /// The search options the parameters name: language, viewbox (a filter with `bounded=1`, else a bias
    /// to its centre), and the kinds `layer` and `featureType` allow.
    private func searchOptions(_ parameters: QueryParameters, request: Request) throws(APIError) -> SearchOptions {
        var options = SearchOptions()
        options.language = Self.language(parameters.string("accept-language") ?? request.headers[.acceptLanguage])
        if let box = try parameters.box("viewbox", cornersInAnyOrder: true) {
            if try parameters.bool("bounded") == true {
                options.bbox = box
            } else {
                options.near = Coordinate(lat: (box.minLat + box.maxLat) / 2, lon: (box.minLon + box.maxLon) / 2)
            }
        }
        var kinds = Set<PlaceKind>()
        for layer in parameters.list("layer") {
            switch layer.lowercased() {
            case "address": kinds.formUnion([.address, .interpolation, .street, .square, .postcode, .country, .state, .county,
                                             .city, .town, .village, .hamlet, .suburb, .neighbourhood, .locality, .island])
            case "poi", "railway", "manmade": kinds.insert(.poi)
            case "natural": kinds.formUnion([.water, .island])
            default: throw .badParameter("layer", "unknown layer '\(layer.prefix(40))' (address, poi, railway, natural, manmade)")
            }
        }
        if let feature = parameters.string("featureType") ?? parameters.string("featuretype") {
            let featureKinds: [PlaceKind] = switch feature.lowercased() {
            case "country": [.country]
            case "state": [.state]
            case "city": [.city, .town]
            case "settlement": [.country, .state, .county, .city, .town, .village, .hamlet, .suburb, .neighbourhood]
            default: throw .badParameter("featureType", "unknown featureType '\(feature.prefix(40))' (country, state, city, settlement)")
            }
            kinds = kinds.isEmpty ? Set(featureKinds) : kinds.intersection(featureKinds)
        }
        options.kinds = kinds.sorted { $0.rawValue < $1.rawValue }
        return options
    }

    private func countryCodes(_ parameters: QueryParameters) throws(APIError) -> [String] {
        try parameters.list("countrycodes").map { code throws(APIError) -> String in
            guard let parsed = CountryCode.parse(code) else {
                throw .badParameter("countrycodes", "'\(code.prefix(40))' is not a two-letter country code")
            }
            return parsed
        }
    }

    /// The first language of an Accept-Language value ("de-CH,de;q=0.9" → "de"), nil for "*" or none.
    static func language(_ header: String?) -> String? {
        guard let first = header?.split(separator: ",").first?.split(separator: ";").first?.trimmingCharacters(in: .whitespacesAndNewlines),
              let primary = first.split(separator: "-").first, primary != "*", primary.count <= 8 else { return nil }
        return primary.lowercased()
    }

    // MARK: /reverse

    func reverse(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let details = try self.details(parameters, default: .xmlRefused)
        let point = try parameters.requiredCoordinate()
        var options = ReverseOptions()
        options.level = switch try parameters.int("zoom", in: 0...18) ?? 18 {
        case 0...4: .country
        case 5...9: .state
        case 10...12: .city
        case 13...15: .suburb
        case 16...17: .street
        default: .address
        }
        if let layer = parameters.list("layer").first?.lowercased() {
            switch layer {
            case "poi": options.level = .poi
            case "address": break
            default: throw APIError.badParameter("layer", "layer '\(layer.prefix(40))' is not one geodb's reverse has (address, poi)")
            }
        }
        let found = try await served.files.reverse(at: point, options: options)
        guard let first = found.first else {
            // Nominatim answers 200 with this body when nothing is there.
            return .json(.object([("error", .string("Unable to geocode"))]))
        }
        return try await answer([GeoDatabaseSet.MemberPlace(member: first.member, place: first.result.place)], details: details, single: true)
    }

    // MARK: /lookup

    func lookup(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let details = try self.details(parameters, default: .xmlRefused)
        let ids = parameters.list("osm_ids")
        guard !ids.isEmpty else { throw APIError.missing("osm_ids") }
        guard ids.count <= 50 else { throw APIError.badParameter("osm_ids", "at most 50 ids at a time, not \(ids.count)") }
        var found: [GeoDatabaseSet.MemberPlace] = []
        for id in ids {
            guard let type = id.first.map({ $0.lowercased() }), "nwr".contains(type), id.count > 1, Int64(id.dropFirst()) != nil else {
                throw APIError.badParameter("osm_ids", "'\(id.prefix(40))' is not an OSM id such as N123, W45 or R6")
            }
            if let (shard, place) = try? await served.lookup(type + id.dropFirst()) {
                found.append(GeoDatabaseSet.MemberPlace(member: shard, place: place.place))
            }
        }
        return try await answer(found, details: details)
    }

    // MARK: /status

    func status(_ parameters: QueryParameters) throws -> Answer {
        let shards = served.current
        guard let format = parameters.string("format"), format != "text" else { return .text("OK") }
        guard format == "json" else { throw APIError.badParameter("format", "format '\(format.prefix(40))' is not one /status writes (text, json)") }
        let updated = shards.flatMap { $0.info.sources.compactMap(\.dataTimestamp) }.max()
        return .json(.fields([
            ("status", .int(0)), ("message", .string("OK")), ("data_updated", updated.map(JSON.string)),
            ("software_version", .string("geodb \(GeoDBVersion.string)")), ("database_version", .string("\(Schema.version)")),
            ("databases", .array(shards.map(GeoDBAPI.describe))),
        ]))
    }

    // MARK: answers

    private func details(_ parameters: QueryParameters, default fallback: FormatDefault) throws(APIError) -> Details {
        let name = parameters.string("format")?.lowercased()
        guard let format = name.map(Format.init(rawValue:)) ?? fallback.format else {
            throw .badParameter("format", "format '\((name ?? "xml").prefix(40))' is not one geodb writes: json, jsonv2, geojson, geocodejson")
        }
        return Details(format: format, address: try parameters.bool("addressdetails") ?? (format == .geocodejson),
                       names: try parameters.bool("namedetails") ?? false, extraTags: try parameters.bool("extratags") ?? false,
                       polygon: try parameters.bool("polygon_geojson") ?? false)
    }

    /// What a request without `format` gets: /search jsonv2; /reverse and /lookup xml, which geodb refuses.
    enum FormatDefault {
        case jsonv2, xmlRefused
        var format: Format? { self == .jsonv2 ? .jsonv2 : nil }
    }

    /// The places in the requested format; `single` for /reverse, which answers one object, not a list.
    private func answer(_ places: [GeoDatabaseSet.MemberPlace], details: Details, single: Bool = false) async throws -> Answer {
        let read = try await GeoDatabaseSet.details(of: places, geometries: places.contains { PlaceFields(place: $0.place).mayHaveGeometry },
                                                 names: details.names)
        let described = zip(places, read).map { place, read in
            (place, PlaceFields(place: place.place).mayHaveGeometry ? read.geometry : nil, read.names)
        }
        switch details.format {
        case .json, .jsonv2:
            let objects = described.map { object($0.0, geometry: $0.1, names: $0.2, details: details) }
            return .json(single ? objects[0] : .array(objects))
        case .geojson:
            return .json(.object([
                ("type", .string("FeatureCollection")), ("licence", .string(Self.licence(places.map(\.place)))),
                ("features", .array(described.map { feature($0.0, geometry: $0.1, names: $0.2, details: details) })),
            ]), geo: true)
        case .geocodejson:
            return .json(.object([
                ("type", .string("FeatureCollection")),
                ("geocoding", .fields([("version", .string("0.1.0")), ("attribution", .string(Self.licence(places.map(\.place)))),
                                       ("licence", .string("ODbL")), ("query", details.query.map(JSON.string))])),
                ("features", .array(described.map { geocodeJSON($0.0, geometry: $0.1, names: $0.2, details: details) })),
            ]), geo: true)
        }
    }

    /// A place as Nominatim's json / jsonv2 write it.
    private func object(_ found: GeoDatabaseSet.MemberPlace, geometry: Geometry?, names: [PlaceDetails.Name]?, details: Details) -> JSON {
        let place = found.place, fields = PlaceFields(place: place), box = fields.boundingBox(geometry: geometry), tag = fields.osmTag
        return .fields([
            ("place_id", .int(found.globalID)), ("licence", .string(Self.licence([place]))),
            ("osm_type", fields.osm.map { .string($0.type) }), ("osm_id", fields.osm.map { .int($0.id) }),
            ("lat", .string(DegreesText.decimal(place.lat))), ("lon", .string(DegreesText.decimal(place.lon))),
            (details.format == .jsonv2 ? "category" : "class", .string(tag.key)), ("type", .string(tag.value)),
            ("place_rank", .int(Int64(place.kind.rank))), ("importance", .number(place.kind.baseImportance)),
            ("addresstype", .string(fields.addressType)), ("name", .string(place.name ?? "")),
            ("display_name", .string(place.displayName)),
            ("address", details.address ? .object(fields.nominatimAddress.map { ($0.0, .string($0.1)) }) : nil),
            ("extratags", details.extraTags ? .strings(place.tags) : nil),
            ("namedetails", names.map(Self.nameDetails)),
            ("boundingbox", .array([box.minLat, box.maxLat, box.minLon, box.maxLon].map { .string(DegreesText.decimal($0)) })),
            ("geojson", details.polygon ? JSON.geometry(geometry, point: place.coordinate) : nil),
        ])
    }

    /// A place as a feature of Nominatim's geojson format.
    private func feature(_ found: GeoDatabaseSet.MemberPlace, geometry: Geometry?, names: [PlaceDetails.Name]?, details: Details) -> JSON {
        let place = found.place, fields = PlaceFields(place: place), box = fields.boundingBox(geometry: geometry), tag = fields.osmTag
        return .object([
            ("type", .string("Feature")),
            ("properties", .fields([
                ("place_id", .int(found.globalID)), ("osm_type", fields.osm.map { .string($0.type) }),
                ("osm_id", fields.osm.map { .int($0.id) }), ("place_rank", .int(Int64(place.kind.rank))),
                ("category", .string(tag.key)), ("type", .string(tag.value)), ("importance", .number(place.kind.baseImportance)),
                ("addresstype", .string(fields.addressType)), ("name", .string(place.name ?? "")),
                ("display_name", .string(place.displayName)),
                ("address", details.address ? .object(fields.nominatimAddress.map { ($0.0, .string($0.1)) }) : nil),
                ("extratags", details.extraTags ? .strings(place.tags) : nil), ("namedetails", names.map(Self.nameDetails)),
            ])),
            ("bbox", .array([box.minLon, box.minLat, box.maxLon, box.maxLat].map(JSON.number))),
            ("geometry", JSON.geometry(details.polygon ? geometry : nil, point: place.coordinate)),
        ])
    }

    /// A place as a feature of GeocodeJSON (the spec Nominatim's geocodejson follows).
    private func geocodeJSON(_ found: GeoDatabaseSet.MemberPlace, geometry: Geometry?, names: [PlaceDetails.Name]?, details: Details) -> JSON {
        let place = found.place, fields = PlaceFields(place: place), tag = fields.osmTag, address = place.address
        var admin: [(String, JSON)] = []
        for (level, part) in [(2, Address.Part.country), (4, .state), (6, .county)] {
            if let name = address[part] { admin.append(("level\(level)", .string(name))) }
        }
        return .object([
            ("type", .string("Feature")),
            ("properties", .object([("geocoding", .fields([
                ("place_id", .int(found.globalID)), ("osm_type", fields.osm.map { .string($0.type) }),
                ("osm_id", fields.osm.map { .int($0.id) }), ("osm_key", .string(tag.key)), ("osm_value", .string(tag.value)),
                ("type", .string(fields.photonType)), ("label", .string(place.displayName)), ("name", place.name.map(JSON.string)),
                ("housenumber", address.housenumber.map(JSON.string)), ("street", address.street.map(JSON.string)),
                ("locality", address.neighbourhood.map(JSON.string)), ("postcode", address.postcode.map(JSON.string)),
                ("city", address.city.map(JSON.string)), ("district", address.suburb.map(JSON.string)),
                ("county", address.county.map(JSON.string)), ("state", address.state.map(JSON.string)),
                ("country", address.country.map(JSON.string)),
                ("country_code", address.countryCode.map { .string($0.lowercased()) }),
                ("admin", admin.isEmpty ? nil : .object(admin)),
                ("extra", details.extraTags ? .strings(place.tags) : nil), ("namedetails", names.map(Self.nameDetails)),
            ]))])),
            ("geometry", JSON.geometry(details.polygon ? geometry : nil, point: place.coordinate)),
        ])
    }

    /// `namedetails`: `name`, `name:sv`, `alt_name`, … as Nominatim keys them.
    static func nameDetails(_ names: [PlaceDetails.Name]) -> JSON {
        var seen = Set<String>(), pairs: [(String, JSON)] = []
        for name in names {
            let key = name.lang.map { "\(name.type):\($0)" } ?? name.type
            if seen.insert(key).inserted { pairs.append((key, .string(name.name))) }
        }
        return .object(pairs)
    }

    /// The attribution the data's licence asks for, by the sources of the places answered.
    static func licence(_ places: [PlaceResult]) -> String {
        var parts: [String] = []
        if places.isEmpty || places.contains(where: { PlaceFields(place: $0).osm != nil }) {
            parts.append("Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright")
        }
        if places.contains(where: { $0.sourceRef?.format == .geonames }) { parts.append("GeoNames (CC BY 4.0) https://www.geonames.org") }
        return parts.joined(separator: "; ")
    }

}
