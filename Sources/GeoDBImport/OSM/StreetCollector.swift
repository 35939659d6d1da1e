// Collects named highway ways and groups the segments of one street into one street place.
import Foundation
import GeoDB

/// Street segments by name; `streets()` merges the segments of a name that touch or lie within
/// `gapMetres` of each other (one street split into many ways) and keeps far-apart ones separate
/// (two streets of the same name in different towns).
struct StreetCollector {
    struct Segment {
        var wayID: Int64
        var highway: String
        var names: [PlaceName]
        var start: Int      // into `points`
        var count: Int
        var box: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)
    }

    static let gapMetres = 100.0

    private(set) var segments: [Segment] = []
    private var points: [Point7] = []
    private var byName: [String: [Int]] = [:]

    var count: Int { segments.count }

    mutating func add(wayID: Int64, name: String, highway: String, names: [PlaceName], points line: [Point7]) {
        guard let first = line.first else { return }
        var box = (minLat: first.lat, minLon: first.lon, maxLat: first.lat, maxLon: first.lon)
        for p in line {
            box.minLat = min(box.minLat, p.lat); box.maxLat = max(box.maxLat, p.lat)
            box.minLon = min(box.minLon, p.lon); box.maxLon = max(box.maxLon, p.lon)
        }
        byName[name, default: []].append(segments.count)
        segments.append(Segment(wayID: wayID, highway: highway, names: names,
                                start: points.count, count: line.count, box: box))
        points += line
    }

    /// Importance order of highway types: the most important type of a street's segments is its category.
    static let highwayOrder = ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
                               "living_street", "pedestrian", "busway", "road", "service", "track", "cycleway",
                               "footway", "bridleway", "path", "steps"]

    /// One group of segments per street, ordered by their smallest way id (deterministic output).
    func streetGroups() -> [[Int]] {
        var groups: [[Int]] = []
        for indices in byName.values {
            groups += cluster(indices)
        }
        return groups.map { $0.sorted { segments[$0].wayID < segments[$1].wayID } }
            .sorted { segments[$0[0]].wayID < segments[$1[0]].wayID }
    }

    func line(of segment: Segment) -> [Point7] { Array(points[segment.start..<(segment.start + segment.count)]) }

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
