// Nominatim's API (/search, /reverse, /lookup, /status, and the .php paths older clients call) answered
// from geodb files, with the parameters real clients send and Nominatim's defaults (xml for /reverse and
// /lookup, address details on for both). The formats are written by `NominatimWriter`. What geodb has no
// equivalent for is listed in docs/SERVER.md's compatibility table.
import Foundation
import GeoDB
import Hummingbird

/// The Nominatim endpoints.
struct NominatimAPI: Sendable {
    let endpoints: Endpoints
    private var served: ServedDatabases { endpoints.served }

    func register(on router: Router<BasicRequestContext>) {
        for suffix in ["", ".php"] {
            endpoints.get("/search" + suffix, name: "nominatim_search", on: router, xmlErrors(.jsonv2) { try await search($0, $1) })
            endpoints.get("/reverse" + suffix, name: "reverse", on: router) { parameters, request in
                try await Self.isPhotonReverse(parameters) ? PhotonAPI(endpoints: endpoints).reverse(parameters, request)
                    : xmlErrors(.xml) { try await reverse($0, $1) }(parameters, request)
            }
            endpoints.get("/lookup" + suffix, name: "nominatim_lookup", on: router, xmlErrors(.xml) { try await lookup($0, $1) })
            endpoints.get("/status" + suffix, name: "status", on: router) { parameters, _ in try status(parameters) }
            // Nominatim lists objects deleted in OSM but kept, and polygons it repaired or shrank on update.
            // geodb keeps neither (a database is built whole from its input; broken polygons are counted in
            // the import's summary): the lists are empty, in Nominatim's shape.
            for path in ["/deletable", "/polygons"] {
                endpoints.get(path + suffix, name: "nominatim" + path.replacingOccurrences(of: "/", with: "_"), on: router) { parameters, _ in
                    if let format = parameters.string("format"), format != "json" {
                        throw APIError.badParameter("format", "Parameter 'format' must be one of: json")
                    }
                    _ = try parameters.int("days", in: -1...100_000)
                    return .json(.array([]))
                }
            }
        }
        NominatimDetails(endpoints: endpoints).register(on: router)
    }

    /// `handler`, its errors written as Nominatim's XML error when the request's format (or the endpoint's
    /// default, `defaultFormat`) is xml: `<error><code>400</code><message>…</message></error>`.
    private func xmlErrors(_ defaultFormat: NominatimOutput.Format, _ handler: @escaping Endpoints.Handler) -> Endpoints.Handler {
        { [served] parameters, request in
            do {
                return try await handler(parameters, request)
            } catch {
                guard (parameters.string("format")?.lowercased() ?? defaultFormat.rawValue) == NominatimOutput.Format.xml.rawValue else { throw error }
                let answer = APIError(error)
                var xml = XMLWriter()
                xml.text("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n")
                xml.open("error")
                xml.element("code", text: String(answer.status.code))
                xml.element("message", text: served.hidingDirectories(answer.message))
                xml.close("error")
                var written = Answer.text(xml.output, contentType: "text/xml; charset=utf-8")
                written.status = answer.status
                return written
            }
        }
    }

    /// Nominatim's and Photon's reverse share the path. Photon's clients send a parameter Nominatim has not
    /// (`limit`: geopy always does; `lang`, `radius`, `osm_tag`, …); anything else is Nominatim's, whose
    /// default answer is XML.
    static func isPhotonReverse(_ parameters: QueryParameters) -> Bool {
        !parameters.has("format") && ["limit", "lang", "radius", "osm_tag", "distance_sort", "query_string_filter"]
            .contains(where: parameters.has)
    }

    // MARK: /search

    func search(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        var output = try self.output(parameters, defaultFormat: .jsonv2, addressDetails: false)
        let limit = min(try parameters.int("limit", in: 0...1_000_000) ?? 10, 40)   // Nominatim's cap: 40
        var options = try searchOptions(parameters, request: request)
        let countries = countryCodes(parameters)
        let excluded = try excludedPlaces(parameters)
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
            if found.first?.place.kind == .coordinate {
                // Text that is only a position: Nominatim answers the place there, as /reverse would.
                let point = found[0].place.coordinate
                var here = ReverseOptions()
                here.language = options.language
                found = try await served.files.reverse(at: point, options: here).prefix(1).map {
                    GeoDatabaseSet.MemberPlace(member: $0.member, place: $0.result.place)
                }
            }
        } else {
            guard !structured.isEmpty else { throw APIError.missing("q") }
            (query, found) = try await structuredSearch(parameters, options: options)
        }
        found = found.filter { place in
            !excluded.contains(place.globalID) && !(place.place.sourceRef.map { excluded.contains(osm: $0) } ?? false)
                && (countries.count < 2 || countries.contains(place.place.address.countryCode?.uppercased() ?? ""))
        }
        let answered = Array(found.prefix(limit))
        output.query = query
        // Only xml writes these (its root element's attributes): the next page's URL, percent-encoded through
        // Foundation, cost 1.5 % of the server's CPU on every JSON search.
        if output.format == .xml {
            if !excluded.isEmpty { output.rootAttributes.append(("exclude_place_ids", excluded.text)) }
            if let box = parameters.string("viewbox") ?? parameters.string("viewboxlbrt") { output.rootAttributes.append(("viewbox", box)) }
            output.rootAttributes.append(("more_url", moreURL(parameters, request: request, countries: countries,
                                                              excluding: excluded.text + answered.map { ",\($0.globalID)" }.joined())))
        }
        if parameters.nominatimFlag("debug") == true { return try await debugPage(query, found: answered, options: options) }
        return try await answer(answered, output: output, parameters: parameters, single: false)
    }

    /// The URL of the next results, as Nominatim's XML gives it: the same search excluding those answered.
    private func moreURL(_ parameters: QueryParameters, request: Request, countries: [String], excluding ids: String) -> String {
        var items: [(String, String)] = ["q", "amenity", "street", "city", "county", "state", "postalcode", "country"].compactMap { name in
            parameters.string(name).map { (name, $0) }
        }
        if !countries.isEmpty { items.append(("countrycodes", countries.map { $0.lowercased() }.joined(separator: ","))) }
        for name in ["viewbox", "viewboxlbrt", "bounded", "accept-language", "addressdetails", "limit"] {
            if let value = parameters.string(name) { items.append((name, value)) }
        }
        items.append(("exclude_place_ids", ids.hasPrefix(",") ? String(ids.dropFirst()) : ids))
        items.append(("format", "xml"))
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        return "http://\(request.head.authority ?? "localhost")\(request.uri.path)?\(query)"
    }

    /// `exclude_place_ids`: place ids as geodb answers them, or OSM objects (`N347290636`, `W45`).
    private func excludedPlaces(_ parameters: QueryParameters) throws(APIError) -> ExcludedPlaces {
        var excluded = ExcludedPlaces()
        for item in parameters.list("exclude_place_ids") {
            if let id = Int64(item), id > 0 {
                excluded.ids.insert(id)
                excluded.text += (excluded.text.isEmpty ? "" : ",") + String(id)
            } else if let reference = SourceReference(item.prefix(1).lowercased() + item.dropFirst()), reference.osmObject != nil {
                excluded.osm.insert(reference)
                excluded.text += (excluded.text.isEmpty ? "" : ",") + reference.description.uppercased()
            } else {
                throw .badParameter("exclude_place_ids", "Invalid exclude ID: \(item.prefix(40))")
            }
        }
        return excluded
    }

    struct ExcludedPlaces {
        var ids = Set<Int64>()
        var osm = Set<SourceReference>()
        /// As Nominatim echoes them: "123,N456,W789".
        var text = ""
        var isEmpty: Bool { ids.isEmpty && osm.isEmpty }
        func contains(_ id: Int64) -> Bool { ids.contains(id) }
        func contains(osm reference: SourceReference) -> Bool { osm.contains(reference) }
    }

    /// Nominatim's structured search: `street` ("9 Austrasse" or "Austrasse 9") with `city` (or the county or
    /// state) and `postalcode` is geodb's structured search; `amenity` and bare areas are searched as text.
    private func structuredSearch(_ parameters: QueryParameters, options: SearchOptions) async throws -> (String, [GeoDatabaseSet.MemberPlace]) {
        // A field as typed, without the quotes a form or a script may leave around it ("\"Vaduz\"").
        func field(_ name: String) -> String? {
            let value = parameters.string(name)?.trimmingCharacters(in: CharacterSet(charactersIn: "\"' ").union(.whitespaces))
            return value?.isEmpty == false ? value : nil
        }
        var options = options
        let areas = ["city", "county", "state", "postalcode", "country"].compactMap(field)
        // Within `countrycodes` too, when that names one country: a place must be in both (none when they differ).
        let country = field("country").flatMap { CountryCode.parse($0) ?? CountryCode.named(byWords: TextNormalizer.tokens(TextNormalizer.fold($0))) }
        if let country, let only = options.countryCode, only != country { return (areas.joined(separator: ", "), []) }
        if let country { options.countryCode = country }
        let town = field("city") ?? field("county") ?? field("state")
        if let street = field("street"), field("amenity") == nil {
            var words = street.split(separator: " ").map(String.init)
            var number: String?
            if let last = words.last, words.count > 1, last.first?.isNumber == true { number = words.removeLast() }
            else if let first = words.first, words.count > 1, first.first?.isNumber == true { number = words.removeFirst() }
            let found = try await served.files.structuredSearch(street: words.joined(separator: " "), housenumber: number, city: town,
                                                          postcode: field("postalcode"), options: options)
            return (([street] + areas).joined(separator: ", "), found)
        }
        // Without a street or an amenity, the most specific area field given is what is asked for, as
        // Nominatim restricts the rank: `city=Steg` is the village, not a bus stop or a street named so; a
        // postcode alone is the postcode, not the places with it; a country alone is the country.
        if options.kinds.isEmpty, field("amenity") == nil {
            if field("city") != nil {
                options.kinds = [.city, .town, .village, .hamlet, .suburb, .neighbourhood, .locality, .island, .square]
            } else if field("county") != nil {
                options.kinds = [.county]
            } else if field("state") != nil {
                options.kinds = [.state]
            } else if field("postalcode") != nil {
                options.kinds = [.postcode]
            } else {
                options.kinds = [.country]
            }
        }
        let text = ([field("amenity"), field("street")].compactMap { $0 } + areas).joined(separator: ", ")
        return (text, try await served.files.search(text, options: options, offset: 0, limit: options.limit).places)
    }

    /// The search options the parameters name: language, viewbox (a filter with `bounded=1`, else a bias
    /// to its centre), and the kinds `layer` and `featureType` allow.
    private func searchOptions(_ parameters: QueryParameters, request: Request) throws(APIError) -> SearchOptions {
        var options = SearchOptions()
        options.language = parameters.string("accept-language") ?? request.headers[.acceptLanguage]
        // viewboxlbrt is the same box with its corners in one order (the corners of viewbox may be in any).
        let viewbox = parameters.has("viewbox") ? "viewbox" : "viewboxlbrt"
        if let box = try parameters.box(viewbox, cornersInAnyOrder: true) {
            guard box.minLat < box.maxLat && box.minLon < box.maxLon else {
                throw .badParameter(viewbox, "parameter '\(viewbox)' must be a box, not a point or a line")
            }
            if parameters.nominatimFlag("bounded") == true {
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

    private func countryCodes(_ parameters: QueryParameters) -> [String] {
        // Nominatim skips items that are no country code ("1", "undefined").
        parameters.list("countrycodes").compactMap(CountryCode.parse)
    }

    // MARK: /reverse

    func reverse(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let output = try self.output(parameters, defaultFormat: .xml, addressDetails: true)
        // A point off the globe is no error to Nominatim: nothing is there.
        let lat = try parameters.number("lat"), lon = try parameters.number("lon")
        guard let lat else { throw APIError.missing("lat") }
        guard let lon else { throw APIError.missing("lon") }
        var options = ReverseOptions()
        options.language = parameters.string("accept-language") ?? request.headers[.acceptLanguage]
        let zoom = try parameters.int("zoom", in: 0...18) ?? 18
        options.maxRank = Self.reverseMaxRanks[zoom]
        options.level = switch zoom {
        case 0...4: .country
        case 5...9: .state
        case 10...12: .city
        case 13...15: .suburb
        case 16...17: .street
        default: .address
        }
        for layer in parameters.list("layer") where ReverseLayer(rawValue: layer.lowercased()) == nil {
            throw APIError.badParameter("layer", "unknown layer '\(layer.prefix(40))' (address, poi, railway, natural, manmade)")
        }
        options.layers = Set(parameters.list("layer").compactMap { ReverseLayer(rawValue: $0.lowercased()) })
        // Nominatim's default at every zoom (geodb's own only at the address level).
        if options.layers.isEmpty { options.layers = ReverseLayer.defaults }
        var found: [GeoDatabaseSet.MemberPlace] = []
        if (-90...90).contains(lat) && (-180...180).contains(lon), let first = try await served.files.reverse(at: Coordinate(lat: lat, lon: lon), options: options).first {
            found = [GeoDatabaseSet.MemberPlace(member: first.member, place: first.result.place)]
        }
        if parameters.nominatimFlag("debug") == true { return try await debugPage("\(lat), \(lon)", found: found, options: nil) }
        var described = output
        described.query = "lat=\(lat)&lon=\(lon)"
        return try await answer(found, output: described, parameters: parameters, single: true, closestTo: Coordinate(lat: lat, lon: lon))
    }

    /// The most detailed rank a reverse answer of each zoom may have (Nominatim's `REVERSE_MAX_RANKS`).
    static let reverseMaxRanks = [2, 2, 2, 4, 4, 8, 10, 10, 12, 12, 16, 17, 18, 19, 22, 25, 26, 27, 30]

    // MARK: /lookup

    func lookup(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        let output = try self.output(parameters, defaultFormat: .xml, addressDetails: true)
        // Items that are no OSM id are skipped, as Nominatim does ("X99", "N0", "").
        let references = parameters.list("osm_ids").compactMap { item in
            SourceReference(item.prefix(1).lowercased() + item.dropFirst()).flatMap { $0.osmObject != nil ? $0 : nil }
        }
        guard references.count <= 50 else { throw APIError.badParameter("osm_ids", "Too many object IDs.") }
        var found: [GeoDatabaseSet.MemberPlace] = []
        // A town asked for by its node's id is the node, as Nominatim keeps it; by its boundary's, the boundary.
        var asBoundary: [Bool] = []
        for reference in references {
            if let (shard, place) = try? await served.lookup(reference.description) {
                found.append(GeoDatabaseSet.MemberPlace(member: shard, place: place.place))
                let own = place.place.sourceRef?.osmObject, asked = reference.osmObject
                asBoundary.append(!(own?.type == asked?.type && own?.id == asked?.id))
            }
        }
        if parameters.nominatimFlag("debug") == true { return try await debugPage(parameters.string("osm_ids") ?? "", found: found, options: nil) }
        return try await answer(found, output: output, parameters: parameters, single: false, asBoundary: asBoundary)
    }

    // MARK: /status

    func status(_ parameters: QueryParameters) throws -> Answer {
        let shards = served.current
        let format = parameters.string("format") ?? "text"
        guard format == "text" || format == "json" else {
            throw APIError.badParameter("format", "format '\(format.prefix(40))' is not one /status writes (text, json)")
        }
        // Without its files (`--wait`), as Nominatim answers without its database: text is a 500, json a 200
        // with status 700.
        guard served.isReady else {
            if format == "json" { return .json(.fields([("status", .int(700)), ("message", .string(ServedDatabases.unavailable))])) }
            var failed = Answer.text("ERROR: " + ServedDatabases.unavailable)
            failed.status = .internalServerError
            return failed
        }
        guard format == "json" else { return .text("OK") }
        let updated = shards.flatMap { $0.info.sources.compactMap(\.dataTimestamp) }.max()
        return .json(.fields([
            // Nominatim writes the offset, not "Z": "2021-07-01T20:06:02+00:00".
            ("status", .int(0)), ("message", .string("OK")),
            ("data_updated", updated.map { .string($0.hasSuffix("Z") ? $0.dropLast() + "+00:00" : $0) }),
            ("software_version", .string("geodb \(GeoDBVersion.string)")), ("database_version", .string("\(Schema.version)")),
            ("databases", .array(shards.map(GeoDBAPI.describe))),
        ]))
    }

    // MARK: answers

    /// The format and the parts of each place the parameters ask for; `addressDetails` is the endpoint's
    /// default for `addressdetails` (geocodejson always has the address).
    private func output(_ parameters: QueryParameters, defaultFormat: NominatimOutput.Format, addressDetails: Bool) throws(APIError) -> NominatimOutput {
        let name = parameters.string("format")?.lowercased()
        guard let format = name.map(NominatimOutput.Format.init(rawValue:)) ?? defaultFormat else {
            throw .badParameter("format", "Parameter 'format' must be one of: " + NominatimOutput.Format.allCases.map(\.rawValue).joined(separator: ", "))
        }
        // Only GeoJSON goes into the GeoJSON formats; one geometry output at a time.
        var geometries: [NominatimOutput.GeometryOutput] = []
        for output in NominatimOutput.GeometryOutput.allCases where output == .geojson || format == .xml || format == .json || format == .jsonv2 {
            if parameters.nominatimFlag("polygon_" + output.rawValue) == true { geometries.append(output) }
        }
        guard geometries.count <= 1 else { throw .badParameter("polygon_" + geometries[1].rawValue, "Too many polygon output options selected.") }
        var output = NominatimOutput(format: format, address: parameters.nominatimFlag("addressdetails") ?? (addressDetails || format == .geocodejson),
                                     names: parameters.nominatimFlag("namedetails") ?? false, extraTags: parameters.nominatimFlag("extratags") ?? false,
                                     entrances: parameters.nominatimFlag("entrances") ?? false, geometry: geometries.first)
        // Nominatim simplifies only by a positive threshold; 0 and below answer the whole geometry.
        output.polygonThreshold = max(try parameters.number("polygon_threshold") ?? 0, 0)
        return output
    }

    /// The places written as `output` asks, with their geometries and names read for all of them at once;
    /// JSON wrapped in the `json_callback` function when one is named (JSONP).
    ///
    /// `closestTo`: /reverse's point. A line found there (a street, a river) is answered at its point
    /// nearest to it, as Nominatim does, not at its middle; a house number interpolated on its line keeps the
    /// point reverse gave that number. `asBoundary`: per place, whether a town whose node labels its
    /// municipality is answered as that boundary (`NominatimPlace.mergedBoundary`; default: every one).
    private func answer(_ places: [GeoDatabaseSet.MemberPlace], output: NominatimOutput, parameters: QueryParameters,
                        single: Bool, closestTo point: Coordinate? = nil, asBoundary: [Bool]? = nil) async throws -> Answer {
        var callback: String?
        if let name = parameters.string("json_callback"), output.format != .xml {
            guard name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Self.isIdentifier) else {
                throw APIError.badParameter("json_callback", "Invalid json_callback value")
            }
            callback = name
        }
        // Every place's shape, a building's too: Nominatim's box and polygon outputs are the object's. (One
        // statement for the whole answer; geocodejson without a polygon output needs none.)
        let read = try await GeoDatabaseSet.details(of: places, geometries: output.geometry != nil || output.format != .geocodejson,
                                                    names: output.names, entrances: output.entrances,
                                                    boundaries: places.contains { $0.place.kind.rank < PlaceKind.street.rank })
        let items = zip(places, read).enumerated().map { index, pair in
            var (place, read) = pair
            if let point, place.place.kind != .interpolation, case .lineStrings(let lines)? = read.geometry,
               let nearest = LineMath.closestPoint(on: lines, to: point)?.coordinate {
                (place.place.lat, place.place.lon) = (nearest.lat, nearest.lon)
            }
            // A house number interpolated on its line is a point of its own: its box and shape are the point's.
            let geometry = place.place.match == .interpolated ? nil : read.geometry
            return NominatimPlace(found: place, geometry: geometry, names: read.names, entrances: read.entrances,
                                  mergedBoundary: asBoundary?[index] == false ? nil : read.mergedBoundary, output: output)
        }
        var answer = NominatimWriter.answer(items, output: output, single: single)
        answer.callback = callback
        return answer
    }

    /// A JavaScript name as JSONP may call: a letter or `_`, then letters, digits or `_`.
    private static func isIdentifier(_ part: Substring) -> Bool {
        guard let first = part.first, first.isLetter || first == "_" else { return false }
        return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `debug=1`: a page showing how the request was answered. For a search, each file's readings of the
    /// text, their candidates and each result's score parts (what `/v1/search?explain=1` has as JSON).
    private func debugPage(_ query: String, found: [GeoDatabaseSet.MemberPlace], options: SearchOptions?) async throws -> Answer {
        var page = XMLWriter()
        page.open("html")
        page.open("head")
        page.element("title", text: "geodb: " + query)
        page.close("head")
        page.open("body")
        page.element("h1", text: query)
        if let options {
            for member in try served.files.withPlaces {
                let why = try await member.database.read { try $0.explainSearch(query, options: options) }.explanation
                page.element("h2", text: member.name)
                page.element("p", text: "Readings tried: " + why.attempts.map { "\($0.reading.rawValue) (\($0.candidates) candidates)" }.joined(separator: ", "))
                page.open("table")
                page.open("tr")
                for heading in ["place", "name", "reading", "match", "score", "name score", "place score"] { page.element("th", text: heading) }
                page.close("tr")
                for result in why.results {
                    page.open("tr")
                    let cells = [String(GeoDatabaseSet.globalID(member: member.index, id: result.id)), result.name, result.reading.rawValue,
                                 result.match?.rawValue ?? "", result.score.map { String(format: "%.3f", $0) } ?? "",
                                 result.nameScore.map { String(format: "%.3f", $0) } ?? "", result.placeScore.map { String(format: "%.3f", $0) } ?? ""]
                    for cell in cells { page.element("td", text: cell) }
                    page.close("tr")
                }
                page.close("table")
            }
        }
        page.element("h2", text: "Answer")
        page.open("ol")
        for place in found {
            page.element("li", text: "\(place.globalID) \(place.place.sourceRef?.description ?? "-") \(place.place.kind.rawValue): \(place.place.displayName)")
        }
        page.close("ol")
        page.close("body")
        page.close("html")
        return .text(page.output, contentType: "text/html; charset=utf-8")
    }
}
