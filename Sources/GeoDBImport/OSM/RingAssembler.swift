// Builds polygons from the member ways of a multipolygon or boundary relation.
import GeoDB

/// Joins ways end to end into closed rings, then nests them: a ring inside an odd number of other
/// rings is a hole. Roles are not trusted (they are often wrong); containment decides.
enum RingAssembler {
    struct Result {
        var polygons: [[[Point7]]]
        /// Ways that could not be closed into a ring (cut at the extract edge, or broken data).
        var openWays: Int
    }

    /// `ways` are node-id lists; `locate` gives a node's position (nil when the extract lacks it).
    static func assemble(ways: [[Int64]], locate: (Int64) -> Point7?) -> Result {
        var rings: [[Int64]] = []
        var open: [[Int64]] = []
        for way in ways where way.count >= 2 {
            if way.first == way.last { rings.append(way) } else { open.append(way) }
        }
        var openWays = 0
        var used = [Bool](repeating: false, count: open.count)
        var byEndpoint: [Int64: [Int]] = [:]
        for (i, way) in open.enumerated() {
            byEndpoint[way.first!, default: []].append(i)
            byEndpoint[way.last!, default: []].append(i)
        }
        for start in open.indices where !used[start] {
            used[start] = true
            var ring = open[start]
            var members = 1
            while ring.first != ring.last {
                guard let next = byEndpoint[ring.last!]?.first(where: { !used[$0] }) else { break }
                used[next] = true
                members += 1
                let way = open[next]
                ring += (way.first == ring.last ? way : way.reversed()).dropFirst()
            }
            if ring.first == ring.last { rings.append(ring) } else { openWays += members }
        }

        // Positions, dropping nodes the extract does not have; a ring needs 3 distinct points.
        var located: [[Point7]] = []
        for ring in rings {
            var points = ring.dropLast().compactMap(locate)
            if points.count >= 2, points.first == points.last { points.removeLast() }
            if points.count >= 3 { located.append(points) }
        }
        located.sort { abs(PolygonMath.doubleSignedArea($0)) > abs(PolygonMath.doubleSignedArea($1)) }

        // Each ring's parent is the smallest larger ring containing it; depth parity says outer or hole.
        var depth = [Int](repeating: 0, count: located.count)
        var parent = [Int?](repeating: nil, count: located.count)
        for i in located.indices {
            let probe = located[i][0]
            for j in stride(from: i - 1, through: 0, by: -1)
            where PolygonMath.ringContains(located[j], lat: probe.lat, lon: probe.lon) {
                parent[i] = j
                depth[i] = depth[j] + 1
                break
            }
        }
        var polygons: [[[Point7]]] = []
        var polygonOfOuter: [Int: Int] = [:]
        for i in located.indices where depth[i] % 2 == 0 {
            polygonOfOuter[i] = polygons.count
            polygons.append([located[i]])
        }
        for i in located.indices where depth[i] % 2 == 1 {
            if let outer = parent[i], let p = polygonOfOuter[outer] { polygons[p].append(located[i]) }
        }
        return Result(polygons: polygons, openWays: openWays)
    }
}
