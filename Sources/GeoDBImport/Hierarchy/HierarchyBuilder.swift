// Where every place of an import lies: the administrative and postal areas containing it (from the
// boundaries, which an OSM file has last) and, for levels no boundary gives, the nearest place node of
// that level. Writes `area`, `area_set`, `place_area_set` and the words of the places the sets name
// (`area_name_fts`, what "…, Town" in a search matches), and makes postcode places from addresses.
import Foundation
import GeoDB
import GeoDBSQLite

/// The address hierarchy of the places of one import (docs/SCHEMA.md, "Address hierarchy").
final class HierarchyBuilder {
    /// An area a place can lie in.
    private struct Area {
        var id: Int64
        var placeID: Int64
        var level: AddressLevel
        var countryCode: String?
        /// For postal areas: the code.
        var postcode: String?
        /// Square kilometres: of two areas of one level containing a place, the smaller is its.
        var km2: Double
    }

    /// A place node that can stand in for a level no boundary gives (the nearest within reach).
    private struct LevelNode {
        var placeID: Int64
        var kind: PlaceKind
        var point: Coordinate
        /// The city-level area the node lies in, if any: a suburb node serves only places of its city.
        var cityArea: Int64?
        var countryCode: String?
    }

    /// A place of this import, as the hierarchy needs it.
    private struct NewPlace {
        var id: Int64
        var sourceID: Int64
        var kind: PlaceKind
        var point: Coordinate
        /// Its own addr:* parts.
        var postcode: String?, city: String?, countryCode: String?
    }

    private struct PostcodeKey: Hashable {
        var countryCode: String?
        var code: String
    }

    /// The addresses that give one postcode: where they are and how often each city goes with it.
    private final class PostcodeUse {
        private var count = 0
        private var latSum = 0.0, lonSum = 0.0
        /// Every `stride`-th point, at most `sampleSize`: a country's addresses need not fit in memory.
        private var sample: [Coordinate] = []
        private var stride = 1
        private static let sampleSize = 256
        /// A code goes with few cities: a list, not a dictionary that hashes the name per address.
        private var cities: [(name: String, count: Int)] = []

        func add(_ point: Coordinate, city: String?) {
            if count % stride == 0 {
                if sample.count == Self.sampleSize {
                    sample = Self.everyOther(sample)
                    stride *= 2
                }
                if count % stride == 0 { sample.append(point) }
            }
            count += 1
            latSum += point.lat
            lonSum += point.lon
            guard let city else { return }
            if let i = cities.firstIndex(where: { $0.name == city }) {
                cities[i].count += 1
            } else {
                cities.append((city, 1))
            }
        }

        /// Takes in the addresses of `other`.
        func absorb(_ other: PostcodeUse) {
            count += other.count
            latSum += other.latSum
            lonSum += other.lonSum
            sample += other.sample
            while sample.count > Self.sampleSize { sample = Self.everyOther(sample) }
            for city in other.cities {
                if let i = cities.firstIndex(where: { $0.name == city.name }) {
                    cities[i].count += city.count
                } else {
                    cities.append(city)
                }
            }
        }

        private static func everyOther(_ points: [Coordinate]) -> [Coordinate] {
            points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }

        /// The sampled address nearest the middle of all of them.
        var point: Coordinate? {
            guard count > 0 else { return nil }
            let middle = Coordinate(lat: latSum / Double(count), lon: lonSum / Double(count))
            return sample.min { $0.distance(to: middle) < $1.distance(to: middle) }
        }

        /// The city named most often with the code.
        var city: String? { cities.max { ($0.count, $1.name) < ($1.count, $0.name) }?.name }
    }

    /// The areas around one place, as `area_set` stores them.
    private struct AreaSetKey: Hashable {
        var ids: [Int64?]   // neighbourhood, suburb, city, county, state, country (place ids)
        var postcode: String?
        var countryCode: String?
        var fromNodes: String?
    }

    private let writer: PlaceWriter
    /// The OSM sources of this import: their addresses make postcode places, and their place nodes stand
    /// in for levels no boundary gives (a gazetteer's places carry their state and country themselves, and a
    /// CSV file's rows are what its user listed, no more).
    private let osmSources: Set<Int64>
    private var usesPlaceNodes: Bool { !osmSources.isEmpty }
    private let adminLevels = AdminLevels.standard
    private var areas: [Area] = []
    private var polygons: PolygonSet?
    private var levelNodes: [AddressLevel: (grid: PointGrid, nodes: [Int64: LevelNode])] = [:]
    /// The areas each area place is (a city-state is two).
    private var levelsOfPlace: [Int64: [AddressLevel]] = [:]
    private var sets: [AreaSetKey: Int64] = [:]
    private var nextSetID: Int64 = 1
    /// Where the addresses of each postcode of this import are, by (country, code).
    private var postcodeUses: [PostcodeKey: PostcodeUse] = [:]

    /// How far to look for a place node standing in for a missing level (`PlaceReach`): only the levels
    /// below a county have stand-ins.
    static func reach(of level: AddressLevel) -> Double {
        switch level {
        case .city, .suburb, .neighbourhood: PlaceReach.metres(level) ?? 0
        default: 0
        }
    }

    /// Stand-in place nodes found so far, by level, filters and cell: places of a block share them.
    private var nearestCache: [NearestKey: Int64?] = [:]

    init(writer: PlaceWriter, osmSources: Set<Int64>) {
        self.writer = writer
        self.osmSources = osmSources
    }

    /// Assigns the places of this import their areas. `extraLevels`: places that are areas of a second
    /// level too (a city-state, from `PlaceMerger`).
    func run(extraLevels: [Int64: [AddressLevel]]) throws {
        try writer.flushNames()
        try loadAreas(extraLevels: extraLevels)
        try loadLevelNodes()
        // Nothing can lie in anything: no area, and no place nodes or addresses to use (a gazetteer alone).
        guard !areas.isEmpty || usesPlaceNodes else { return }
        nextSetID = (try writer.db.scalarInt("SELECT max(id) FROM area_set") ?? 0) + 1
        // One pass over the places, in id order, writing as it goes: memory holds the areas and caches, not
        // the places.
        let placeSets = try PlaceAreaSetWriter(db: writer.db)
        try forEachNewPlace { place in
            let set = areaSet(of: place.id, kind: place.kind, at: place.point, ownCountry: place.countryCode)
            if let code = place.postcode, osmSources.contains(place.sourceID) {
                collectPostcode(code, at: place.point, city: place.city, country: set?.countryCode ?? place.countryCode)
            }
            if let set { try placeSets.add(place: place.id, set: set.id) }
        }
        for place in try addPostcodePlaces() {
            if let set = areaSet(of: place.id, kind: .postcode, at: place.point, ownCountry: place.country) {
                try placeSets.add(place: place.id, set: set.id)
            }
        }
        try placeSets.finish()
        try writeSets()
        try indexAreaNames()
    }

    // MARK: areas

    /// The areas of the database (an append keeps those of earlier imports) and of this import's boundaries.
    private func loadAreas(extraLevels: [Int64: [AddressLevel]]) throws {
        let db = writer.db
        var rings: [[[Point7]]] = []   // the outer ring and holes of each polygon part, in `owners` order
        var owners: [Int32] = []
        defer { polygons = PolygonSet(polygons: zip(rings, owners).map { IndexedPolygon(owner: $1, rings: $0) }) }
        func addPolygons(_ parts: [[[Point7]]], of area: Int) -> Double {
            for part in parts where (part.first?.count ?? 0) >= 3 {
                rings.append(part)
                owners.append(Int32(area))
            }
            return PolygonMath.areaKm2(parts)
        }
        func decoded(_ blob: [UInt8]?) -> [[[Point7]]] {
            guard let blob, case .polygons(let parts)? = Geometry(encoded: blob) else { return [] }
            return parts
        }
        let old = try db.prepare("""
            SELECT a.id, a.place_id, a.level, a.country_code, p.postcode, g.geometry
            FROM area a JOIN place p ON p.id = a.place_id JOIN place_geometry g ON g.place_id = a.place_id
            """)
        while try old.step() {
            guard let level = AddressLevel(rawValue: old.text(2) ?? "") else { continue }
            let km2 = addPolygons(decoded(old.blob(5)), of: areas.count)
            levelsOfPlace[old.int(1), default: []].append(level)
            areas.append(Area(id: old.int(0), placeID: old.int(1), level: level, countryCode: old.text(3),
                              postcode: level == .postcode ? old.text(4) : nil, km2: km2))
        }
        // This import's: administrative boundaries (and places that took one over), postal boundaries. Only
        // OSM files have polygons.
        guard usesPlaceNodes else { return }
        struct New { var placeID: Int64, kind: PlaceKind, category: String?, adminLevel: Int?, country: String?, postcode: String?,
                     name: String?, point: Coordinate, polygons: [[[Point7]]] }
        var found: [New] = []
        let rows = try db.prepare("""
            SELECT p.id, p.kind, p.category, p.admin_level, p.country_code, p.postcode, p.name, p.lat, p.lon, g.geometry
            FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE p.id IN (SELECT value FROM json_each(?1)) AND (p.admin_level IS NOT NULL OR p.kind = 'postcode')
              AND substr(g.geometry, 1, 1) = x'02'
            ORDER BY p.id
            """)
        try rows.bind([.text(JSONText.array(writer.areaLikeIDs))])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(1) ?? "") else { continue }
            found.append(New(placeID: rows.int(0), kind: kind, category: rows.text(2),
                             adminLevel: rows.isNull(3) ? nil : Int(rows.int(3)), country: rows.text(4), postcode: rows.text(5),
                             name: rows.text(6), point: try rows.coordinate(7, 8, place: rows.int(0), in: writer.db.path),
                             polygons: decoded(rows.blob(9))))
        }
        // Countries first: the others take their country from the one they lie in.
        var countryPolygons: [IndexedPolygon] = []
        var countryCodes: [String?] = []
        for place in found where place.adminLevel == 2 {
            for part in place.polygons where (part.first?.count ?? 0) >= 3 {
                countryPolygons.append(IndexedPolygon(owner: Int32(countryCodes.count), rings: part))
            }
            countryCodes.append(place.country)
        }
        let countrySet = PolygonSet(polygons: countryPolygons)
        func country(at point: Coordinate) -> String? {
            var code: String?
            try? countrySet.forEachContaining(Point7(point)) { polygon in code = code ?? countryCodes[Int(polygon.owner)] }
            return code
        }
        var nextAreaID = (try db.scalarInt("SELECT max(id) FROM area") ?? 0) + 1
        let insert = try db.prepare("INSERT INTO area(id, place_id, level, admin_level, country_code) VALUES (?, ?, ?, ?, ?)")
        for place in found {
            let code = place.country ?? country(at: place.point)
            var levels: [AddressLevel]
            if place.kind == .postcode {
                levels = [.postcode]
            } else if let adminLevel = place.adminLevel, let level = adminLevels.level(adminLevel: adminLevel, country: code) {
                levels = [level]
                try correctKind(of: place.placeID, kind: place.kind, category: place.category, adminLevel: adminLevel, level: level)
            } else {
                levels = []
            }
            levels += extraLevels[place.placeID] ?? []
            for level in levels {
                levelsOfPlace[place.placeID, default: []].append(level)
                let km2 = addPolygons(place.polygons, of: areas.count)
                areas.append(Area(id: nextAreaID, placeID: place.placeID, level: level, countryCode: code,
                                  postcode: level == .postcode ? place.postcode ?? place.name : nil, km2: km2))
                try insert.run([.integer(nextAreaID), .integer(place.placeID), .text(level.rawValue),
                                place.adminLevel.map { .integer(Int64($0)) } ?? .null, code.map { .text($0) } ?? .null])
                if let box = Geometry.polygons(place.polygons).boundingBox { try writer.addArea(nextAreaID, box: box) }
                nextAreaID += 1
            }
        }
    }

    /// A boundary whose kind came from the default meaning of its admin_level gets the kind of the level it
    /// has in its country (a `county` where the default would say `state`), so results and filters agree.
    private func correctKind(of place: Int64, kind: PlaceKind, category: String?, adminLevel: Int, level: AddressLevel) throws {
        guard category == "boundary=administrative", kind == OSMClassifier.kind(forAdminLevel: adminLevel),
              let wanted = PlaceKind(rawValue: level.rawValue), wanted != kind else { return }
        try writer.db.prepare("UPDATE place SET kind = ?2, rank = ?3 WHERE id = ?1")
            .run([.integer(place), .text(wanted.rawValue), .integer(Int64(wanted.rank))])
    }

    /// Place nodes that can stand in for a level where no boundary gives it: settlements for the city,
    /// suburbs, neighbourhoods (not those that are areas themselves).
    private func loadLevelNodes() throws {
        guard usesPlaceNodes else { return }
        var byLevel: [AddressLevel: [LevelNode]] = [:]
        func add(_ id: Int64, _ kind: PlaceKind, _ point: Coordinate, _ countryCode: String?) {
            guard levelsOfPlace[id] == nil, let level = kind.addressLevel else { return }
            let containing = containingAreas(point)
            byLevel[level, default: []].append(LevelNode(placeID: id, kind: kind, point: point,
                                                         cityArea: containing[AddressLevel.city.ordinal]?.placeID,
                                                         countryCode: countryCode ?? containing[AddressLevel.country.ordinal]?.countryCode))
        }
        // Earlier imports' (an append) and this import's.
        let rows = try writer.db.prepare("""
            SELECT id, kind, lat, lon, country_code FROM place
            WHERE (id < ?1 OR id IN (SELECT value FROM json_each(?2)))
              AND kind IN ('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood')
            """)
        try rows.bind([.integer(writer.firstID), .text(JSONText.array(writer.areaLikeIDs))])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(1) ?? "") else { continue }
            add(rows.int(0), kind, try rows.coordinate(2, 3, place: rows.int(0), in: writer.db.path), rows.text(4))
        }
        for (level, nodes) in byLevel {
            let grid = PointGrid(points: nodes.map { ($0.placeID, $0.point) })
            levelNodes[level] = (grid, Dictionary(nodes.map { ($0.placeID, $0) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The areas containing a point: the smallest of each level, indexed by `AddressLevel.allCases`.
    private typealias Levels = [Area?]

    /// What a cell of 1/256° holds: the areas wholly around it and those whose edges cross it (to test
    /// each point against); where none crosses it, the areas of every point in it.
    private struct CellAreas {
        var around: [Int32]
        var crossing: [IndexedPolygon]
        var whole: Levels?
    }

    private var cells: [CellKey: CellAreas] = [:]
    private static let cachedCells = 100_000

    /// Ordinary places (not areas, not place nodes) with the same own country code in the same part of a
    /// cell (inside the same of its crossing polygons, bit i for `crossing[i]`) have the same area set.
    private struct OrdinaryPosition: Hashable {
        var cell: CellKey
        var inside: UInt64
        var ownCountry: String?
    }

    private var ordinarySets: [OrdinaryPosition: AssignedSet?] = [:]

    /// An `area_set` row a place is given, and its country.
    private struct AssignedSet {
        var id: Int64
        var countryCode: String?
    }

    /// A cell of 1/256° (about 430 m north-south): points in one share their areas when no area's edge
    /// crosses it, and their stand-in place nodes.
    private struct CellKey: Hashable {
        var row: Int32, column: Int32
        static let degrees = 1.0 / 256

        init(_ point: Coordinate) {
            row = Int32(((point.lat + 90) / Self.degrees).rounded(.down))
            column = Int32(((point.lon + 180) / Self.degrees).rounded(.down))
        }

        /// The cell in 1e-7°, a unit larger on every side than the points that fall in it (1/256° is not a
        /// whole number of units).
        var box: Box7 {
            let size = 1e7 * Self.degrees
            func units(_ value: Double) -> Int32 { Int32(max(-2e9, min(2e9, value.rounded(.down)))) }
            let minX = units(Double(column) * size - 1_800_000_000) - 1
            let minY = units(Double(row) * size - 900_000_000) - 1
            return Box7(minX: minX, minY: minY, maxX: minX + Int32(size.rounded(.up)) + 2, maxY: minY + Int32(size.rounded(.up)) + 2)
        }

        var middle: Coordinate {
            Coordinate(lat: (Double(row) + 0.5) * Self.degrees - 90, lon: (Double(column) + 0.5) * Self.degrees - 180)
        }
    }

    /// The areas of a cell, decided once: a polygon no edge of which meets the cell holds all of it or none of it.
    private func cellAreas(_ cell: CellKey) -> CellAreas {
        if let known = cells[cell] { return known }
        let box = cell.box
        let middle = Point7(cell.middle)
        var found = CellAreas(around: [], crossing: [], whole: nil)
        try? polygons?.forEachPolygon(meeting: box) { polygon in
            if polygon.edgesMeet(box) {
                found.crossing.append(polygon)
            } else if polygon.contains(lon: middle.lon, lat: middle.lat) {
                found.around.append(polygon.owner)
            }
        }
        if found.crossing.isEmpty { found.whole = smallest(found.around) }
        if cells.count == Self.cachedCells {
            // Places come in id order, not by place: a country's cells need not all stay in memory.
            cells.removeAll(keepingCapacity: true)
            ordinarySets.removeAll(keepingCapacity: true)
            nearestCache.removeAll(keepingCapacity: true)
        }
        cells[cell] = found
        return found
    }

    /// The smallest area of each level containing `point` (of the country containing it, when one does).
    private func containingAreas(_ point: Coordinate) -> Levels {
        let areas = cellAreas(CellKey(point))
        if let whole = areas.whole { return whole }
        let p = Point7(point)
        return smallest(areas.around + areas.crossing.lazy.filter { $0.contains(lon: p.lon, lat: p.lat) }.map(\.owner))
    }

    /// Of the areas `owners`, the smallest of each level, less those of another country than the country's.
    private func smallest(_ owners: [Int32]) -> Levels {
        var levels = Levels(repeating: nil, count: AddressLevel.allCases.count)
        for owner in owners {
            let area = areas[Int(owner)]
            let i = area.level.ordinal
            if let current = levels[i], current.km2 <= area.km2 { continue }
            levels[i] = area
        }
        if let country = levels[AddressLevel.country.ordinal]?.countryCode {
            for i in levels.indices where levels[i]?.countryCode.map({ $0 != country }) == true { levels[i] = nil }
        }
        return levels
    }

    // MARK: the places

    /// Calls `body` with each place of this import, in id order.
    private func forEachNewPlace(_ body: (NewPlace) throws -> Void) throws {
        let rows = try writer.db.prepare("""
            SELECT id, source_id, kind, lat, lon, postcode, city, country_code FROM place WHERE id >= ?1 ORDER BY id
            """)
        try rows.bind([.integer(writer.firstID)])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(2) ?? "") else { continue }
            try body(NewPlace(id: rows.int(0), sourceID: rows.int(1), kind: kind, point: try rows.coordinate(3, 4, place: rows.int(0), in: writer.db.path),
                              postcode: rows.text(5), city: rows.text(6), countryCode: rows.text(7)))
        }
    }

    /// The area set of a place; nil when it lies in no area and no place node stands in for one.
    private func areaSet(of place: Int64, kind: PlaceKind, at point: Coordinate, ownCountry: String?) -> AssignedSet? {
        func assign(_ key: AreaSetKey?) -> AssignedSet? { key.map { AssignedSet(id: setID($0), countryCode: $0.countryCode) } }
        let ownLevels = levelsOfPlace[place] ?? []
        let cell = CellKey(point)
        let areas = cellAreas(cell)
        // Most places (addresses, POIs, streets) are ordinary: they share the set of their part of the cell.
        guard ownLevels.isEmpty, kind.addressLevel == nil, areas.crossing.count <= UInt64.bitWidth else {
            return assign(computeAreaSet(of: place, kind: kind, at: point, ownCountry: ownCountry, ownLevels: ownLevels,
                                         levels: containingAreas(point)))
        }
        let p = Point7(point)
        var inside: UInt64 = 0
        for (i, polygon) in areas.crossing.enumerated() where polygon.contains(lon: p.lon, lat: p.lat) { inside |= 1 << i }
        let position = OrdinaryPosition(cell: cell, inside: inside, ownCountry: ownCountry)
        if let known = ordinarySets[position] { return known }
        let levels = areas.whole ?? smallest(areas.around + areas.crossing.indices.filter { inside & (1 << $0) != 0 }.map { areas.crossing[$0].owner })
        let set = assign(computeAreaSet(of: place, kind: kind, at: point, ownCountry: ownCountry, ownLevels: ownLevels, levels: levels))
        ordinarySets[position] = .some(set)
        return set
    }

    /// The areas around a place from the areas containing its point (`levels`) and, for levels they lack,
    /// stand-in place nodes.
    private func computeAreaSet(of place: Int64, kind: PlaceKind, at point: Coordinate, ownCountry: String?,
                                ownLevels: [AddressLevel], levels: Levels) -> AreaSetKey? {
        var levels = levels
        func area(_ level: AddressLevel) -> Area? { levels[level.ordinal] }
        // An area lies in the areas above it, not in itself or its neighbours of the same level.
        if let smallest = AddressLevel.nested.firstIndex(where: ownLevels.contains) {
            for level in AddressLevel.nested[...smallest] { levels[level.ordinal] = nil }
        }
        if ownLevels.contains(.postcode) { levels[AddressLevel.postcode.ordinal] = nil }
        // Nor in itself at a second level (a city-state is its country too).
        for i in levels.indices where levels[i]?.placeID == place { levels[i] = nil }
        var ids = AddressLevel.nested.map { area($0)?.placeID }
        var fromNodes: [AddressLevel] = []
        // The country around it over its own addr:country, which is wrong more often than a boundary (CH in Vaduz).
        let countryCode = area(.country)?.countryCode ?? AddressLevel.nested.lazy.compactMap({ area($0)?.countryCode }).first ?? ownCountry
        if usesPlaceNodes && ownLevels.isEmpty {
            // A place node stands in only for levels above its own: a suburb gets a city, a town none.
            let rank = kind.addressLevel.flatMap { AddressLevel.nested.firstIndex(of: $0) } ?? -1
            func wanted(_ level: AddressLevel) -> Bool {
                let i = AddressLevel.nested.firstIndex(of: level)!
                return ids[i] == nil && i > rank
            }
            func set(_ level: AddressLevel, _ node: Int64) {
                ids[AddressLevel.nested.firstIndex(of: level)!] = node
                fromNodes.append(level)
            }
            let cityArea = area(.city)?.placeID
            if wanted(.city), let node = nearestNode(.city, to: point, except: place, country: countryCode) { set(.city, node) }
            // Where no suburb is mapped, a village or town in the same municipality is the part of it a
            // place lies in (Malbun and Steg in Triesenberg).
            if wanted(.suburb), let node = nearestNode(.suburb, to: point, except: place, country: countryCode, city: cityArea)
                ?? cityArea.flatMap({ nearestNode(.city, to: point, except: place, country: countryCode, city: $0, villages: true) }) {
                set(.suburb, node)
            }
            if wanted(.neighbourhood),
               let node = nearestNode(.neighbourhood, to: point, except: place, country: countryCode, city: cityArea) {
                set(.neighbourhood, node)
            }
        }
        // No area around it: its country code, if any, is its own (a gazetteer's place), no set needed.
        guard ids.contains(where: { $0 != nil }) || area(.postcode) != nil else { return nil }
        return AreaSetKey(ids: ids, postcode: area(.postcode)?.postcode, countryCode: countryCode,
                          fromNodes: fromNodes.isEmpty ? nil : fromNodes.map(\.rawValue).joined(separator: ","))
    }

    /// What a stand-in lookup asked, per cell.
    private struct NearestKey: Hashable {
        var level: AddressLevel
        var cell: CellKey
        var country: String?
        var city: Int64?
        var villages: Bool
    }

    /// The nearest place node of `level` within its kind's reach, in the same country (and city area, when
    /// given), other than `place` itself; with `villages`, the nearest village or town within 2 km. Looked
    /// up once per cell (from its middle): these nodes stand for areas nobody mapped, so their reach is no
    /// finer than that anyway.
    private func nearestNode(_ level: AddressLevel, to point: Coordinate, except place: Int64, country: String?,
                             city: Int64? = nil, villages: Bool = false) -> Int64? {
        guard let (grid, nodes) = levelNodes[level] else { return nil }
        let kinds: Set<PlaceKind>? = villages ? [.town, .village] : nil
        let limit = villages ? 2_000 : Self.reach(of: level)
        if nodes[place] != nil {
            // A place node itself: exact, and never its own stand-in.
            return nearestNode(level, grid: grid, nodes: nodes, to: point, except: place, country: country, city: city,
                               within: limit, kinds: kinds)
        }
        let key = NearestKey(level: level, cell: CellKey(point), country: country, city: city, villages: villages)
        if let cached = nearestCache[key] { return cached }
        let found = nearestNode(level, grid: grid, nodes: nodes, to: key.cell.middle, except: place, country: country, city: city,
                                within: limit, kinds: kinds)
        nearestCache[key] = .some(found)
        return found
    }

    private func nearestNode(_ level: AddressLevel, grid: PointGrid, nodes: [Int64: LevelNode], to point: Coordinate,
                             except place: Int64, country: String?, city: Int64?, within limit: Double,
                             kinds: Set<PlaceKind>?) -> Int64? {
        for (id, distance) in grid.nearest(point, radius: limit, limit: 8) where id != place {
            guard let node = nodes[id], distance <= PlaceReach.metres(node.kind) ?? 0, kinds?.contains(node.kind) ?? true else { continue }
            if let country, let other = node.countryCode, other != country { continue }
            if let city, node.cityArea != city { continue }
            return id
        }
        return nil
    }

    private func setID(_ key: AreaSetKey) -> Int64 {
        if let id = sets[key] { return id }
        let id = nextSetID
        nextSetID += 1
        sets[key] = id
        return id
    }

    // MARK: postcodes

    /// Remembers a place's own postcode: codes with no postal area become postcode places (`addPostcodePlaces`).
    private func collectPostcode(_ code: String, at point: Coordinate, city: String?, country: String?) {
        let key = PostcodeKey(countryCode: country, code: code)
        let use: PostcodeUse
        if let known = postcodeUses[key] {
            use = known
        } else {
            use = PostcodeUse()
            postcodeUses[key] = use
        }
        use.add(point, city: city)
    }

    /// A place of kind postcode for each postcode of this import's addresses that has none (no postal
    /// boundary, no earlier import): at the address nearest the middle of its addresses, so that "9490"
    /// and "949" (by prefix) find it.
    private func addPostcodePlaces() throws -> [(id: Int64, point: Coordinate, country: String?)] {
        let earlier = try writer.db.prepare("SELECT name, country_code FROM place WHERE id < ?1 AND kind = 'postcode'")
            .rows([.integer(writer.firstID)]) { PostcodeKey(countryCode: $0.text(1), code: $0.text(0) ?? "") }
        var known = Set(earlier)
        for area in areas where area.level == .postcode {
            if let code = area.postcode { known.insert(PostcodeKey(countryCode: area.countryCode, code: code)) }
        }
        // Addresses without a country (no country boundary, no addr:country) go with the one country their code
        // has elsewhere in the import.
        let countriesOfCode = Dictionary(grouping: postcodeUses.keys.filter { $0.countryCode != nil }, by: \.code)
        for key in postcodeUses.keys where key.countryCode == nil {
            guard let countries = countriesOfCode[key.code], countries.count == 1, let use = postcodeUses[key] else { continue }
            postcodeUses[countries[0]]?.absorb(use)
            postcodeUses[key] = nil
        }
        // They belong to the last OSM source (a merged file's addresses are all in one).
        guard let source = osmSources.max() else { return [] }
        let current = writer.sourceID
        writer.sourceID = source
        defer { writer.sourceID = current }
        var added: [(id: Int64, point: Coordinate, country: String?)] = []
        let order: (PostcodeKey, PostcodeKey) -> Bool = { ($0.countryCode ?? "", $0.code) < ($1.countryCode ?? "", $1.code) }
        for key in postcodeUses.keys.sorted(by: order) where !known.contains(key) {
            guard let use = postcodeUses[key], let point = use.point else { continue }
            let id = try writer.insert(PlaceRecord(
                sourceRef: "postcode:" + key.code, kind: .postcode, category: nil, name: key.code,
                names: [PlaceName(name: key.code, type: "postcode")], coordinate: point,
                address: Address(postcode: key.code, city: use.city, countryCode: key.countryCode)))
            added.append((id, point, key.countryCode))
        }
        try SourceRow.countPlaces(added.count, ofSource: source, in: writer.db)
        return added
    }

    // MARK: writing

    private func writeSets() throws {
        let db = writer.db
        let insertSet = try db.prepare("""
            INSERT INTO area_set(id, neighbourhood_id, suburb_id, city_id, county_id, state_id, country_id, postcode,
                                 country_code, from_nodes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // A place can be two levels of one set (a city-state is its country and its city): one member row.
        let insertMember = try db.prepare("INSERT OR IGNORE INTO area_set_member(place_id, area_set_id) VALUES (?, ?)")
        for (key, id) in sets.sorted(by: { $0.value < $1.value }) {
            try insertSet.run([.integer(id)] + key.ids.map { $0.map { .integer($0) } ?? .null }
                              + [key.postcode.map { .text($0) } ?? .null, key.countryCode.map { .text($0) } ?? .null,
                                 key.fromNodes.map { .text($0) } ?? .null])
            for place in key.ids.compactMap({ $0 }) { try insertMember.run([.integer(place), .integer(id)]) }
        }
    }

    /// Indexes the words of every place the new sets name (not yet indexed by an earlier import): every
    /// name but old names and postcodes, in every language, folded as queries fold theirs, each word once.
    /// Per place, not per set: a city's hundred names are written once, not once per set of the city.
    private func indexAreaNames() throws {
        let db = writer.db
        var ids = Set(sets.keys.flatMap { $0.ids.compactMap { $0 } })
        guard !ids.isEmpty else { return }
        let idList: SQLiteValue = .text(JSONText.array(ids))
        ids.subtract(try db.prepare("SELECT id FROM area_name_fts_docsize WHERE id IN (SELECT value FROM json_each(?1))")
            .rows([idList]) { $0.int(0) })
        var names: [Int64: [String]] = [:]
        let rows = try db.prepare("""
            SELECT place_id, name FROM place_name
            WHERE place_id IN (SELECT value FROM json_each(?1)) AND type NOT IN ('old_name', 'postcode') ORDER BY rowid
            """)
        try rows.bind([.text(JSONText.array(ids))])
        while try rows.step() { names[rows.int(0), default: []].append(rows.text(1) ?? "") }
        let insert = try db.prepare("INSERT INTO area_name_fts(rowid, words) VALUES (?, ?)")
        for (id, names) in names.sorted(by: { $0.key < $1.key }) {
            var seen = Set<String>()
            let words = names.flatMap { TextNormalizer.tokens($0) + TextNormalizer.indexAlternatives($0) }.filter { seen.insert($0).inserted }
            try insert.run([.integer(id), .text(words.joined(separator: " "))])
        }
    }
}

/// Writes `place_area_set` rows many per statement: one statement per row cost as much again in
/// statement overhead (callgrind, Liechtenstein: 58 → 36 M instructions).
private final class PlaceAreaSetWriter {
    private static let batch = 128
    private let insertBatch: Statement
    private let insertOne: Statement
    private var pending: [(place: Int64, set: Int64)] = []

    init(db: Connection) throws {
        insertBatch = try db.prepare("INSERT INTO place_area_set(place_id, area_set_id) VALUES "
                                     + Array(repeating: "(?, ?)", count: Self.batch).joined(separator: ", "))
        insertOne = try db.prepare("INSERT INTO place_area_set(place_id, area_set_id) VALUES (?, ?)")
        pending.reserveCapacity(Self.batch)
    }

    func add(place: Int64, set: Int64) throws {
        pending.append((place, set))
        guard pending.count == Self.batch else { return }
        for (i, row) in pending.enumerated() {
            try insertBatch.bind(Int32(2 * i + 1), row.place)
            try insertBatch.bind(Int32(2 * i + 2), row.set)
        }
        try insertBatch.step()
        insertBatch.reset()
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the rows of a last, partial batch.
    func finish() throws {
        for row in pending {
            try insertOne.bind(1, row.place)
            try insertOne.bind(2, row.set)
            try insertOne.step()
            insertOne.reset()
        }
        pending.removeAll()
    }
}
