// Collects named lines (streets, rivers) and groups the ways of one line into one place.
import Foundation
import GeoDB

/// Line segments by family (highways, waterways) and name; `lineGroups()` merges the segments of a name
/// that touch or lie within `gapMetres` of each other (one street or river split into many ways) and keeps
/// far-apart ones separate (two streets of the same name in different towns). A street and a stream of the
/// same name stay two places. Geometry waits in a scratch file; memory holds about 48 bytes per segment,
/// with each distinct set of names stored once.
struct LineCollector {
    struct Segment {
        var wayID: Int64
        var offset: Int64        // of its points in the scratch file
        var count: Int32
        var type: UInt8          // index in `types`
        var nameSet: Int32       // index in `nameSets`
        var box: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)
    }

    static let gapMetres = 100.0

    /// What a family of lines becomes: the key of its types and the kind of its places.
    enum Family: Int, CaseIterable {
        case highway, waterway

        var key: String { self == .highway ? "highway" : "waterway" }
        var kind: PlaceKind { self == .highway ? .street : .water }
        /// The family's values by importance: the most important type of a line's segments is its category.
        var values: [String] {
            switch self {
            case .highway:
                return ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
                        "living_street", "pedestrian", "busway", "road", "service", "track", "cycleway", "footway",
                        "bridleway", "path", "steps", "motorway_link", "trunk_link", "primary_link", "secondary_link",
                        "tertiary_link"]
            case .waterway:
                return ["river", "canal", "tidal_channel", "stream", "brook", "drain", "ditch"]
            }
        }
    }

    /// Every line type: `highway=motorway` … `waterway=ditch`, each family's values in its order.
    static let types: [(family: Family, value: String)] = Family.allCases.flatMap { family in family.values.map { (family, $0) } }
    private static let typeIndex: [Family: [String: UInt8]] = Dictionary(uniqueKeysWithValues: Family.allCases.map { family in
        (family, Dictionary(uniqueKeysWithValues: types.indices.filter { types[$0].family == family }.map { (types[$0].value, UInt8($0)) }))
    })

    /// Whether ways of this family and value are merged into lines (`waterway=weir` is not).
    static func isLine(_ family: Family, _ value: String) -> Bool { typeIndex[family]?[value] != nil }

    private let spill: SpillFile
    let segments = ChunkedArray<Segment>()
    private var nameSets: [[PlaceName]] = []
    private var nameSetIndex: [[PlaceName]: Int32] = [:]
    /// Segments by family, then by first name.
    private var byName: [[String: [Int32]]] = Family.allCases.map { _ in [:] }
    private var readBuffer: [UInt8] = []

    init(spill: SpillFile) {
        self.spill = spill
    }

    mutating func add(wayID: Int64, family: Family, value: String, names: [PlaceName], points line: [Point7]) throws {
        guard let first = line.first, let name = names.first?.name, let type = Self.typeIndex[family]?[value] else { return }
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
        byName[family.rawValue][name, default: []].append(Int32(segments.count))
        segments.append(Segment(wayID: wayID, offset: spill.size, count: Int32(line.count),
                                type: type, nameSet: nameSet, box: box))
        try line.withUnsafeBytes { try spill.append($0) }
    }

    func names(of segment: Segment) -> [PlaceName] { nameSets[Int(segment.nameSet)] }

    /// The segment's family and value (`waterway`, `river`).
    func type(of segment: Segment) -> (family: Family, value: String) { Self.types[Int(segment.type)] }

    mutating func line(of segment: Segment) throws -> [Point7] {
        let byteCount = Int(segment.count) * MemoryLayout<Point7>.stride
        try spill.read(at: segment.offset, count: byteCount, into: &readBuffer)
        return readBuffer.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Point7.self).prefix(Int(segment.count)))
        }
    }

    /// The segments of the family by their way's id.
    func segmentsByWay(_ family: Family) -> [Int64: Int] {
        var byWay: [Int64: Int] = [:]
        for indices in byName[family.rawValue].values {
            for i in indices { byWay[segments[Int(i)].wayID] = Int(i) }
        }
        return byWay
    }

    /// One group of segments per line of the family (but `taken`, grouped otherwise), ordered by their
    /// smallest way id (deterministic output).
    func lineGroups(_ family: Family, excluding taken: Set<Int> = []) -> [[Int]] {
        var groups: [[Int]] = []
        for indices in byName[family.rawValue].values {
            let left = indices.map(Int.init).filter { !taken.contains($0) }
            if !left.isEmpty { groups += cluster(left) }
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
        let latGap = Int32(LineCollector.gapMetres / 111_195 * 1e7)
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
