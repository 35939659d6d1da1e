// Several database files answered as one: a country extract with a world gazetteer, region files imported
// in parallel. Forward search asks every file with places and merges by score; reverse, nearby and maps ask
// the files whose extent holds the point or box and merge by distance; timezones come from the file that
// has them; a place two files share is shown once (`SamePlace`). The CLI and `geodb serve` both answer
// through it.
import Foundation

/// Files opened together, each with its index (its place in the list the set was opened with).
///
/// ```swift
/// let world = try GeoDatabaseSet(paths: ["liechtenstein.sqlite", "cities15000.sqlite"])
/// let found = try await world.search("Vaduz", options: SearchOptions(), offset: 0, limit: 5).places
/// print(found.map { "\($0.place.name ?? "") from \($0.member.name)" })
/// ```
public struct GeoDatabaseSet: Sendable {
    /// One file of the set. A class: every `MemberPlace` a query answers holds its member, and copying one
    /// reference is one retain where the fields (the info's strings and lists) were a dozen; a server answer
    /// copies its places several times (measured on the popular mix: copying and destroying places was 4 % of
    /// the server's CPU).
    public final class Member: Sendable {
        /// Its place in the list the set was opened with: the high bits of `MemberPlace.globalID`.
        public let index: Int
        public let path: String
        public let database: GeoDatabase
        /// Read once when opened: its extent picks the files a point needs.
        public let info: DatabaseInfo
        public let hasTimeZones: Bool
        /// The file as opened: another identity at the path means it was replaced or written over.
        package let identity: FileIdentity?

        private init(index: Int, path: String, database: GeoDatabase, info: DatabaseInfo, hasTimeZones: Bool, identity: FileIdentity?) {
            (self.index, self.path, self.database, self.info, self.hasTimeZones, self.identity) = (index, path, database, info, hasTimeZones, identity)
        }

        /// Opens the file at `path` as member `index`; `immutable`: as `GeoDatabase(path:immutable:)`.
        public static func open(index: Int, path: String, immutable: Bool = false) throws -> Member {
            let identity = FileIdentity(path: path)
            let database = try GeoDatabase(path: path, immutable: immutable)
            return Member(index: index, path: path, database: database, info: try database.info(topCategories: 0),
                          hasTimeZones: database.hasTimeZones, identity: identity)
        }

        /// The file's name without its directory.
        public var name: String { URL(fileURLWithPath: path).lastPathComponent }

        /// Whether another file is at the path now than when this one was opened (a new import renamed over
        /// it, or a copy written over it in place).
        public var isReplaced: Bool { FileIdentity(path: path) != identity }

        /// Whether the file's places come near `point`: within `margin` degrees of their extent.
        public func covers(_ point: Coordinate, margin: Double = 0) -> Bool {
            guard let box = info.boundingBox else { return false }
            return point.lat >= box.minLat - margin && point.lat <= box.maxLat + margin
                && point.lon >= box.minLon - margin && point.lon <= box.maxLon + margin
        }

        /// Whether the file's extent meets `other`.
        public func meets(_ other: BoundingBox) -> Bool {
            guard let box = info.boundingBox else { return false }
            let lonMeets = other.minLon <= other.maxLon ? other.minLon <= box.maxLon && other.maxLon >= box.minLon : true
            return lonMeets && other.minLat <= box.maxLat && other.maxLat >= box.minLat
        }
    }

    /// A place found in one of the files.
    public struct MemberPlace: Sendable {
        public let member: Member
        public var place: PlaceResult

        public init(member: Member, place: PlaceResult) {
            self.member = member
            self.place = place
        }

        /// The place's id across the set (`GeoDatabaseSet.globalID`).
        public var globalID: Int64 { GeoDatabaseSet.globalID(member: member.index, id: place.id) }

        /// The place with its id across the set in place of its file's own: what a list of several files'
        /// places shows, and what `lookup` takes back.
        public var placeWithGlobalID: PlaceResult {
            var copy = place
            copy.id = globalID
            return copy
        }
    }

    public let members: [Member]

    /// Opens every file; throws the first error. `immutable`: as `GeoDatabase(path:immutable:)`, for every file.
    public init(paths: [String], immutable: Bool = false) throws {
        members = try paths.enumerated().map { try Member.open(index: $0.offset, path: $0.element, immutable: immutable) }
    }

    /// A set of members already open (the same member index never twice).
    public init(members: [Member]) {
        self.members = members
    }

    /// The set with `member` in place of the member of its index.
    public func replacing(_ member: Member) -> GeoDatabaseSet {
        GeoDatabaseSet(members: members.map { $0.index == member.index ? member : $0 })
    }

    /// The files with places (not a file of timezones only): what search asks.
    public var withPlaces: [Member] { members.filter { $0.info.placeCount > 0 } }

    /// How deep nearby pages go: the most places one nearby call returns.
    public static let maxNearbyDepth = 1_000

    // MARK: ids across files

    /// Ids below 2^40 are the first file's own; the file's index is in the bits above.
    private static let idBits: Int64 = 40

    /// The id of place `id` of member `member` across the set: one file's ids are its own.
    public static func globalID(member: Int, id: Int64) -> Int64 { Int64(member) << idBits | id }

    /// The member and its own id of a global id, nil when no member has that index.
    public func place(globalID: Int64) -> (member: Member, id: Int64)? {
        guard globalID >= 0 else { return nil }
        let index = Int(globalID >> Self.idBits)
        guard let member = members.first(where: { $0.index == index }) else { return nil }
        return (member, globalID & ((1 << Self.idBits) - 1))
    }

    // MARK: merged queries

    /// The results `offset ..< offset + limit` of searching every file, merged by score (each file's own
    /// order kept; equal scores: the earlier file first), and whether more follow.
    public func search(_ text: String, options: SearchOptions, offset: Int, limit: Int) async throws -> (places: [MemberPlace], more: Bool) {
        let depth = offset + limit + 1
        let perMember = try await Self.eachMember(withPlaces) { member in
            var options = options, found: [PlaceResult] = [], cursor: String?
            options.limit = min(depth, SearchOptions.maxLimit)
            // Deep enough in one search: a page would rank one result more than asked, to know whether another
            // page follows, and `depth` already holds the one more that tells. Nominatim's /search and Photon's
            // /api at limit 10 ranked 12: on Helsinki + cities500, "city" 6.9 → 7.7 M instructions, "Hel" typed
            // 2.0 → 2.2 M (`geodb-bench query --limit`).
            if depth <= SearchOptions.maxLimit {
                return try await member.database.read { [options] in try $0.search(text, options: options) }
                    .map { MemberPlace(member: member, place: $0) }
            }
            repeat {
                let page = try await member.database.read { [cursor, options] in try $0.searchPage(text, options: options, after: cursor) }
                found += page.places
                cursor = page.nextCursor
            } while found.count < depth && cursor != nil
            return found.map { MemberPlace(member: member, place: $0) }
        }
        let merged = try await Self.distinct(Self.readingsOfOneFile(Self.merge(perMember, Self.byScore), options: options))
        return (Array(merged.dropFirst(offset).prefix(limit)), merged.count > offset + limit)
    }

    /// Structured search in every file, merged by score (streets without the number only where no file has it).
    public func structuredSearch(street: String?, housenumber: String?, city: String?, postcode: String?,
                                 options: SearchOptions) async throws -> [MemberPlace] {
        let perMember = try await Self.eachMember(withPlaces) { member in
            try await member.database.read {
                try $0.structuredSearch(street: street, housenumber: housenumber, city: city, postcode: postcode, options: options)
            }.map { MemberPlace(member: member, place: $0) }
        }
        return Array(try await Self.distinct(Self.readingsOfOneFile(Self.merge(perMember, Self.byScore), options: options)).prefix(options.limit))
    }

    /// Town → street → house number in every file (`QuerySession.hierarchical`): the towns of all files in one
    /// list (a town two files share once); with `street`, the streets or numbers in the first of those towns,
    /// from every file whose own first town it is (a town on the border of two region files has streets in
    /// both), in the order one file lists them (`StructuredSearch.listedBefore`).
    public func hierarchical(town: String, street: String?, housenumber: String?, options: SearchOptions) async throws -> [MemberPlace] {
        let towns = try await Self.eachMember(withPlaces) { member in
            try await member.database.read { try $0.hierarchical(town: town, options: options) }.map { MemberPlace(member: member, place: $0) }
        }
        let allTowns = try await Self.distinct(Self.merge(towns, Self.listed(street: nil, housenumber: nil, near: options.near)))
        guard let street else { return Array(allTowns.prefix(options.limit)) }
        guard let first = allTowns.first else { return [] }
        let found = try await Self.eachMember(try await Self.heads(of: towns, sameAs: first).map(\.member)) { member in
            try await member.database.read { try $0.hierarchical(town: town, street: street, housenumber: housenumber, options: options) }
                .map { MemberPlace(member: member, place: $0) }
        }
        return Array(try await Self.distinct(Self.merge(found, Self.listed(street: street, housenumber: housenumber))).prefix(options.limit))
    }

    /// The streets crossing `street` (in `town` when given) in every file: the first street so named of all
    /// files (by score), and its crossings in every file whose own first street it is (a street cut by the
    /// border of two region files is in both), by name.
    public func crossings(of street: String, town: String?, options: SearchOptions) async throws -> [MemberPlace] {
        let streets = try await Self.eachMember(withPlaces) { member in
            try await member.database.read { try $0.crossedStreet(street, town: town, options: options) }
                .map { [MemberPlace(member: member, place: $0)] } ?? []
        }
        guard let first = try await Self.distinct(Self.merge(streets, Self.byScore)).first else { return [] }
        let heads = try await Self.heads(of: streets, sameAs: first)
        let own = Dictionary(heads.map { ($0.member.index, $0.place) }, uniquingKeysWith: { a, _ in a })
        let found = try await Self.eachMember(heads.map(\.member)) { member in
            try await member.database.read { session in try own[member.index].map { try session.crossings(ofStreet: $0, options: options) } ?? [] }
                .map { MemberPlace(member: member, place: $0) }
        }
        return Array(try await Self.distinct(Self.merge(found, Self.listed(street: street, housenumber: nil))).prefix(options.limit))
    }

    /// The first place of each file's list that is `place` or the same place in another file (`distinct`).
    private static func heads(of lists: [[MemberPlace]], sameAs place: MemberPlace) async throws -> [MemberPlace] {
        var heads: [MemberPlace] = []
        for head in lists.compactMap(\.first) {
            let same = head.member.index == place.member.index ? head.place.id == place.place.id : try await distinct([place, head]).count == 1
            if same { heads.append(head) }
        }
        return heads
    }

    /// `StructuredSearch.listedBefore` for places of several files.
    private static func listed(street: String?, housenumber: String?, near: Coordinate? = nil) -> (MemberPlace, MemberPlace) -> Bool {
        let before = StructuredSearch.listedBefore(street: street, housenumber: housenumber, near: near)
        return { before($0.place, $1.place) }
    }

    /// Reverse in the files whose places come within the search radius of `point` (every file when none
    /// does: a database of towns answers the nearest town however far), nearest first. Only the answers of
    /// the first of reverse's searches that found anything in any file (`ReverseOptions.search(thatFound:)`):
    /// a file without addresses near the point answers a street, one with nothing near the area around the
    /// point, where one file with all of them would have answered the address.
    public func reverse(at point: Coordinate, options: ReverseOptions) async throws -> [(member: Member, result: ReverseResult)] {
        let all = withPlaces
        let margin = (options.radius ?? options.level.defaultRadius) / 111_000
        let near = all.filter { $0.covers(point, margin: margin) }
        let perMember = try await Self.eachMember(near.isEmpty ? all : near) { member in
            try await member.database.reverse(at: point, options: options).map { (member: member, result: $0) }
        }
        let first = perMember.joined().map { options.search(thatFound: $0.result.place) }.min()
        let found = perMember.map { answers in answers.filter { options.search(thatFound: $0.result.place) == first } }
        // At one distance (0: areas around the point) the smaller area first, as one file's fallback picks it.
        func finest(_ place: PlaceResult) -> Int { place.kind.addressLevel.flatMap { AddressLevel.nested.firstIndex(of: $0) } ?? -1 }
        let merged = Self.merge(found) {
            ($0.result.place.distanceM ?? 0, finest($0.result.place)) < ($1.result.place.distanceM ?? 0, finest($1.result.place))
        }
        // The area around the point is one answer, the smallest: each file gives its own smallest.
        let areaOnly = merged.first.map { options.search(thatFound: $0.result.place) == 3 && $0.result.place.match == .area } ?? false
        return Array(try await Self.distinct(merged) { MemberPlace(member: $0.member, place: $0.result.place) }.prefix(areaOnly ? 1 : options.limit))
    }

    /// Places of a category near a point or in a box from the files that reach there: the slice
    /// `offset ..< offset + limit` nearest first, and whether more follow.
    public func nearby(center: Coordinate?, radius: Double, box: BoundingBox?, filter: CategoryFilter, name: String?,
                       offset: Int, limit: Int) async throws -> (places: [MemberPlace], more: Bool) {
        let depth = min(offset + limit + 1, Self.maxNearbyDepth)
        let reaching = members.filter { member in
            if let box { return member.meets(box) }
            return center.map { member.covers($0, margin: radius / 111_000) } ?? false
        }
        let perMember = try await Self.eachMember(reaching) { member in
            let page = if let box {
                try await member.database.read { try $0.places(in: box, near: center, filter: filter, name: name, limit: depth) }
            } else if let center {
                try await member.database.places(near: center, radius: radius, filter: filter, name: name, limit: depth)
            } else {
                PlacePage(places: [], nextCursor: nil)
            }
            return page.places.map { MemberPlace(member: member, place: $0) }
        }
        let merged = try await Self.distinct(Self.merge(perMember) { ($0.place.distanceM ?? 0) < ($1.place.distanceM ?? 0) })
        return (Array(merged.dropFirst(offset).prefix(limit)), merged.count > offset + limit)
    }

    /// The zone at a point from the first file with timezones whose polygons hold it (or, when none does,
    /// the first answer: the nearest zone or the ocean's); nil when no file has timezones.
    public func timeZone(at point: Coordinate, date: Date) async throws -> TimeZoneAnswer? {
        var first: TimeZoneAnswer?
        for member in members where member.hasTimeZones {
            let answer = try await member.database.timeZone(at: point, date: date)
            if answer.source == .polygon { return answer }
            first = first ?? answer
        }
        return first
    }

    /// The taxonomy (every file has the same) with the places of all files counted.
    public func categories() async throws -> [CategoryCount] {
        let perMember = try await Self.eachMember(withPlaces) { try await $0.database.read { try $0.categories() } }
        guard var merged = perMember.first else { return [] }
        for other in perMember.dropFirst() {
            let counts = Dictionary(other.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for index in merged.indices {
                merged[index].places += counts[merged[index].id]?.places ?? 0
                merged[index].placesWithChildren += counts[merged[index].id]?.placesWithChildren ?? 0
            }
        }
        return merged
    }

    /// A place by global id, or by a source id (`n123`, `geonames:658225`) in the first file that has it;
    /// nil when none has it.
    public func lookup(_ reference: String) async throws -> (member: Member, details: PlaceDetails)? {
        if let global = Int64(reference) {
            guard let (member, id) = place(globalID: global) else { return nil }
            do {
                return (member, try await member.database.lookup(String(id)))
            } catch let error as GeoDBError where error.code == .invalidArgument {
                return nil
            }
        }
        for member in members {
            do {
                return (member, try await member.database.lookup(reference))
            } catch let error as GeoDBError where error.code == .invalidArgument || error.code == .fileNotFound {
                continue
            }
        }
        return nil
    }

    /// What `details(of:…)` read for one place; what was not asked for is nil.
    public struct PlaceExtras: Sendable {
        public var geometry: Geometry?
        public var names: [PlaceDetails.Name]?
        public var entrances: [PlaceEntrance]?
        /// The administrative boundary merged into it (asked with `boundaries`).
        public var mergedBoundary: MergedBoundary?
    }

    /// The line or polygon geometry (with `geometries`), every name (with `names`), the entrances (with
    /// `entrances`) and the merged administrative boundary (with `boundaries`) of each of `places`, in their
    /// order: one read per file, not a call per place and kind of detail (an answer of ten places with their
    /// names borrowed 21 sessions). The places may come from an earlier set of the same files. A place
    /// without entrances has none.
    public static func details(of places: [MemberPlace], geometries: Bool, names: Bool, entrances: Bool = false,
                               boundaries: Bool = false) async throws -> [PlaceExtras] {
        guard geometries || names || entrances || boundaries else { return places.map { _ in PlaceExtras() } }
        let files = Dictionary(grouping: places, by: \.member.index)
        let read = try await Self.eachMember(files.values.compactMap(\.first?.member)) { member in
            let ids = files[member.index, default: []].map(\.place.id)
            return try await member.database.read { session in
                (member.index, (geometries: geometries ? try session.geometries(ofPlaces: ids) : [:],
                                names: names ? try session.names(ofPlaces: ids) : [:],
                                entrances: entrances ? try session.entrances(ofPlaces: ids) : [:],
                                boundaries: boundaries ? try session.mergedBoundaries(ofPlaces: ids) : [:]))
            }
        }
        let byFile = Dictionary(read.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        return places.map { found in
            let file = byFile[found.member.index], id = found.place.id
            return PlaceExtras(geometry: file?.geometries[id], names: names ? file?.names[id] ?? [] : nil,
                               entrances: entrances ? file?.entrances[id] ?? [] : nil, mergedBoundary: file?.boundaries[id])
        }
    }

    /// What a map of `box` shows, from every file that reaches it, most important first per file.
    public func mapFeatures(in box: BoundingBox, limit: Int) async throws -> [(member: Member, feature: MapFeature)] {
        let perMember = try await Self.eachMember(members.filter { $0.meets(box) }) { member in
            try await member.database.read { try $0.mapFeatures(in: box, limit: limit) }.map { (member: member, feature: $0) }
        }
        return Array(perMember.joined().prefix(limit))
    }

    /// Where a map of the files should open: of each file's densest area (`QuerySession.denseArea`), the one
    /// with most places, so that a country extract served with a world gazetteer opens on the country's
    /// busiest part; nil when no file has places.
    public func denseArea() async throws -> BoundingBox? {
        let areas = try await Self.eachMember(withPlaces) { member in
            try await member.database.read { try $0.denseArea() }.map { (box: $0.box, places: $0.share * Double(member.info.placeCount)) }
        }
        return areas.compactMap { $0 }.max { $0.places < $1.places }?.box
    }

    // MARK: helpers

    /// `body` for each file at once, the answers in file order.
    private static func eachMember<T: Sendable>(_ members: [Member], _ body: @escaping @Sendable (Member) async throws -> T) async throws -> [T] {
        if members.count == 1 { return [try await body(members[0])] }
        return try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (position, member) in members.enumerated() { group.addTask { (position, try await body(member)) } }
            var answers = [T?](repeating: nil, count: members.count)
            for try await (position, answer) in group { answers[position] = answer }
            return answers.compactMap { $0 }
        }
    }

    /// `places` with each place that another file gave already left out: files served together overlap (a
    /// world gazetteer and a country extract both have Vaduz; two neighbouring extracts share the border's
    /// streets). The same place is the same record (`n123`, `geonames:3042030`), one postal area
    /// (`SamePlace.onePostalArea`), for two OSM places ones made of a common object (`SamePlace.shareAnOSMObject`:
    /// a street cut by the border of two region files), otherwise the importer's rule for two sources (`SamePlace`: one name once folded, kinds that can be one place,
    /// within the smaller one's reach). Of the two, the one from OSM stays, at the place of the one ranked
    /// first: it has the address, the geometry and the OSM id clients ask for; of two from OSM the one made of
    /// more objects (a town's node with its boundary over the boundary alone, more of a street's ways).
    static func distinct(_ places: [MemberPlace]) async throws -> [MemberPlace] {
        try await distinct(places) { $0 }
    }

    /// `items` with each whose place (`place(item)`) another file gave already left out, as `distinct(_:)`.
    static func distinct<T>(_ items: [T], place: (T) -> MemberPlace) async throws -> [T] {
        let places = items.map(place)
        guard Set(places.map(\.member.index)).count > 1 else { return items }
        let records = try await osmRecords(ofNamesakes: places)
        func isOSM(_ place: PlaceResult) -> Bool { place.sourceRef?.osmObject != nil }
        typealias Found = (place: MemberPlace, name: String?)
        func same(_ a: Found, _ b: Found) -> Bool {
            if let ref = a.place.place.sourceRef, ref == b.place.place.sourceRef { return true }
            if SamePlace.onePostalArea(a.place.place, b.place.place) { return true }
            if isOSM(a.place.place) && isOSM(b.place.place) {
                return SamePlace.shareAnOSMObject(records[a.place.globalID] ?? [], records[b.place.globalID] ?? [])
            }
            guard let name = a.name, name == b.name, let reach = SamePlace.maxDistance(a.place.place.kind, b.place.place.kind) else { return false }
            return a.place.place.coordinate.distance(to: b.place.place.coordinate) <= reach
        }
        // Twins have one record or one name: each place is compared with the kept ones that share either, not
        // with all (a search of hundreds of region files merges thousands of places).
        var kept: [(item: T, found: Found)] = [], byKey: [String: [Int]] = [:]
        func keys(_ found: Found) -> [String] {
            [found.place.place.sourceRef.map { "ref \($0.description)" }, found.name.map { "name \($0)" }].compactMap { $0 }
        }
        for (item, place) in zip(items, places) {
            let found: Found = (place, place.place.name.map(SamePlace.nameKey))
            let twin = Set(keys(found).flatMap { byKey[$0] ?? [] }).sorted()
                .first { kept[$0].found.place.member.index != place.member.index && same(kept[$0].found, found) }
            if let twin {
                let other = kept[twin].found.place
                if isOSM(place.place) && !isOSM(other.place) || (records[place.globalID]?.count ?? 0) > (records[other.globalID]?.count ?? 0) {
                    kept[twin] = (item, found)
                    for key in keys(found) { byKey[key, default: []].append(twin) }
                }
            } else {
                for key in keys(found) { byKey[key, default: []].append(kept.count) }
                kept.append((item, found))
            }
        }
        return kept.map(\.item)
    }

    /// The OSM records (`QuerySession.osmRecords`) of the OSM places that another file has an OSM place of
    /// the same name beside (of any kind: a town's node in one file is its boundary in the other), by global
    /// id: one read per file, and none for the many answers that have no such namesake.
    private static func osmRecords(ofNamesakes places: [MemberPlace]) async throws -> [Int64: Set<String>] {
        let osm = places.filter { $0.place.sourceRef?.osmObject != nil }
        let files = Dictionary(grouping: osm) { SamePlace.nameKey($0.place.name ?? "") }
            .values.filter { Set($0.map(\.member.index)).count > 1 }.joined()
        let byFile = Dictionary(grouping: files, by: \.member.index)
        let read = try await eachMember(byFile.values.compactMap(\.first?.member)) { member in
            let ids = byFile[member.index, default: []].map(\.place.id)
            return try await member.database.read { try $0.osmRecords(ofPlaces: ids) }
                .map { (globalID(member: member.index, id: $0.key), $0.value) }
        }
        return Dictionary(read.joined().map { $0 }, uniquingKeysWith: { a, _ in a })
    }

    /// Places in the order of their scores; equal scores in OSM's order (nodes, ways, relations, each by id),
    /// the order one file imported from the whole extract gives them, so that region files merge as their
    /// whole would (others after, each file's order kept).
    private static func byScore(_ a: MemberPlace, _ b: MemberPlace) -> Bool {
        let (scoreA, scoreB) = (a.place.score ?? .infinity, b.place.score ?? .infinity)
        if scoreA != scoreB { return scoreA > scoreB }
        guard let objectA = a.place.sourceRef?.osmObject, let objectB = b.place.sourceRef?.osmObject else { return false }
        let order = ["node", "way", "relation"]
        return (order.firstIndex(of: objectA.type) ?? 3, objectA.id) < (order.firstIndex(of: objectB.type) ?? 3, objectB.id)
    }

    /// A merged search's places without those no single file would have shown beside the others: one file's
    /// typo matches where another found the text typed right, one file's streets without the house number
    /// where another has the number (`ForwardSearch.looksForTypos`, `looksForStreetsWithoutTheNumber`: the
    /// rules one file follows, applied to what all found).
    private static func readingsOfOneFile(_ places: [MemberPlace], options: SearchOptions) -> [MemberPlace] {
        var kept = places
        if !ForwardSearch.looksForStreetsWithoutTheNumber(kept.map { ($0.place.match, $0.place.kind) }) {
            kept.removeAll { $0.place.match == .fallback }
        }
        let typedRight = kept.filter { $0.place.match != .fuzzy }
        if typedRight.count < kept.count, !ForwardSearch.looksForTypos(
            found: typedRight.count, typedRight: typedRight.contains { $0.place.match == .exact || $0.place.match == .fallback },
            options: options) {
            kept = typedRight
        }
        return kept
    }

    /// The lists merged into one, each list's order kept: the next item is the first of the list heads that no
    /// other head comes before (ties go to the earlier list). All of them: places several files have are left
    /// out after (`distinct`), and the page cut from what remains.
    private static func merge<T>(_ lists: [[T]], _ before: (T, T) -> Bool) -> [T] {
        if lists.count == 1 { return lists[0] }
        var heads = [Int](repeating: 0, count: lists.count), merged: [T] = []
        while true {
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
