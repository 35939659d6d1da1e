// The areas a place can lie in: those of earlier imports and this import's administrative and postal
// boundaries (written to `area` as they are found), with their polygons, and which of them contain a point
// or a cell of 1/256°.
import Foundation
import GeoDB
import GeoDBSQLite

/// The areas of the database and their polygons: the smallest of each level around a point.
final class AreaIndex {
    /// An area a place can lie in.
    struct Area {
        var id: Int64
        var placeID: Int64
        var level: AddressLevel
        var countryCode: String?
        /// For postal areas: the code.
        var postcode: String?
        /// Square kilometres: of two areas of one level containing a place, the smaller is its.
        var km2: Double
    }

    /// The areas containing a point: the smallest of each level, indexed by `AddressLevel.allCases`.
    typealias Levels = [Area?]

    /// A cell of 1/256° (about 430 m north-south): points in one share their areas when no area's edge
    /// crosses it, and their stand-in place nodes.
    struct CellKey: Hashable {
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

    /// What a cell of 1/256° holds: the areas wholly around it and those whose edges cross it (to test
    /// each point against); where none crosses it, the areas of every point in it.
    struct CellAreas {
        var around: [Int32]
        var crossing: [IndexedPolygon]
        var whole: Levels?
    }

    private let areas: [Area]
    private let polygons: PolygonSet
    /// The areas each area place is (a city-state is two).
    private let levelsOfPlace: [Int64: [AddressLevel]]
    private var cells: [CellKey: CellAreas] = [:]
    private static let cachedCells = 100_000
    /// Called when the cell cache is emptied, so that caches by cell built on it are emptied too.
    var whenCellsForgotten: () -> Void = {}

    var isEmpty: Bool { areas.isEmpty }
    /// Whether any area carries a country code (a country boundary, or a state's ISO3166-2 code).
    var knowsCountries: Bool { areas.contains { $0.countryCode != nil } }
    var postalAreas: [Area] { areas.filter { $0.level == .postcode } }

    /// The areas of the database (an append keeps those of earlier imports) and, with `addingBoundaries`, of
    /// this import's boundaries. `extraLevels`: places that are areas of a second level too (a city-state,
    /// from `PlaceMerger`).
    init(writer: PlaceWriter, extraLevels: [Int64: [AddressLevel]], addingBoundaries: Bool) throws {
        var found = FoundAreas()
        try found.addEarlierAreas(db: writer.db)
        if addingBoundaries { try found.addBoundaries(writer: writer, extraLevels: extraLevels) }
        areas = found.areas
        levelsOfPlace = found.levelsOfPlace
        polygons = PolygonSet(polygons: zip(found.rings, found.owners).map { IndexedPolygon(owner: $1, rings: $0) })
    }

    /// The levels at which `place` is an area itself; empty for a place that is none.
    func levels(ofPlace place: Int64) -> [AddressLevel] { levelsOfPlace[place] ?? [] }

    func isArea(_ place: Int64) -> Bool { levelsOfPlace[place] != nil }

    /// The areas of a cell, decided once: a polygon no edge of which meets the cell holds all of it or none of it.
    func cellAreas(_ cell: CellKey) throws -> CellAreas {
        if let known = cells[cell] { return known }
        let box = cell.box
        let middle = Point7(cell.middle)
        var found = CellAreas(around: [], crossing: [], whole: nil)
        try polygons.forEachPolygon(meeting: box) { polygon in
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
            whenCellsForgotten()
        }
        cells[cell] = found
        return found
    }

    /// The smallest area of each level containing `point` (of the country containing it, when one does).
    func containingAreas(_ point: Coordinate) throws -> Levels {
        let areas = try cellAreas(CellKey(point))
        if let whole = areas.whole { return whole }
        let p = Point7(point)
        return smallest(areas.around + areas.crossing.lazy.filter { $0.contains(lon: p.lon, lat: p.lat) }.map(\.owner))
    }

    /// Of the areas `owners`, the smallest of each level, less those of another country than the country's.
    func smallest(_ owners: [Int32]) -> Levels {
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
}

/// The areas as they are read and made, with the polygon parts each owns (by its index in `areas`).
private struct FoundAreas {
    var areas: [AreaIndex.Area] = []
    var levelsOfPlace: [Int64: [AddressLevel]] = [:]
    var rings: [[[Point7]]] = []   // the outer ring and holes of each polygon part, in `owners` order
    var owners: [Int32] = []

    /// A boundary of this import, as the areas it makes need it.
    private struct Boundary {
        var placeID: Int64, kind: PlaceKind, category: String?, adminLevel: Int?, country: String?, postcode: String?
        var name: String?, point: Coordinate, polygons: [[[Point7]]]
    }

    private mutating func add(id: Int64, placeID: Int64, level: AddressLevel, countryCode: String?, postcode: String?,
                              polygons parts: [[[Point7]]]) {
        for part in parts where (part.first?.count ?? 0) >= 3 {
            rings.append(part)
            owners.append(Int32(areas.count))
        }
        levelsOfPlace[placeID, default: []].append(level)
        areas.append(AreaIndex.Area(id: id, placeID: placeID, level: level, countryCode: countryCode, postcode: postcode,
                                    km2: PolygonMath.areaKm2(parts)))
    }

    private static func decoded(_ blob: [UInt8]?) -> [[[Point7]]] {
        guard let blob, case .polygons(let parts)? = Geometry(encoded: blob) else { return [] }
        return parts
    }

    /// The areas of earlier imports (an append).
    mutating func addEarlierAreas(db: Connection) throws {
        let old = try db.prepare("""
            SELECT a.id, a.place_id, a.level, a.country_code, p.postcode, g.geometry
            FROM area a JOIN place p ON p.id = a.place_id JOIN place_geometry g ON g.place_id = a.place_id
            """)
        while try old.step() {
            guard let level = AddressLevel(rawValue: old.text(2) ?? "") else { continue }
            add(id: old.int(0), placeID: old.int(1), level: level, countryCode: old.text(3),
                postcode: level == .postcode ? old.text(4) : nil, polygons: Self.decoded(old.blob(5)))
        }
    }

    /// This import's: administrative boundaries (and places that took one over), postal boundaries. Only
    /// OSM files have polygons.
    mutating func addBoundaries(writer: PlaceWriter, extraLevels: [Int64: [AddressLevel]]) throws {
        let db = writer.db
        var found: [Boundary] = []
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
            found.append(Boundary(placeID: rows.int(0), kind: kind, category: rows.text(2),
                                  adminLevel: rows.isNull(3) ? nil : Int(rows.int(3)), country: rows.text(4), postcode: rows.text(5),
                                  name: rows.text(6), point: try rows.coordinate(7, 8, place: rows.int(0), in: writer.db.path),
                                  polygons: Self.decoded(rows.blob(9))))
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
        func country(at point: Coordinate) throws -> String? {
            var code: String?
            try countrySet.forEachContaining(Point7(point)) { polygon in code = code ?? countryCodes[Int(polygon.owner)] }
            return code
        }
        let adminLevels = AdminLevels.standard
        var nextAreaID = (try db.scalarInt("SELECT max(id) FROM area") ?? 0) + 1
        let insert = try db.prepare("INSERT INTO area(id, place_id, level, admin_level, country_code) VALUES (?, ?, ?, ?, ?)")
        for place in found {
            let code = try place.country ?? country(at: place.point)
            var levels: [AddressLevel]
            if place.kind == .postcode {
                levels = [.postcode]
            } else if let adminLevel = place.adminLevel, let level = adminLevels.level(adminLevel: adminLevel, country: code) {
                levels = [level]
                try Self.correctKind(of: place, adminLevel: adminLevel, level: level, db: db)
            } else {
                levels = []
            }
            levels += extraLevels[place.placeID] ?? []
            for level in levels {
                add(id: nextAreaID, placeID: place.placeID, level: level, countryCode: code,
                    postcode: level == .postcode ? place.postcode ?? place.name : nil, polygons: place.polygons)
                try insert.run([.integer(nextAreaID), .integer(place.placeID), .text(level.rawValue),
                                place.adminLevel.map { .integer(Int64($0)) } ?? .null, code.map { .text($0) } ?? .null])
                if let box = Geometry.polygons(place.polygons).boundingBox { try writer.addArea(nextAreaID, box: box) }
                nextAreaID += 1
            }
        }
    }

    /// A boundary whose kind came from the default meaning of its admin_level gets the kind of the level it
    /// has in its country (a `county` where the default would say `state`), so results and filters agree.
    private static func correctKind(of place: Boundary, adminLevel: Int, level: AddressLevel, db: Connection) throws {
        guard place.category == "boundary=administrative", place.kind == OSMClassifier.kind(forAdminLevel: adminLevel),
              let wanted = PlaceKind(rawValue: level.rawValue), wanted != place.kind else { return }
        try db.prepare("UPDATE place SET kind = ?2, rank = ?3 WHERE id = ?1")
            .run([.integer(place.placeID), .text(wanted.rawValue), .integer(Int64(wanted.rank))])
    }
}
