// geodb's own API under /v1: what the library does that Nominatim's and Photon's cannot express —
// autocomplete with highlights and category suggestions, search and nearby pages with cursors, timezones
// at a date, the category taxonomy, lookups by any source id, reverse with its timezone and areas, the
// places to draw a map — plus /openapi.json describing it, /metrics, and the web page at /.
import Foundation
import GeoDB
import Hummingbird

/// The /v1 endpoints and the server's own pages.
struct GeoDBAPI: Sendable {
    let endpoints: Endpoints
    private var served: ServedDatabases { endpoints.served }

    func register(on router: Router<BasicRequestContext>) {
        endpoints.get("/v1/search", name: "search", on: router) { parameters, _ in try await search(parameters, autocomplete: false) }
        endpoints.get("/v1/autocomplete", name: "autocomplete", on: router) { parameters, _ in try await search(parameters, autocomplete: true) }
        endpoints.get("/v1/structured", name: "structured", on: router) { parameters, _ in try await structured(parameters) }
        endpoints.get("/v1/reverse", name: "v1_reverse", on: router) { parameters, _ in try await reverse(parameters) }
        endpoints.get("/v1/nearby", name: "nearby", on: router) { parameters, _ in try await nearby(parameters) }
        endpoints.get("/v1/timezone", name: "timezone", on: router) { parameters, _ in try await timeZone(parameters) }
        endpoints.get("/v1/categories", name: "categories", on: router) { _, _ in try await categories() }
        endpoints.get("/v1/place", name: "place", on: router) { parameters, _ in try await place(parameters) }
        endpoints.get("/v1/map", name: "map", on: router) { parameters, _ in try await map(parameters) }
        endpoints.get("/v1/status", name: "v1_status", on: router) { _, _ in
            .json(.object([("databases", .array(try served.files.members.map(Self.describe)))]))
        }
        endpoints.get("/openapi.json", name: "openapi", on: router) { _, _ in
            .text(WebResources.openAPI, contentType: "application/json; charset=utf-8")
        }
        endpoints.get("/metrics", name: "metrics", on: router) { _, _ in
            .text(endpoints.metrics.exposition(databases: served.current.count), contentType: "text/plain; version=0.0.4")
        }
        endpoints.get("/", name: "page", on: router) { _, _ in .text(WebResources.page, contentType: "text/html; charset=utf-8") }
        // Leaflet changes only with the binary: a day in the browser's cache spares its 140 kB on each visit.
        for (path, text, type) in [("/leaflet/leaflet.js", WebResources.leafletJS, "text/javascript; charset=utf-8"),
                                   ("/leaflet/leaflet.css", WebResources.leafletCSS, "text/css; charset=utf-8")] {
            endpoints.get(path, name: "leaflet", on: router) { _, _ in
                var answer = Answer.text(text, contentType: type)
                answer.cacheControl = "public, max-age=86400"
                return answer
            }
        }
        endpoints.get("/v1/page-config", name: "page_config", on: router) { _, _ in try await pageConfiguration() }
    }

    // MARK: search

    func search(_ parameters: QueryParameters, autocomplete: Bool) async throws -> Answer {
        let q = try parameters.required("q")
        var options = try searchOptions(parameters)
        options.autocomplete = autocomplete
        let limit = try parameters.int("limit", in: 1...SearchOptions.maxLimit) ?? 10
        let page = try MergedPageCursor(parameters, maxDepth: 500)
        let files = try served.files
        let found = try await files.search(q, options: options, offset: page.offset, limit: limit)
        var explain: [JSON]?
        if try parameters.bool("explain") == true {
            let asked = options
            explain = []
            for member in files.withPlaces {
                let why = try await member.database.read { try $0.explainSearch(q, options: asked) }.explanation
                explain?.append(ResultJSON.explanation(why, file: member.name) { GeoDatabaseSet.globalID(member: member.index, id: $0) })
            }
        }
        return page.answer(found.places.map { ResultJSON.place($0.place, id: $0.globalID) }, more: found.more, limit: limit, explain: explain)
    }

    func structured(_ parameters: QueryParameters) async throws -> Answer {
        let street = parameters.string("street"), city = parameters.string("city"), postcode = parameters.string("postcode")
        guard street != nil || city != nil || postcode != nil else { throw APIError.missing("street") }
        var options = try searchOptions(parameters)
        options.limit = try parameters.int("limit", in: 1...SearchOptions.maxLimit) ?? 10
        let found = try await served.files.structuredSearch(street: street, housenumber: parameters.string("housenumber"), city: city,
                                                      postcode: postcode, options: options)
        return .json(.object([("results", .array(found.map { ResultJSON.place($0.place, id: $0.globalID) }))]))
    }

    private func searchOptions(_ parameters: QueryParameters) throws(APIError) -> SearchOptions {
        var options = SearchOptions()
        options.near = try parameters.coordinate()
        options.bbox = try parameters.box("bbox", cornersInAnyOrder: false)
        if let country = parameters.string("country") {
            guard let code = CountryCode.parse(country) else {
                throw .badParameter("country", "'\(country.prefix(40))' is not a two-letter country code")
            }
            options.countryCode = code
        }
        options.kinds = try parameters.list("kinds").map { name throws(APIError) -> PlaceKind in
            guard let kind = PlaceKind(rawValue: name) else { throw .badParameter("kinds", "unknown kind '\(name.prefix(40))'") }
            return kind
        }
        let categories = parameters.list("categories")
        if !categories.isEmpty { options.categories = try Self.filter(categories, parameter: "categories") }
        options.language = parameters.string("lang")
        return options
    }

    // MARK: reverse, nearby, timezone

    func reverse(_ parameters: QueryParameters) async throws -> Answer {
        let point = try parameters.requiredCoordinate()
        var options = ReverseOptions()
        if let level = parameters.string("level") {
            do { try options.setKind(level, option: "level") } catch {
                throw APIError.badParameter("level", "unknown level '\(level.prefix(40))' (\(ReverseOptions.kinds.joined(separator: ", ")))")
            }
        }
        for layer in parameters.list("layer") {
            guard let known = ReverseLayer(rawValue: layer.lowercased()) else {
                throw APIError.badParameter("layer", "unknown layer '\(layer.prefix(40))' (\(ReverseLayer.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            options.layers.insert(known)
        }
        options.radius = try parameters.double("radius", in: 1...2_000_000)
        options.limit = try parameters.int("limit", in: 1...100) ?? 1
        options.includeTimeZone = try parameters.bool("timezone") ?? true
        options.language = parameters.string("lang")
        let found = try await served.files.reverse(at: point, options: options)
        return .json(.object([("results", .array(found.map { member, result in
            ResultJSON.reverse(result, id: GeoDatabaseSet.globalID(member: member.index, id: result.place.id))
        }))]))
    }

    func nearby(_ parameters: QueryParameters) async throws -> Answer {
        let center = try parameters.coordinate()
        let box = try parameters.box("bbox", cornersInAnyOrder: false)
        guard center != nil || box != nil else { throw APIError.missing("lat") }
        let radius = try parameters.double("radius", in: 1...100_000) ?? 500
        let limit = try parameters.int("limit", in: 1...100) ?? 10
        let filter = try Self.filter(parameters.list("category"), parameter: "category")
        let page = try MergedPageCursor(parameters, maxDepth: GeoDatabaseSet.maxNearbyDepth)
        let found = try await served.files.nearby(center: center, radius: radius, box: box, filter: filter, name: parameters.string("name"),
                                            offset: page.offset, limit: limit)
        return page.answer(found.places.map { ResultJSON.place($0.place, id: $0.globalID) }, more: found.more, limit: limit)
    }

    func timeZone(_ parameters: QueryParameters) async throws -> Answer {
        let point = try parameters.requiredCoordinate()
        var date = Date()
        if let at = parameters.string("at") {
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let parsed = ISO8601DateFormatter().date(from: at) ?? fractional.date(from: at) else {
                throw APIError.badParameter("at", "'\(at.prefix(40))' is not an ISO 8601 time such as 2026-07-01T12:00:00Z")
            }
            date = parsed
        }
        guard let zone = try await served.files.timeZone(at: point, date: date) else {
            throw APIError(status: .notFound, message: "no database served has timezones (import a timezone GeoJSON)")
        }
        return .json(ResultJSON.timeZone(zone, at: point))
    }

    // MARK: categories, places, maps

    func categories() async throws -> Answer {
        .json(ResultJSON.categories(try await served.files.categories()))
    }

    /// Everything about one place, with its geometry as GeoJSON.
    func place(_ parameters: QueryParameters) async throws -> Answer {
        let reference = try parameters.required("ref")
        let (shard, details) = try await served.lookup(reference)
        let geometry = try await shard.database.read { [id = details.place.id] in try $0.geometry(ofPlace: id) }
        return .json(ResultJSON.details(details, id: GeoDatabaseSet.globalID(member: shard.index, id: details.place.id), geometry: geometry))
    }

    /// The places to draw on a map of `bbox` as GeoJSON.
    func map(_ parameters: QueryParameters) async throws -> Answer {
        guard let box = try parameters.box("bbox", cornersInAnyOrder: false) else { throw APIError.missing("bbox") }
        let limit = try parameters.int("limit", in: 1...10_000) ?? 2_000
        let features = try await served.files.mapFeatures(in: box, limit: limit)
        // `truncated`: the box holds more than `limit` places to draw (a foreign member, as GeoJSON allows).
        return .json(.object([("type", .string("FeatureCollection")), ("truncated", .bool(features.count >= limit)),
                              ("features", .array(features.map { shard, feature in
            .object([("type", .string("Feature")),
                     ("geometry", JSON.geometry(feature.geometry, point: feature.coordinate)),
                     ("properties", .fields([("id", .int(GeoDatabaseSet.globalID(member: shard.index, id: feature.id))),
                                             ("kind", .string(feature.kind.rawValue)), ("name", feature.name.map(JSON.string)),
                                             ("category_id", feature.categoryID.map(JSON.string))]))])
        }))]), geo: true)
    }

    /// What the page at / needs besides the API: the tile layer when `--tiles` gave one, the credits the
    /// served data's licences ask for, and where to open the map (`GeoDatabaseSet.denseArea`).
    func pageConfiguration() async throws -> Answer {
        let tiles = endpoints.configuration.tiles.map { url in
            JSON.object([("url", .string(url)), ("attribution", .string(endpoints.configuration.tilesAttribution))])
        }
        var credits: [DataAttribution] = []
        for credit in served.current.flatMap({ $0.info.sources.compactMap(\.attribution) }) where !credits.contains(credit) {
            credits.append(credit)
        }
        let view = try await served.files.denseArea()
        return .json(.object([
            ("tiles", tiles ?? .null),
            ("attribution", .array(credits.map { credit in
                .object([("text", .string(credit.text)), ("url", .string(credit.url)), ("license", .string(credit.license)),
                         ("license_url", .string(credit.licenseURL))])
            })),
            ("view", view.map(ResultJSON.box) ?? .null),
        ]))
    }

    // MARK: shared

    private static func filter(_ words: [String], parameter: String) throws(APIError) -> CategoryFilter {
        do {
            return try CategoryFilter.resolve(words)
        } catch let error as GeoDBError {
            throw .badParameter(parameter, error.message)
        } catch {
            throw .badParameter(parameter, "\(error)")
        }
    }

    /// A served file in /status: `ResultJSON.database`, named without its directory.
    static func describe(_ shard: GeoDatabaseSet.Member) -> JSON {
        ResultJSON.database(shard.info, file: shard.name, timeZones: shard.hasTimeZones)
    }
}

/// Where a page of /v1/search or /v1/nearby starts: "20.6c1f09a3" is the 21st result of the request whose
/// other parameters hash to 6c1f09a3. A page is a slice of one deeper query, merged across the files.
struct MergedPageCursor {
    let offset: Int
    let fingerprint: UInt32

    init(_ parameters: QueryParameters, maxDepth: Int) throws(APIError) {
        fingerprint = FNV1a.hash(parameters.signature(except: ["after", "limit"]))
        guard let text = parameters.string("after") else {
            offset = 0
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[0]), (1..<maxDepth).contains(offset),
              UInt32(parts[1], radix: 16) == fingerprint else {
            throw .badParameter("after", "'\(text.prefix(40))' is not a cursor of this query (pass the 'next' of its previous page)")
        }
        self.offset = offset
    }

    /// `{"results": […], "next": cursor or null}` (`ResultJSON.page`), and `explain` when asked for.
    func answer(_ results: [JSON], more: Bool, limit: Int, explain: [JSON]? = nil) -> Answer {
        .json(ResultJSON.page(results, next: more ? "\(offset + limit).\(String(fingerprint, radix: 16))" : nil, explain: explain))
    }
}
