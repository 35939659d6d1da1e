// One read-only connection to a geodb database and the query engines over it; `GeoDatabase` keeps a
// pool of these so that many threads can query at once. Each public method hands its call to the engine
// of its kind (Search/, Reverse/, Nearby/, TimeZones/, Storage/): the session holds no query logic.
import Foundation

/// One connection to a geodb database, for one thread at a time: the fastest way to run many queries
/// from one thread (no locking). Queries never write. For use from several threads, or from async code,
/// use `GeoDatabase`, which hands out sessions from a pool.
///
/// ```swift
/// let session = try QuerySession(path: "helsinki.sqlite")
/// print(try session.search("mannerheimintie").first?.name ?? "-")
/// ```
///
/// Every method checks its options first (`QueryValidation`) and throws `GeoDBError` only: SQLite's
/// failures come as `.database` errors naming the file and what the query was for.
public final class QuerySession {
    /// The database file.
    public let path: String
    let db: DatabaseReader

    // The engines, each made on first use. They share what they read through (`db`, `places`) and the
    // caches of this session (nearest-place grids, the timezone lookup).
    lazy var places = PlaceReader(db)
    lazy var index = SearchIndex(db, areaSets: places.areaSets)
    lazy var nearestPlaces = NearestPlaces(db)
    lazy var timeZoneLoader = TimeZoneLoader(db)
    lazy var hierarchy = AddressHierarchy(db: db, places: places, nearest: nearestPlaces)
    lazy var nearby = NearbySearch(db: db, places: places)
    lazy var forward = ForwardSearch(db: db, index: index, places: places, nearby: nearby)
    lazy var structured = StructuredSearch(db: db, index: index, places: places, forward: forward)
    lazy var placeLookup = PlaceLookup(db: db, places: places)
    lazy var map = MapFeatures(db: db)
    lazy var reverseGeocoder = ReverseGeocoder(db: db, places: places, nearest: nearestPlaces, hierarchy: hierarchy,
                                                       timeZones: timeZoneLoader)

    /// Opens `path` read-only and checks that it is a geodb database of this schema version. The session
    /// keeps SQLite's shared lock on the file from its first read until it closes (`locking_mode =
    /// EXCLUSIVE`): other readers are unaffected and geodb never writes a database in place (a new import
    /// is renamed over it), but a program that updates the file in place waits until the session closes.
    /// `immutable` promises the file never changes while open (no locking at all).
    ///
    /// ```swift
    /// let session = try QuerySession(path: "world.sqlite", immutable: true)
    /// ```
    public init(path: String, immutable: Bool = false) throws {
        self.path = path
        db = try DatabaseReader(path: path, immutable: immutable)
    }

    /// Runs `body` in one read transaction: SQLite takes its file lock and checks the file once for all
    /// of the queries in it (a third of a nearest-place query otherwise), and they all see one snapshot.
    /// Nested calls share the outer one.
    ///
    /// ```swift
    /// let (a, b) = try session.inReadTransaction { (try session.search("a"), try session.search("b")) }
    /// ```
    public func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.inReadTransaction(body)
    }

    /// Stops the query running in this session, from any other thread: it throws `GeoDBError` `.interrupted`
    /// (SQLite's running statement ends at once), and so does every query after it until `resume()`. What
    /// `GeoDatabase`'s async calls do when their task is cancelled.
    ///
    /// ```swift
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { session.cancel() }
    /// ```
    public func cancel() {
        db.cancel()
    }

    /// Lets queries run again after `cancel()`.
    public func resume() {
        db.resume()
    }

    // MARK: forward search (Search/)

    /// Places matching `text`, best first (typo- and diacritic-tolerant; `options.autocomplete` for text
    /// still being typed).
    ///
    /// ```swift
    /// var options = SearchOptions()
    /// options.autocomplete = true
    /// let results = try session.search("mannerh", options: options)   // Mannerheimintie first
    /// ```
    public func search(_ text: String, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try forward.search(text, options: options)
    }

    /// `search`, with why: the readings of the text tried (plain name, "what, where", postcode, street and
    /// number, typos, …), the candidates each gave, and each result's reading and score parts.
    ///
    /// ```swift
    /// let (places, why) = try session.explainSearch("Café, Vaduz")
    /// print(why.results.map { "\($0.name) by \($0.reading)" })
    /// ```
    public func explainSearch(_ text: String, options: SearchOptions = SearchOptions()) throws
        -> (places: [PlaceResult], explanation: SearchExplanation) {
        try forward.explain(text, options: options)
    }

    /// `search` a page at a time: the first `options.limit` results, then with each page's `nextCursor` as
    /// `after` the next (up to 500 results in all).
    ///
    /// ```swift
    /// var page = try session.searchPage("kahvila", options: SearchOptions())
    /// while let next = page.nextCursor { page = try session.searchPage("kahvila", options: SearchOptions(), after: next) }
    /// ```
    public func searchPage(_ text: String, options: SearchOptions = SearchOptions(), after cursor: String? = nil) throws -> PlacePage {
        try forward.searchPage(text, options: options, after: cursor)
    }

    /// An address from its parts: the exact address, else an interpolated position, else the street.
    ///
    /// ```swift
    /// let hits = try session.structuredSearch(street: "Mannerheimintie", housenumber: "9", city: "Helsinki", postcode: nil)
    /// ```
    public func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                                 options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try structured.structuredSearch(street: street, housenumber: housenumber, city: city, postcode: postcode, options: options)
    }

    /// Town → street → house number, each step scoped by the one before and answering name fragments.
    ///
    /// ```swift
    /// let streets = try session.hierarchical(town: "Helsinki", street: "Manner")
    /// ```
    public func hierarchical(town: String, street: String? = nil, housenumber: String? = nil,
                             options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try structured.hierarchical(town: town, street: street, housenumber: housenumber, options: options)
    }

    /// The streets crossing `street` (in `town` when given), each at its crossing point.
    ///
    /// ```swift
    /// let corners = try session.crossings(of: "Mannerheimintie")
    /// ```
    public func crossings(of street: String, town: String? = nil, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try structured.crossings(of: street, town: town, options: options)
    }

    /// The street `crossings(of:town:)` looks at: the first street named `street` (in `town` when given).
    ///
    /// ```swift
    /// let street = try session.crossedStreet("Mannerheimintie")
    /// ```
    public func crossedStreet(_ street: String, town: String? = nil, options: SearchOptions = SearchOptions()) throws -> PlaceResult? {
        try structured.crossedStreet(street, town: town, options: options)
    }

    /// The streets crossing `street`, a street of this session's file (`crossedStreet`), each at its crossing point.
    ///
    /// ```swift
    /// let corners = try session.crossings(ofStreet: street)
    /// ```
    public func crossings(ofStreet street: PlaceResult, options: SearchOptions = SearchOptions()) throws -> [PlaceResult] {
        try options.validate()
        return try structured.crossings(of: street, options: options)
    }

    /// Everything about one place, by id (`1234`) or the source id results carry (`n123`, `geonames:658225`).
    ///
    /// ```swift
    /// let details = try session.lookup("n319515045")
    /// ```
    public func lookup(_ reference: String) throws -> PlaceDetails {
        try placeLookup.lookup(reference)
    }

    /// The houses and POIs whose address names `place` as their street (or hamlet), in house-number order:
    /// what is on a street, as Nominatim's `/details?hierarchy=1` lists its "parented places".
    ///
    /// ```swift
    /// let houses = try session.placesAddressed(by: street, limit: 500)
    /// ```
    public func placesAddressed(by place: PlaceResult, limit: Int = 500) throws -> [PlaceResult] {
        try placeLookup.placesAddressed(by: place, limit: limit)
    }

    /// The administrative boundaries merged into several places in one read, by id (places without one are
    /// left out): Vaduz's node labels the relation r1155956 of admin level 8.
    public func mergedBoundaries(ofPlaces ids: [Int64]) throws -> [Int64: MergedBoundary] {
        try placeLookup.mergedBoundaries(of: ids)
    }

    /// The line or polygon geometry of a place (`PlaceResult.id`), nil for a place that is a point.
    ///
    /// ```swift
    /// if case .lineStrings(let lines)? = try session.geometry(ofPlace: street.id) { print(lines.count) }
    /// ```
    public func geometry(ofPlace id: Int64) throws -> Geometry? {
        try places.geometry(of: id)
    }

    /// The line or polygon geometries of several places in one read, by id (points are left out).
    public func geometries(ofPlaces ids: [Int64]) throws -> [Int64: Geometry] {
        try places.geometries(of: ids)
    }

    /// Every name of several places in one read, by id, each place's own names first (as `lookup` lists them).
    public func names(ofPlaces ids: [Int64]) throws -> [Int64: [PlaceDetails.Name]] {
        try placeLookup.names(of: ids)
    }

    /// The OSM objects several places are made of, in one read, by id (their own and those merged into them):
    /// what tells that two files' places are one (`SamePlace.shareAnOSMObject`).
    func osmRecords(ofPlaces ids: [Int64]) throws -> [Int64: Set<String>] {
        try placeLookup.osmRecords(of: ids)
    }

    /// The entrances of several places in one read, by id, each place's by node id (places without any are
    /// left out).
    ///
    /// ```swift
    /// let doors = try session.entrances(ofPlaces: results.map(\.id))
    /// ```
    public func entrances(ofPlaces ids: [Int64]) throws -> [Int64: [PlaceEntrance]] {
        try placeLookup.entrances(of: ids)
    }

    // MARK: maps (Map/)

    /// Up to `limit` (at most 10,000) places to draw on a map of `box`, most important first, with their
    /// lines and polygons thinned to the box's scale (and left out when less than a thousandth of it).
    ///
    /// ```swift
    /// let features = try session.mapFeatures(in: BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96))
    /// ```
    public func mapFeatures(in box: BoundingBox, limit: Int = 2_000) throws -> [MapFeature] {
        try map.features(in: box, limit: limit)
    }

    /// Where the places are densest: the whole extent of a small file, the busiest ~50 km of a large one
    /// (from a sample of 2,000 places); nil without places.
    ///
    /// ```swift
    /// let opening = try session.denseArea()?.box   // where a map of the file should open
    /// ```
    public func denseArea() throws -> DenseArea? {
        try DenseArea.find(db)
    }

    // MARK: reverse (Reverse/)

    /// The place at `point`: address, street, POI or area, per `options.level`; empty when nothing is within reach.
    ///
    /// ```swift
    /// let here = try session.reverse(at: Coordinate(lat: 60.16952, lon: 24.93545))
    /// ```
    public func reverse(at point: Coordinate, options: ReverseOptions = ReverseOptions()) throws -> [ReverseResult] {
        try reverseGeocoder.reverse(at: point, options: options)
    }

    // MARK: nearby (Nearby/)

    /// Largest radius a nearby search accepts, in metres.
    public static let maxRadius = NearbySearch.maxRadius
    /// Largest page of a nearby search.
    public static let maxPageSize = NearbySearch.maxPageSize

    /// Places matching `filter` within `radius` metres (1…`maxRadius`) of `center`, nearest first (ties by
    /// id), `limit` at a time.
    ///
    /// ```swift
    /// let page = try session.places(near: Coordinate(lat: 60.1699, lon: 24.9384), radius: 500, filter: try .resolve(["cafe"]))
    /// ```
    public func places(near center: Coordinate, radius: Double, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) throws -> PlacePage {
        try nearby.places(near: center, radius: radius, filter: filter, name: name, limit: limit, after: cursor)
    }

    /// Places matching `filter` inside `box` (min > max longitude crosses the antimeridian), nearest to
    /// `near` (default: the box's centre) first.
    ///
    /// ```swift
    /// let page = try session.places(in: BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96))
    /// ```
    public func places(in box: BoundingBox, near: Coordinate? = nil, filter: CategoryFilter = .anyNamedPOI,
                       name: String? = nil, limit: Int = 10, after cursor: String? = nil) throws -> PlacePage {
        try nearby.places(in: box, near: near, filter: filter, name: name, limit: limit, after: cursor)
    }

    /// The database's taxonomy in tree order (each parent followed by its children), with place counts.
    ///
    /// ```swift
    /// for c in try session.categories() where c.depth == 0 { print(c.id, c.placesWithChildren) }
    /// ```
    public func categories() throws -> [CategoryCount] {
        try nearby.categories()
    }

    // MARK: timezones (TimeZones/)

    /// Whether the database holds timezones (then `timeZones()` answers for any point).
    public var hasTimeZones: Bool { timeZoneLoader.hasTimeZones }

    /// This session's timezone lookup (created on first use, then kept: it caches), or nil when the
    /// database holds no timezones.
    ///
    /// ```swift
    /// let tzid = try session.timeZones()?.tzid(at: Coordinate(lat: 60.17, lon: 24.94))
    /// ```
    public func timeZones() throws -> TimeZoneLookup? {
        try timeZoneLoader.lookup()
    }

    /// The IANA zone at a point and its clock at `date`; throws `invalidArgument` when the database has no timezones.
    ///
    /// ```swift
    /// let zone = try session.timeZone(at: Coordinate(lat: 60.1699, lon: 24.9384), date: Date())
    /// ```
    public func timeZone(at point: Coordinate, date: Date = Date()) throws -> TimeZoneAnswer {
        try timeZoneLoader.required().timeZone(at: point, date: date)
    }

    // MARK: the file (Storage/)

    /// Summarises the database; `topCategories` limits the category list.
    ///
    /// ```swift
    /// print(try session.info(topCategories: 5).categories.map(\.name))
    /// ```
    public func info(topCategories: Int = 15) throws -> DatabaseInfo {
        try DatabaseInfo(db, topCategories: topCategories)
    }

    /// The extent of the places (meta's `bbox`), without the counts of `info`; nil when there are none.
    ///
    /// ```swift
    /// let box = try session.extent()
    /// ```
    public func extent() throws -> BoundingBox? {
        try DatabaseInfo.extent(db)
    }

    /// Calls `body` with each selected place, in id order, and its geometry when `selection.withGeometry` asks.
    ///
    /// ```swift
    /// var selection = PlaceSelection()
    /// selection.kinds = [.street]
    /// try session.forEachPlace(selection) { place, geometry in print(place.name ?? "", geometry != nil) }
    /// ```
    public func forEachPlace(_ selection: PlaceSelection, _ body: (PlaceResult, Geometry?) throws -> Void) throws {
        try PlaceScan(db: db, places: places).forEach(selection, body)
    }

    /// Every tag key used by some place, sorted (the columns of a CSV export).
    ///
    /// ```swift
    /// let keys = try session.tagKeys()   // ["brand", "cuisine", "opening_hours", …]
    /// ```
    public func tagKeys() throws -> [String] {
        try PlaceScan(db: db, places: places).tagKeys()
    }
}
