// The entry point for apps: one value per database file, safe to share between threads and tasks. Every
// call borrows a `QuerySession` (one SQLite connection with its prepared statements and caches) from a
// pool, so concurrent callers never share a connection and a warm session is reused.
import Foundation
import GeoDBSQLite

/// A geodb database opened read-only for queries, safe to use from many threads and tasks at once.
/// Every query kind of the `geodb` CLI is a method here, each with an `async` variant.
///
/// ```swift
/// let db = try GeoDatabase(path: "helsinki.sqlite")
/// let hits = try db.search("mannerheimintie")                            // forward search
/// let here = try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545))  // reverse
/// // In async code the same calls take `await`: try await db.search("mannerheimintie")
/// ```
///
/// Queries never write. A database replaced by a new import (atomic rename) while it is open keeps
/// answering from the file that was opened; open it again to see the new one. A file written over in place
/// (`cp`) cannot be: its queries then fail with `.database` errors (never a crash) until it is opened again.
public final class GeoDatabase: Sendable {
    /// The file opened.
    public let path: String
    /// Whether the file was promised never to change while open (SQLite then takes no locks).
    public let immutable: Bool
    private let pool: SessionPool

    /// Opens `path` read-only; checks that it is a geodb database of this schema version. Its sessions
    /// keep SQLite's shared lock while open (see `QuerySession.init`). `immutable: true` promises the file
    /// never changes while open (no locking at all, and the file is memory-mapped: a file written over in
    /// place while mapped would kill the process); only for files nobody writes, e.g. in an app bundle.
    ///
    /// ```swift
    /// let db = try GeoDatabase(path: "world.sqlite", immutable: true)
    /// ```
    public init(path: String, immutable: Bool = false) throws {
        self.path = path
        self.immutable = immutable
        // The file's identity before opening: if it is replaced in between, the pool never opens a second
        // session, rather than a second file.
        let identity = FileIdentity(path: path)
        pool = SessionPool(first: try QuerySession(path: path, immutable: immutable), identity: identity)
    }

    /// Configures SQLite for a program's queries (`Connection.configureForPrograms`: no memory statistics,
    /// no bulk allocation starting each page cache; measured: "Vaduz" 1.5 → 0.95 ms). Process-wide: for
    /// programs, not libraries, to call before anything opens a database (later it does nothing). The geodb
    /// and geodb-bench programs do.
    ///
    /// ```swift
    /// GeoDatabase.configureSQLiteForPrograms()   // first thing in main
    /// ```
    public static func configureSQLiteForPrograms() {
        Connection.configureForPrograms()
    }

    /// Runs `body` with a session of its own, in one read transaction: several queries on one connection
    /// and one snapshot of the file, or a session's own API (`TimeZoneLookup` for millions of lookups).
    /// Do not keep the session beyond `body`, and query through it, not through `self`, inside `body`:
    /// after the file has been replaced no new session opens, so a nested call could wait for this one.
    ///
    /// ```swift
    /// let zones = try db.withSession { session in try points.map { try session.timeZones()?.tzid(at: $0) } }
    /// ```
    public func withSession<T>(_ body: (QuerySession) throws -> T) throws -> T {
        try pool.withSession(open: { try QuerySession(path: path, immutable: immutable) }) { session in
            try session.inReadTransaction { try body(session) }
        }
    }

    /// `withSession` for async code: one session for several calls (a server's answer needs the geometry
    /// and names of all its places: one borrow, not two per place), on the query threads.
    ///
    /// ```swift
    /// let shapes = try await db.read { try $0.geometries(ofPlaces: found.map(\.id)) }
    /// ```
    public func read<T: Sendable>(_ body: @escaping @Sendable (QuerySession) throws -> T) async throws -> T {
        try await run(body)
    }

    /// Runs `body` with a session on the query threads, never on the caller's (a query blocks its thread,
    /// and Swift's cooperative pool has one per core), and stops it when the calling task is cancelled, as
    /// Apple's `cancelGeocode` does: SQLite's running statement ends at once and the call throws `.interrupted`.
    private func run<T: Sendable>(_ body: @escaping @Sendable (QuerySession) throws -> T) async throws -> T {
        let running = RunningQuery()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                RunningQuery.threads.async {
                    continuation.resume(with: Result {
                        try self.withSession { session in
                            guard running.start(session) else { throw GeoDBError(.interrupted, "\(self.path): cancelled") }
                            defer { running.end(session) }
                            return try body(session)
                        }
                    })
                }
            }
        } onCancel: {
            running.cancel()
        }
    }

    // MARK: forward search

    /// Places matching free text, best first (typo- and diacritic-tolerant; `options.autocomplete` for
    /// text still being typed).
    ///
    /// ```swift
    /// var options = SearchOptions()
    /// options.autocomplete = true
    /// let results = try db.search("mannerh", options: options)   // Mannerheimintie first
    /// ```
    public func search(_ text: String, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try withSession { try $0.search(text, options: options) }
    }

    /// `search(_:options:)` for async code.
    ///
    /// ```swift
    /// let hits = try await db.search("mannerheimintie")
    /// ```
    public func search(_ text: String, options: SearchOptions = SearchOptions()) async throws -> [PlaceResult] {
        try await run { try $0.search(text, options: options) }
    }

    /// Everything about one place, by id (`1234`) or the `sourceRef` results carry (`n123`, `w45`, `r6`,
    /// `geonames:658225`, `csv:stores.csv:17`).
    ///
    /// ```swift
    /// let details = try db.lookup("w8143233")
    /// ```
    public func lookup(_ reference: String) throws -> PlaceDetails {
        try withSession { try $0.lookup(reference) }
    }

    /// `lookup(_:)` for async code.
    ///
    /// ```swift
    /// let details = try await db.lookup("geonames:658225")
    /// ```
    public func lookup(_ reference: String) async throws -> PlaceDetails {
        try await run { try $0.lookup(reference) }
    }

    // MARK: reverse

    /// The address, street, POI or area at a point, per `options.level`, nearest first; empty when
    /// nothing is within reach.
    ///
    /// ```swift
    /// let here = try db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545))
    /// print(here.first?.place.displayName ?? "nothing near")
    /// ```
    public func reverse(at point: Coordinate, options: ReverseOptions = ReverseOptions()) throws -> [ReverseResult] {
        try withSession { try $0.reverse(at: point, options: options) }
    }

    /// `reverse(at:options:)` for async code.
    ///
    /// ```swift
    /// let here = try await db.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545))
    /// ```
    public func reverse(at point: Coordinate, options: ReverseOptions = ReverseOptions()) async throws -> [ReverseResult] {
        try await run { try $0.reverse(at: point, options: options) }
    }

    // MARK: nearby

    /// Places of `filter` within `radius` metres of `center`, nearest first, a page at a time: pass the
    /// page's `nextCursor` as `after` for the next one.
    ///
    /// ```swift
    /// let cafes = try db.places(near: Coordinate(lat: 60.1699, lon: 24.9384), radius: 500,
    ///                           filter: try .resolve(["cafe"]))
    /// ```
    public func places(near center: Coordinate, radius: Double, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) throws -> PlacePage {
        try withSession { try $0.places(near: center, radius: radius, filter: filter, name: name, limit: limit, after: cursor) }
    }

    /// `places(near:radius:filter:name:limit:after:)` for async code.
    ///
    /// ```swift
    /// let page = try await db.places(near: Coordinate(lat: 60.1699, lon: 24.9384), radius: 500)
    /// ```
    public func places(near center: Coordinate, radius: Double, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) async throws -> PlacePage {
        try await run { try $0.places(near: center, radius: radius, filter: filter, name: name, limit: limit, after: cursor) }
    }

    // MARK: timezones

    /// Whether the database holds timezone boundaries.
    public var hasTimeZones: Bool {
        (try? withSession { $0.hasTimeZones }) ?? false
    }

    /// The IANA zone at a point and its clock at `date`: UTC offset, daylight saving time, abbreviation,
    /// local time, next transition. Throws `invalidArgument` when the database has no timezones.
    ///
    /// ```swift
    /// let zone = try db.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384))
    /// print(zone.tzid, zone.utcOffsetSeconds ?? 0)   // Europe/Helsinki 7200
    /// ```
    public func timeZone(at point: Coordinate, date: Date = Date()) throws -> TimeZoneAnswer {
        try withSession { try $0.timeZone(at: point, date: date) }
    }

    /// `timeZone(at:date:)` for async code.
    ///
    /// ```swift
    /// let zone = try await db.timeZone(at: Coordinate(lat: 35.68, lon: 139.65))   // Asia/Tokyo
    /// ```
    public func timeZone(at point: Coordinate, date: Date = Date()) async throws -> TimeZoneAnswer {
        try await run { try $0.timeZone(at: point, date: date) }
    }

    // MARK: the file

    /// What is in the database: sources, counts by kind and category, extent, table sizes.
    ///
    /// ```swift
    /// print(try db.info().placeCount)
    /// ```
    public func info(topCategories: Int = 15) throws -> DatabaseInfo {
        try withSession { try $0.info(topCategories: topCategories) }
    }

    /// `info(topCategories:)` for async code.
    ///
    /// ```swift
    /// let count = try await db.info().placeCount
    /// ```
    public func info(topCategories: Int = 15) async throws -> DatabaseInfo {
        try await run { try $0.info(topCategories: topCategories) }
    }

    /// The integrity checks of `geodb inspect --check`: SQLite, FTS5, R*Tree and geodb's own invariants.
    /// FTS5's check runs as a command, so this opens the file read-write once; it changes nothing.
    ///
    /// ```swift
    /// let problems = try db.check().filter { !$0.ok }
    /// ```
    public func check() throws -> [CheckResult] {
        try IntegrityCheck.run(path: path)
    }
}

/// The session an async call is running its query in, for the task's cancellation handler, which runs on
/// another thread at any moment: before the query starts (then it never does), during it or after it.
private final class RunningQuery: @unchecked Sendable {
    /// Where async calls run their queries: as many at once as the machine has cores.
    static let threads = DispatchQueue(label: "geodb.queries", attributes: .concurrent)
    private let lock = NSLock()
    private var session: QuerySession?
    private var cancelled = false

    /// False when the task was cancelled already.
    func start(_ session: QuerySession) -> Bool {
        lock.withLock {
            self.session = session
            return !cancelled
        }
    }

    func end(_ session: QuerySession) {
        lock.withLock { self.session = nil }
        session.resume()   // after the handler can no longer reach it, so that the pool gets it back usable
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            session?.cancel()
        }
    }
}

/// The sessions of one database. A session is only ever used by the caller that took it out.
///
/// A new session is opened only while `path` is still the file the first one opened (`FileIdentity`): after
/// the file has been replaced (a new import renamed over it, or written over in place), callers wait for a
/// session on the old file instead, so one `GeoDatabase` never mixes answers from two files.
private final class SessionPool: @unchecked Sendable {
    /// More idle sessions than this are closed when returned. Each keeps its own caches (prepared
    /// statements, point grids, the timezone lookup), so this bounds what a burst of callers leaves behind.
    private static let maxIdle = max(4, ProcessInfo.processInfo.activeProcessorCount)
    private let condition = NSCondition()
    private var idle: [QuerySession]
    private let path: String
    private let identity: FileIdentity?

    init(first: QuerySession, identity: FileIdentity?) {
        idle = [first]
        path = first.path
        self.identity = identity
    }

    func withSession<T>(open: () throws -> QuerySession, _ body: (QuerySession) throws -> T) throws -> T {
        let session = try take(open: open)
        defer {
            condition.lock()
            idle.append(session)
            if idle.count > Self.maxIdle, identity == FileIdentity(path: path) { idle.removeFirst() }
            condition.signal()
            condition.unlock()
        }
        return try body(session)
    }

    private func take(open: () throws -> QuerySession) throws -> QuerySession {
        condition.lock()
        while true {
            if let session = idle.popLast() {
                condition.unlock()
                return session
            }
            if identity == FileIdentity(path: path) { break }
            condition.wait()
        }
        condition.unlock()
        return try open()   // outside the lock: others keep returning and taking sessions meanwhile
    }

}
