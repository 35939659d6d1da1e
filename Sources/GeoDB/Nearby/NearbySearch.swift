// Category search around a point or in a box ("cafes within 500 m"), exact in metres, paged with a cursor.
import GeoDBSQLite

/// One page of a nearby or in-box search.
///
/// ```swift
/// var page = try db.places(near: here, radius: 500, limit: 20)
/// while let next = page.nextCursor { page = try db.places(near: here, radius: 500, limit: 20, after: next) }
/// ```
public struct PlacePage: Codable, Sendable {
    /// The places of this page, nearest first.
    public var places: [PlaceResult]
    /// Pass as `after` to get the next page; nil on the last page.
    public var nextCursor: String?

    public init(places: [PlaceResult], nextCursor: String?) {
        self.places = places
        self.nextCursor = nextCursor
    }
}

/// Where a page continues: after the place at this distance and id (keyset paging: no repeats, no gaps).
/// Its text is the distance's bits in hex and the id: "4053b64c1ef38199-1965".
struct PageCursor: Equatable {
    var distance: Double
    var id: Int64

    var text: String { String(distance.bitPattern, radix: 16) + "-" + String(id) }

    init(distance: Double, id: Int64) {
        self.distance = distance
        self.id = id
    }

    /// Nil when `text` is not shaped like a cursor.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 16, let bits = UInt64(parts[0], radix: 16), let id = Int64(parts[1]) else {
            return nil
        }
        self.init(distance: Double(bitPattern: bits), id: id)
    }
}

/// Numbers the query planner uses.
struct CategoryStatistics {
    var places: Int64
    var extent: BoundingBox
}

/// Category search for one session.
final class NearbySearch {
    let db: DatabaseReader
    private let places: PlaceReader
    private var statistics: CategoryStatistics?

    /// Largest radius accepted, in metres.
    static let maxRadius = 100_000.0
    /// Largest page.
    static let maxPageSize = 1_000

    init(db: DatabaseReader, places: PlaceReader) {
        self.db = db
        self.places = places
    }

    /// Places matching `filter` whose great-circle distance from `center` is at most `radius` metres,
    /// nearest first (ties by id), `limit` at a time.
    func places(near center: Coordinate, radius: Double, filter: CategoryFilter, name: String?, limit: Int,
                after cursor: String?) throws -> PlacePage {
        try QueryValidation.coordinate(center, option: "center")
        try QueryValidation.radius(radius, max: Self.maxRadius)
        try QueryValidation.limit(limit, max: Self.maxPageSize)
        var found: [(id: Int64, distance: Double)] = []
        for box in BoundingBox.covering(radius: radius, around: center) {
            for candidate in try candidates(in: box, filter: filter, name: name) {
                let distance = center.distance(to: candidate.coordinate)
                if distance <= radius { found.append((candidate.id, distance)) }
            }
        }
        return try page(found, limit: limit, after: cursor)
    }

    /// Places matching `filter` inside `box` (degrees; min > max longitude crosses the antimeridian),
    /// nearest to `near` (default: the box's centre) first.
    func places(in box: BoundingBox, near: Coordinate?, filter: CategoryFilter, name: String?, limit: Int,
                after cursor: String?) throws -> PlacePage {
        try QueryValidation.box(box)
        if let near { try QueryValidation.coordinate(near, option: "near") }
        try QueryValidation.limit(limit, max: Self.maxPageSize)
        let parts = box.minLon <= box.maxLon ? [box]
            : [BoundingBox(minLat: box.minLat, minLon: box.minLon, maxLat: box.maxLat, maxLon: 180),
               BoundingBox(minLat: box.minLat, minLon: -180, maxLat: box.maxLat, maxLon: box.maxLon)]
        let center = near ?? Coordinate(lat: (box.minLat + box.maxLat) / 2,
                                        lon: box.minLon <= box.maxLon ? (box.minLon + box.maxLon) / 2
                                            : Coordinate.normalizedLongitude((box.minLon + box.maxLon + 360) / 2))
        var found: [(id: Int64, distance: Double)] = []
        for part in parts {
            for candidate in try candidates(in: part, filter: filter, name: name) where part.contains(candidate.coordinate) {
                found.append((candidate.id, center.distance(to: candidate.coordinate)))
            }
        }
        return try page(found, limit: limit, after: cursor)
    }

    /// The page of `found` after the cursor. A cursor must name a place of this query at its distance:
    /// anything else (typed by hand, from another query or another database) is refused, not guessed at.
    private func page(_ found: [(id: Int64, distance: Double)], limit: Int, after cursor: String?) throws -> PlacePage {
        var sorted = found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        if let cursor {
            guard let start = PageCursor(cursor),
                  sorted.contains(where: { $0.id == start.id && $0.distance.bitPattern == start.distance.bitPattern }) else {
                throw QueryValidation.foreignCursor(cursor)
            }
            sorted.removeAll { ($0.distance, $0.id) <= (start.distance, start.id) }
        }
        let pageItems = Array(sorted.prefix(limit))
        let next = sorted.count > limit ? pageItems.last.map { PageCursor(distance: $0.distance, id: $0.id).text } : nil
        let distances = Dictionary(pageItems.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
        return PlacePage(places: try places.results(ids: pageItems.map(\.id), distances: distances), nextCursor: next)
    }

    /// Places matching the filter whose point may lie in `box` (the caller checks exactly).
    /// Starts from the category when it has fewer places than the box is expected to hold, else from the
    /// R*Tree — so rare categories never walk a dense box, and common ones never walk the whole category.
    private func candidates(in box: BoundingBox, filter: CategoryFilter, name: String?) throws
        -> [(id: Int64, coordinate: Coordinate)] {
        var values = box.sqlValues + [filter.sqlValue]
        if let name {
            guard let match = FTSQuery.allPrefixes(name, column: FTSQuery.placeNames) else { return [] }
            values.append(.text(match))
        }
        let sql = Self.candidateSQL(filter, categoryFirst: try categoryFirst(filter, box: box), byName: name != nil)
        return try db.rows("nearby candidates", sql, values) { ($0.int(0), try $0.coordinate(1, 2, place: $0.int(0), in: db.path)) }
    }

    /// The candidate query: ?1…?4 the box (min lon, min lat, max lon, max lat), ?5 the filter's value,
    /// ?6 an FTS5 name query. Taxonomy categories read `idx_place_category_category_id_lat` (category,
    /// lat, lon: a range scan of the latitude band); a raw tag starts from `idx_place_category` when rare
    /// (which `categoryFirst` says only of tags the index holds, `RawTagIndex`), from the R*Tree otherwise;
    /// "any named POI" from the R*Tree.
    static func candidateSQL(_ filter: CategoryFilter, categoryFirst: Bool, byName: Bool) -> String {
        let named = "IN (SELECT \(SearchRowID.placeIDSQL("rowid")) FROM place_fts WHERE place_fts MATCH ?6)"
        let name = " AND p.id " + named
        let rtree = "SELECT p.id, p.lat, p.lon FROM place_rtree r JOIN place p ON p.id = r.id"
        let box = "r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2"
        switch filter {
        case .categories:
            return """
                SELECT pc.place_id, pc.lat, pc.lon FROM place_category pc
                WHERE pc.category_id IN (SELECT value FROM json_each(?5)) AND pc.lat BETWEEN ?2 AND ?4 AND pc.lon BETWEEN ?1 AND ?3
                """ + (byName ? " AND pc.place_id " + named : "")
        case .rawTag where categoryFirst:
            return "SELECT p.id, p.lat, p.lon FROM place p WHERE p.category = ?5 AND \(RawTagIndex.condition(on: "p.category"))"
                + " AND p.lon BETWEEN ?1 AND ?3 AND p.lat BETWEEN ?2 AND ?4" + (byName ? name : "")
        case .rawTag:
            // Unary + keeps SQLite from starting at idx_place_category: this plan starts from the R*Tree.
            return "\(rtree) WHERE \(box) AND +p.category = ?5" + (byName ? name : "")
        case .anyNamedPOI:
            return "\(rtree) WHERE \(box) AND p.kind = ?5 AND p.name IS NOT NULL" + (byName ? name : "")
        }
    }

    /// Whether to start from the category's places rather than the R*Tree: always for taxonomy categories
    /// (their index holds positions); for a raw tag when it has fewer places in all than the box is
    /// expected to hold (places × the box's share of the data's extent), never for a tag `idx_place_category`
    /// does not hold (`building=yes` and the other common tags of addresses: counting would scan `place`).
    func categoryFirst(_ filter: CategoryFilter, box: BoundingBox) throws -> Bool {
        let stats = try categoryStatistics()
        let inCategory: Int64
        switch filter {
        case .anyNamedPOI: return false
        // (category, lat, lon) is indexed: a range scan of the category's places in the box's latitude band.
        case .categories: return true
        case .rawTag(let tag):
            guard RawTagIndex.holds(tag) else { return false }
            inCategory = try db.first("count a tag's places", "SELECT count(*) FROM place WHERE category = ?1 AND \(RawTagIndex.condition())",
                                      [.text(tag)]) { $0.int(0) } ?? 0
        }
        let extent = stats.extent
        let share = max(0, min(1, (box.maxLat - box.minLat) * (box.maxLon - box.minLon)
                                / max((extent.maxLat - extent.minLat) * (extent.maxLon - extent.minLon), 1e-12)))
        return Double(inCategory) < Double(stats.places) * share
    }

    /// The number of places and the data's extent: read once, for query planning.
    private func categoryStatistics() throws -> CategoryStatistics {
        if let statistics { return statistics }
        let places = try db.first("count places", "SELECT count(*) FROM place") { $0.int(0) } ?? 0
        let text = try db.first("read the extent", "SELECT value FROM meta WHERE key = 'bbox'") { $0.text(0) } ?? nil
        let box = text.map { $0.split(separator: ",").compactMap { Double($0) } }
        let extent = box.flatMap { $0.count == 4 ? BoundingBox(minLat: $0[1], minLon: $0[0], maxLat: $0[3], maxLon: $0[2]) : nil }
            ?? BoundingBox(minLat: -90, minLon: -180, maxLat: 90, maxLon: 180)
        let stats = CategoryStatistics(places: places, extent: extent)
        statistics = stats
        return stats
    }
}
