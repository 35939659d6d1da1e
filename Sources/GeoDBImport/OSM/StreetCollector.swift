// Collects named highway ways and groups the segments of one street into one street place.
import Foundation
import GeoDB

/// Street segments by name; `streetGroups()` merges the segments of a name that touch or lie within
/// `gapMetres` of each other (one street split into many ways) and keeps far-apart ones separate
/// (two streets of the same name in different towns). Geometry waits in a scratch file; memory holds
/// about 48 bytes per segment, with each distinct set of names stored once.
struct StreetCollector {
    struct Segment {
        var wayID: Int64
        var offset: Int64        // of its points in the scratch file
        var count: Int32
        var highway: UInt8       // index in `highwayOrder`
        var nameSet: Int32       // index in `nameSets`
        var box: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)
    }

    static let gapMetres = 100.0

    /// Importance order of highway types: the most important type of a street's segments is its category.
    static let highwayOrder = ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
                               "living_street", "pedestrian", "busway", "road", "service", "track", "cycleway",
                               "footway", "bridleway", "path", "steps", "motorway_link", "trunk_link", "primary_link",
                               "secondary_link", "tertiary_link"]

    private let spill: SpillFile
    let segments = ChunkedArray<Segment>()
    private var nameSets: [[PlaceName]] = []
    private var nameSetIndex: [[PlaceName]: Int32] = [:]
    private var byName: [String: [Int32]] = [:]
    private var readBuffer: [UInt8] = []

    init(spill: SpillFile) {
        self.spill = spill
    }

    mutating func add(wayID: Int64, highway: String, names: [PlaceName], points line: [Point7]) throws {
        guard let first = line.first, let name = names.first?.name else { return }
        var box = (minLat: first.lat, minLon: first.lon, maxLat: first.lat, maxLon: first.lon)
        for p in line {
            box.minLat = min(box.minLat, p.lat); box.maxLat = max(box.maxLat, p.lat)
            box.minLon = min(box.minLon, p.lon); box.maxLon = max(box.maxLon, p.lon)
        }
        let nameSet: Int32
        if let known = nameSetIndex[names] {
            nameSet = known
        } else {
            nameSet = Int32(nameSets.count)
            nameSets.append(names)
            nameSetIndex[names] = nameSet
        }
        let highwayIndex = Self.highwayOrder.firstIndex(of: highway) ?? Self.highwayOrder.count - 1
        byName[name, default: []].append(Int32(segments.count))
        segments.append(Segment(wayID: wayID, offset: spill.size, count: Int32(line.count),
                                highway: UInt8(highwayIndex), nameSet: nameSet, box: box))
        try line.withUnsafeBytes { try spill.append($0) }
    }

    func names(of segment: Segment) -> [PlaceName] { nameSets[Int(segment.nameSet)] }

    func highway(of segment: Segment) -> String { Self.highwayOrder[Int(segment.highway)] }

    mutating func line(of segment: Segment) throws -> [Point7] {
        let byteCount = Int(segment.count) * MemoryLayout<Point7>.stride
        try spill.read(at: segment.offset, count: byteCount, into: &readBuffer)
        return readBuffer.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Point7.self).prefix(Int(segment.count)))
        }
    }

    /// One group of segments per street, ordered by their smallest way id (deterministic output).
    func streetGroups() -> [[Int]] {
        var groups: [[Int]] = []
        for indices in byName.values {
            groups += cluster(indices.map(Int.init))
        }
        return groups.map { $0.sorted { segments[$0].wayID < segments[$1].wayID } }
            .sorted { segments[$0[0]].wayID < segments[$1[0]].wayID }
    }

    /// Union-find over segments whose boxes come within the gap, found with a sweep along longitude.
    private func cluster(_ indices: [Int]) -> [[Int]] {
        guard indices.count > 1 else { return [indices] }
        let order = indices.sorted { segments[$0].box.minLon < segments[$1].box.minLon }
        var parent = Array(0..<order.count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        let latGap = Int32(StreetCollector.gapMetres / 111_195 * 1e7)
        for a in 0..<order.count {
            let boxA = segments[order[a]].box
            let cosLat = max(0.01, cos(Double(boxA.minLat) / 1e7 * .pi / 180))
            let lonGap = Int32(min(1e9, Double(latGap) / cosLat))
            var b = a + 1
            while b < order.count, segments[order[b]].box.minLon <= boxA.maxLon &+ lonGap {
                let boxB = segments[order[b]].box
                if boxB.minLat <= boxA.maxLat &+ latGap, boxA.minLat <= boxB.maxLat &+ latGap {
                    parent[root(b)] = root(a)
                }
                b += 1
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in 0..<order.count { groups[root(i), default: []].append(order[i]) }
        return Array(groups.values)
    }
}
