// Builds polygons from the member ways of a multipolygon or boundary relation.
import GeoDB

/// Joins ways end to end into closed rings, then nests them: a ring inside an odd number of other
/// rings is a hole. Roles are not trusted (they are often wrong); containment decides.
///
/// An extract cut at a border can lack a few member ways of a boundary that lies mostly inside it (the
/// Monaco extract lacks three ways of Monaco's own boundary, along France): the chains that remain are
/// joined across their gaps with straight lines when the gaps are short next to the chains
/// (`maxGapShare`), so the area keeps its shape; a chain that is a small piece of a large boundary is not.
enum RingAssembler {
    struct Result {
        var polygons: [[[Point7]]]
        /// Ways that could not be closed into a ring (cut at the extract edge, or broken data).
        var openWays: Int
        /// Rings closed across gaps where member ways were missing.
        var repairedRings = 0
    }

    /// A gap is closed when it is at most this share of the length of the chains it joins.
    static let maxGapShare = 0.35

    /// `ways` are node-id lists; `locate` gives a node's position (nil when the extract lacks it).
    static func assemble(ways: [[Int64]], locate: (Int64) -> Point7?) -> Result {
        var rings: [[Int64]] = []
        var open: [[Int64]] = []
        for way in ways where way.count >= 2 {
            if way.first == way.last { rings.append(way) } else { open.append(way) }
        }
        var openWays = 0
        var chains: [[Int64]] = []
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
            if ring.first == ring.last { rings.append(ring) } else { openWays += members; chains.append(ring) }
        }
        var repairedRings = 0
        for ring in closeGaps(chains, locate: locate) {
            rings.append(ring)
            repairedRings += 1
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
        return Result(polygons: polygons, openWays: openWays, repairedRings: repairedRings)
    }

    /// Rings made of open chains joined end to nearest end, each gap closed with a straight line when it
    /// is short next to what it joins. Closed rings end with their first node repeated, as assembled ones do.
    static func closeGaps(_ chains: [[Int64]], locate: (Int64) -> Point7?) -> [[Int64]] {
        func length(_ chain: [Int64]) -> Double {
            LineMath.relativeLength(chain.compactMap(locate))
        }
        func gap(_ a: Int64, _ b: Int64) -> Double? {
            guard let p = locate(a), let q = locate(b) else { return nil }
            return LineMath.relativeLength([p, q])
        }
        var pending = chains.filter { $0.count >= 2 }
        var rings: [[Int64]] = []
        while var chain = pending.popLast() {
            var chainLength = length(chain)
            while true {
                // The nearest end: this chain's own start (closing it) or an end of another chain.
                var best: (index: Int?, reversed: Bool, distance: Double)?
                if let d = gap(chain.last!, chain.first!) { best = (nil, false, d) }
                for (i, other) in pending.enumerated() {
                    for (reversed, end) in [(false, other.first!), (true, other.last!)] {
                        if let d = gap(chain.last!, end), d < (best?.distance ?? .infinity) { best = (i, reversed, d) }
                    }
                }
                guard let choice = best else { break }
                if let index = choice.index {
                    let piece = choice.reversed ? Array(pending[index].reversed()) : pending[index]
                    let pieceLength = length(piece)
                    guard choice.distance <= maxGapShare * (chainLength + pieceLength) else { break }
                    pending.remove(at: index)
                    chain += piece
                    chainLength += pieceLength + choice.distance
                } else {
                    if chain.count >= 3, choice.distance <= maxGapShare * chainLength { rings.append(chain + [chain[0]]) }
                    break
                }
            }
        }
        return rings
    }
}
