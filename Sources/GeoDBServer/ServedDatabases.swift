// Several database files served as one: a user who outgrows one file builds region files in parallel and
// serves them together. Forward search asks every file with places and merges by score; reverse, nearby
// and maps ask the files whose extent holds the point or box and merge by distance; a place two files share
// is shown once. A file replaced on disk (a new import renamed over it, or a copy written over it in
// place) is opened anew (SIGHUP or the watch) while requests in flight finish on the old one.
import Foundation
import GeoDB
import Logging
import Synchronization

/// One served file.
struct Shard: Sendable {
    /// Its place in the command line: the high bits of the ids the server shows (`ServedDatabases.globalID`).
    let index: Int
    let path: String
    let database: GeoDatabase
    /// Read once when opened: `/status` shows it and the extent picks the files a point needs.
    let info: DatabaseInfo
    let hasTimeZones: Bool
    /// The file as opened: another identity at the path means it was replaced or written over.
    let identity: FileIdentity?

    static func open(index: Int, path: String) throws -> Shard {
        let identity = FileIdentity(path: path)
        let database = try GeoDatabase(path: path)
        return Shard(index: index, path: path, database: database, info: try database.info(topCategories: 0),
                     hasTimeZones: database.hasTimeZones, identity: identity)
    }

    /// The file's name without its directory: what clients are shown (/status, error messages), since
    /// where the files lie on the server is none of theirs.
    var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// Whether the file's places come near `point`: within `margin` degrees of their extent.
    func covers(_ point: Coordinate, margin: Double = 0) -> Bool {
        guard let box = info.boundingBox else { return false }
        return point.lat >= box.minLat - margin && point.lat <= box.maxLat + margin
            && point.lon >= box.minLon - margin && point.lon <= box.maxLon + margin
    }

    func meets(_ other: BoundingBox) -> Bool {
        guard let box = info.boundingBox else { return false }
        let lonMeets = other.minLon <= other.maxLon ? other.minLon <= box.maxLon && other.maxLon >= box.minLon : true
        return lonMeets && other.minLat <= box.maxLat && other.maxLat >= box.minLat
    }
}

/// A place found in one of the files.
struct ShardPlace: Sendable {
    let shard: Shard
    var place: PlaceResult
    /// The id clients see: unique across the files.
    var globalID: Int64 { ServedDatabases.globalID(shard: shard.index, id: place.id) }
}

/// The files a server answers from.
final class ServedDatabases: Sendable {
    private let shards: Mutex<[Shard]>
    /// By file index, the replacement that did not open: it is logged once, not at every look of the watch,
    /// and tried again when it changes.
    private let failedReplacements = Mutex<[Int: FileIdentity?]>([:])
    private let logger: Logger

    /// Opens every file; throws the first error (a server must not start with a file missing).
    init(paths: [String], logger: Logger) throws {
        shards = Mutex(try paths.enumerated().map { try Shard.open(index: $0.offset, path: $0.element) })
        self.logger = logger
    }

    /// The files now: a request takes them once and uses that list to its end.
    var current: [Shard] { shards.withLock { $0 } }

    /// The files with places (not a file of timezones only): what search asks.
    var withPlaces: [Shard] { current.filter { $0.info.placeCount > 0 } }

    /// How deep nearby pages go: the most places one nearby call returns.
    static let maxNearbyDepth = 1_000

    // MARK: ids across files

    /// Ids below 2^40 are the first file's own; the file's index is in the bits above.
    private static let idBits: Int64 = 40

    static func globalID(shard: Int, id: Int64) -> Int64 { Int64(shard) << idBits | id }

    /// The file and its own id of a global id, nil when no served file has that index.
    func place(globalID: Int64) -> (shard: Shard, id: Int64)? {
        guard globalID >= 0 else { return nil }
        let index = Int(globalID >> Self.idBits)
        guard let shard = current.first(where: { $0.index == index }) else { return nil }
        return (shard, globalID & ((1 << Self.idBits) - 1))
    }

    // MARK: reloading

    /// Opens anew each file that was replaced or written over since it was opened. A file that does not
    /// open (half copied, a newer schema) leaves the old one in service and is logged, once for each state
    /// of the file. Returns how many files were replaced.
    @discardableResult
    func reloadReplacedFiles() -> Int {
        var replaced = 0
        for shard in current {
            let identity = FileIdentity(path: shard.path)
            let failed = failedReplacements.withLock { $0[shard.index] }   // nil: none failed
            guard identity != shard.identity, failed != .some(identity) else { continue }
            do {
                let fresh = try Shard.open(index: shard.index, path: shard.path)
                shards.withLock { list in
                    if let at = list.firstIndex(where: { $0.index == shard.index }) { list[at] = fresh }
                }
                failedReplacements.withLock { _ = $0.removeValue(forKey: shard.index) }
                replaced += 1
                logger.info("reloaded a replaced database", metadata: ["path": "\(shard.path)", "places": "\(fresh.info.placeCount)"])
            } catch {
                failedReplacements.withLock { $0[shard.index] = identity }
                logger.error("a replaced database does not open; still serving the old one",
                             metadata: ["path": "\(shard.path)", "error": "\(error)"])
            }
        }
        return replaced
    }

    /// `text` with the path of each served file shortened to its name (`Shard.name`).
    func hidingDirectories(_ text: String) -> String {
        current.sorted { $0.path.count > $1.path.count }   // longest first: a path inside another is shortened whole
            .reduce(text) { text, shard in text.replacingOccurrences(of: shard.path, with: shard.name) }
    }

    // MARK: merged queries

    /// The results `offset ..< offset + limit` of searching every file, merged by score (each file's own
    /// order kept; equal scores: the earlier file first), and whether more follow.
    func search(_ text: String, options: SearchOptions, offset: Int, limit: Int) async throws -> (places: [ShardPlace], more: Bool) {
        let depth = offset + limit + 1
        let perShard = try await eachShard(withPlaces) { shard in
            var options = options, found: [PlaceResult] = [], cursor: String?
            options.limit = min(depth, SearchOptions.maxLimit)
            repeat {
                let page = try await shard.database.searchPage(text, options: options, after: cursor)
                found += page.places
                cursor = page.nextCursor
            } while found.count < depth && cursor != nil
            return found.map { ShardPlace(shard: shard, place: $0) }
        }
        let merged = Self.distinct(Self.merge(perShard, limit: depth) { ($0.place.score ?? .infinity) > ($1.place.score ?? .infinity) })
        return (Array(merged.dropFirst(offset).prefix(limit)), merged.count > offset + limit)
    }

    /// Structured search in every file, merged by score.
    func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                          options: SearchOptions) async throws -> [ShardPlace] {
        let perShard = try await eachShard(withPlaces) { shard in
            try await shard.database.structuredSearch(street: street, housenumber: housenumber, city: city, postcode: postcode,
                                                      options: options).map { ShardPlace(shard: shard, place: $0) }
        }
        return Self.distinct(Self.merge(perShard, limit: options.limit) { ($0.place.score ?? 0) > ($1.place.score ?? 0) })
    }

    /// Reverse in the files whose places come within the search radius of `point` (every file when none
    /// does: a database of towns answers the nearest town however far), nearest first.
    func reverse(at point: Coordinate, options: ReverseOptions) async throws -> [(shard: Shard, result: ReverseResult)] {
        let all = withPlaces
        let margin = (options.radius ?? options.level.defaultRadius) / 111_000
        let near = all.filter { $0.covers(point, margin: margin) }
        let perShard = try await eachShard(near.isEmpty ? all : near) { shard in
            try await shard.database.reverse(at: point, options: options).map { (shard: shard, result: $0) }
        }
        return Self.merge(perShard, limit: options.limit) { ($0.result.place.distanceM ?? 0) < ($1.result.place.distanceM ?? 0) }
    }

    /// Places of a category near a point or in a box from the files that reach there: the slice
    /// `offset ..< offset + limit` nearest first, and whether more follow.
    func nearby(center: Coordinate?, radius: Double, box: BoundingBox?, filter: CategoryFilter, name: String?,
                offset: Int, limit: Int) async throws -> (places: [ShardPlace], more: Bool) {
        let depth = min(offset + limit + 1, Self.maxNearbyDepth)
        let shards = current.filter { shard in
            if let box { return shard.meets(box) }
            return center.map { shard.covers($0, margin: radius / 111_000) } ?? false
        }
        let perShard = try await eachShard(shards) { shard in
            let page = if let box {
                try await shard.database.places(in: box, near: center, filter: filter, name: name, limit: depth)
            } else {
                try await shard.database.places(near: center!, radius: radius, filter: filter, name: name, limit: depth)
            }
            return page.places.map { ShardPlace(shard: shard, place: $0) }
        }
        let merged = Self.distinct(Self.merge(perShard, limit: depth) { ($0.place.distanceM ?? 0) < ($1.place.distanceM ?? 0) })
        return (Array(merged.dropFirst(offset).prefix(limit)), merged.count > offset + limit)
    }

    /// The zone at a point from the first file with timezones whose polygons hold it (or, when none does,
    /// the first answer: the nearest zone or the ocean's).
    func timeZone(at point: Coordinate, date: Date) async throws -> TimeZoneAnswer? {
        var first: TimeZoneAnswer?
        for shard in current where shard.hasTimeZones {
            let answer = try await shard.database.timeZone(at: point, date: date)
            if answer.source == .polygon { return answer }
            first = first ?? answer
        }
        return first
    }

    /// The taxonomy (every file has the same) with the places of all files counted.
    func categories() async throws -> [CategoryCount] {
        let perShard = try await eachShard(withPlaces) { try await $0.database.categories() }
        guard var merged = perShard.first else { return [] }
        for other in perShard.dropFirst() {
            let counts = Dictionary(other.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for index in merged.indices {
                merged[index].places += counts[merged[index].id]?.places ?? 0
                merged[index].placesWithChildren += counts[merged[index].id]?.placesWithChildren ?? 0
            }
        }
        return merged
    }

    /// A place by global id, or by a source id (`n123`, `geonames:658225`) in the first file that has it.
    func lookup(_ reference: String) async throws -> (shard: Shard, details: PlaceDetails) {
        if let global = Int64(reference) {
            guard let (shard, id) = place(globalID: global) else { throw APIError(status: .notFound, message: "no place \(global)") }
            do {
                return (shard, try await shard.database.lookup(String(id)))
            } catch let error as GeoDBError where error.code == .invalidArgument {
                throw APIError(status: .notFound, message: "no place \(global)")
            }
        }
        for shard in current {
            do {
                return (shard, try await shard.database.lookup(reference))
            } catch let error as GeoDBError where error.code == .invalidArgument || error.code == .fileNotFound {
                continue
            }
        }
        throw APIError(status: .notFound, message: "no place '\(reference.prefix(60))'")
    }

    /// What a map of `box` shows, from every file that reaches it, most important first per file.
    func mapFeatures(in box: BoundingBox, limit: Int) async throws -> [(shard: Shard, feature: MapFeature)] {
        let perShard = try await eachShard(current.filter { $0.meets(box) }) { shard in
            try await shard.database.mapFeatures(in: box, limit: limit).map { (shard: shard, feature: $0) }
        }
        return Array(perShard.joined().prefix(limit))
    }

    // MARK: helpers

    /// `body` for each file at once, the answers in file order.
    private func eachShard<T: Sendable>(_ shards: [Shard], _ body: @escaping @Sendable (Shard) async throws -> T) async throws -> [T] {
        if shards.count == 1 { return [try await body(shards[0])] }
        return try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (position, shard) in shards.enumerated() { group.addTask { (position, try await body(shard)) } }
            var answers = [T?](repeating: nil, count: shards.count)
            for try await (position, answer) in group { answers[position] = answer }
            return answers.compactMap { $0 }
        }
    }

    /// `places` with each place that another file gave already left out: files served together overlap (a
    /// world gazetteer and a country extract both have Vaduz; two neighbouring extracts share the border's
    /// streets). The same place is the same OSM object, or by the importer's rule for two sources
    /// (`SamePlace`: one name once folded, kinds that can be one place, within the smaller one's reach). Of
    /// the two, the one from OSM stays, at the place of the one ranked first: it has the address, the
    /// geometry and the OSM id clients ask for.
    static func distinct(_ places: [ShardPlace]) -> [ShardPlace] {
        guard Set(places.map(\.shard.index)).count > 1 else { return places }
        func isOSM(_ place: PlaceResult) -> Bool { PlaceFields(place: place).osm != nil }
        func same(_ a: PlaceResult, _ b: PlaceResult) -> Bool {
            if isOSM(a) && isOSM(b) { return a.sourceRef == b.sourceRef }
            guard let nameA = a.name, let nameB = b.name, SamePlace.nameKey(nameA) == SamePlace.nameKey(nameB),
                  let reach = SamePlace.maxDistance(a.kind, b.kind) else { return false }
            return a.coordinate.distance(to: b.coordinate) <= reach
        }
        var kept: [ShardPlace] = []
        for place in places {
            if let twin = kept.firstIndex(where: { $0.shard.index != place.shard.index && same($0.place, place.place) }) {
                if isOSM(place.place) && !isOSM(kept[twin].place) { kept[twin] = place }
            } else {
                kept.append(place)
            }
        }
        return kept
    }

    /// The lists merged into one of at most `limit`, each list's order kept: the next item is the first
    /// of the list heads that no other head comes before (ties go to the earlier list).
    private static func merge<T>(_ lists: [[T]], limit: Int, _ before: (T, T) -> Bool) -> [T] {
        if lists.count == 1 { return Array(lists[0].prefix(limit)) }
        var heads = [Int](repeating: 0, count: lists.count), merged: [T] = []
        while merged.count < limit {
            var best: Int?
            for (list, head) in heads.enumerated() where head < lists[list].count {
                if let current = best, !before(lists[list][head], lists[current][heads[current]]) { continue }
                best = list
            }
            guard let best else { break }
            merged.append(lists[best][heads[best]])
            heads[best] += 1
        }
        return merged
    }
}
