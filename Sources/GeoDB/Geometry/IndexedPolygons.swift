// Polygons in memory for exact point-in-polygon tests that stay fast on rings with a million vertices:
// integer predicates (no rounding) and a small bounding-box hierarchy over each ring's edges. Timezone
// lookups and the import's address hierarchy (which boundaries contain a place) both use them.
import Foundation

/// A box in 1e-7 degree, bounds included.
package struct Box7: Equatable, Sendable {
    package var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32

    package init(minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest box around the points (inverted, min above max, when there are none). Not generic:
    /// a generic one, called from another module, stepped through a ring's points by witness-table calls
    /// (7 % of an import of Monaco ×20, its relations' rings), @inlinable or not.
    package init(bounding points: ArraySlice<Point7>) {
        self.init(minX: .max, minY: .max, maxX: .min, maxY: .min)
        for p in points {
            minX = min(minX, p.lon); maxX = max(maxX, p.lon)
            minY = min(minY, p.lat); maxY = max(maxY, p.lat)
        }
    }

    package init(bounding points: [Point7]) { self.init(bounding: points[...]) }

    /// Whether a point can lie inside a polygon with this box under the containment rule of
    /// `IndexedPolygon.contains` (a point on the east or north edge of the box is outside).
    @inline(__always)
    package func admits(_ x: Int32, _ y: Int32) -> Bool { x >= minX && x < maxX && y >= minY && y < maxY }
}

/// One polygon (an outer ring and its holes) of an owner: a timezone, an administrative area.
///
/// Containment rule: a point is inside when a ray from it towards east crosses the outer ring an odd
/// number of times and no hole an odd number of times, where an edge is crossed when one end lies
/// above the point's latitude and the other at or below it, and the point lies strictly west of the
/// edge (exact integer arithmetic). It is the exact answer for the point moved an infinitesimal step
/// east and a smaller one north, so a point on a border between two zones belongs to the zone east of it
/// (north of it on an east-west border), and exactly one of two zones that share a border contains it.
package final class IndexedPolygon: Sendable {
    /// Index of what the polygon belongs to (a zone in the order the timezone lookup knows them, an area).
    package let owner: Int32
    /// Every ring's vertices with the first one repeated at its end, ring after ring.
    let points: [Point7]
    /// Ring r is `points[ringStarts[r] ..< ringStarts[r + 1]]`.
    let ringStarts: [Int32]
    /// Bounding boxes over runs of edges, per ring from the root level down to runs of `fanout` edges.
    let nodes: [Box7]
    /// For ring r, `levelStarts[r * maxLevels + k]` is where its level k nodes (k = 0: runs of `fanout`
    /// edges; higher levels group `fanout` nodes of the level below) begin in `nodes`.
    let levelStarts: [Int32]
    let ringLevels: [Int8]
    /// The holes' boxes (hole h is ring h + 1): a point or box meets the few holes near it, not all of
    /// them (a zone can have tens of thousands).
    let holes: BoxTree
    package let box: Box7
    /// Area enclosed by the outer ring, in square degrees (planar; for ranking overlapping zones).
    package let area: Double

    static let fanout = 16
    static let maxLevels = 7   // 16^7 edges per ring at most

    /// `rings`: the outer ring first, then holes; rings closed implicitly (last point not repeated),
    /// each with at least 3 points.
    package init(owner: Int32, rings: [[Point7]]) {
        self.owner = owner
        var points: [Point7] = []
        points.reserveCapacity(rings.reduce(0) { $0 + $1.count + 1 })
        var ringStarts: [Int32] = [0]
        for ring in rings {
            points.append(contentsOf: ring)
            if let first = ring.first { points.append(first) }
            ringStarts.append(Int32(points.count))
        }
        var nodes: [Box7] = []
        var levelStarts = [Int32](repeating: 0, count: rings.count * Self.maxLevels)
        var ringLevels: [Int8] = []
        for r in 0..<rings.count {
            let start = Int(ringStarts[r]), edges = Int(ringStarts[r + 1]) - start - 1
            // Level 0 boxes cover `fanout` edges (fanout + 1 points); each level above groups `fanout` boxes.
            var level: [Box7] = stride(from: 0, to: max(edges, 1), by: Self.fanout).map { first in
                Box7(bounding: points[(start + first)...(start + min(first + Self.fanout, edges))])
            }
            var levels = [level]
            while level.count > 1 && levels.count < Self.maxLevels {
                level = stride(from: 0, to: level.count, by: Self.fanout).map { first in
                    Self.union(level[first..<min(first + Self.fanout, level.count)])
                }
                levels.append(level)
            }
            ringLevels.append(Int8(levels.count))
            for (k, boxes) in levels.enumerated() {
                levelStarts[r * Self.maxLevels + k] = Int32(nodes.count)
                nodes.append(contentsOf: boxes)
            }
        }
        self.points = points
        self.ringStarts = ringStarts
        self.nodes = nodes
        self.levelStarts = levelStarts
        self.ringLevels = ringLevels
        holes = BoxTree(rings.dropFirst().map { Box7(bounding: $0) })
        self.box = rings.isEmpty ? Box7(minX: 0, minY: 0, maxX: 0, maxY: 0) : Box7(bounding: rings[0])
        self.area = rings.first.map { abs(Self.doubleArea($0)) / 2e14 } ?? 0
    }


    static func union(_ boxes: ArraySlice<Box7>) -> Box7 {
        var box = boxes[boxes.startIndex]
        for b in boxes.dropFirst() {
            box.minX = min(box.minX, b.minX); box.maxX = max(box.maxX, b.maxX)
            box.minY = min(box.minY, b.minY); box.maxY = max(box.maxY, b.maxY)
        }
        return box
    }

    /// Twice the signed area in (1e-7 degree)² of an implicitly closed ring.
    static func doubleArea(_ ring: [Point7]) -> Double {
        guard var previous = ring.last else { return 0 }
        var sum = 0.0
        for p in ring {
            sum += Double(previous.lon) * Double(p.lat) - Double(p.lon) * Double(previous.lat)
            previous = p
        }
        return sum
    }

    package var ringCount: Int { ringStarts.count - 1 }
    package var vertexCount: Int { points.count - ringCount }

    /// The rings as given to `init` (without the repeated closing point).
    package var rings: [[Point7]] {
        (0..<ringCount).map { Array(points[Int(ringStarts[$0])..<Int(ringStarts[$0 + 1]) - 1]) }
    }

    /// Calls `body` with the two ends of every edge of every ring.
    package func forEachEdge(_ body: (Point7, Point7) -> Void) {
        for r in 0..<ringCount {
            for e in Int(ringStarts[r])..<Int(ringStarts[r + 1]) - 1 { body(points[e], points[e + 1]) }
        }
    }

    /// Whether the polygon contains the point (the rule in the type's documentation).
    package func contains(lon x: Int32, lat y: Int32) -> Bool {
        guard box.admits(x, y) else { return false }
        return points.withUnsafeBufferPointer { pts in
            nodes.withUnsafeBufferPointer { nodes in
                guard crosses(ring: 0, x, y, pts, nodes) else { return false }
                // A ring is crossed an odd number of times only from inside its box.
                return holes.first(containingX: x, y: y) { crosses(ring: $0 + 1, x, y, pts, nodes) } == nil
            }
        }
    }

    /// Odd number of crossings of the eastward ray from (x, y) with ring `r`.
    private func crosses(ring r: Int, _ x: Int32, _ y: Int32,
                         _ pts: UnsafeBufferPointer<Point7>, _ nodes: UnsafeBufferPointer<Box7>) -> Bool {
        let top = Int(ringLevels[r]) - 1
        return crosses(ring: r, level: top, node: 0, x, y, pts, nodes)
    }

    private func crosses(ring r: Int, level: Int, node: Int, _ x: Int32, _ y: Int32,
                         _ pts: UnsafeBufferPointer<Point7>, _ nodes: UnsafeBufferPointer<Box7>) -> Bool {
        let box = nodes[Int(levelStarts[r * Self.maxLevels + level]) + node]
        // No edge in this run reaches across the latitude, or every crossing is at or west of x.
        if box.maxY <= y || box.minY > y || box.maxX <= x { return false }
        let start = Int(ringStarts[r]), edges = Int(ringStarts[r + 1]) - start - 1
        var span = Self.fanout
        for _ in 0..<level { span *= Self.fanout }
        let first = node * span, last = min(first + span, edges)
        if box.minX > x {
            // Every crossing lies east of x: the run crosses the latitude an odd number of times exactly
            // when its two ends lie on different sides.
            return (pts[start + first].lat > y) != (pts[start + last].lat > y)
        }
        var odd = false
        if level == 0 {
            for e in (start + first)..<(start + last) {
                let a = pts[e], b = pts[e + 1]
                guard (a.lat > y) != (b.lat > y) else { continue }
                let (lo, hi) = a.lat > y ? (b, a) : (a, b)
                // East of the point ⟺ the point is strictly left of the upward edge lo → hi. Both products
                // stay below 6.5e18 for coordinates within ±180/±90, so they are compared, never subtracted.
                let l = (Int64(hi.lon) - Int64(lo.lon)) &* (Int64(y) - Int64(lo.lat))
                let rr = (Int64(hi.lat) - Int64(lo.lat)) &* (Int64(x) - Int64(lo.lon))
                if l > rr { odd.toggle() }
            }
        } else {
            let childCount = (last - first + span / Self.fanout - 1) / (span / Self.fanout)
            let firstChild = node * Self.fanout
            for child in firstChild..<(firstChild + childCount)
            where crosses(ring: r, level: level - 1, node: child, x, y, pts, nodes) {
                odd.toggle()
            }
        }
        return odd
    }

    /// Whether an edge of the polygon meets the box (bounds included). When none does, every point of the
    /// box is inside or every one is outside, and one test of a point in it says which.
    package func edgesMeet(_ box: Box7) -> Bool {
        points.withUnsafeBufferPointer { pts in
            func meets(_ r: Int) -> Bool { edgesMeet(box, ring: r, level: Int(ringLevels[r]) - 1, node: 0, pts) }
            return meets(0) || holes.first(meeting: box) { meets($0 + 1) } != nil
        }
    }

    private func edgesMeet(_ query: Box7, ring r: Int, level: Int, node: Int, _ pts: UnsafeBufferPointer<Point7>) -> Bool {
        let box = nodes[Int(levelStarts[r * Self.maxLevels + level]) + node]
        guard box.minX <= query.maxX, box.maxX >= query.minX, box.minY <= query.maxY, box.maxY >= query.minY else { return false }
        let start = Int(ringStarts[r]), edges = Int(ringStarts[r + 1]) - start - 1
        var span = Self.fanout
        for _ in 0..<level { span *= Self.fanout }
        let first = node * span, last = min(first + span, edges)
        if level == 0 {
            return ((start + first)..<(start + last)).contains { e in Self.segment(pts[e], pts[e + 1], meets: query) }
        }
        let childSpan = span / Self.fanout
        let childCount = (last - first + childSpan - 1) / childSpan
        return ((node * Self.fanout)..<(node * Self.fanout + childCount)).contains { child in
            edgesMeet(query, ring: r, level: level - 1, node: child, pts)
        }
    }

    /// Whether segment a–b meets the box: an end inside it, or the segment crossing one of its sides
    /// (separating-axis test on the box's corners against the segment's line).
    static func segment(_ a: Point7, _ b: Point7, meets box: Box7) -> Bool {
        guard min(a.lon, b.lon) <= box.maxX, max(a.lon, b.lon) >= box.minX,
              min(a.lat, b.lat) <= box.maxY, max(a.lat, b.lat) >= box.minY else { return false }
        let dx = Double(b.lon) - Double(a.lon), dy = Double(b.lat) - Double(a.lat)
        var below = false, above = false
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            let side = dx * (Double(y) - Double(a.lat)) - dy * (Double(x) - Double(a.lon))
            if side <= 0 { below = true }
            if side >= 0 { above = true }
        }
        return below && above
    }

    /// The shortest distance from the point to the polygon's edges, in metres, when below `limit`
    /// (planar, longitude scaled by the cosine of the latitude; `x` may lie outside ±180 by 360°).
    package func distance(toLon x: Double, lat y: Double, below limit: Double) -> Double? {
        let ky = Coordinate.earthRadius * .pi / 180 / 1e7
        let kx = ky * cos(y / 1e7 * .pi / 180)
        var best = limit * limit
        var found = false
        points.withUnsafeBufferPointer { pts in
            func nearest(_ r: Int) { self.nearest(ring: r, level: Int(ringLevels[r]) - 1, node: 0, x, y, kx, ky, pts, &best, &found) }
            nearest(0)
            // The minimum is the same in any order; holes whose box is farther than the nearest edge so far are skipped.
            holes.search(lowerBound: { Self.squaredDistance(from: $0, x, y, kx, ky) }, bound: { best }) { nearest($0 + 1) }
        }
        return found ? best.squareRoot() : nil
    }

    /// The squared distance in metres from the point to the nearest point of the box.
    private static func squaredDistance(from box: Box7, _ x: Double, _ y: Double, _ kx: Double, _ ky: Double) -> Double {
        let dx = max(Double(box.minX) - x, 0, x - Double(box.maxX)) * kx
        let dy = max(Double(box.minY) - y, 0, y - Double(box.maxY)) * ky
        return dx * dx + dy * dy
    }

    private func nearest(ring r: Int, level: Int, node: Int, _ x: Double, _ y: Double, _ kx: Double, _ ky: Double,
                         _ pts: UnsafeBufferPointer<Point7>, _ best: inout Double, _ found: inout Bool) {
        guard Self.squaredDistance(from: nodes[Int(levelStarts[r * Self.maxLevels + level]) + node], x, y, kx, ky) < best else { return }
        let start = Int(ringStarts[r]), edges = Int(ringStarts[r + 1]) - start - 1
        var span = Self.fanout
        for _ in 0..<level { span *= Self.fanout }
        let first = node * span, last = min(first + span, edges)
        if level == 0 {
            for e in (start + first)..<(start + last) {
                let ax = (Double(pts[e].lon) - x) * kx, ay = (Double(pts[e].lat) - y) * ky
                let bx = (Double(pts[e + 1].lon) - x) * kx, by = (Double(pts[e + 1].lat) - y) * ky
                let ex = bx - ax, ey = by - ay
                let length = ex * ex + ey * ey
                let t = length > 0 ? min(max(-(ax * ex + ay * ey) / length, 0), 1) : 0
                let px = ax + t * ex, py = ay + t * ey
                let d = px * px + py * py
                if d < best { best = d; found = true }
            }
        } else {
            let childSpan = span / Self.fanout
            let childCount = (last - first + childSpan - 1) / childSpan
            for child in (node * Self.fanout)..<(node * Self.fanout + childCount) {
                nearest(ring: r, level: level - 1, node: child, x, y, kx, ky, pts, &best, &found)
            }
        }
    }
}

/// A set of polygons (of timezones, of areas) with an index of which may contain a point: the 1° cells of
/// `TimeZoneGrid`'s numbering. Polygons are decoded on first use when a loader is given. Not thread-safe.
package final class PolygonSet {
    package let ownerOfPart: [Int32]
    /// A box per part that contains the part (from the R*Tree: rounded outwards).
    let boxes: [Box7]
    private var polygons: [IndexedPolygon?]
    private let loader: ((Int) throws -> IndexedPolygon)?
    /// Parts whose box meets 1° cell c: `cellParts[cellStart[c] ..< cellStart[c + 1]]`.
    private let cellStart: [Int32]
    private let cellParts: [Int32]

    /// A set of polygons already in memory.
    package convenience init(polygons: [IndexedPolygon]) {
        self.init(owners: polygons.map(\.owner), boxes: polygons.map(\.box), polygons: polygons, loader: nil)
    }

    /// A set whose part i (of `owners[i]`, inside `boxes[i]`) is read by `loader(i)` when first needed.
    package convenience init(owners: [Int32], boxes: [Box7], loader: @escaping (Int) throws -> IndexedPolygon) {
        self.init(owners: owners, boxes: boxes, polygons: Array(repeating: nil, count: owners.count), loader: loader)
    }

    private init(owners: [Int32], boxes: [Box7], polygons: [IndexedPolygon?], loader: ((Int) throws -> IndexedPolygon)?) {
        ownerOfPart = owners
        self.boxes = boxes
        self.polygons = polygons
        self.loader = loader
        // Counting pass, then filling pass (compressed rows: no array per cell).
        var counts = [Int32](repeating: 0, count: TimeZoneGrid.baseCount + 1)
        func cells(_ box: Box7, _ body: (Int) -> Void) {
            let size = TimeZoneGrid.baseSize
            let c0 = max(0, (Int(box.minX) + 1_800_000_000) / size), c1 = min(359, (Int(box.maxX) + 1_800_000_000) / size)
            let r0 = max(0, (Int(box.minY) + 900_000_000) / size), r1 = min(179, (Int(box.maxY) + 900_000_000) / size)
            guard c0 <= c1, r0 <= r1 else { return }
            for r in r0...r1 { for c in c0...c1 { body(r * TimeZoneGrid.columns + c) } }
        }
        for box in boxes { cells(box) { counts[$0 + 1] += 1 } }
        for c in 0..<TimeZoneGrid.baseCount { counts[c + 1] += counts[c] }
        var next = counts
        var parts = [Int32](repeating: 0, count: Int(counts[TimeZoneGrid.baseCount]))
        for (i, box) in boxes.enumerated() {
            cells(box) { c in parts[Int(next[c])] = Int32(i); next[c] += 1 }
        }
        cellStart = counts
        cellParts = parts
    }

    package var partCount: Int { ownerOfPart.count }

    package func polygon(_ part: Int) throws -> IndexedPolygon {
        if let polygon = polygons[part] { return polygon }
        guard let loader else { preconditionFailure("polygon \(part) missing from an in-memory set") }
        let polygon = try loader(part)
        polygons[part] = polygon
        return polygon
    }

    /// Decodes every polygon now rather than on first use.
    package func loadAll() throws {
        for part in 0..<partCount where polygons[part] == nil { _ = try polygon(part) }
    }

    /// Calls `body` with every polygon that contains the (normalised) point.
    @inline(__always)
    package func forEachContaining(_ p: Point7, _ body: (IndexedPolygon) -> Void) throws {
        let cell = TimeZoneGrid.Position(p).base
        for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
            let part = Int(cellParts[i])
            guard boxes[part].admits(p.lon, p.lat) else { continue }
            let polygon = try polygon(part)
            if polygon.contains(lon: p.lon, lat: p.lat) { body(polygon) }
        }
    }

    /// Calls `body` with every polygon whose box meets `box`, a box inside one 1° cell.
    package func forEachPolygon(meeting box: Box7, _ body: (IndexedPolygon) throws -> Void) throws {
        let cell = TimeZoneGrid.Position(Point7(lat: box.minY, lon: box.minX)).base
        for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
            let part = Int(cellParts[i]), b = boxes[part]
            guard b.minX <= box.maxX, b.maxX >= box.minX, b.minY <= box.maxY, b.maxY >= box.minY else { continue }
            try body(try polygon(part))
        }
    }

    /// The owner of the polygon edge nearest to the point, when one is closer than `meters`.
    package func nearest(to p: Point7, within meters: Double) throws -> (owner: Int32, meters: Double)? {
        let degreesLat = meters / (Coordinate.earthRadius * .pi / 180)
        let cosLat = max(cos(Double(p.lat) / 1e7 * .pi / 180), 1e-6)
        let degreesLon = min(degreesLat / cosLat, 180)
        let dy = Int((degreesLat * 1e7).rounded(.up)), dx = Int((degreesLon * 1e7).rounded(.up))
        var best: (owner: Int32, meters: Double)?
        var seen = Set<Int>()
        // Near the antimeridian, look at the other side too, with the point shifted by 360°.
        for shift in [0, -3_600_000_000, 3_600_000_000] {
            let x = Int(p.lon) + shift
            guard x - dx < 1_800_000_000, x + dx >= -1_800_000_000 else { continue }
            let minX = max(x - dx, -1_800_000_000), maxX = min(x + dx, 1_800_000_000 - 1)
            let minY = max(Int(p.lat) - dy, -900_000_000), maxY = min(Int(p.lat) + dy, 900_000_000 - 1)
            let size = TimeZoneGrid.baseSize
            for row in (minY + 900_000_000) / size...(maxY + 900_000_000) / size {
                for column in (minX + 1_800_000_000) / size...(maxX + 1_800_000_000) / size {
                    let cell = row * TimeZoneGrid.columns + column
                    for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let part = Int(cellParts[i])
                        let b = boxes[part]
                        guard Int(b.minX) <= maxX, Int(b.maxX) >= minX, Int(b.minY) <= maxY, Int(b.maxY) >= minY,
                              seen.insert(part).inserted else { continue }
                        let limit = best?.meters ?? meters
                        if let d = try polygon(part).distance(toLon: Double(x), lat: Double(p.lat), below: limit) {
                            best = (ownerOfPart[part], d)
                        }
                    }
                }
            }
            seen.removeAll()
        }
        return best
    }
}
