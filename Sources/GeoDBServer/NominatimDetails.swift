// Nominatim's /details (and its old name /details.php): one place by OSM id or place id with what geodb
// knows of it, in the fields of Nominatim's details page — its names, own address tags, the areas of its
// address with their ids, the records merged into it, the words search finds it by, its entrances, the houses
// and POIs addressed by it. What geodb keeps no equivalent of (Wikipedia importance) is listed in
// docs/SERVER.md's compatibility table.
import Foundation
import GeoDB
import Hummingbird

/// The /details endpoint.
struct NominatimDetails: Sendable {
    let endpoints: Endpoints
    private var served: ServedDatabases { endpoints.served }

    /// What the caller asked to see besides the place's own fields.
    struct Sections {
        var address: Bool
        var keywords: Bool
        var linkedPlaces: Bool
        var fullGeometry: Bool
        var entrances: Bool
        /// `hierarchy`: the places addressed by it; `group_hierarchy`: grouped by their type.
        var hierarchy: Bool
        var groupHierarchy: Bool
        var languages: [String]
    }

    /// At most this many places addressed by a place are listed (a long street has a few hundred).
    static let hierarchyLimit = 500

    func register(on router: Router<BasicRequestContext>) {
        for path in ["/details", "/details.php"] {
            endpoints.get(path, name: "nominatim_details", on: router) { try await details($0, $1) }
        }
    }

    func details(_ parameters: QueryParameters, _ request: Request) async throws -> Answer {
        if let format = parameters.string("format"), format.lowercased() != "json" {
            throw APIError.badParameter("format", "format '\(format.prefix(40))' is not one /details writes: json")
        }
        // Flags as Nominatim reads them (anything but 0 is true); pretty is taken and ignored.
        let sections = Sections(
            address: parameters.nominatimFlag("addressdetails") ?? false, keywords: parameters.nominatimFlag("keywords") ?? false,
            linkedPlaces: parameters.nominatimFlag("linkedplaces") ?? true, fullGeometry: parameters.nominatimFlag("polygon_geojson") ?? false,
            entrances: parameters.nominatimFlag("entrances") ?? false, hierarchy: parameters.nominatimFlag("hierarchy") ?? false,
            groupHierarchy: parameters.nominatimFlag("group_hierarchy") ?? false,
            languages: LanguagePreference.ordered(parameters.string("accept-language") ?? request.headers[.acceptLanguage]))
        let debug = parameters.nominatimFlag("debug") ?? false

        let reference = try Self.reference(parameters)
        let (member, found) = try await served.lookup(reference)
        // `class` picks one of the places Nominatim makes of an object with several main tags; geodb makes one.
        if let wanted = parameters.string("class"), PlaceFields(place: found.place).osmTag.key != wanted {
            throw APIError(status: .notFound, message: "no place '\(reference)' of class '\(wanted.prefix(40))'")
        }
        var geometry = try await member.database.read { [id = found.place.id] in try $0.geometry(ofPlace: id) }
        // One way of a street of several is answered with its own line, as Nominatim keeps each way apart.
        if let stored = geometry, let way = SourceReference(reference), let line = found.line(ofWay: way, in: stored) {
            geometry = .lineStrings([line])
        }
        let areas = found.areas.filter { $0.place.id != found.place.id }
        // The areas' names in every language, to name them in the caller's.
        let areaNames = sections.address
            ? try await GeoDatabaseSet.details(of: areas.map { GeoDatabaseSet.MemberPlace(member: member, place: $0.place) },
                                               geometries: false, names: true).map { $0.names ?? [] }
            : areas.map { _ in [] }
        let addressed = sections.hierarchy
            ? try await member.database.read { [place = found.place] in try $0.placesAddressed(by: place, limit: Self.hierarchyLimit) }
            : nil
        let object = describe(found, in: member, areas: Array(zip(areas, areaNames)), geometry: geometry, addressed: addressed,
                              sections: sections)
        return debug ? Self.debugPage(object) : .json(object)
    }

    /// The place the parameters name: `place_id` (geodb's id), else `osmtype` (N, W, R) with `osmid`, as
    /// a reference `lookup` takes.
    static func reference(_ parameters: QueryParameters) throws(APIError) -> String {
        if let text = parameters.string("place_id") {
            guard let id = Int64(text), id >= 0 else { throw .badParameter("place_id", "'\(text.prefix(40))' is not a place id") }
            return String(id)
        }
        guard let type = parameters.string("osmtype") else {
            throw .badParameter("osmtype", "missing parameter: 'place_id', or 'osmtype' (N, W or R) with 'osmid'")
        }
        guard type.count == 1, let letter = type.lowercased().first, "nwr".contains(letter) else {
            throw .badParameter("osmtype", "osmtype must be N, W or R, not '\(type.prefix(40))'")
        }
        let text = try parameters.required("osmid")
        guard let id = Int64(text), id > 0 else { throw .badParameter("osmid", "'\(text.prefix(40))' is not an OSM id") }
        return "\(letter)\(id)"
    }

    // MARK: the answer

    private func describe(_ found: PlaceDetails, in member: GeoDatabaseSet.Member, areas: [(PlaceDetails.Area, [PlaceDetails.Name])],
                          geometry: Geometry?, addressed: [PlaceResult]?, sections: Sections) -> JSON {
        let place = found.place, fields = PlaceFields(place: place), tag = fields.osmTag
        let importance = JSON.number(place.importance ?? place.kind.baseImportance)
        let centroid = JSON.geometry(nil, point: place.coordinate)
        var extraTags = place.tags
        // As Nominatim does: an administrative boundary's level among its tags.
        if tag.key == "boundary" && tag.value == "administrative", let level = found.adminLevel { extraTags["admin_level"] = String(level) }
        let parent = areas.first.map { GeoDatabaseSet.globalID(member: member.index, id: $0.0.place.id) }
        return .fields([
            ("place_id", .int(GeoDatabaseSet.globalID(member: member.index, id: place.id))),
            ("parent_place_id", parent.map(JSON.int)),
            ("osm_type", fields.osm.map { .string($0.type.prefix(1).uppercased()) }), ("osm_id", fields.osm.map { .int($0.id) }),
            ("category", .string(tag.key)), ("type", .string(tag.value)),
            ("admin_level", .int(Int64(found.adminLevel ?? Self.notAdministrative))),
            ("localname", .string(Self.localName(found.names, main: place.name, languages: sections.languages))),
            ("names", NominatimWriter.nameDetails(found.names)),
            ("addresstags", .object(found.ownAddress.parts.map { ($0.part.rawValue, .string($0.value)) })),
            ("housenumber", place.address.housenumber.map(JSON.string)),
            ("calculated_postcode", place.address.postcode.map(JSON.string)),
            ("country_code", place.address.countryCode.map { .string($0.lowercased()) }),
            ("indexed_date", member.info.sources.first { $0.name == found.source }.map { .string($0.importedAt) }),
            ("importance", importance), ("calculated_importance", importance),
            ("extratags", .strings(extraTags)),
            ("calculated_wikipedia", place.tags["wikipedia"].map { .string($0.replacingOccurrences(of: " ", with: "_")) }),
            ("rank_address", .int(Int64(place.kind.rank))), ("rank_search", .int(Int64(place.kind.rank))),
            ("isarea", .bool(Self.isArea(geometry))),
            ("centroid", centroid),
            ("geometry", sections.fullGeometry ? JSON.geometry(geometry, point: place.coordinate) : centroid),
            ("address", sections.address ? .array(addressLines(found, in: member, areas: areas, languages: sections.languages)) : nil),
            ("linked_places", sections.linkedPlaces ? linkedPlaces(found) : nil),
            ("keywords", sections.keywords ? Self.keywords(found) : nil),
            ("entrances", sections.entrances ? NominatimWriter.entrances(found.entrances) : nil),
            ("hierarchy", addressed.map { hierarchy($0, of: place, in: member, grouped: sections.groupHierarchy) }),
        ])
    }

    /// `hierarchy`: the places addressed by the place, as lines like `address`'s (distance in degrees from
    /// its point, as Nominatim measures); with `group_hierarchy`, an object of them by type, each group by name.
    private func hierarchy(_ addressed: [PlaceResult], of place: PlaceResult, in member: GeoDatabaseSet.Member, grouped: Bool) -> JSON {
        func line(_ house: PlaceResult) -> JSON {
            addressLine(name: house.name ?? house.address.housenumber ?? "", place: house, in: member, adminLevel: nil,
                        distance: hypot(house.lat - place.lat, house.lon - place.lon))
        }
        guard grouped else { return .array(addressed.map(line)) }
        var groups: [(type: String, places: [PlaceResult])] = []
        for house in addressed {
            let type = PlaceFields(place: house).osmTag.value
            if let index = groups.firstIndex(where: { $0.type == type }) { groups[index].places.append(house) } else { groups.append((type, [house])) }
        }
        return .object(groups.map { group in
            (group.type, .array(group.places.sorted { ($0.name ?? $0.address.housenumber ?? "") < ($1.name ?? $1.address.housenumber ?? "") }
                .map(line)))
        })
    }

    private static func isArea(_ geometry: Geometry?) -> Bool {
        if case .polygons? = geometry { return true }
        return false
    }

    /// Nominatim's `admin_level` of a place that is no administrative area.
    static let notAdministrative = 15

    /// Nominatim's `address`: the place itself, its own house number and street, the areas around it
    /// (smallest first) with their ids, its postcode and country code. All are parts of its address
    /// (`isaddress`): geodb keeps no other areas around a place.
    private func addressLines(_ found: PlaceDetails, in member: GeoDatabaseSet.Member, areas: [(PlaceDetails.Area, [PlaceDetails.Name])],
                              languages: [String]) -> [JSON] {
        let place = found.place
        var lines: [JSON] = []
        if let name = place.name {
            lines.append(addressLine(name: Self.localName(found.names, main: name, languages: languages), place: place, in: member,
                                     adminLevel: found.adminLevel, distance: 0))
        }
        // Nominatim's ranks of a house number and a street.
        for (part, rank) in [(Address.Part.housenumber, 28), (.street, 26)] {
            if let value = place.address[part], place.kind != .street { lines.append(Self.textLine(part, value, rank: rank)) }
        }
        for (area, names) in areas {
            // A containing area is at distance 0, as Nominatim measures (from the place to the area's
            // polygon); a nearest place node is at the distance of its point, in degrees as Nominatim's.
            let distance = area.isNearestPlace
                ? hypot(area.place.lat - place.lat, area.place.lon - place.lon) : 0
            lines.append(addressLine(name: Self.localName(names, main: area.place.name, languages: languages), place: area.place,
                                     in: member, adminLevel: area.adminLevel, distance: distance))
        }
        if let postcode = place.address.postcode { lines.append(Self.textLine(.postcode, postcode, rank: 5)) }
        if let code = place.address.countryCode { lines.append(Self.textLine(.countryCode, code.lowercased(), rank: 4)) }
        return lines
    }

    /// A line of `address` that is a place.
    private func addressLine(name: String, place: PlaceResult, in member: GeoDatabaseSet.Member, adminLevel: Int?, distance: Double) -> JSON {
        let fields = PlaceFields(place: place), tag = fields.osmTag
        return .fields([
            ("localname", .string(name)), ("place_id", .int(GeoDatabaseSet.globalID(member: member.index, id: place.id))),
            ("osm_id", fields.osm.map { .int($0.id) }), ("osm_type", fields.osm.map { .string($0.type.prefix(1).uppercased()) }),
            ("class", .string(tag.key)), ("type", .string(tag.value)),
            ("admin_level", .int(Int64(adminLevel ?? Self.notAdministrative))), ("rank_address", .int(Int64(place.kind.rank))),
            ("distance", .number(distance)), ("isaddress", .bool(true)),
        ])
    }

    /// A line of `address` that geodb holds as text, not as a place (a house number, an `addr:street`, a
    /// postcode): class `place` and Nominatim's key of the part as its type, as Nominatim writes its own
    /// house number and postcode lines.
    private static func textLine(_ part: Address.Part, _ value: String, rank: Int) -> JSON {
        .fields([
            ("localname", .string(value)), ("class", .string("place")), ("type", .string(PlaceFields.nominatimKey(part))),
            ("admin_level", .int(Int64(notAdministrative))), ("rank_address", .int(Int64(rank))), ("distance", .number(0)),
            ("isaddress", .bool(true)),
        ])
    }

    /// `linked_places`: the OSM records merged into the place (the boundary its place node labels), nil
    /// when there are none, as Nominatim leaves the field out then.
    private func linkedPlaces(_ found: PlaceDetails) -> JSON? {
        let records = found.linkedRecords.compactMap(\.osmObject)
        guard !records.isEmpty else { return nil }
        return .array(records.map { record in
            .fields([("localname", .string(found.place.name ?? "")), ("osm_id", .int(record.id)),
                     ("osm_type", .string(record.type.prefix(1).uppercased())), ("rank_address", .int(Int64(found.place.kind.rank))),
                     ("isaddress", .bool(false))])
        })
    }

    /// `keywords`: the words of the place's names and of its address, folded as search folds them (geodb's
    /// index has no word ids to show).
    private static func keywords(_ found: PlaceDetails) -> JSON {
        func words(_ texts: [String]) -> JSON {
            var seen = Set<String>()
            return .array(texts.flatMap(TextNormalizer.tokens).filter { seen.insert($0).inserted }.map { .object([("token", .string($0))]) })
        }
        let address = found.place.address.parts.filter { $0.part != .countryCode }.map(\.value)
        return .object([("name", words(found.names.map(\.name))), ("address", words(address))])
    }

    /// The place's name in the first of `languages` it has a name in (`name:xx`), else its main name.
    static func localName(_ names: [PlaceDetails.Name], main: String?, languages: [String]) -> String {
        for language in languages {
            if let name = names.first(where: { $0.type == "name" && $0.lang?.lowercased() == language }) { return name.name }
        }
        return main ?? names.first?.name ?? ""
    }

    // MARK: debug

    /// `debug=1`: the answer on an HTML page, for reading in a browser (Nominatim shows its query log there;
    /// geodb's lookup has none to show).
    static func debugPage(_ object: JSON) -> Answer {
        var page = XMLWriter()
        page.open("html")
        page.open("head")
        page.element("title", text: "geodb details")
        page.close("head")
        page.open("body")
        page.element("pre", text: object.indented())
        page.close("body")
        page.close("html")
        return .text(page.output, contentType: "text/html; charset=utf-8")
    }
}
