// Category search around a point or in a box ("cafes within 500 m"), exact in metres, paged with a cursor.
import Foundation
import GeoDBSQLite

/// What to look for: taxonomy categories (with their descendants), a raw OSM tag, or every named POI.
///
/// ```swift
/// let food = try CategoryFilter.resolve(["food_and_drink"])   // .categories([cafe, restaurant, …])
/// ```
public enum CategoryFilter: Equatable, Sendable {
    case anyNamedPOI
    case categories([String])
    case rawTag(String)

    /// Resolves user words (`cafe`, `food_and_drink`, `coffee`, `amenity=cafe`); several are an OR.
    /// Throws for an unknown word, with close matches.
    ///
    /// ```swift
    /// let filter = try CategoryFilter.resolve(["coffee", "pharmacy"])   // cafes or pharmacies
    /// ```
    public static func resolve(_ words: [String], taxonomy: Taxonomy = .standard) throws -> CategoryFilter {
        guard !words.isEmpty else { return .anyNamedPOI }
        var ids: [String] = []
        var raw: [String] = []
        for word in words {
            switch try taxonomy.resolve(word) {
            case .categories(let found): ids += found
            case .rawTag(let tag): raw.append(tag)
            }
        }
        if !raw.isEmpty && !ids.isEmpty {
            throw GeoDBError(.invalidArgument, "mix of taxonomy categories and raw tags",
                             remedy: "give either categories (cafe, pharmacy) or one raw OSM tag (amenity=cafe)")
        }
        if raw.count > 1 { throw GeoDBError(.invalidArgument, "only one raw OSM tag at a time") }
        if let tag = raw.first { return .rawTag(tag) }
        var seen = Set<String>()
        return .categories(ids.filter { seen.insert($0).inserted })
    }
}

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
}

/// Where a page continues: after the place at this distance and id (keyset paging: no repeats, no gaps).
struct PageCursor: Equatable {
    var distance: Double
    var id: Int64

    var text: String { String(distance.bitPattern, radix: 16) + "-" + String(id) }

    init(distance: Double, id: Int64) {
        self.distance = distance
        self.id = id
    }

    init(_ text: String) throws {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let bits = UInt64(parts[0], radix: 16), let id = Int64(parts[1]) else {
            throw GeoDBError(.invalidArgument, "'\(text)' is not a cursor from a previous page")
        }
        self.init(distance: Double(bitPattern: bits), id: id)
    }
}

extension QuerySession {
    /// Largest radius a nearby search accepts, in metres.
    public static let maxRadius = 100_000.0
    /// Largest page.
    public static let maxPageSize = 1_000

    /// Places matching `filter` whose great-circle distance from `center` is at most `radius` metres,
    /// nearest first (ties by id), `limit` at a time.
    ///
    /// ```swift
    /// let page = try db.places(near: Coordinate(lat: 60.1699, lon: 24.9384), radius: 500,
    ///                          filter: try .resolve(["cafe"]))
    /// ```
    public func places(near center: Coordinate, radius: Double, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) throws -> PlacePage {
        try checkCoordinate(center)
        guard radius > 0, radius <= Self.maxRadius else {
            throw GeoDBError(.invalidArgument, "radius \(radius) m is out of range (0 < radius ≤ \(Int(Self.maxRadius)) m)")
        }
        let boxes = Self.boxes(around: center, radius: radius)
        var found: [(id: Int64, distance: Double)] = []
        for box in boxes {
            for candidate in try candidates(in: box, filter: filter, name: name) {
                let distance = center.distance(to: candidate.coordinate)
                if distance <= radius { found.append((candidate.id, distance)) }
            }
        }
        return try page(found, limit: limit, after: cursor)
    }

    /// Places matching `filter` inside `box` (degrees; min > max longitude crosses the antimeridian),
    /// nearest to `near` (default: the box's centre) first.
    ///
    /// ```swift
    /// let page = try session.places(in: BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96))
    /// ```
    public func places(in box: BoundingBox, near: Coordinate? = nil, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) throws -> PlacePage {
        guard Coordinate(lat: box.minLat, lon: box.minLon).isValid, Coordinate(lat: box.maxLat, lon: box.maxLon).isValid,
              box.minLat <= box.maxLat else {
            throw GeoDBError(.invalidArgument, "bounding box \(box.minLon),\(box.minLat),\(box.maxLon),\(box.maxLat) is not valid (min lon,min lat,max lon,max lat in degrees)")
        }
        let parts = box.minLon <= box.maxLon ? [box]
            : [BoundingBox(minLat: box.minLat, minLon: box.minLon, maxLat: box.maxLat, maxLon: 180),
               BoundingBox(minLat: box.minLat, minLon: -180, maxLat: box.maxLat, maxLon: box.maxLon)]
        let center = near ?? Coordinate(lat: (box.minLat + box.maxLat) / 2,
                                        lon: box.minLon <= box.maxLon ? (box.minLon + box.maxLon) / 2
                                            : Self.normalizedLongitude((box.minLon + box.maxLon + 360) / 2))
        try checkCoordinate(center)
        var found: [(id: Int64, distance: Double)] = []
        for part in parts {
            for candidate in try candidates(in: part, filter: filter, name: name) where part.contains(candidate.coordinate) {
                found.append((candidate.id, center.distance(to: candidate.coordinate)))
            }
        }
        return try page(found, limit: limit, after: cursor)
    }

    private func checkCoordinate(_ c: Coordinate) throws {
        guard c.isValid else {
            throw GeoDBError(.invalidArgument, "coordinate \(c.lat), \(c.lon) is out of range (latitude ±90, longitude ±180)")
        }
    }

    private func page(_ found: [(id: Int64, distance: Double)], limit: Int, after cursor: String?) throws -> PlacePage {
        guard (1...Self.maxPageSize).contains(limit) else {
            throw GeoDBError(.invalidArgument, "limit \(limit) is out of range (1…\(Self.maxPageSize))")
        }
        let start = try cursor.map(PageCursor.init)
        var sorted = found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        if let start {
            sorted.removeAll { ($0.distance, $0.id) <= (start.distance, start.id) }
        }
        let pageItems = Array(sorted.prefix(limit))
        let next = sorted.count > limit ? pageItems.last.map { PageCursor(distance: $0.distance, id: $0.id).text } : nil
        let distances = Dictionary(pageItems.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
        return PlacePage(places: try placeResults(ids: pageItems.map(\.id), distances: distances), nextCursor: next)
    }

    /// The boxes (one, or two across the antimeridian) holding every point within `radius` of `center`.
    static func boxes(around center: Coordinate, radius: Double) -> [BoundingBox] {
        let dLat = radius / Coordinate.earthRadius * 180 / .pi
        let minLat = center.lat - dLat, maxLat = center.lat + dLat
        if minLat <= -90 || maxLat >= 90 {
            // The circle reaches a pole: every longitude.
            return [BoundingBox(minLat: max(minLat, -90), minLon: -180, maxLat: min(maxLat, 90), maxLon: 180)]
        }
        // Widest longitude span of the circle (at its latitude of tangency).
        let ratio = sin(radius / Coordinate.earthRadius) / cos(center.lat * .pi / 180)
        guard ratio < 1 else { return [BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: 180)] }
        let dLon = asin(ratio) * 180 / .pi
        let minLon = center.lon - dLon, maxLon = center.lon + dLon
        if minLon < -180 {
            return [BoundingBox(minLat: minLat, minLon: minLon + 360, maxLat: maxLat, maxLon: 180),
                    BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: maxLon)]
        }
        if maxLon > 180 {
            return [BoundingBox(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: 180),
                    BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: maxLon - 360)]
        }
        return [BoundingBox(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon)]
    }

    static func normalizedLongitude(_ lon: Double) -> Double {
        lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon)
    }

    /// Places matching the filter whose point may lie in `box` (the caller checks exactly).
    /// Starts from the category when it has fewer places than the box is expected to hold, else from the
    /// R*Tree — so rare categories never walk a dense box, and common ones never walk the whole category.
    func candidates(in box: BoundingBox, filter: CategoryFilter, name: String?) throws
        -> [(id: Int64, coordinate: Coordinate)] {
        var values: [SQLiteValue] = [.real(box.minLon), .real(box.minLat), .real(box.maxLon), .real(box.maxLat),
                                     Self.filterValue(filter)]
        if let name {
            guard let match = FTSQuery.allPrefixes(name, column: "name") else { return [] }
            values.append(.text(match))
        }
        let sql = Self.candidateSQL(filter, categoryFirst: try categoryFirst(filter, box: box), byName: name != nil)
        return try cachedStatement(sql).rows(values) { ($0.int(0), Coordinate(lat: $0.double(1), lon: $0.double(2))) }
    }

    /// The candidate query: ?1…?4 the box (min lon, min lat, max lon, max lat), ?5 the filter's value,
    /// ?6 an FTS5 name query. Taxonomy categories read `idx_place_category_category_id_lat` (category,
    /// lat, lon: a range scan of the latitude band); a raw tag starts from `idx_place_category` when rare,
    /// from the R*Tree otherwise; "any named POI" from the R*Tree.
    static func candidateSQL(_ filter: CategoryFilter, categoryFirst: Bool, byName: Bool) -> String {
        let name = " AND p.id IN (SELECT rowid FROM place_fts WHERE place_fts MATCH ?6)"
        let rtree = "SELECT p.id, p.lat, p.lon FROM place_rtree r JOIN place p ON p.id = r.id"
        let box = "r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2"
        switch filter {
        case .categories:
            return """
                SELECT pc.place_id, pc.lat, pc.lon FROM place_category pc
                WHERE pc.category_id IN (SELECT value FROM json_each(?5)) AND pc.lat BETWEEN ?2 AND ?4 AND pc.lon BETWEEN ?1 AND ?3
                """ + (byName ? " AND pc.place_id IN (SELECT rowid FROM place_fts WHERE place_fts MATCH ?6)" : "")
        case .rawTag where categoryFirst:
            return "SELECT p.id, p.lat, p.lon FROM place p WHERE p.category = ?5 AND p.lon BETWEEN ?1 AND ?3 AND p.lat BETWEEN ?2 AND ?4" + (byName ? name : "")
        case .rawTag:
            // Unary + keeps SQLite from starting at idx_place_category: this plan starts from the R*Tree.
            return "\(rtree) WHERE \(box) AND +p.category = ?5" + (byName ? name : "")
        case .anyNamedPOI:
            return "\(rtree) WHERE \(box) AND p.kind = ?5 AND p.name IS NOT NULL" + (byName ? name : "")
        }
    }

    /// The value bound to ?5 for a filter.
    static func filterValue(_ filter: CategoryFilter) -> SQLiteValue {
        switch filter {
        case .anyNamedPOI: return .text("poi")
        case .categories(let ids): return .text(JSONText.array(ids))
        case .rawTag(let tag): return .text(tag)
        }
    }

    /// Whether to start from the category's places rather than the R*Tree: always for taxonomy categories
    /// (their index holds positions); for a raw tag when it has fewer places in all than the box is
    /// expected to hold (places × the box's share of the data's extent).
    func categoryFirst(_ filter: CategoryFilter, box: BoundingBox) throws -> Bool {
        let stats = try categoryStatistics()
        let inCategory: Int64
        switch filter {
        case .anyNamedPOI: return false
        // (category, lat, lon) is indexed: a range scan of the category's places in the box's latitude band.
        case .categories: return true
        case .rawTag(let tag): inCategory = try cachedStatement("SELECT count(*) FROM place WHERE category = ?1")
            .rows([.text(tag)]) { $0.int(0) }.first ?? 0
        }
        let extent = stats.extent
        let share = max(0, min(1, (box.maxLat - box.minLat) * (box.maxLon - box.minLon)
                                / max((extent.maxLat - extent.minLat) * (extent.maxLon - extent.minLon), 1e-12)))
        return Double(inCategory) < Double(stats.places) * share
    }
}

/// Builds FTS5 MATCH expressions from user text without ever passing its syntax through.
package enum FTSQuery {
    /// `col: "tok1"* "tok2"*` for the words of `text` (letters and digits only; quotes escaped),
    /// or nil when the text has no words.
    package static func allPrefixes(_ text: String, column: String) -> String? {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.prefix(16)
        guard !words.isEmpty else { return nil }
        return "\(column): " + words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }
}
