// Reverse geocoding: what a person would call the place at a point — the nearest address, else the
// nearest street (measured to its geometry), else the nearest POI or place — with the areas around it.
import GeoDBSQLite

/// The granularity a reverse query answers at.
///
/// ```swift
/// var options = ReverseOptions()
/// options.level = .city
/// ```
public enum ReverseLevel: String, CaseIterable, Sendable, Codable {
    case address, street, poi, suburb, city, state, country

    /// How far this level looks when no radius is given, in metres.
    public var defaultRadius: Double {
        switch self {
        case .address: return 50
        case .street, .poi: return 500
        case .suburb: return 5_000
        case .city: return 50_000
        case .state: return 500_000
        case .country: return 2_000_000
        }
    }

    /// The finest rank that answers this level (Nominatim's ranks, `ReverseOptions.maxRank`), as Nominatim's
    /// zooms: suburb as zoom 15 (25: down to city blocks), city as zoom 12 (18: towns, no villages inside a
    /// municipality), state 8, country 4.
    var finestRank: Int {
        switch self {
        case .address, .street, .poi: return 30
        case .suburb: return 25
        case .city: return 18
        case .state: return 8
        case .country: return 4
        }
    }

    /// Place kinds answering this level.
    var kinds: [PlaceKind] {
        switch self {
        case .address: return []
        case .street: return [.street]
        case .poi: return [.poi]
        case .suburb: return [.suburb, .neighbourhood]
        case .city: return PlaceKind.settlements
        case .state: return [.state]
        case .country: return [.country]
        }
    }
}

/// Options of a reverse query.
///
/// ```swift
/// var options = ReverseOptions()
/// options.level = .street
/// options.limit = 3
/// options.includeTimeZone = true
/// ```
public struct ReverseOptions: Sendable {
    /// The granularity asked for; finer levels fall back to coarser ones when nothing is near.
    public var level = ReverseLevel.address
    /// Search radius in metres for the asked level (default `level.defaultRadius`); fallbacks look at least as far.
    public var radius: Double?
    /// Nearest candidates to return, nearest first.
    public var limit = 1
    /// Each answer carries the IANA zone of the query point (when the database has timezones).
    public var includeTimeZone = false
    /// Show names in this language when the place has one (`name:xx`), and the country in it.
    public var language: String?
    /// The classes of places that may answer (Nominatim's layers); the nearest of them wins. Empty: at the
    /// address level `ReverseLayer.defaults` (an address, else a street, or a POI nearer than either), else
    /// the nearest place; at the other levels `level` decides alone. `.address` is what `level` finds;
    /// `.poi` the nearest POI; `.natural`, `.railway`, `.manmade` the nearest feature of the layer
    /// (`ReverseLayer.feature`), measured to its line or polygon, within `radius` (default 500 m).
    public var layers: Set<ReverseLayer> = []
    /// The most detailed place that may answer, as Nominatim's ranks: of a feature layer (`ReverseLayer.rank`)
    /// 18 peaks and coarser, 19 rivers too, 22 streams and woods too; of the place nodes an area level may
    /// answer 18 towns and coarser, 19 villages too, 22 hamlets and farms too, 25 neighbourhoods and city
    /// blocks too; below 30 no POI answers (Nominatim's zoom 18 is 30, 14 is 22, 13 is 19, 12 is 18).
    public var maxRank = 30

    /// ```swift
    /// var options = ReverseOptions()
    /// ```
    public init() {}

    /// Sets what the CLI's `--kind` and /v1's `level` name: a level (`address` … `country`), or a feature
    /// layer (`natural`, `railway`, `manmade`: only that layer's features answer).
    ///
    /// ```swift
    /// var options = ReverseOptions()
    /// try options.setKind("natural")   // options.layers == [.natural]
    /// ```
    public mutating func setKind(_ name: String, option: String = "kind") throws {
        if let level = ReverseLevel(rawValue: name) {
            self.level = level
        } else if let layer = ReverseLayer(rawValue: name), ReverseLayer.features.contains(layer) {
            layers = [layer]
        } else {
            throw QueryValidation.unknownValue(name, option: option, known: Self.kinds)
        }
    }

    /// The names `setKind` takes: the levels, then the feature layers.
    public static let kinds = ReverseLevel.allCases.map(\.rawValue) + ReverseLayer.features.map(\.rawValue)

    /// Largest `limit` accepted.
    public static let maxLimit = 100
    /// Largest `radius` accepted, in metres: half the Earth's circumference.
    public static let maxRadius = 20_000_000.0

    /// Throws the `QueryValidation` error of the first option out of range.
    func validate() throws {
        if let radius { try QueryValidation.radius(radius, max: Self.maxRadius) }
        try QueryValidation.limit(limit, max: Self.maxLimit)
    }
}

/// The answer to a reverse query.
///
/// ```swift
/// let r = try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545)).first
/// print(r?.place.address.suburb ?? "", r?.hierarchySource ?? "")
/// ```
public struct ReverseResult: Codable, Sendable {
    /// The place found, with `distanceM` from the query point and its hierarchy in `address`.
    public var place: PlaceResult
    /// Where the hierarchy (suburb, city, … in `place.address`) came from.
    public var hierarchySource: HierarchySource
    /// The IANA time zone of the query point, when the database has timezones and the options ask.
    public var timezone: String?
    /// The named water body the query point lies in (a lake, a river's area, a bay), as Apple's
    /// `CLPlacemark.inlandWater`.
    public var water: String?
    /// Named areas of interest containing the query point (parks, campuses, hospitals, stations, malls,
    /// airports), smallest first, as `CLPlacemark.areasOfInterest`.
    public var areasOfInterest: [String]
}

extension ReverseOptions {
    /// Which of the searches `ReverseGeocoder.reverse` tries in turn found `place`, one of its answers to these
    /// options: 0 the level's own (at the address level an address or a POI within the radius; at an area
    /// level the area of that level around the point, or a place node inside a coarser one, or the nearest of
    /// the level's kinds), 1 what stands in for it (the streets an address level falls back to and the POIs
    /// nearer than them; an area coarser than the level with no place node of it inside), 2 the nearest
    /// place within 5 km, 3 nothing within reach (an area around the point finer than the level asked, or
    /// in a file without areas the nearest settlement however far). Files answering together
    /// (`GeoDatabaseSet.reverse`) keep the answers of the first search that found anything in any of them,
    /// as one file with all their places would. With layers the answers are one list by distance: only 3
    /// stands apart.
    func search(thatFound place: PlaceResult) -> Int {
        if place.match == .nearest { return 3 }
        if layers.isEmpty, level != .address, let finest = level.kinds.compactMap(\.addressLevel).min(by: { $0.ordinal < $1.ordinal }) {
            guard place.match == .area, let areaLevel = place.kind.addressLevel else { return 0 }
            if areaLevel.ordinal < finest.ordinal { return 3 }
            return level.kinds.contains { $0.addressLevel == areaLevel } ? 0 : 1
        }
        if place.match == .area { return 3 }
        guard layers.isEmpty, level == .address, let distance = place.distanceM else { return 0 }
        let radius = self.radius ?? level.defaultRadius
        switch place.kind {
        case .street: return distance <= max(radius, ReverseLevel.street.defaultRadius) ? 1 : 2
        case .poi: return distance <= radius ? 0 : 1
        default: return distance <= radius ? 0 : 2
        }
    }
}

/// Reverse geocoding for one session.
final class ReverseGeocoder {
    private let db: DatabaseReader
    private let places: PlaceReader
    private let nearest: NearestPlaces
    private let hierarchy: AddressHierarchy
    private let timeZones: TimeZoneLoader

    init(db: DatabaseReader, places: PlaceReader, nearest: NearestPlaces, hierarchy: AddressHierarchy, timeZones: TimeZoneLoader) {
        self.db = db
        self.places = places
        self.nearest = nearest
        self.hierarchy = hierarchy
        self.timeZones = timeZones
    }

    /// The place at `point`: address, street, POI or area, per `options.level`. With nothing within reach
    /// the area containing the point answers (or, in a database without areas, the nearest settlement at
    /// any distance); empty only outside every area.
    func reverse(at point: Coordinate, options: ReverseOptions) throws -> [ReverseResult] {
        try QueryValidation.coordinate(point, option: "point")
        try options.validate()
        let radius = options.radius ?? options.level.defaultRadius
        let containing = try hierarchy.containingAreas(point)
        var found: [Found]
        if options.layers.isEmpty && options.level != .address {
            found = try levelAnswers(point, level: options.level, maxRank: options.maxRank, radius: radius, containing: containing,
                                     limit: options.limit)
        } else {
            found = try layerAnswers(point, layers: options.layers.isEmpty ? ReverseLayer.defaults : options.layers, options: options,
                                     radius: radius, containing: containing)
            if found.isEmpty && options.layers.isEmpty {
                found = try nearest.nearest(point, kinds: nil, radius: max(radius, 5_000), limit: options.limit)
                    .map { Found(id: $0.id, distance: $0.distance) }
            }
        }
        if found.isEmpty && (options.layers.isEmpty || options.layers.contains(.address)) {
            found = try fallback(point, level: options.level, containing: containing, limit: options.limit)
        }
        let features = options.layers.intersection(ReverseLayer.features)
        if found.isEmpty && !features.isEmpty && options.maxRank >= ReverseLayer.streetRank {
            // Nothing near of the finer kinds: the rivers, lakes and woods around, as at a lower zoom.
            found = try areaFeatures(point, layers: features, options: options)
        }
        let distances = Dictionary(found.map { ($0.id, $0.distance) }, uniquingKeysWith: min)
        let asStored = try places.results(ids: found.map(\.id), distances: distances)
        let answers = try places.localized(asStored, language: options.language)
        let buildings = Dictionary(try places.results(ids: found.compactMap(\.building)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Only the levels above the answer, and only those its own columns do not already give.
        let levels = Array(AddressLevel.nested.dropLast())
        let answerLevel = answers.first.flatMap { $0.kind.addressLevel }.flatMap { levels.firstIndex(of: $0) }
        let needed = Set(levels.enumerated().filter { index, level in
            (answerLevel.map { index > $0 } ?? true) && answers.contains { $0.address[level: level] == nil }
        }.map(\.element))
        let (areas, source) = try hierarchy.areas(at: point, needed: needed, language: options.language)
        let zone = options.includeTimeZone ? try timeZones.lookup()?.tzid(at: point) : nil
        let (water, areasOfInterest) = try surroundings(of: point)
        return try zip(zip(answers, asStored), found).map { pair, item in
            let (place, stored) = pair
            var p = place
            if let number = item.interpolated {
                p.address.housenumber = number
                p.match = .interpolated
                if let at = item.at { (p.lat, p.lon) = (at.lat, at.lon) }
            } else {
                p.match = item.match
            }
            if let building = item.building.flatMap({ buildings[$0] }), p.address.housenumber == nil {
                // A POI inside a building is at the building's address (Nominatim's inherited address).
                for part in [Address.Part.housenumber, .street, .postcode] where p.address[part] == nil {
                    p.address.copy(part, from: building.address)
                }
            }
            var usedSource = source
            let ownSet = try places.areaSets.entry(p.areaSetID)
            if source == .polygons {
                // The city its own tags name, not its set (a village of the municipality, as addr:city).
                let taggedCity = stored.address.city == ownSet?.names[.city] ? nil : p.address.city
                Self.placeAtPoint(&p, taggedCity: taggedCity, in: areas)
            } else {
                for (part, _) in areas.parts where p.address[part] == nil { p.address.copy(part, from: areas) }
            }
            if item.match == .nearest {
                usedSource = .nearestPlace
            } else if areas.isEmpty {
                // No boundary at the point: the answer's own areas, as the import found them, or its tags.
                usedSource = ownSet?.source ?? (p.address.city != nil || p.address.postcode != nil ? .addressTags : source)
            }
            // The country the areas named, in the language asked for.
            PlaceReader.localizeCountry(&p.address, language: options.language)
            p.displayStyle = .reverse
            return ReverseResult(place: p, hierarchySource: usedSource, timezone: zone, water: water,
                                 areasOfInterest: areasOfInterest)
        }
    }

    /// Gives an answer the areas the query point lies in (a street's middle can lie in the next town): they
    /// replace the answer's own above its level. An address whose own tags name a village of the
    /// municipality as its city (`taggedCity`) keeps it, as its suburb (Mühlegasse 77, Schaanwald, Mauren).
    static func placeAtPoint(_ place: inout PlaceResult, taggedCity: String?, in areas: Address) {
        let nested = AddressLevel.nested
        let own = place.kind.addressLevel.flatMap { nested.firstIndex(of: $0) } ?? -1
        if let city = areas.city, let named = taggedCity, named != city, place.address.suburb == nil,
           own < nested.firstIndex(of: .city)! {
            place.address.suburb = named
        }
        for (part, _) in areas.parts {
            if let level = AddressLevel(rawValue: part.rawValue), let rank = nested.firstIndex(of: level) {
                if rank > own { place.address.copy(part, from: areas) }
            } else if part == .countryCode || place.address[part] == nil {
                place.address.copy(part, from: areas)
            }
        }
    }

    /// What `level` finds near the point: for an address the addresses, else the streets; for a street the
    /// streets; for an area level `areaAnswers`, else the nearest of its kinds.
    private func levelAnswers(_ point: Coordinate, level: ReverseLevel, maxRank: Int, radius: Double,
                              containing: [AddressLevel: AddressHierarchy.Area], limit: Int) throws -> [Found] {
        switch level {
        case .address:
            let found = try nearestAddresses(point, radius: radius, limit: limit)
            return found.isEmpty ? try nearestStreets(point, radius: max(radius, ReverseLevel.street.defaultRadius), limit: limit) : found
        case .street:
            return try nearestStreets(point, radius: radius, limit: limit)
        default:
            let found = try areaAnswers(point, level: level, maxRank: maxRank, containing: containing, limit: limit)
            if !found.isEmpty { return found }
            return try nearest.nearest(point, kinds: level.kinds, radius: radius, limit: limit).map { Found(id: $0.id, distance: $0.distance) }
        }
    }

    /// An area level's answer: the smallest area containing the point at or above the level. When that area
    /// is coarser than the level (a municipality for a suburb), as Nominatim picks it: a place node of the
    /// level or above inside that area, finer than it (but no finer than `level.finestRank` and `maxRank`)
    /// and within its own reach (`PlaceReach`), the finest of those, the nearest of a rank. So at zoom 14 a
    /// point in Vaduz answers the village node Ebenholz 1.2 km away inside Vaduz, not the neighbourhood node
    /// Oberdorf 4 km away (beyond a neighbourhood's reach and too fine), nor Vaduz. A node with a boundary of
    /// its own is that area and answers only inside it. Empty outside every area (a gazetteer, the open sea).
    private func areaAnswers(_ point: Coordinate, level: ReverseLevel, maxRank: Int,
                             containing: [AddressLevel: AddressHierarchy.Area], limit: Int) throws -> [Found] {
        guard let finest = level.kinds.compactMap(\.addressLevel).min(by: { $0.ordinal < $1.ordinal }),
              let area = AddressLevel.nested.lazy.filter({ $0.ordinal >= finest.ordinal }).compactMap({ containing[$0] }).first
        else { return [] }
        let areaAnswer = [Found(id: area.placeID, distance: 0, match: .area)]
        // The level's own area around the point answers for itself: the suburb Kluuvi, not a city block in it.
        guard !level.kinds.contains(where: { $0.addressLevel == area.level }),
              case .polygons(let polygons)? = try places.geometry(of: area.placeID) else { return areaAnswer }
        let areaRank = Self.rank(of: area), ceiling = min(maxRank, level.finestRank)
        var inside: [(found: Found, rank: Int)] = []
        for kind in PlaceKind.allCases {
            guard let kindLevel = kind.addressLevel, kindLevel.ordinal >= finest.ordinal, let reach = PlaceReach.metres(kind) else { continue }
            let near = try nearest.nearest(point, kinds: [kind], radius: reach, limit: 8)
            guard !near.isEmpty else { continue }
            let rows = try db.rows("place nodes near a point", """
                SELECT p.id, p.category, p.lat, p.lon FROM place p WHERE p.id IN (SELECT value FROM json_each(?1))
                  AND NOT EXISTS (SELECT 1 FROM area a WHERE a.place_id = p.id)
                """, [.text(JSONText.array(near.map(\.id)))]) { row in
                (row.int(0), (Self.placeRank(kind, row.text(1)), Point7(try row.coordinate(2, 3, place: row.int(0), in: db.path))))
            }
            let nodes = Dictionary(rows, uniquingKeysWith: { a, _ in a })
            for candidate in near {
                guard let (rank, at) = nodes[candidate.id], rank > areaRank, rank <= ceiling,
                      polygons.contains(where: { PolygonMath.polygonContains($0, lat: at.lat, lon: at.lon) }) else { continue }
                inside.append((Found(id: candidate.id, distance: candidate.distance), rank))
            }
        }
        let best = inside.sorted { ($1.rank, $0.found.distance, $0.found.id) < ($0.rank, $1.found.distance, $1.found.id) }
        return best.isEmpty ? areaAnswer : best.prefix(limit).map(\.found)
    }

    /// An area's rank: its place's kind's, else (a boundary without a place node) its level's coarsest kind's.
    private static func rank(of area: AddressHierarchy.Area) -> Int {
        if let kind = area.kind, kind.addressLevel == area.level { return kind.rank }
        return PlaceKind.allCases.filter { $0.addressLevel == area.level }.map(\.rank).min() ?? PlaceKind.address.rank
    }

    /// How fine a place node is for `areaAnswers`, as Nominatim ranks it (its search rank): a farm or an
    /// isolated dwelling 22, a neighbourhood 24, a city block 25 (finer than their kind says: a map zoomed
    /// out to villages does not want them), its kind's rank otherwise.
    private static func placeRank(_ kind: PlaceKind, _ category: String?) -> Int {
        switch category {
        case "place=farm", "place=isolated_dwelling": return 22
        case "place=neighbourhood": return 24
        case "place=city_block": return 25
        default: return kind.rank
        }
    }

    /// The nearest answers of `layers`: what `level` finds for `.address`, the nearest POIs (those ranked 30:
    /// no peak or park, as Nominatim's POI layer, and only when `maxRank` is 30), of the feature layers the
    /// nearest as fine as a street or finer (a spring, a tower) up to `maxRank`, or below rank 26 (zoomed
    /// out) `areaFeatures`; nearest first, a tie to the layer listed first. When the nearest is an area
    /// around the point (a building, school grounds, a mall), a node inside it answers instead (`nodeInside`):
    /// the office in the building, as Nominatim does.
    private func layerAnswers(_ point: Coordinate, layers: Set<ReverseLayer>, options: ReverseOptions, radius: Double,
                              containing: [AddressLevel: AddressHierarchy.Area]) throws -> [Found] {
        let featureRadius = options.radius ?? max(radius, ReverseLevel.poi.defaultRadius)
        let pois = layers.contains(.poi) && options.maxRank >= 30
        var found: [(found: Found, layer: Int)] = []
        let addresses = layers.contains(.address)
            ? try levelAnswers(point, level: options.level, maxRank: options.maxRank, radius: radius, containing: containing,
                               limit: options.limit)
            : []
        found += addresses.map { ($0, 0) }
        if pois {
            // A POI answers only nearer than the addresses and streets found (a tie goes to them): looked for no
            // farther. Every POI of a 500 m box was read otherwise, thousands in a city's centre (Helsinki +
            // cities500: 1.1 ms a reverse query instead of 50 µs).
            let poiRadius = addresses.count >= options.limit ? min(featureRadius, addresses.map(\.distance).max() ?? 0) : featureRadius
            found += try nearestFeatures(point, radius: poiRadius, limit: options.limit, wanted: Self.isPOI).map { ($0, 1) }
        }
        let features = layers.intersection(ReverseLayer.features)
        if !features.isEmpty && options.maxRank < ReverseLayer.streetRank {
            found += try areaFeatures(point, layers: features, options: options).map { ($0, 2) }
        } else if !features.isEmpty {
            found += try nearestFeatures(point, radius: featureRadius, limit: options.limit) { kind, category in
                ReverseLayer.feature(kind: kind, category: category).map(features.contains) == true
                    && (ReverseLayer.streetRank...options.maxRank).contains(ReverseLayer.rank(kind: kind, category: category))
            }.map { ($0, 2) }
        }
        // Each layer's answers keep their own order (a footway counts 15 m further than a street): merged by
        // the farthest distance so far in their layer.
        var farthest: [Int: Double] = [:]
        let merged = found.enumerated().map { index, item in
            let key = max(farthest[item.layer, default: 0], item.found.distance)
            farthest[item.layer] = key
            return (key: key, layer: item.layer, index: index, found: item.found)
        }.sorted { ($0.key, $0.layer, $0.index) < ($1.key, $1.layer, $1.index) }
        var seen = Set<Int64>()
        var answers = merged.map(\.found).filter { seen.insert($0.id).inserted }.prefix(options.limit).map { $0 }
        // Only a house's or a POI's area: a town or a country around the point answers for itself.
        if layers.contains(.address) || pois, let first = answers.first, first.distance == 0, first.match != .area, first.interpolated == nil,
           let node = try nodeInside(first.id, from: point, addresses: layers.contains(.address), pois: pois) {
            answers = Array(([node] + answers.filter { $0.id != node.id }).prefix(options.limit))
        }
        return answers
    }

    /// A POI as Nominatim's POI layer has them: ranked 30 (a shop, a viewpoint; no peak, park or river).
    private static func isPOI(_ kind: PlaceKind, _ category: String?) -> Bool {
        kind == .poi && ReverseLayer.rank(kind: kind, category: category) >= 30
    }

    /// The point nearest `point` inside the polygon of place `id`: in an area without a house number (school
    /// grounds, a heliport) a point with one (`addresses`: the school's house 6 m away rather than "the
    /// school", the ambulance station at Schifflände 2 rather than the heliport around it); in a
    /// building known only by its address a named POI (`pois`: the office in it, as Nominatim answers, but
    /// the store Stockmann, not the information desk in it) without a number of its own (it is at the
    /// building's) or with the building's (a shop tagged with another number belongs to another address).
    private func nodeInside(_ id: Int64, from point: Coordinate, addresses: Bool, pois: Bool) throws -> Found? {
        guard let geometry = try places.geometry(of: id), case .polygons(let polygons) = geometry,
              let box = geometry.boundingBox,
              let (kind, number) = try db.first("a place's kind and house number", "SELECT kind, housenumber FROM place WHERE id = ?1",
                                                [.integer(id)], { ($0.text(0), $0.text(1)) }) else { return nil }
        let pois = pois && kind == PlaceKind.address.rawValue, addresses = addresses && number == nil
        let rows = try db.rows("nodes in a box", """
            SELECT p.id, p.kind, p.category, p.housenumber, p.lat, p.lon FROM place_rtree r CROSS JOIN place p ON p.id = r.id
            WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.id <> ?5
              AND ((?6 AND p.kind = 'poi' AND p.name IS NOT NULL) OR (?7 AND p.housenumber IS NOT NULL))
              AND NOT EXISTS (SELECT 1 FROM place_geometry g WHERE g.place_id = p.id)
            """, box.sqlValues + [.integer(id), .integer(pois ? 1 : 0), .integer(addresses ? 1 : 0)]) { row in
            (row.int(0), try PlaceReader.kind(row.text(1), place: row.int(0), in: db.path), row.text(2), row.text(3),
             try row.coordinate(4, 5, place: row.int(0), in: db.path))
        }
        return rows.filter { _, kind, category, housenumber, at in
            let p7 = Point7(at)
            return (addresses && housenumber != nil || pois && Self.isPOI(kind, category))
                && (number == nil || housenumber == nil || housenumber == number)
                && polygons.contains { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }
        }.map { Found(id: $0.0, distance: point.distance(to: $0.4), building: id) }
        .min { ($0.distance, $0.id) < ($1.distance, $1.id) }
    }

    /// The features of `layers` coarser than a street (peaks, rivers, lakes, woods, parks) up to `maxRank`, as
    /// Nominatim picks them: within `ReverseLayer.areaFeatureReach` (or `radius`), an area only when the point
    /// lies in it, the finest rank first, then the nearest. Zoomed out to rank 19 a river 300 m away answers
    /// before a peak beside the point; at 18 the peak.
    private func areaFeatures(_ point: Coordinate, layers: Set<ReverseLayer>, options: ReverseOptions) throws -> [Found] {
        try nearestFeatures(point, radius: options.radius ?? ReverseLayer.areaFeatureReach, limit: options.limit, finestFirst: true) { kind, category in
            ReverseLayer.feature(kind: kind, category: category).map(layers.contains) == true
                && ReverseLayer.rank(kind: kind, category: category) < min(ReverseLayer.streetRank, options.maxRank + 1)
        }
    }

    /// Named POIs and features that `wanted` takes (by kind and raw category) within `radius`, nearest first,
    /// measured to their geometry (a river to its line, 0 inside a park or a lake). `finestFirst`: the finest
    /// rank first (`ReverseLayer.rank`), and an area only around the point.
    private func nearestFeatures(_ point: Coordinate, radius: Double, limit: Int, finestFirst: Bool = false,
                                 wanted: (PlaceKind, String?) -> Bool) throws -> [Found] {
        var found: [(found: Found, rank: Int)] = []
        let kinds = JSONText.array(ReverseLayer.featureKinds.map(\.rawValue))
        for box in BoundingBox.covering(radius: radius, around: point) {
            let rows = try db.rows("features near a point", """
                SELECT p.id, p.kind, p.category, p.lat, p.lon, g.geometry FROM place_rtree r CROSS JOIN place p ON p.id = r.id
                LEFT JOIN place_geometry g ON g.place_id = p.id
                WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.name IS NOT NULL
                  AND p.kind IN (SELECT value FROM json_each(?5))
                """, box.sqlValues + [.text(kinds)]) { row in
                (row.int(0), try PlaceReader.kind(row.text(1), place: row.int(0), in: db.path), row.text(2),
                 try row.coordinate(3, 4, place: row.int(0), in: db.path), row.blob(5))
            }
            for (id, kind, category, at, blob) in rows {
                guard wanted(kind, category) else { continue }
                let geometry = blob.flatMap(Geometry.init(encoded:))
                let distance = geometry?.distance(from: point) ?? point.distance(to: at)
                if finestFirst, case .polygons? = geometry, distance > 0 { continue }
                let rank = finestFirst ? ReverseLayer.rank(kind: kind, category: category) : 0
                if distance <= radius { found.append((Found(id: id, distance: distance), rank)) }
            }
        }
        return found.sorted { ($1.rank, $0.found.distance, $0.found.id) < ($0.rank, $1.found.distance, $1.found.id) }
            .prefix(limit).map(\.found)
    }

    /// A place found near the point: how far, how it matched, the house number interpolated there with its
    /// position on the line, the building a POI lies in.
    private struct Found {
        var id: Int64
        var distance: Double
        var match: MatchClass = .exact
        var interpolated: String?
        var at: Coordinate?
        /// The building a POI was found in (`nodeInside`), whose address it takes when it has none of its own.
        var building: Int64?
    }

    /// Nothing within reach: the smallest area containing the point, else, in a database without areas
    /// (a gazetteer), the nearest settlement at any distance (for an address, street, POI or city: a
    /// settlement is no state or country), else the country of the time zone at the point (as Nominatim's
    /// country grid answers a point far from its data); nothing outside every area and zone.
    private func fallback(_ point: Coordinate, level: ReverseLevel, containing: [AddressLevel: AddressHierarchy.Area],
                          limit: Int) throws -> [Found] {
        if let area = AddressLevel.nested.lazy.compactMap({ containing[$0] }).first {
            return [Found(id: area.placeID, distance: 0, match: .area)]
        }
        if !hierarchy.hasAreas && [.address, .street, .poi, .city].contains(level) {
            let settlements = try nearest.nearest(point, kinds: PlaceKind.settlements, radius: ReverseOptions.maxRadius, limit: limit)
            if !settlements.isEmpty { return settlements.map { Found(id: $0.id, distance: $0.distance, match: .nearest) } }
        }
        return try zoneCountry(at: point).map { [Found(id: $0, distance: 0, match: .area)] } ?? []
    }

    /// The country place of the time zone at `point` (`TimeZoneCountry`; a boundary's, or the one
    /// `ZoneCountryPlaces` made at import); nil without time zones, at sea or for a country no place is.
    private func zoneCountry(at point: Coordinate) throws -> Int64? {
        guard let zone = try timeZones.lookup()?.tzid(at: point), let code = TimeZoneCountry.code(ofZone: zone) else { return nil }
        return try db.first("the country place of a time zone", """
            SELECT id FROM place WHERE \(KindIndex.equals(.country)) AND country_code = ?1 ORDER BY admin_level IS NULL, id LIMIT 1
            """, [.text(code)]) { $0.int(0) }
    }

    /// Categories of places whose area is an "area of interest" to someone standing in it.
    static let areaOfInterestCategories: Set<String> = [
        "leisure=park", "leisure=garden", "leisure=nature_reserve", "leisure=stadium", "leisure=golf_course",
        "amenity=university", "amenity=college", "amenity=hospital", "amenity=school", "railway=station",
        "public_transport=station", "shop=mall", "aeroway=aerodrome", "tourism=zoo", "tourism=theme_park",
    ]

    /// The named water body and the areas of interest whose polygons contain the point, smallest first.
    private func surroundings(of point: Coordinate) throws -> (water: String?, areasOfInterest: [String]) {
        let p7 = Point7(point)
        let rows = try db.rows("areas of interest at a point", """
            SELECT p.kind, p.category, p.name, g.geometry FROM place_rtree r CROSS JOIN place p ON p.id = r.id
            CROSS JOIN place_geometry g ON g.place_id = p.id
            WHERE r.min_lon <= ?1 AND r.max_lon >= ?1 AND r.min_lat <= ?2 AND r.max_lat >= ?2
              AND p.name IS NOT NULL AND (p.kind = 'water' OR p.kind = 'poi') AND substr(g.geometry, 1, 1) = x'02'
            """, [.real(point.lon), .real(point.lat)]) { ($0.text(0), $0.text(1), $0.text(2) ?? "", $0.blob(3).flatMap(Geometry.init(encoded:))) }
        var water: (name: String, km2: Double)?
        var interests: [(name: String, km2: Double)] = []
        for (kind, category, name, geometry) in rows {
            guard case .polygons(let polygons)? = geometry,
                  polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) else { continue }
            let km2 = PolygonMath.areaKm2(polygons)
            if kind == PlaceKind.water.rawValue {
                if water.map({ km2 < $0.km2 }) ?? true { water = (name, km2) }
            } else if let category, Self.areaOfInterestCategories.contains(category) {
                interests.append((name, km2))
            }
        }
        var seen = Set<String>()
        return (water?.name, interests.sorted { $0.km2 < $1.km2 }.map(\.name).filter { seen.insert($0).inserted })
    }

    /// Addresses (points, buildings, interpolation lines) within `radius`, nearest first, measured to the
    /// point, into the building (0 inside) or to the line (with the interpolated number there).
    private func nearestAddresses(_ point: Coordinate, radius: Double, limit: Int) throws -> [Found] {
        var found: [Found] = []
        for box in BoundingBox.covering(radius: radius, around: point) {
            let rows = try db.rows("addresses near a point", """
                SELECT p.id, p.lat, p.lon, p.kind, p.housenumber, g.geometry, p.category FROM place_rtree r JOIN place p ON p.id = r.id
                LEFT JOIN place_geometry g ON g.place_id = p.id
                WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.housenumber IS NOT NULL
                """, box.sqlValues) { row in
                (row.int(0), try row.coordinate(1, 2, place: row.int(0), in: db.path), try PlaceReader.kind(row.text(3), place: row.int(0), in: db.path),
                 row.text(4) ?? "", row.blob(5).flatMap(Geometry.init(encoded:)), row.text(6).map(SourceCategory.init))
            }
            for (id, at, kind, number, geometry, category) in rows {
                if kind == .interpolation, case .lineStrings(let lines)? = geometry, let line = lines.first {
                    let distance = LineMath.distance(from: point, to: line).distance
                    guard distance <= radius,
                          let house = InterpolationLine(numbers: number, category: category, line: line)?
                            .number(nearest: point) else { continue }
                    found.append(Found(id: id, distance: distance, interpolated: String(house.number), at: house.at))
                } else {
                    let distance = geometry?.distance(from: point) ?? point.distance(to: at)
                    if distance <= radius { found.append(Found(id: id, distance: distance)) }
                }
            }
        }
        return Array(found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(limit))
    }

    /// Named streets within `radius`, nearest first by distance to their geometry; paths, footways and
    /// service roads count 15 m further, so a named street nearly as close wins.
    private func nearestStreets(_ point: Coordinate, radius: Double, limit: Int) throws -> [Found] {
        // Most points have a street close by: look near first, so few street geometries are decoded.
        for reach in [min(radius, 75), min(radius, 250)] where reach < radius {
            let found = try streets(point, radius: reach, limit: limit)
            // A minor street found within `reach` could still lose to a major one up to 15 m further.
            if found.count >= limit, let last = found.last, last.distance + 15 <= reach { return found }
        }
        return try streets(point, radius: radius, limit: limit)
    }

    /// Streets whose box meets ?1…?4 (min lon, min lat, max lon, max lat), with their geometry. CROSS JOIN
    /// keeps the R*Tree the outer loop: with a gazetteer beside a city, SQLite's planner otherwise scanned
    /// every geometry and probed the R*Tree per row (measured: 500 µs instead of 50 per reverse query).
    static let streetsInBoxSQL = """
        SELECT p.id, p.category, g.geometry FROM place_rtree r CROSS JOIN place p ON p.id = r.id
        CROSS JOIN place_geometry g ON g.place_id = p.id
        WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2 AND p.kind = 'street'
        """

    /// Paths, footways and service roads: they lose to a named street up to 15 m further.
    private static let minorStreets: Set<String> = ["highway=footway", "highway=path", "highway=cycleway", "highway=steps",
                                                    "highway=service", "highway=track", "highway=bridleway", "highway=pedestrian"]

    private func streets(_ point: Coordinate, radius: Double, limit: Int) throws -> [Found] {
        var found: [(id: Int64, distance: Double, rankDistance: Double)] = []
        for box in BoundingBox.covering(radius: radius, around: point) {
            let rows = try db.rows("streets near a point", Self.streetsInBoxSQL, box.sqlValues) {
                ($0.int(0), $0.text(1) ?? "", $0.blob(2).flatMap(Geometry.init(encoded:)))
            }
            for (id, category, geometry) in rows {
                guard let geometry else { continue }
                let distance = geometry.distance(from: point)
                if distance <= radius { found.append((id, distance, distance + (Self.minorStreets.contains(category) ? 15 : 0))) }
            }
        }
        return found.sorted { ($0.rankDistance, $0.id) < ($1.rankDistance, $1.id) }.prefix(limit).map { Found(id: $0.id, distance: $0.distance) }
    }
}
