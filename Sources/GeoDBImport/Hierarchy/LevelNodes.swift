// The place nodes that stand in for a level no boundary gives (settlements for the city, suburbs,
// neighbourhoods) and the nearest of them within reach of a place.
import Foundation
import GeoDB
import GeoDBSQLite

/// Place nodes by level, with the nearest lookups that make one a place's stand-in.
final class LevelNodes {
    /// A place node that can stand in for a level no boundary gives (the nearest within reach).
    private struct Node {
        var placeID: Int64
        var kind: PlaceKind
        var point: Coordinate
        /// The city-level area the node lies in, if any: a suburb node serves only places of its city.
        var cityArea: Int64?
        var countryCode: String?
    }

    /// The nodes of one level and the grid that finds them.
    private struct OfLevel {
        var grid: PointGrid
        var nodes: [Int64: Node]
    }

    /// What a stand-in lookup asked, per cell.
    private struct NearestKey: Hashable {
        var level: AddressLevel
        var cell: AreaIndex.CellKey
        var country: String?
        var city: Int64?
        var villages: Bool
    }

    private var levels: [AddressLevel: OfLevel] = [:]
    /// Stand-in place nodes found so far, by level, filters and cell: places of a block share them.
    private var nearestCache: [NearestKey: Int64?] = [:]

    /// How far to look for a place node standing in for a missing level (`PlaceReach`): only the levels
    /// below a county have stand-ins.
    static func reach(of level: AddressLevel) -> Double {
        switch level {
        case .city, .suburb, .neighbourhood: PlaceReach.metres(level) ?? 0
        default: 0
        }
    }

    /// Place nodes of earlier imports (an append) and this import's, not those that are areas themselves.
    init(writer: PlaceWriter, areas: AreaIndex) throws {
        var byLevel: [AddressLevel: [Node]] = [:]
        let rows = try writer.db.prepare("""
            SELECT id, kind, lat, lon, country_code FROM place
            WHERE (id < ?1 OR id IN (SELECT value FROM json_each(?2)))
              AND kind IN ('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood') AND \(KindIndex.condition())
            """)
        try rows.bind([.integer(writer.firstID), .text(JSONText.array(writer.areaLikeIDs))])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(1) ?? "") else { continue }
            let id = rows.int(0)
            let point = try rows.coordinate(2, 3, place: id, in: writer.db.path)
            guard !areas.isArea(id), let level = kind.addressLevel else { continue }
            let containing = try areas.containingAreas(point)
            byLevel[level, default: []].append(Node(placeID: id, kind: kind, point: point,
                                                    cityArea: containing[AddressLevel.city.ordinal]?.placeID,
                                                    countryCode: rows.text(4) ?? containing[AddressLevel.country.ordinal]?.countryCode))
        }
        for (level, nodes) in byLevel {
            let grid = PointGrid(points: nodes.map { ($0.placeID, $0.point) })
            levels[level] = OfLevel(grid: grid, nodes: Dictionary(nodes.map { ($0.placeID, $0) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// Empties the cache by cell (when `AreaIndex` empties its own).
    func forgetCells() { nearestCache.removeAll(keepingCapacity: true) }

    /// The nearest place node of `level` within its kind's reach, in the same country (and city area, when
    /// given), other than `place` itself; with `villages`, the nearest village or town within 2 km. Looked
    /// up once per cell (from its middle): these nodes stand for areas nobody mapped, so their reach is no
    /// finer than that anyway.
    func nearest(_ level: AddressLevel, to point: Coordinate, except place: Int64, country: String?,
                 city: Int64? = nil, villages: Bool = false) -> Int64? {
        guard let ofLevel = levels[level] else { return nil }
        let kinds: Set<PlaceKind>? = villages ? [.town, .village] : nil
        let limit = villages ? 2_000 : Self.reach(of: level)
        if ofLevel.nodes[place] != nil {
            // A place node itself: exact, and never its own stand-in.
            return nearest(in: ofLevel, to: point, except: place, country: country, city: city, within: limit, kinds: kinds)
        }
        let key = NearestKey(level: level, cell: AreaIndex.CellKey(point), country: country, city: city, villages: villages)
        if let cached = nearestCache[key] { return cached }
        let found = nearest(in: ofLevel, to: key.cell.middle, except: place, country: country, city: city,
                            within: limit, kinds: kinds)
        nearestCache[key] = .some(found)
        return found
    }

    private func nearest(in ofLevel: OfLevel, to point: Coordinate, except place: Int64, country: String?, city: Int64?,
                         within limit: Double, kinds: Set<PlaceKind>?) -> Int64? {
        for (id, distance) in ofLevel.grid.nearest(point, radius: limit, limit: 8) where id != place {
            guard let node = ofLevel.nodes[id], distance <= PlaceReach.metres(node.kind) ?? 0, kinds?.contains(node.kind) ?? true else { continue }
            if let country, let other = node.countryCode, other != country { continue }
            if let city, node.cityArea != city { continue }
            return id
        }
        return nil
    }
}
