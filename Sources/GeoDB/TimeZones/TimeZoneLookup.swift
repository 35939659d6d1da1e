// The IANA timezone at a point, from a database's timezone tables: grid cells wholly inside one zone
// answer at once; elsewhere exact point-in-polygon tests decide, then the nearest zone near a coast, then
// the nautical zone of the longitude.
import Foundation
import GeoDBSQLite

/// How a point's zone was found.
///
/// ```swift
/// if try db.timeZone(at: point).source == .ocean { /* open sea */ }
/// ```
public enum TimeZoneSource: String, Sendable, Codable {
    /// A polygon of the zone contains the point.
    case polygon
    /// No polygon contains it; the zone's nearest edge is within `TimeZoneLookup.nearestRadius`.
    case nearest
    /// Neither: the nautical zone `Etc/GMT±N` of the longitude (15° bands centred on multiples of 15°).
    case ocean
}

/// The zone at a point, without clock readings.
///
/// ```swift
/// let match = try lookup.zone(at: Coordinate(lat: 43.8, lon: 87.6))   // Asia/Urumqi, candidates [Urumqi, Shanghai]
/// ```
public struct TimeZoneMatch: Sendable, Equatable {
    /// IANA id, e.g. "Europe/Helsinki", "Etc/GMT+2".
    public var tzid: String
    /// How the zone was found.
    public var source: TimeZoneSource
    /// Every zone whose polygons contain the point, in the order of the overlap rule, the answer first;
    /// empty when no polygon contains it.
    public var candidates: [String]
    /// For `.nearest`: metres from the point to the zone's nearest polygon edge.
    public var distanceMeters: Double?
}

/// A point's zone and what its clock says at an instant.
///
/// ```swift
/// let answer = try db.timeZone(at: Coordinate(lat: -44.0, lon: -176.5))
/// print(answer.tzid, answer.utcOffsetSeconds ?? 0, answer.isDST ?? false)   // Pacific/Chatham …
/// ```
public struct TimeZoneAnswer: Sendable, Equatable {
    /// IANA zone id, e.g. "Europe/Helsinki".
    public var tzid: String
    /// How the zone was found.
    public var source: TimeZoneSource
    /// Every zone whose polygons contain the point (overlaps), the chosen one first.
    public var candidates: [String]
    /// For `.nearest`: metres to that zone.
    public var distanceMeters: Double?
    /// The instant the clock readings are for.
    public var date: Date
    /// Whether the system's tz database (Foundation's `TimeZone`) knows `tzid`. When it does not, the
    /// readings below are nil but the id is still the answer.
    public var knownToSystem: Bool
    /// UTC offset at `date` in seconds (nil when the system tz database lacks the zone).
    public var utcOffsetSeconds: Int?
    /// Whether daylight saving time is in effect at `date`.
    public var isDST: Bool?
    /// "EEST", "IST", "+0545": from the system tz database, else Foundation's ("GMT+3").
    public var abbreviation: String?
    /// Local time at `date`, ISO 8601 with offset: "2026-07-01T15:00:00+03:00".
    public var localTime: String?
    /// The next change of the zone's daylight saving time after `date`, when there is one.
    public var nextTransition: Date?
    /// The offset after `nextTransition`.
    public var nextUTCOffsetSeconds: Int?

    /// The zone as a Foundation `TimeZone`, when the system knows it.
    public var timeZone: TimeZone? { TimeZone(identifier: tzid) }
}

/// Answers which timezone a point lies in, from a database with timezones (`geodb import timezones.geojson`).
///
/// ```swift
/// let lookup = try TimeZoneLookup(path: "tz.sqlite")
/// let answer = try lookup.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384))
/// print(answer.tzid, answer.utcOffsetSeconds ?? 0)   // Europe/Helsinki 7200 (in winter)
/// ```
///
/// Overlapping zones (Asia/Urumqi lies inside Asia/Shanghai; some airports are in two zones): the polygon
/// with the smallest outer-ring area wins, then the zone id that sorts first; `candidates` lists all.
/// A point exactly on a border belongs to the zone east of it (north of it on an east-west border).
/// Latitude 90 is looked up 1e-7° south of the pole, longitude 180 as -180.
///
/// It caches what it reads (grid cells, decoded polygons, clocks). Not thread-safe: one per thread.
public final class TimeZoneLookup {
    /// When to read the grid and polygons.
    ///
    /// ```swift
    /// let lookup = try TimeZoneLookup(path: "tz.sqlite", loading: .eager)   // many lookups ahead
    /// ```
    public enum Loading: Sendable {
        /// On first use, per 1° cell for the grid and per polygon (a few lookups, fast start).
        case lazy
        /// Everything at once in `init` (many lookups: no reading while answering).
        case eager
    }

    /// How far from a coast (or data gap) the nearest zone is still taken: 12 nautical miles, the breadth
    /// of the territorial sea.
    public static let nearestRadius = 22_224.0

    /// Every zone id the lookup can answer: the database's zones, then any `Etc/GMT±N` it lacks.
    public let zoneIDs: [String]
    /// Number of zones in the database (the first `zoneCountInDatabase` of `zoneIDs`).
    public let zoneCountInDatabase: Int

    private let reader: DatabaseReader
    private var grid = GridTree()
    private let gridRows: Statement
    private let zoneIndexOfID: [Int32]
    /// Sort position of each zone's id, for the overlap rule's tie-break.
    private let zoneRank: [Int32]
    /// Zone index of Etc/GMT-12 … Etc/GMT+12 by hours east of Greenwich + 12.
    private let oceanZones: [Int32]
    private var polygonSet: PolygonSet?
    private var clocks: [ZoneClock?]

    /// A lookup on the database at `path`; throws when it holds no timezones.
    ///
    /// ```swift
    /// let lookup = try TimeZoneLookup(path: "tz.sqlite")
    /// ```
    public convenience init(path: String, loading: Loading = .lazy) throws {
        try self.init(reader: DatabaseReader(path: path, immutable: false), loading: loading)
    }

    /// A lookup through an open connection (an import's, on the file it is writing); throws when the
    /// database holds no timezones.
    package convenience init(connection: Connection) throws {
        try self.init(reader: DatabaseReader(connection: connection))
    }

    /// Throws when the database holds no timezones.
    init(reader: DatabaseReader, loading: Loading = .lazy) throws {
        self.reader = reader
        let db = reader.connection
        let zones = try reader.rows("read the timezones", "SELECT id, tzid FROM timezone ORDER BY id") { ($0.int(0), $0.text(1) ?? "") }
        guard !zones.isEmpty else {
            throw Self.noTimeZones(in: db.path)
        }
        var ids = zones.map(\.1)
        // The import numbers zones 1, 2, 3 …: an array indexed by id must not take its size from a damaged file.
        if let bad = zones.first(where: { !(1...Int64(zones.count)).contains($0.0) }) {
            throw GeoDBError.damagedDatabase(path: db.path, "timezone id \(bad.0) is not between 1 and the number of zones, \(zones.count)")
        }
        var indexOfID = [Int32](repeating: -1, count: zones.count + 1)
        for (index, zone) in zones.enumerated() where zone.0 >= 0 { indexOfID[Int(zone.0)] = Int32(index) }
        zoneIndexOfID = indexOfID
        zoneCountInDatabase = ids.count
        var oceans: [Int32] = []
        for hoursEast in -12...12 {
            let tzid = Self.nauticalZone(hoursEast: hoursEast)
            if let index = ids.firstIndex(of: tzid) {
                oceans.append(Int32(index))
            } else {
                oceans.append(Int32(ids.count))
                ids.append(tzid)
            }
        }
        oceanZones = oceans
        zoneIDs = ids
        var rank = [Int32](repeating: 0, count: ids.count)
        for (position, index) in ids.indices.sorted(by: { ids[$0] < ids[$1] }).enumerated() { rank[index] = Int32(position) }
        zoneRank = rank
        clocks = Array(repeating: nil, count: ids.count)
        gridRows = try reader.reading("read the timezone grid") {
            try db.prepare("SELECT cell, timezone_id FROM timezone_grid WHERE cell >= ? AND cell < ?")
        }
        if loading == .eager {
            grid.markAllLoaded()
            try reader.forEach("read the timezone grid", "SELECT cell, timezone_id FROM timezone_grid") {
                insertGridRow(cell: Int($0.int(0)), zoneID: $0.int(1))
            }
            try reading { try polygons().loadAll() }
        }
    }

    static func noTimeZones(in path: String) -> GeoDBError {
        GeoDBError(.invalidArgument, "\(path) has no timezones",
                   remedy: "import timezone boundaries (timezone-boundary-builder's GeoJSON) into it")
    }

    /// The nautical zone for `hoursEast` (−12…12): Etc/GMT+2 is two hours *behind* UTC (POSIX sign).
    static func nauticalZone(hoursEast: Int) -> String {
        hoursEast == 0 ? "Etc/GMT" : "Etc/GMT" + (hoursEast > 0 ? "-" : "+") + String(abs(hoursEast))
    }

    // MARK: answers

    /// The IANA id of the zone at a point: the fastest question (no candidates, no clock).
    ///
    /// ```swift
    /// let id = try lookup.tzid(at: Coordinate(lat: 40.71, lon: -74.0))   // America/New_York
    /// ```
    public func tzid(at coordinate: Coordinate) throws -> String {
        try QueryValidation.coordinate(coordinate, option: "point")
        return try reading { zoneIDs[Int(try find(Self.point(coordinate)).zone)] }
    }

    /// The zone at a point, how it was found, and every zone whose polygons contain it.
    ///
    /// ```swift
    /// let candidates = try lookup.zone(at: point).candidates
    /// ```
    public func zone(at coordinate: Coordinate) throws -> TimeZoneMatch {
        try match(coordinate).match
    }

    private func match(_ coordinate: Coordinate) throws -> (match: TimeZoneMatch, zone: Int) {
        try QueryValidation.coordinate(coordinate, option: "point")
        return try reading { try match(at: Self.point(coordinate)) }
    }

    private func match(at p: Point7) throws -> (match: TimeZoneMatch, zone: Int) {
        let found = try find(p)
        var candidates: [Int32] = []
        if found.source == .polygon {
            candidates = found.fromGrid ? [found.zone] : try containingZones(p)
        }
        let match = TimeZoneMatch(tzid: zoneIDs[Int(found.zone)], source: found.source,
                                  candidates: candidates.map { zoneIDs[Int($0)] }, distanceMeters: found.meters)
        return (match, Int(found.zone))
    }

    /// The zone at a point and its clock at `date`: offset, daylight saving time, abbreviation, local time.
    ///
    /// ```swift
    /// let summer = try lookup.timeZone(at: point, date: ISO8601DateFormatter().date(from: "2026-07-01T12:00:00Z")!)
    /// ```
    public func timeZone(at coordinate: Coordinate, date: Date = Date()) throws -> TimeZoneAnswer {
        let (match, index) = try self.match(coordinate)
        let clock = clocks[index] ?? ZoneClock(tzid: match.tzid)
        clocks[index] = clock
        let reading = clock.reading(at: date)
        return TimeZoneAnswer(tzid: match.tzid, source: match.source, candidates: match.candidates,
                              distanceMeters: match.distanceMeters, date: date, knownToSystem: clock.timeZone != nil,
                              utcOffsetSeconds: reading?.utcOffsetSeconds, isDST: reading?.isDST,
                              abbreviation: reading?.abbreviation, localTime: reading?.localTime,
                              nextTransition: reading?.nextTransition, nextUTCOffsetSeconds: reading?.nextUTCOffsetSeconds)
    }

    /// Whether the grid answers for the point without polygon tests (for benchmarks and tests).
    package func answeredByGrid(_ coordinate: Coordinate) throws -> Bool {
        try QueryValidation.coordinate(coordinate, option: "point")
        return try reading { try find(Self.point(coordinate)).fromGrid }
    }

    /// Runs `body`, turning SQLite's failures into `GeoDBError`s that name the file.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        try reader.reading("timezone lookup", body)
    }

    // MARK: finding

    struct Found {
        var zone: Int32
        var source: TimeZoneSource
        var fromGrid = false
        var meters: Double?
    }

    /// The point rounded to 1e-7°, with latitude 90 and longitude 180 normalised as the grid does.
    static func point(_ coordinate: Coordinate) -> Point7 {
        let lat = min(max(coordinate.lat.isNaN ? 0 : coordinate.lat, -90), 90)
        let lon = min(max(coordinate.lon.isNaN ? 0 : coordinate.lon, -180), 180)
        return TimeZoneGrid.Position(Point7(Coordinate(lat: lat, lon: lon))).point
    }

    /// The zone of a normalised point.
    @inline(__always)
    func find(_ p: Point7) throws -> Found {
        let position = TimeZoneGrid.Position(p)
        var node = grid.lookup(position)
        if node == GridTree.notLoaded {
            try loadGrid(base: position.base)
            node = grid.lookup(position)
        }
        if node < GridTree.noCell { return Found(zone: Int32(node & ~GridTree.pureFlag), source: .polygon, fromGrid: true) }
        return try findByPolygons(p)
    }

    private func findByPolygons(_ p: Point7) throws -> Found {
        var best: IndexedPolygon?
        try polygons().forEachContaining(p) { polygon in
            if let b = best, !(polygon.area < b.area || (polygon.area == b.area && zoneRank[Int(polygon.owner)] < zoneRank[Int(b.owner)])) {
                return
            }
            best = polygon
        }
        if let best { return Found(zone: best.owner, source: .polygon) }
        if let near = try polygons().nearest(to: p, within: Self.nearestRadius) {
            return Found(zone: near.owner, source: .nearest, meters: near.meters)
        }
        return Found(zone: oceanZone(lon: p.lon), source: .ocean)
    }

    /// Zones with a polygon containing the point, by the overlap rule (smallest polygon, then id).
    private func containingZones(_ p: Point7) throws -> [Int32] {
        var smallest: [Int32: Double] = [:]
        try polygons().forEachContaining(p) { polygon in
            smallest[polygon.owner] = min(smallest[polygon.owner] ?? .infinity, polygon.area)
        }
        return smallest.keys.sorted { a, b in
            smallest[a]! != smallest[b]! ? smallest[a]! < smallest[b]! : zoneRank[Int(a)] < zoneRank[Int(b)]
        }
    }

    /// Etc/GMT±N of the 15° band around the longitude (−7.5° ≤ lon < 7.5° is Etc/GMT; −180 is Etc/GMT+12).
    private func oceanZone(lon: Int32) -> Int32 {
        let hoursEast = Int(((Double(lon) / 1e7 + 7.5) / 15).rounded(.down))
        return oceanZones[min(max(hoursEast, -12), 12) + 12]
    }

    // MARK: loading

    private func loadGrid(base: Int) throws {
        grid.markLoaded(base: base)
        try gridRows.bind([.integer(Int64(base * TimeZoneGrid.idsPerBase)), .integer(Int64((base + 1) * TimeZoneGrid.idsPerBase))])
        defer { gridRows.reset() }
        while try gridRows.step() { insertGridRow(cell: Int(gridRows.int(0)), zoneID: gridRows.int(1)) }
    }

    private func insertGridRow(cell id: Int, zoneID: Int64) {
        guard let cell = TimeZoneGrid.Cell(id: id), zoneID >= 0, zoneID < zoneIndexOfID.count,
              zoneIndexOfID[Int(zoneID)] >= 0 else { return }
        grid.insert(cell, zone: UInt32(zoneIndexOfID[Int(zoneID)]))
    }

    package func polygons() throws -> PolygonSet {
        if let polygonSet { return polygonSet }
        let db = reader.connection
        var ids: [Int64] = [], zones: [Int32] = [], boxes: [Box7] = []
        let rows = try db.prepare("""
            SELECT p.id, p.timezone_id, r.min_lon, r.max_lon, r.min_lat, r.max_lat
            FROM timezone_polygon p JOIN timezone_rtree r ON r.id = p.id ORDER BY p.id
            """)
        func units(_ degrees: Double, _ rule: FloatingPointRoundingRule) -> Int32 {
            // A damaged R*Tree may hold NaN: then the box is the whole world (the polygon test decides).
            let clamped = degrees.isNaN ? (rule == .down ? -180 : 180) : min(max(degrees, -180), 180)
            return Int32((clamped * 1e7).rounded(rule))
        }
        while try rows.step() {
            let zoneID = rows.int(1)
            guard zoneID >= 0, zoneID < zoneIndexOfID.count, zoneIndexOfID[Int(zoneID)] >= 0 else { continue }
            ids.append(rows.int(0))
            zones.append(zoneIndexOfID[Int(zoneID)])
            boxes.append(Box7(minX: units(rows.double(2), .down), minY: units(rows.double(4), .down),
                              maxX: units(rows.double(3), .up), maxY: units(rows.double(5), .up)))
        }
        let geometry = try db.prepare("SELECT geometry FROM timezone_polygon WHERE id = ?")
        let path = reader.path
        let set = PolygonSet(owners: zones, boxes: boxes) { part in
            try geometry.bind([.integer(ids[part])])
            defer { geometry.reset() }
            guard try geometry.step(), let blob = geometry.blob(0),
                  case .polygons(let polygons)? = Geometry(encoded: blob), polygons.count == 1,
                  polygons[0].allSatisfy({ $0.count >= 3 }) else {
                throw GeoDBError(.database, "\(path): timezone_polygon \(ids[part]) does not hold one valid polygon",
                                 remedy: "re-import the timezone file")
            }
            return IndexedPolygon(owner: zones[part], rings: polygons[0])
        }
        polygonSet = set
        return set
    }
}

/// The grid in memory: a quadtree under each 1° cell whose nodes are a zone, "no zone here", or four children.
struct GridTree {
    static let pureFlag: UInt32 = 1 << 31
    /// Loaded, and not wholly inside one zone: ask the polygons.
    static let noCell: UInt32 = .max - 1
    static let notLoaded: UInt32 = .max

    private var base = [UInt32](repeating: notLoaded, count: TimeZoneGrid.baseCount)
    /// Groups of four: the children of a node are `children[node ..< node + 4]`, in quadrant order
    /// (west-south, east-south, west-north, east-north).
    private var children: [UInt32] = []

    /// The node of a position's deepest cell: a zone (`pureFlag | index`), `noCell` or `notLoaded`.
    @inline(__always)
    func lookup(_ position: TimeZoneGrid.Position) -> UInt32 {
        var node = base[position.base]
        if node >= Self.pureFlag { return node }
        let column = position.fineColumn, row = position.fineRow
        var shift = TimeZoneGrid.maxLevel - 1
        while shift >= 0 {
            node = children[Int(node) + ((column >> shift) & 1 | ((row >> shift) & 1) << 1)]
            if node >= Self.pureFlag { return node }
            shift -= 1
        }
        return Self.noCell
    }

    mutating func markLoaded(base index: Int) {
        if base[index] == Self.notLoaded { base[index] = Self.noCell }
    }

    mutating func markAllLoaded() {
        for i in base.indices { markLoaded(base: i) }
    }

    /// Records that `cell` lies wholly in zone `zone`.
    mutating func insert(_ cell: TimeZoneGrid.Cell, zone: UInt32) {
        let b = (cell.row >> cell.level) * TimeZoneGrid.columns + (cell.column >> cell.level)
        guard cell.level > 0 else { base[b] = Self.pureFlag | zone; return }
        var parent = base[b]
        if parent >= Self.pureFlag {
            guard parent >= Self.noCell else { return }   // already wholly in a zone
            parent = UInt32(children.count)
            children += [Self.noCell, Self.noCell, Self.noCell, Self.noCell]
            base[b] = parent
        }
        for level in 1...cell.level {
            let shift = cell.level - level
            let slot = Int(parent) + ((cell.column >> shift) & 1 | ((cell.row >> shift) & 1) << 1)
            if level == cell.level {
                children[slot] = Self.pureFlag | zone
                return
            }
            var node = children[slot]
            if node >= Self.pureFlag {
                guard node >= Self.noCell else { return }
                node = UInt32(children.count)
                children += [Self.noCell, Self.noCell, Self.noCell, Self.noCell]
                children[slot] = node
            }
            parent = node
        }
    }
}
