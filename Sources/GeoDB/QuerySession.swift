// One read-only connection to a geodb database with its prepared statements and caches; `GeoDatabase`
// keeps a pool of these so that many threads can query at once.
import Foundation
import GeoDBSQLite

/// Numbers the query planner uses.
struct CategoryStatistics {
    var places: Int64
    var extent: BoundingBox
}

/// One connection to a geodb database, for one thread at a time: the fastest way to run many queries
/// from one thread (no locking). Queries never write. For use from several threads, or from async code,
/// use `GeoDatabase`, which hands out sessions from a pool.
///
/// ```swift
/// let session = try QuerySession(path: "helsinki.sqlite")
/// print(try session.search("mannerheimintie").first?.name ?? "-")
/// ```
public final class QuerySession {
    /// The database file.
    public let path: String
    let connection: Connection
    private var statements: [String: Statement] = [:]
    private var categoryStats: CategoryStatistics?
    /// Points of place kinds with few members, for nearest-place lookups (nil: too many, use the R*Tree).
    var kindPointCache: [String: [(id: Int64, coordinate: Coordinate)]?] = [:]
    /// Grids of the points of place kinds with many members, for nearest-place lookups.
    var kindGridCache: [String: PointGrid] = [:]
    /// Nearest-place queries per kind set so far (the grid is built once they are many).
    var kindGridUses: [String: Int] = [:]
    /// Whether `area_rtree` has rows (a gazetteer-only database has none: no containment queries then).
    lazy var hasAreas = (try? connection.scalarInt("SELECT 1 FROM area_rtree LIMIT 1")) != nil
    /// The timezone lookup of this session: nil until first used, then `.some(nil)` when the database has none.
    private var timeZoneLookupCache: TimeZoneLookup??

    /// Opens `path` read-only. The session keeps SQLite's shared lock on the file from its first read until
    /// it closes (`locking_mode = EXCLUSIVE`): no lock and file check per query (measured: a third of a
    /// nearest-place query). Other readers are unaffected and geodb never writes a database in place (a
    /// new import is renamed over it), but a program that updates the file in place waits until the
    /// session closes. `immutable` promises the file never changes while open (no locking at all).
    ///
    /// ```swift
    /// let session = try QuerySession(path: "world.sqlite", immutable: true)
    /// ```
    public init(path: String, immutable: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw GeoDBError(.fileNotFound, "\(path): no such file")
        }
        self.path = path
        do {
            connection = try Connection(path: path, mode: .readOnly(immutable: immutable))
        } catch let error as SQLiteError {
            throw GeoDBError(.notAGeoDatabase, "\(path): cannot open: \(error.message)")
        }
        // Memory-mapped reads: no read() system call and copy per page for a file that is only read.
        try connection.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA mmap_size = 1073741824")
        try Schema.checkVersion(of: connection)
    }

    /// This session's timezone lookup (created on first use, then kept: it caches), or nil when the
    /// database holds no timezones.
    ///
    /// ```swift
    /// let tzid = try session.timeZones()?.tzid(at: Coordinate(lat: 60.17, lon: 24.94))
    /// ```
    public func timeZones() throws -> TimeZoneLookup? {
        if let timeZoneLookupCache { return timeZoneLookupCache }
        let lookup = hasTimeZones ? try TimeZoneLookup(connection: connection) : nil
        timeZoneLookupCache = .some(lookup)
        return lookup
    }

    /// The number of places and the data's extent: read once, for query planning.
    func categoryStatistics() throws -> CategoryStatistics {
        if let categoryStats { return categoryStats }
        let places = try connection.scalarInt("SELECT count(*) FROM place") ?? 0
        let box = try connection.scalarText("SELECT value FROM meta WHERE key = 'bbox'")
            .map { $0.split(separator: ",").compactMap { Double($0) } }
        let extent = box.flatMap { $0.count == 4 ? BoundingBox(minLat: $0[1], minLon: $0[0], maxLat: $0[3], maxLon: $0[2]) : nil }
            ?? BoundingBox(minLat: -90, minLon: -180, maxLat: 90, maxLon: 180)
        let stats = CategoryStatistics(places: places, extent: extent)
        categoryStats = stats
        return stats
    }

    /// Runs `body` in one read transaction, so that SQLite takes its file lock and checks the file (for a
    /// hot journal, a changed size) once for all of the query's statements instead of once per statement:
    /// that was a third of a nearest-place query, in fcntl and stat calls. Nested calls share the outer one.
    ///
    /// ```swift
    /// let (a, b) = try session.inReadTransaction { (try session.search("a"), try session.search("b")) }
    /// ```
    public func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        guard connection.isAutocommit else { return try body() }
        try cachedStatement("BEGIN").run()
        defer {
            // A read transaction must not outlive the call (it would pin this session to one snapshot).
            if !connection.isAutocommit, (try? cachedStatement("COMMIT").run()) == nil { try? connection.execute("ROLLBACK") }
        }
        return try body()
    }

    /// A prepared statement for `sql`, compiled once per database and reused.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }
}
