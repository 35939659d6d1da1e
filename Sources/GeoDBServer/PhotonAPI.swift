// Photon's API (/api as you type, /reverse): GeoJSON FeatureCollections with Photon's property names
// (osm_key/osm_value, type as its layer, countrycode, extent), its filters osm_tag and layer, bbox and a
// lat/lon bias.
import GeoDB
import Hummingbird

/// The Photon endpoints.
struct PhotonAPI: Sendable {
    let endpoints: Endpoints
    private var served: ServedDatabases { endpoints.served }

    func register(on router: Router<BasicRequestContext>) {
        endpoints.get("/api", name: "photon_api", on: router) { try await search($0, $1) }
        endpoints.get("/photon/reverse", name: "photon_reverse", on: router) { try await reverse($0, $1) }
    }

    /// `/api`: autocomplete, since Photon is the as-you-type API.
    func search(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let q = try parameters.required("q")
        let limit = try parameters.int("limit", in: 1...50) ?? 10
        var options = SearchOptions()
        options.autocomplete = true
        options.near = try parameters.coordinate()
        options.bbox = try parameters.box("bbox", cornersInAnyOrder: false)
        options.language = NominatimAPI.language(parameters.string("lang"))
        options.kinds = try Self.kinds(layers: parameters.all("layer"))
        let tags = try TagFilter(parameters.all("osm_tag"))
        options.limit = tags.isEmpty ? limit : SearchOptions.maxLimit
        let found = try await served.files.search(q, options: options, offset: 0, limit: options.limit).places
        return try await Self.collection(found.filter { tags.allows($0.place) }.prefix(limit))
    }

    /// `/reverse` without a format (and `/photon/reverse`): the nearest places to a point.
    func reverse(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let point = try parameters.requiredCoordinate()
        var options = ReverseOptions()
        options.limit = try parameters.int("limit", in: 1...50) ?? 1
        options.language = NominatimAPI.language(parameters.string("lang"))
        if let kilometres = try parameters.double("radius", in: 0.001...100) { options.radius = kilometres * 1000 }
        let layers = parameters.all("layer")
        if layers == ["street"] { options.level = .street } else if layers.contains("house") || layers.isEmpty { options.level = .address }
        else if layers.contains("city") { options.level = .city } else if layers.contains("district") { options.level = .suburb }
        else if layers.contains("state") { options.level = .state } else if layers.contains("country") { options.level = .country }
        let tags = try TagFilter(parameters.all("osm_tag"))
        _ = try Self.kinds(layers: layers)   // checks the names
        let found = try await served.files.reverse(at: point, options: options)
        return try await Self.collection(found.map { GeoDatabaseSet.MemberPlace(member: $0.member, place: $0.result.place) }.filter { tags.allows($0.place) })
    }

    /// The kinds of Photon's layers.
    static func kinds(layers: [String]) throws(APIError) -> [PlaceKind] {
        var kinds: [PlaceKind] = []
        for layer in layers {
            switch layer {
            case "house": kinds += [.address, .interpolation, .poi]
            case "street": kinds += [.street, .square]
            case "locality": kinds += [.neighbourhood, .hamlet, .locality]
            case "district": kinds += [.suburb]
            case "city": kinds += [.city, .town, .village]
            case "county": kinds += [.county]
            case "state": kinds += [.state]
            case "country": kinds += [.country]
            case "other": kinds += [.water, .boundary, .island, .postcode]
            default:
                throw .badParameter("layer", "unknown layer '\(layer.prefix(40))' (house, street, locality, district, city, county, state, country, other)")
            }
        }
        return kinds
    }

    /// The places as a FeatureCollection, each with the `extent` of its line or polygon when it has one.
    private static func collection(_ places: some Sequence<GeoDatabaseSet.MemberPlace>) async throws -> Answer {
        let places = Array(places)
        let read = try await GeoDatabaseSet.details(of: places, geometries: places.contains { PlaceFields(place: $0.place).mayHaveGeometry },
                                                    names: false)
        let features = zip(places, read).map { found, read in
            feature(found.place, extent: PlaceFields(place: found.place).mayHaveGeometry ? read.geometry?.boundingBox : nil)
        }
        return .json(.object([("type", .string("FeatureCollection")), ("features", .array(features))]), geo: true)
    }

    /// A place as Photon writes it; `extent` is [min lon, max lat, max lon, min lat], Photon's order.
    static func feature(_ place: PlaceResult, extent: BoundingBox?) -> JSON {
        let fields = PlaceFields(place: place), tag = fields.osmTag, address = place.address
        let osm = fields.osm
        return .object([
            ("type", .string("Feature")),
            ("geometry", JSON.geometry(nil, point: place.coordinate)),
            ("properties", .fields([
                ("osm_type", osm.map { .string(String($0.type.prefix(1)).uppercased()) }), ("osm_id", osm.map { .int($0.id) }),
                ("osm_key", .string(tag.key)), ("osm_value", .string(tag.value)), ("type", .string(fields.photonType)),
                ("name", place.kind == .address ? nil : place.name.map(JSON.string)),
                ("housenumber", address.housenumber.map(JSON.string)),
                ("street", place.kind == .street ? nil : address.street.map(JSON.string)),
                ("postcode", address.postcode.map(JSON.string)), ("locality", address.neighbourhood.map(JSON.string)),
                ("district", address.suburb.map(JSON.string)), ("city", place.kind.addressLevel == .city ? nil : address.city.map(JSON.string)),
                ("county", address.county.map(JSON.string)), ("state", address.state.map(JSON.string)),
                ("country", address.country.map(JSON.string)), ("countrycode", address.countryCode.map { .string($0.uppercased()) }),
                ("extent", extent.map { box in .array([box.minLon, box.maxLat, box.maxLon, box.minLat].map(JSON.number)) }),
            ])),
        ])
    }
}

/// Photon's `osm_tag` filter: `key:value`, `key`, `:value` keep places with that tag (any one of them);
/// the same with `!` leave them out.
struct TagFilter {
    private var include: [(key: String?, value: String?)] = []
    private var exclude: [(key: String?, value: String?)] = []

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty }

    init(_ items: [String]) throws(APIError) {
        for item in items {
            var text = Substring(item), negated = false
            if text.hasPrefix("!") { negated = true; text = text.dropFirst() }
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var value = parts.count > 1 ? parts[1] : nil
            if value?.hasPrefix("!") == true { negated = true; value = value?.dropFirst() }
            let key = parts[0].isEmpty ? nil : String(parts[0])
            guard key != nil || value?.isEmpty == false else {
                throw .badParameter("osm_tag", "'\(item.prefix(40))' is not key, key:value or :value")
            }
            let rule = (key: key, value: value.flatMap { $0.isEmpty ? nil : String($0) })
            if negated { exclude.append(rule) } else { include.append(rule) }
        }
    }

    func allows(_ place: PlaceResult) -> Bool {
        let tag = PlaceFields(place: place).osmTag
        func matches(_ rule: (key: String?, value: String?)) -> Bool {
            (rule.key == nil || rule.key == tag.key) && (rule.value == nil || rule.value == tag.value)
        }
        return (include.isEmpty || include.contains(where: matches)) && !exclude.contains(where: matches)
    }
}
