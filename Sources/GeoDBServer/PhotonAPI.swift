// Photon's API (/api as you type, /reverse) as Photon 1.x answers it: GeoJSON FeatureCollections with
// Photon's property names (osm_key/osm_value, type as its layer, countrycode, extent), its parameters read
// as Photon reads them (an unknown one is a 400, limit clamped to 1…50, flags true only for 1/yes/true),
// its filters osm_tag, layer, include/exclude categories and countrycode, bbox and a lat/lon bias, reverse
// as the places nearest a point within a radius, and errors as Photon writes them: {"message": "…"}.
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

    /// The parameters Photon takes on both endpoints, then on each; any other is a 400.
    static let commonParameters: Set<String> = ["lang", "limit", "debug", "dedupe", "geometry", "osm_tag", "layer", "include", "exclude"]
    static let searchParameters = commonParameters.union(["q", "lat", "lon", "location_bias_scale", "zoom", "bbox", "suggest_addresses", "countrycode"])
    static let reverseParameters = commonParameters.union(["lat", "lon", "radius", "query_string_filter", "distance_sort"])
    /// Most results answered (Photon's `-max-results` and `-max-reverse-results`); a larger limit is cut to it.
    static let maxLimit = 50
    /// Results of a search without `limit` (Photon's default).
    static let defaultLimit = 15
    /// Largest reverse radius, km (Photon's documented range).
    static let maxRadius = 5000.0

    /// `/api`: autocomplete, since Photon is the as-you-type API.
    func search(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        try await photonErrors {
            let common = try Common(parameters, request, allowed: Self.searchParameters)
            let q = try parameters.required("q")
            var options = SearchOptions()
            options.autocomplete = true
            options.near = try parameters.coordinate()
            // Checked as Photon checks them; geodb's bias has no scale or zoom to set.
            _ = try parameters.int("zoom", in: Int.min...Int.max)
            _ = try parameters.number("location_bias_scale")
            _ = Self.flag(parameters, "suggest_addresses", default: false)
            options.bbox = try parameters.box("bbox", cornersInAnyOrder: true)
            options.language = common.language
            options.kinds = common.kinds
            let countries = Set(parameters.all("countrycode").map { $0.uppercased() })
            if countries.count == 1, let only = countries.first, only.count == 2, only.allSatisfy(\.isLetter) { options.countryCode = only }
            let limit = common.limit ?? Self.defaultLimit
            // Filters the search cannot apply itself are applied to a deeper list; deduplication takes a few more.
            let filtered = common.filtersPlaces || countries.count > 1 || (countries.count == 1 && options.countryCode == nil)
            options.limit = filtered ? SearchOptions.maxLimit : min(limit + (common.dedupe ? 5 : 0), SearchOptions.maxLimit)
            let found = try await served.files.search(q, options: options, offset: 0, limit: options.limit).places.filter {
                common.allows($0.place) && (countries.isEmpty || countries.contains($0.place.address.countryCode?.uppercased() ?? ""))
            }
            return try await collection(common.deduplicated(found).prefix(limit), geometry: common.geometry)
        }
    }

    /// `/reverse` without a format (and `/photon/reverse`): the places nearest a point, within `radius` km
    /// (default 1) of their point, nearest first (unless `distance_sort=0`), of the layers asked.
    func reverse(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        try await photonErrors {
            let common = try Common(parameters, request, allowed: Self.reverseParameters)
            let point = try parameters.requiredCoordinate()
            let kilometres = try parameters.double("radius", in: 0...Self.maxRadius) ?? 1
            guard kilometres > 0 else { throw APIError.badParameter("radius", "parameter 'radius' must be above 0 (kilometres)") }
            let limit = common.limit ?? 1
            let metres = kilometres * 1000
            var found: [GeoDatabaseSet.MemberPlace] = [], seen = Set<Int64>()
            // Each level's reverse answers its nearest places; together they are every layer's.
            for (level, layers) in Self.reverseLevels(common.layers) {
                var options = ReverseOptions()
                options.level = level
                options.layers = layers
                options.radius = metres
                options.language = common.language
                options.limit = common.filtersPlaces ? ReverseOptions.maxLimit : min(limit, ReverseOptions.maxLimit)
                for (member, result) in try await served.files.reverse(at: point, options: options) {
                    let found1 = GeoDatabaseSet.MemberPlace(member: member, place: result.place)
                    guard result.place.coordinate.distance(to: point) <= metres, common.allows(result.place),
                          seen.insert(found1.globalID).inserted else { continue }
                    found.append(found1)
                }
            }
            // The places of a tag asked for, nearest first: more of them than the levels' nearest places hold.
            for tag in common.exactTags {
                let near = try await served.files.nearby(center: point, radius: metres, box: nil, filter: .rawTag("\(tag.key)=\(tag.value)"),
                                                         name: nil, offset: 0, limit: ReverseOptions.maxLimit).places
                for found1 in near where common.allows(found1.place) && found1.place.coordinate.distance(to: point) <= metres {
                    if seen.insert(found1.globalID).inserted { found.append(found1) }
                }
            }
            if Self.flag(parameters, "distance_sort", default: true) {
                found = found.enumerated().sorted {
                    let a = $0.element.place.coordinate.distance(to: point), b = $1.element.place.coordinate.distance(to: point)
                    return a != b ? a < b : $0.offset < $1.offset
                }.map(\.element)
            }
            return try await collection(common.deduplicated(found).prefix(limit), geometry: common.geometry)
        }
    }

    /// The reverse levels (and feature layers) that answer Photon's layers; all of them without layers.
    static func reverseLevels(_ layers: [String]) -> [(ReverseLevel, Set<ReverseLayer>)] {
        var levels: [(ReverseLevel, Set<ReverseLayer>)] = []
        func add(_ level: ReverseLevel, _ features: Set<ReverseLayer> = []) {
            if !levels.contains(where: { $0.0 == level && $0.1 == features }) { levels.append((level, features)) }
        }
        for layer in layers.isEmpty ? PhotonLayer.allCases.map(\.rawValue) : layers {
            switch PhotonLayer(rawValue: layer) {
            case .house?: add(.address); add(.poi)
            case .street?: add(.street)
            case .locality?, .district?: add(.suburb)
            case .city?: add(.city)
            case .county?, .state?: add(.state)
            case .country?: add(.country)
            case .other?: add(.address, Set(ReverseLayer.features))
            case nil: break
            }
        }
        return levels
    }

    /// `body`'s answer, or its error as Photon writes one: `{"message": "…"}` with the status.
    private func photonErrors(_ body: () async throws -> Answer) async throws -> Answer {
        do {
            return try await body()
        } catch {
            if Task.isCancelled { throw error }   // the time limit's answer is the server's
            let answer = APIError(error)
            return .json(.fields([("message", .string(served.hidingDirectories(answer.message))), ("parameter", answer.parameter.map(JSON.string))]),
                         status: answer.status)
        }
    }

    /// Photon's reading of a flag: true for `1`, `yes` and `true`, anything else false.
    static func flag(_ parameters: QueryParameters, _ name: String, default value: Bool) -> Bool {
        guard let text = parameters.string(name)?.lowercased() else { return value }
        return ["1", "yes", "true"].contains(text)
    }

    /// What both endpoints read alike: the parameters allowed, limit, language, layers, osm_tag,
    /// include/exclude, dedupe and geometry.
    struct Common {
        var limit: Int?
        var language: String?
        var layers: [String]
        var kinds: [PlaceKind]
        var tags: TagFilter
        var categories: PhotonCategories
        var dedupe: Bool
        var geometry: Bool

        init(_ parameters: QueryParameters, _ request: Request, allowed: Set<String>) throws(APIError) {
            if let unknown = parameters.names.sorted().first(where: { !allowed.contains($0) }) {
                throw .badParameter(unknown, "unknown parameter '\(unknown.prefix(40))'; this endpoint takes \(allowed.sorted().joined(separator: ", "))")
            }
            if let text = parameters.string("limit") {
                guard let value = Int(text) else { throw .badParameter("limit", "parameter 'limit' must be a whole number, not '\(text.prefix(40))'") }
                limit = min(max(value, 1), PhotonAPI.maxLimit)
            }
            // The languages as the library reads them (`LanguagePreference`); Photon's "default" is the local name.
            let language = parameters.string("lang") ?? request.headers[.acceptLanguage]
            self.language = language == "default" ? nil : language
            layers = parameters.all("layer")
            kinds = try PhotonLayer.kinds(layers)
            tags = try TagFilter(parameters.repeated("osm_tag"))
            categories = try PhotonCategories(include: parameters.repeated("include"), exclude: parameters.repeated("exclude"))
            dedupe = PhotonAPI.flag(parameters, "dedupe", default: true)
            geometry = PhotonAPI.flag(parameters, "geometry", default: false)
            _ = PhotonAPI.flag(parameters, "debug", default: false)
        }

        /// The OSM tags that `osm_tag` or `include` ask for by key and value.
        var exactTags: [(key: String, value: String)] { tags.exactTags + categories.exactTags }

        /// Whether a filter leaves out places a query would answer (so more must be asked for).
        var filtersPlaces: Bool { !tags.isEmpty || !categories.isEmpty || !kinds.isEmpty }

        func allows(_ place: PlaceResult) -> Bool {
            (kinds.isEmpty || kinds.contains(place.kind)) && tags.allows(place) && categories.allows(place)
        }

        /// Without `dedupe=0`, a street once per name, postcode, OSM value and country (Photon's rule: the
        /// pieces of one street are one answer).
        func deduplicated(_ places: [GeoDatabaseSet.MemberPlace]) -> [GeoDatabaseSet.MemberPlace] {
            guard dedupe else { return places }
            var seen = Set<[String]>()
            return places.filter { found in
                let place = found.place, tag = PlaceFields(place: place).osmTag
                guard tag.key == "highway", let name = place.name else { return true }
                return seen.insert([tag.value, place.address.postcode ?? "", name, place.address.countryCode?.uppercased() ?? ""]).inserted
            }
        }
    }

    /// The places as a FeatureCollection, each with the `extent` of its line or polygon when it has one,
    /// and that line or polygon as its geometry when `geometry` asks.
    private func collection(_ places: some Sequence<GeoDatabaseSet.MemberPlace>, geometry: Bool) async throws -> Answer {
        let places = Array(places)
        let read = try await GeoDatabaseSet.details(of: places, geometries: places.contains { PlaceFields(place: $0.place).mayHaveGeometry },
                                                    names: false)
        let features = zip(places, read).map { found, read in
            let shape = PlaceFields(place: found.place).mayHaveGeometry ? read.geometry : nil
            return Self.feature(found.place, extent: shape?.boundingBox, geometry: geometry ? shape : nil)
        }
        return .json(.object([("type", .string("FeatureCollection")), ("features", .array(features))]))
    }

    /// A place as Photon writes it; `extent` is [min lon, max lat, max lon, min lat], Photon's order.
    static func feature(_ place: PlaceResult, extent: BoundingBox?, geometry: Geometry? = nil) -> JSON {
        let fields = PlaceFields(place: place), tag = fields.osmTag, address = place.address
        let osm = fields.osm
        return .object([
            ("type", .string("Feature")),
            ("geometry", JSON.geometry(geometry, point: place.coordinate)),
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

extension PhotonLayer {
    /// The kinds of the layers named; an unknown name is a 400.
    static func kinds(_ layers: [String]) throws(APIError) -> [PlaceKind] {
        var kinds: [PlaceKind] = []
        for name in layers {
            guard let layer = PhotonLayer(rawValue: name) else {
                throw .badParameter("layer", "unknown layer '\(name.prefix(40))' (\(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            kinds += layer.kinds
        }
        return kinds
    }
}

/// Photon's `osm_tag` filter: `key:value`, `key`, `:value` keep places with that tag (any one of them);
/// `!key:value`, `!key`, `:!value` (or `!:value`) leave them out; `key:!value` keeps the key's places
/// but those with that value. More than one colon, or none after the key (`shop:`), is a 400.
struct TagFilter {
    private struct Rule {
        var key: String?
        var value: String?
        var allButValue = false

        func matches(_ tag: (key: String, value: String)) -> Bool {
            (key == nil || key == tag.key) && (value == nil || (value == tag.value) != allButValue)
        }
    }

    private var include: [Rule] = []
    private var exclude: [Rule] = []

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty }

    init(_ items: [String]) throws(APIError) {
        for item in items {
            let invalid = APIError.badParameter("osm_tag", "'\(item.prefix(40))' is not key, key:value, :value, !key, !key:value, :!value or key:!value")
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            switch parts.count {
            case 1:
                let negated = item.hasPrefix("!"), key = negated ? String(item.dropFirst()) : item
                guard !key.isEmpty else { throw invalid }
                if negated { exclude.append(Rule(key: key)) } else { include.append(Rule(key: key)) }
            case 2:
                let keyNegated = parts[0].hasPrefix("!"), valueNegated = parts[1].hasPrefix("!")
                let key = (keyNegated ? parts[0].dropFirst() : parts[0]).trimmingCharacters(in: .whitespaces)
                let value = (valueNegated ? parts[1].dropFirst() : parts[1]).trimmingCharacters(in: .whitespaces)
                guard !value.isEmpty else { throw invalid }
                let rule = Rule(key: key.isEmpty ? nil : key, value: value)
                if rule.key != nil && !keyNegated && valueNegated {
                    include.append(Rule(key: rule.key, value: value, allButValue: true))
                } else if keyNegated || valueNegated {
                    exclude.append(rule)
                } else {
                    include.append(rule)
                }
            default:
                throw invalid
            }
        }
    }

    /// The tags kept by key and value (`amenity:pharmacy`).
    var exactTags: [(key: String, value: String)] {
        include.compactMap { rule in rule.allButValue ? nil : rule.key.flatMap { key in rule.value.map { (key, $0) } } }
    }

    func allows(_ place: PlaceResult) -> Bool {
        let tag = PlaceFields(place: place).osmTag
        return (include.isEmpty || include.contains { $0.matches(tag) }) && !exclude.contains { $0.matches(tag) }
    }
}

/// Photon's `include`/`exclude` categories. A geodb place has the one Photon gives every OSM place,
/// `osm.<osm_key>.<osm_value>` (`osm.place.yes` when those are not labels), matched by it and its prefixes
/// (`osm.highway`). `include=a,b` keeps a place with a or b, and each `include` must hold; `exclude=a,b`
/// leaves out a place with both, and any `exclude` does. A category of fewer than two labels is a 400.
struct PhotonCategories {
    private var include: [[String]] = []
    private var exclude: [[String]] = []

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty }

    init(include: [String], exclude: [String]) throws(APIError) {
        self.include = try include.map { value throws(APIError) in try Self.categories(value, parameter: "include") }
        self.exclude = try exclude.map { value throws(APIError) in try Self.categories(value, parameter: "exclude") }
    }

    private static func isLabel(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }

    private static func categories(_ value: String, parameter: String) throws(APIError) -> [String] {
        let categories = value.split(separator: ",", omittingEmptySubsequences: false)
        for category in categories {
            let labels = category.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy(isLabel) else {
                throw .badParameter(parameter, "'\(value.prefix(60))' is not a comma-separated list of categories (group.label[.label…]: letters, digits, _ and -)")
            }
        }
        return categories.map(String.init)
    }

    /// The OSM tags included by key and value (`osm.amenity.pharmacy`).
    var exactTags: [(key: String, value: String)] {
        include.joined().compactMap { category in
            let labels = category.split(separator: ".")
            return labels.count == 3 && labels[0] == "osm" ? (String(labels[1]), String(labels[2])) : nil
        }
    }

    func allows(_ place: PlaceResult) -> Bool {
        guard !isEmpty else { return true }
        let tag = PlaceFields(place: place).osmTag
        let own = Self.isLabel(Substring(tag.key)) && Self.isLabel(Substring(tag.value)) ? "osm.\(tag.key).\(tag.value)" : "osm.place.yes"
        func has(_ category: String) -> Bool { own == category || own.hasPrefix(category + ".") }
        return include.allSatisfy { $0.contains(where: has) } && !exclude.contains { $0.allSatisfy(has) }
    }
}
