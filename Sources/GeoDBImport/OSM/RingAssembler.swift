// Builds polygons from the member ways of a multipolygon or boundary relation.
import Foundation
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
        /// Whether gap closing was given up for taking more than `gapWorkPerEnd` (no ring repaired).
        var gapClosingAbandoned = false
        /// Candidates measured: ends whose distance was taken or bounded, rings tested for containment
        /// (tests check that it grows in proportion to the input).
        var candidateTests = 0
    }

    /// A gap is closed when it is at most this share of the length of the chains it joins.
    static let maxGapShare = 0.35

    /// Gap closing measures this many candidate ends per chain end at most. Real boundaries stay far below
    /// (a nearest end costs a few dozen tests); a relation of thousands of loose ends piled on one spot
    /// would need a quadratic search for an exact answer, and is given up instead (counted by the caller).
    static let gapWorkPerEnd = 1_000

    /// A way or a chain of ways: its node ids and their positions (nil where the extract lacks the node),
    /// located once: a lookup decodes a group of node locations, and an open chain's nodes were wanted
    /// three times over (its located ends, its length, its ring), a cut boundary's thousands of them.
    struct Line {
        var ids: [Int64]
        var points: [Point7?]

        init(ids: [Int64], points: [Point7?]) {
            self.ids = ids
            self.points = points
        }

        init(_ ids: [Int64], locate: (Int64) -> Point7?) {
            self.init(ids: ids, points: ids.map(locate))
        }

        var reversed: Line { Line(ids: ids.reversed(), points: points.reversed()) }
        var isClosed: Bool { ids.first == ids.last }

        /// Appends `other`, which begins with this line's last node (dropped: it would repeat).
        mutating func extend(with other: Line) {
            ids += other.ids.dropFirst()
            points += other.points.dropFirst()
        }

        /// The part from the first located node to the last, nil when no node is located.
        var locatedPart: Line? {
            guard let first = points.firstIndex(where: { $0 != nil }), let last = points.lastIndex(where: { $0 != nil })
            else { return nil }
            return Line(ids: Array(ids[first...last]), points: Array(points[first...last]))
        }
    }

    /// `ways` are node-id lists; `locate` gives a node's position (nil when the extract lacks it).
    static func assemble(ways: [[Int64]], locate: (Int64) -> Point7?) -> Result {
        var rings: [Line] = []
        var open: [Line] = []
        for way in ways where way.count >= 2 {
            let line = Line(way, locate: locate)
            if line.isClosed { rings.append(line) } else { open.append(line) }
        }
        var openWays = 0
        var chains: [Line] = []
        var used = [Bool](repeating: false, count: open.count)
        // The ways ending at a node, and how many of them from the front are used: each is skipped once,
        // not once per look-up (a node shared by thousands of ways made this quadratic).
        var byEndpoint: [Int64: (ways: [Int], usedBefore: Int)] = [:]
        for (i, way) in open.enumerated() {
            byEndpoint[way.ids.first!, default: ([], 0)].ways.append(i)
            byEndpoint[way.ids.last!, default: ([], 0)].ways.append(i)
        }
        func unusedWay(endingAt node: Int64) -> Int? {
            guard let entry = byEndpoint[node] else { return nil }
            var index = entry.usedBefore
            while index < entry.ways.count, used[entry.ways[index]] { index += 1 }
            byEndpoint[node]?.usedBefore = index
            return index < entry.ways.count ? entry.ways[index] : nil
        }
        for start in open.indices where !used[start] {
            used[start] = true
            var ring = open[start]
            var members = 1
            while !ring.isClosed {
                guard let next = unusedWay(endingAt: ring.ids.last!) else { break }
                used[next] = true
                members += 1
                let way = open[next]
                ring.extend(with: way.ids.first == ring.ids.last ? way : way.reversed)
            }
            if ring.isClosed {
                rings.append(ring)
            } else {
                openWays += members
                // A way cut at the extract's edge keeps node ids the extract lacks: the chain ends where its
                // located nodes end, or no gap could be measured from it.
                if let chain = ring.locatedPart { chains.append(chain) }
            }
        }
        var result = Result(polygons: [], openWays: openWays)
        if let repaired = closeGaps(chains, work: &result.candidateTests) {
            rings += repaired
            result.repairedRings = repaired.count
        } else {
            result.gapClosingAbandoned = true
        }

        // Positions, dropping nodes the extract does not have; a ring needs 3 distinct points.
        var located: [[Point7]] = []
        for ring in rings {
            var points = ring.points.dropLast().compactMap { $0 }
            if points.count >= 2, points.first == points.last { points.removeLast() }
            if points.count >= 3 { located.append(points) }
        }
        located.sort { abs(PolygonMath.doubleSignedArea($0)) > abs(PolygonMath.doubleSignedArea($1)) }

        // Each ring's parent is the smallest larger ring containing it; depth parity says outer or hole.
        // Only rings whose box holds the probe can contain it, and the tree offers them largest index
        // first, as the scan down from i - 1 met them: O(log n) per ring plus the containment tests that fail.
        let boxes = BoxTree(located.map { Box7(bounding: $0) })
        var depth = [Int](repeating: 0, count: located.count)
        var parent = [Int?](repeating: nil, count: located.count)
        for i in located.indices {
            let probe = located[i][0]
            let container = boxes.largest(below: i, containingX: probe.lon, y: probe.lat) { j in
                result.candidateTests += 1
                return PolygonMath.ringContains(located[j], lat: probe.lat, lon: probe.lon)
            }
            if let j = container {
                parent[i] = j
                depth[i] = depth[j] + 1
            }
        }
        var polygonOfOuter: [Int: Int] = [:]
        for i in located.indices where depth[i] % 2 == 0 {
            polygonOfOuter[i] = result.polygons.count
            result.polygons.append([located[i]])
        }
        for i in located.indices where depth[i] % 2 == 1 {
            if let outer = parent[i], let p = polygonOfOuter[outer] { result.polygons[p].append(located[i]) }
        }
        return result
    }

    /// Rings made of open chains joined end to nearest end, each gap closed with a straight line when it
    /// is short next to what it joins. Closed rings end with their first node repeated, as assembled ones do.
    /// Nil when the search for nearest ends took more than `gapWorkPerEnd` per end; `work` counts it.
    ///
    /// The last chain left grows from its end: the nearest end is its own start (closing it) or an end of
    /// another chain, ties going to its own start, then to the earlier chain, then to a chain's first end.
    /// Ends are found through a tree of their positions, searched nearest first and only as far as a gap
    /// could still be closed, so a search costs about O(log n) for ends spread along boundaries.
    static func closeGaps(_ chains: [Line], work: inout Int) -> [Line]? {
        let pending = chains.filter { $0.ids.count >= 2 }
        let lengths = pending.map { chain -> (forward: Double, reversed: Double) in
            let points = chain.points.compactMap { $0 }
            return (LineMath.relativeLength(points), LineMath.relativeLength(Array(points.reversed())))
        }
        var alive = [Bool](repeating: true, count: pending.count)
        // End e is the first (e even) or last (e odd) node of chain e / 2; the tree holds those located.
        var ends: [Int] = [], positions: [Point7] = []
        for (i, chain) in pending.enumerated() {
            for (e, point) in [(2 * i, chain.points.first!), (2 * i + 1, chain.points.last!)] {
                if let point { ends.append(e); positions.append(point) }
            }
        }
        let tree = BoxTree(positions.map { Box7(minX: $0.lon, minY: $0.lat, maxX: $0.lon, maxY: $0.lat) })
        // Lengths differ a little by direction (the scale is taken at the first point): the longer bounds both.
        let longest = lengths.map { max($0.forward, $0.reversed) }.max() ?? 0
        let budget = Self.gapWorkPerEnd * max(positions.count, 1)
        var rings: [Line] = []
        for start in pending.indices.reversed() where alive[start] {
            alive[start] = false
            var chain = pending[start]
            var chainLength = lengths[start].forward
            while let from = chain.points.last! {
                guard work <= budget else { return nil }
                // (chain, reversed) or nil for this chain's own start; the key orders ties as a scan would.
                var best: (index: Int?, reversed: Bool, distance: Double, key: Int)?
                if let p = chain.points.first! { best = (nil, false, LineMath.relativeLength([from, p]), -1) }
                // No gap longer than this joins anything, so the nearest end beyond it need not be known.
                let reach = maxGapShare * (chainLength + longest)
                let scale = cos(Double(from.lat) / 1e7 * .pi / 180)
                tree.search(lowerBound: { box in
                    work += 1
                    return Self.lowerBound(from: from, to: box, scale: scale)
                }, bound: { min(best?.distance ?? .infinity, reach) }) { entry in
                    let e = ends[entry]
                    guard alive[e / 2] else { return }
                    work += 1
                    let d = LineMath.relativeLength([from, positions[entry]])
                    if best == nil || d < best!.distance || (d == best!.distance && e < best!.key) { best = (e / 2, e % 2 == 1, d, e) }
                }
                guard let choice = best else { break }
                if let index = choice.index {
                    let piece = choice.reversed ? pending[index].reversed : pending[index]
                    let pieceLength = choice.reversed ? lengths[index].reversed : lengths[index].forward
                    guard choice.distance <= maxGapShare * (chainLength + pieceLength) else { break }
                    alive[index] = false
                    chain.ids += piece.ids
                    chain.points += piece.points
                    chainLength += pieceLength + choice.distance
                } else {
                    if chain.ids.count >= 3, choice.distance <= maxGapShare * chainLength {
                        rings.append(Line(ids: chain.ids + [chain.ids[0]], points: chain.points + [chain.points[0]]))
                    }
                    break
                }
            }
        }
        return rings
    }

    /// At most `LineMath.relativeLength([from, p])` for every p in the box, computed with the same
    /// operations on smaller magnitudes (so rounding cannot lift it above): the longitude step is taken
    /// the short way, as the length is, by trying the box shifted by a turn either way.
    static func lowerBound(from: Point7, to box: Box7, scale: Double) -> Double {
        let dy = max(Double(box.minY) - Double(from.lat), 0, Double(from.lat) - Double(box.maxY))
        var bound = Double.infinity
        for shift in [0.0, -3_600_000_000, 3_600_000_000] {
            let x = Double(from.lon) + shift
            let dx = max(Double(box.minX) - x, 0, x - Double(box.maxX)) * scale
            bound = min(bound, (dx * dx + dy * dy).squareRoot())
        }
        return bound
    }
}
