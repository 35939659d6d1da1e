// The geometry every engine shares: polygon area, containment and interior points; points along lines,
// distances to lines and where lines cross (planar on 1e-7-degree points, with longitude scaled by the
// cosine of latitude); and the boxes that hold every point within a distance of a point on the sphere.
import Foundation
import GeoDBSQLite

/// Ring and polygon helpers. Rings are closed implicitly (the last point is not repeated).
package enum PolygonMath {
    /// Twice the signed area in (1e-7 degree)², positive when counter-clockwise.
    package static func doubleSignedArea(_ ring: [Point7]) -> Double {
        guard ring.count >= 3 else { return 0 }
        // Relative to the first vertex: products of absolute coordinates (up to 1.8e9) cancel, and their
        // rounding swamped a building's area.
        let origin = ring[0]
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum += offset(previous.lon, origin.lon) * offset(p.lat, origin.lat) - offset(p.lon, origin.lon) * offset(previous.lat, origin.lat)
            previous = p
        }
        return sum
    }

    /// A ring as every writer of geometry gives it: counterclockwise when `outer`, else clockwise (RFC 7946's
    /// winding), starting at its least point (smallest longitude, then latitude). That start is where
    /// libosmium's assembler starts a ring, and so osm2pgsql and Nominatim: the same building comes out the
    /// same whichever node its mapper drew first, and Douglas–Peucker (`Geometry.douglasPeucker(tolerance:)`),
    /// which keeps a ring's first point, keeps the one Nominatim keeps.
    package static func outputRing(_ ring: [Point7], outer: Bool) -> [Point7] {
        guard let start = ring.indices.min(by: { (ring[$0].lon, ring[$0].lat) < (ring[$1].lon, ring[$1].lat) }) else { return ring }
        let rotated = Array(ring[start...] + ring[..<start])
        return (doubleSignedArea(ring) > 0) == outer ? rotated : [rotated[0]] + rotated.dropFirst().reversed()
    }

    /// `value - origin` exactly, as a Double.
    @inline(__always)
    static func offset(_ value: Int32, _ origin: Int32) -> Double { Double(Int64(value) - Int64(origin)) }

    /// Whether the point lies inside the ring (even-odd rule; points exactly on an edge count as inside
    /// for edges crossed from below, a deterministic choice).
    package static func ringContains(_ ring: [Point7], lat: Int32, lon: Int32) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        let x = Double(lon), y = Double(lat)
        var j = ring.count - 1
        for i in 0..<ring.count {
            let yi = Double(ring[i].lat), yj = Double(ring[j].lat)
            if (yi > y) != (yj > y) {
                let xi = Double(ring[i].lon), xj = Double(ring[j].lon)
                let crossX = xi + (y - yi) / (yj - yi) * (xj - xi)
                if x < crossX { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Whether the point lies inside a polygon (outer ring, then holes).
    package static func polygonContains(_ rings: [[Point7]], lat: Int32, lon: Int32) -> Bool {
        guard let outer = rings.first, ringContains(outer, lat: lat, lon: lon) else { return false }
        return !rings.dropFirst().contains { ringContains($0, lat: lat, lon: lon) }
    }

    /// A point inside the polygons, where PostGIS's `ST_PointOnSurface` (GEOS's interior point) puts it, which
    /// Nominatim answers as an area's point: on the horizontal line halfway between the two vertex latitudes
    /// nearest the middle of the polygon's box, the middle of the widest stretch of that line inside the
    /// polygon (holes cut it), of the polygon where that stretch is widest. Halves round up to 1e-7°, as
    /// Nominatim's `ST_ReducePrecision` does. The first point for polygons without area.
    package static func interiorPoint(_ polygons: [[[Point7]]]) -> Point7? {
        guard let first = polygons.first?.first?.first else { return nil }
        var best: (width: Double, lat: Double, lon: Double)?
        for rings in polygons {
            let lats = rings.joined().map { Double($0.lat) }
            guard let minLat = lats.min(), let maxLat = lats.max() else { continue }
            let middle = (minLat + maxLat) / 2
            // The vertex latitudes nearest the middle from below (or on it) and from above.
            var below = minLat, above = maxLat
            for lat in lats {
                if lat <= middle { below = max(below, lat) } else { above = min(above, lat) }
            }
            let y = (below + above) / 2
            var crossings: [Double] = []
            for ring in rings {
                var previous = ring[ring.count - 1]
                for point in ring {
                    let (y0, y1) = (Double(previous.lat), Double(point.lat))
                    // An edge counts once where the line meets a vertex: its upper end is not on it.
                    if y0 != y1, min(y0, y1) <= y, y <= max(y0, y1), !(y0 == y && y1 < y), !(y1 == y && y0 < y) {
                        let (x0, x1) = (Double(previous.lon), Double(point.lon))
                        crossings.append(x0 == x1 ? x0 : x0 + (y - y0) / ((y1 - y0) / (x1 - x0)))
                    }
                    previous = point
                }
            }
            crossings.sort()
            for index in stride(from: 0, to: crossings.count - 1, by: 2) where crossings[index + 1] - crossings[index] > best?.width ?? -1 {
                best = (crossings[index + 1] - crossings[index], y, (crossings[index] + crossings[index + 1]) / 2)
            }
        }
        guard let best else { return first }
        return Point7(rounding: (best.lat + 0.5).rounded(.down), (best.lon + 0.5).rounded(.down)) ?? first
    }

    /// The area-weighted centroid when it lies inside, else the middle of the widest inside stretch of the
    /// largest polygon on its latitude; nil when neither is inside (or the polygons have no area).
    static func insideCentroid(_ polygons: [[[Point7]]]) -> Point7? {
        guard let origin = polygons.first?.first?.first else { return nil }
        var areaSum = 0.0, xSum = 0.0, ySum = 0.0
        for rings in polygons {
            for (index, ring) in rings.enumerated() {
                let (a, cx, cy) = centroidTerms(ring, origin: origin)
                // Outer rings add, holes subtract, whatever their winding.
                let sign: Double = index == 0 ? 1 : -1
                areaSum += sign * abs(a)
                xSum += sign * cx * abs(a)
                ySum += sign * cy * abs(a)
            }
        }
        // A hole that nearly cancels its outer ring leaves a tiny area, and a centroid far off the globe.
        guard areaSum > 0,
              let largest = polygons.max(by: { abs(doubleSignedArea($0.first ?? [])) < abs(doubleSignedArea($1.first ?? [])) }),
              let centroid = Point7(rounding: Double(origin.lat) + ySum / areaSum, Double(origin.lon) + xSum / areaSum)
        else { return nil }
        if polygons.contains(where: { polygonContains($0, lat: centroid.lat, lon: centroid.lon) }) { return centroid }
        return scanlineMiddle(largest, lat: centroid.lat).flatMap { p in
            polygons.contains { polygonContains($0, lat: p.lat, lon: p.lon) } ? p : nil
        }
    }

    /// The point of the polygons farthest from their edges (the "pole of inaccessibility": where a map puts
    /// an area's name), within `precision` metres, searched in the largest polygon by halving square cells
    /// from the best bound first (polylabel). Inside by construction, never a centroid in a hole or bay.
    ///
    /// ```swift
    /// let label = PolygonMath.labelPoint(polygons)   // deep inside a crescent-shaped municipality
    /// ```
    package static func labelPoint(_ polygons: [[[Point7]]], precision: Double = 50) -> Point7? {
        guard let largest = polygons.max(by: { abs(doubleSignedArea($0.first ?? [])) < abs(doubleSignedArea($1.first ?? [])) }),
              let outer = largest.first, outer.count >= 3 else { return nil }
        let polygon = IndexedPolygon(owner: 0, rings: largest)
        let box = polygon.box
        // Metres per 1e-7 degree, across (scaled by the latitude) and along the meridian.
        let ky = Coordinate.earthRadius * .pi / 180 / 1e7
        let kx = ky * cos((Double(box.minY) + Double(box.maxY)) / 2e7 * .pi / 180)
        /// Signed metres from (x, y) to the outline: positive inside.
        func distance(_ x: Double, _ y: Double) -> Double {
            let d = polygon.distance(toLon: x, lat: y, below: .infinity) ?? 0
            // Cell centres may lie beyond the box (half a cell), and so beyond ±180: outside.
            let inside = Point7(rounding: y, x).map { polygon.contains(lon: $0.lon, lat: $0.lat) } ?? false
            return inside ? d : -d
        }
        struct Cell { var x, y, half, distance, bound: Double }
        func cell(_ x: Double, _ y: Double, _ half: Double) -> Cell {
            let d = distance(x, y)
            return Cell(x: x, y: y, half: half, distance: d, bound: d + half * (kx * kx + ky * ky).squareRoot())
        }
        let width = Double(box.maxX) - Double(box.minX), height = Double(box.maxY) - Double(box.minY)
        let size = max(min(width * kx, height * ky), 1)   // cells square in metres
        let half = size / 2
        var queue: [Cell] = []
        var y = Double(box.minY)
        while y < Double(box.maxY) {
            var x = Double(box.minX)
            while x < Double(box.maxX) {
                queue.append(cell(x + half / kx, y + half / ky, half))
                x += size / kx
            }
            y += size / ky
        }
        let start = insideCentroid([largest]) ?? outer[0]
        var best = cell(Double(start.lon), Double(start.lat), 0)
        // Cells are split while one could still hold a point `precision` farther inside than the best so far;
        // the cap bounds the work on huge, ragged outlines (then the best found so far is inside anyway).
        var evaluated = 0
        while let index = queue.indices.max(by: { queue[$0].bound < queue[$1].bound }), evaluated < 4_000 {
            let current = queue.remove(at: index)
            if current.distance > best.distance { best = current }
            guard current.bound - best.distance > precision else { continue }
            let quarter = current.half / 2
            for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                queue.append(cell(current.x + dx * quarter / kx, current.y + dy * quarter / ky, quarter))
            }
            evaluated += 4
        }
        guard best.distance > 0 else { return start }
        return Point7(rounding: best.y, best.x) ?? start
    }

    /// The area of polygons (outer rings less holes) in square kilometres, planar at their latitude.
    package static func areaKm2(_ polygons: [[[Point7]]]) -> Double {
        var area = 0.0
        for rings in polygons {
            guard let outer = rings.first, let first = outer.first else { continue }
            let scale = cos(Double(first.lat) / 1e7 * .pi / 180)
            let rings = rings.enumerated().map { $0.offset == 0 ? abs(doubleSignedArea($0.element)) : -abs(doubleSignedArea($0.element)) }
            area += max(0, rings.reduce(0, +)) / 2 * scale
        }
        let kmPerUnit = Coordinate.earthRadius * .pi / 180 / 1e7 / 1000
        return area * kmPerUnit * kmPerUnit
    }

    /// (signed area, centroid x, centroid y) of one ring.
    /// Half the ring's signed area and its centroid, in 1e-7 degrees relative to `origin` (for the same
    /// reason as `doubleSignedArea`).
    static func centroidTerms(_ ring: [Point7], origin: Point7) -> (Double, Double, Double) {
        guard !ring.isEmpty else { return (0, 0, 0) }
        var cx = 0.0, cy = 0.0, a2 = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            let (x0, y0) = (offset(previous.lon, origin.lon), offset(previous.lat, origin.lat))
            let (x1, y1) = (offset(p.lon, origin.lon), offset(p.lat, origin.lat))
            let cross = x0 * y1 - x1 * y0
            a2 += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
            previous = p
        }
        guard a2 != 0 else {
            let n = Double(ring.count)
            return (0, ring.reduce(0) { $0 + offset($1.lon, origin.lon) } / n, ring.reduce(0) { $0 + offset($1.lat, origin.lat) } / n)
        }
        return (a2 / 2, cx / (3 * a2), cy / (3 * a2))
    }

    /// The middle of the widest inside interval where the horizontal line at `lat` crosses the polygon.
    static func scanlineMiddle(_ rings: [[Point7]], lat: Int32) -> Point7? {
        let y = Double(lat) + 0.5   // off the vertex grid, so no vertex lies exactly on the line
        var crossings: [Double] = []
        for ring in rings {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let yi = Double(ring[i].lat), yj = Double(ring[j].lat)
                if (yi > y) != (yj > y) {
                    crossings.append(Double(ring[i].lon) + (y - yi) / (yj - yi) * offset(ring[j].lon, ring[i].lon))
                }
                j = i
            }
        }
        crossings.sort()
        var best: (width: Double, middle: Double)?
        var index = 0
        while index + 1 < crossings.count {
            let width = crossings[index + 1] - crossings[index]
            if best == nil || width > best!.width { best = (width, (crossings[index] + crossings[index + 1]) / 2) }
            index += 2
        }
        guard let best else { return nil }
        return Point7(rounding: Double(lat), best.middle)
    }
}

/// Line helpers, in a local planar approximation (longitude scaled by the cosine of latitude).
package enum LineMath {
    /// The point at `fraction` (0…1) of the line's length.
    package static func point(along line: [Point7], fraction: Double) -> Point7? {
        guard let first = line.first else { return nil }
        let pieces = segmentLengths(line)
        var remaining = pieces.reduce(0, +) * min(max(fraction, 0), 1)
        for (i, piece) in pieces.enumerated() {
            if remaining <= piece, piece > 0 {
                let t = remaining / piece, a = line[i], b = line[i + 1]
                var lon = Double(a.lon) + longitudeStep(from: a.lon, to: b.lon) * t
                if lon > 1_800_000_000 { lon -= 3_600_000_000 } else if lon < -1_800_000_000 { lon += 3_600_000_000 }
                return Point7(rounding: Double(a.lat) + PolygonMath.offset(b.lat, a.lat) * t, lon)
            }
            remaining -= piece
        }
        return line.last ?? first
    }

    /// Planar length in 1e-7 degree of latitude (for comparing lines, not for metres).
    package static func relativeLength(_ line: [Point7]) -> Double {
        segmentLengths(line).reduce(0, +)
    }

    /// The length of each segment, in 1e-7 degree of latitude.
    static func segmentLengths(_ line: [Point7]) -> [Double] {
        guard let first = line.first, line.count > 1 else { return [] }
        let scale = cos(Double(first.lat) / 1e7 * .pi / 180)
        return (1..<line.count).map { i in
            let dx = longitudeStep(from: line[i - 1].lon, to: line[i].lon) * scale, dy = PolygonMath.offset(line[i].lat, line[i - 1].lat)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// The longitude from `a` to `b` the short way round, in 1e-7 degree: a segment across the antimeridian
    /// (179.9° to -179.9°) is 0.2° long, not 359.8° (nor the Int32 overflow its plain difference would be).
    static func longitudeStep(from a: Int32, to b: Int32) -> Double {
        let step = PolygonMath.offset(b, a)
        return step > 1_800_000_000 ? step - 3_600_000_000 : step < -1_800_000_000 ? step + 3_600_000_000 : step
    }

    /// Metres from a point to a line, and where along the line (0…1) the nearest point is; local
    /// equirectangular projection, exact to well under a metre at street scale.
    package static func distance(from point: Coordinate, to line: [Point7]) -> (distance: Double, fraction: Double) {
        guard let first = line.first else { return (.infinity, 0) }
        let scale = cos(point.lat * .pi / 180)
        func xy(_ p: Point7) -> (Double, Double) { localMetres(p, from: point, scale: scale) }
        guard line.count > 1 else {
            let (x, y) = xy(first)
            return ((x * x + y * y).squareRoot(), 0)
        }
        var best = (distance: Double.infinity, along: 0.0)
        var travelled = 0.0
        for i in 1..<line.count {
            let (ax, ay) = xy(line[i - 1]), (bx, by) = xy(line[i])
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length2)) : 0
            let px = ax + t * dx, py = ay + t * dy
            let d = (px * px + py * py).squareRoot()
            let length = length2.squareRoot()
            if d < best.distance { best = (d, travelled + t * length) }
            travelled += length
        }
        return (best.distance, travelled > 0 ? best.along / travelled : 0)
    }

    /// Metres from a point to the segment a–b, as `distance(from:to:)` measures them (the same arithmetic, so
    /// the same value), with `scale` = cos(latitude of the point) worked out once by a caller that measures
    /// one point against many segments (the import's nearest street of every house).
    package static func distance(from point: Coordinate, scale: Double, toSegment a: Point7, _ b: Point7) -> Double {
        let (ax, ay) = localMetres(a, from: point, scale: scale), (bx, by) = localMetres(b, from: point, scale: scale)
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length2)) : 0
        let px = ax + t * dx, py = ay + t * dy
        return (px * px + py * py).squareRoot()
    }

    /// `p` in metres east and north of `point` on the local plane (`scale`: cos of the point's latitude).
    @inline(__always)
    private static func localMetres(_ p: Point7, from point: Coordinate, scale: Double) -> (Double, Double) {
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        var dLon = Double(p.lon) / 1e7 - point.lon
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * scale * metresPerDegree, (Double(p.lat) / 1e7 - point.lat) * metresPerDegree)
    }

    /// The point of `lines` nearest to `point`, in plain degrees (longitude unscaled), as PostGIS's
    /// `ST_ClosestPoint` measures geometry in EPSG:4326: where Nominatim's reverse puts a street it answers.
    /// (Metres, as `distance(from:to:)` measures them, pick a point up to a few decimetres away.)
    ///
    /// ```swift
    /// let onStreet = LineMath.closestPoint(on: lines, to: Coordinate(lat: 47.13368, lon: 9.52942))
    /// ```
    package static func closestPoint(on lines: [[Point7]], to point: Coordinate) -> Point7? {
        let x = point.lon * 1e7, y = point.lat * 1e7
        var best: (distance2: Double, lat: Double, lon: Double)?
        for line in lines {
            for (index, b) in line.enumerated() {
                let a = index > 0 ? line[index - 1] : b
                let (ax, ay) = (Double(a.lon), Double(a.lat))
                let (dx, dy) = (Double(b.lon) - ax, Double(b.lat) - ay)
                let length2 = dx * dx + dy * dy
                let t = length2 > 0 ? max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / length2)) : 0
                let (px, py) = (ax + t * dx, ay + t * dy)
                let distance2 = (px - x) * (px - x) + (py - y) * (py - y)
                if distance2 < best?.distance2 ?? .infinity { best = (distance2, py, px) }
            }
        }
        return best.flatMap { Point7(rounding: $0.lat, $0.lon) }
    }

    /// Where along `line` (0…1 of its length) the point nearest to `point` lies, in plain degrees as
    /// PostGIS's `ST_LineLocatePoint` measures EPSG:4326 geometry.
    package static func planarFraction(of point: Coordinate, on line: [Point7]) -> Double {
        let x = point.lon * 1e7, y = point.lat * 1e7
        var best = (distance2: Double.infinity, along: 0.0)
        var travelled = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let (ax, ay) = (Double(a.lon), Double(a.lat))
            let (dx, dy) = (Double(b.lon) - ax, Double(b.lat) - ay)
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / length2)) : 0
            let (px, py) = (ax + t * dx - x, ay + t * dy - y)
            if px * px + py * py < best.distance2 { best = (px * px + py * py, travelled + t * length2.squareRoot()) }
            travelled += length2.squareRoot()
        }
        return travelled > 0 ? best.along / travelled : 0
    }

    /// The point at `fraction` (0…1) of `line`'s length in plain degrees (PostGIS's `ST_LineInterpolatePoint`
    /// on EPSG:4326 geometry), rounded to 1e-7° as Nominatim prints it.
    package static func planarPoint(along line: [Point7], fraction: Double) -> Coordinate {
        let (lat, lon) = planarPosition(along: line, fraction: fraction)
        return Point7(rounding: lat, lon)?.coordinate ?? Coordinate(lat: lat / 1e7, lon: lon / 1e7)
    }

    /// The part of `line` from `start` to `end` (fractions of its length in plain degrees), its cut ends
    /// rounded to 1e-7°: PostGIS's `ST_LineSubstring` followed by `ST_ReducePrecision`.
    package static func planarSection(of line: [Point7], from start: Double, to end: Double) -> [Point7] {
        guard let first = line.first else { return [] }
        let lengths = zip(line, line.dropFirst()).map { a, b in
            hypot(Double(b.lon) - Double(a.lon), Double(b.lat) - Double(a.lat))
        }
        let total = lengths.reduce(0, +)
        func cut(_ fraction: Double) -> Point7 {
            let (lat, lon) = planarPosition(along: line, fraction: fraction)
            return Point7(rounding: lat, lon) ?? first
        }
        var section = [cut(start)]
        var travelled = 0.0
        for (index, length) in lengths.enumerated() {
            travelled += length
            if travelled > start * total, travelled < end * total { section.append(line[index + 1]) }
        }
        section.append(cut(end))
        return section
    }

    /// The length of `line` in plain degrees (PostGIS's `ST_Length` on EPSG:4326 geometry), in 1e-7 degrees.
    package static func planarLength(_ line: [Point7]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { sum, pair in
            sum + hypot(Double(pair.1.lon) - Double(pair.0.lon), Double(pair.1.lat) - Double(pair.0.lat))
        }
    }

    /// The distance from `point` (lon, lat in degrees) to the segment a–b in plain degrees (PostGIS's
    /// `ST_Distance` on EPSG:4326 geometry).
    package static func planarDistance(from point: (x: Double, y: Double), toSegment a: Point7, _ b: Point7) -> Double {
        let (ax, ay) = (Double(a.lon) / 1e7, Double(a.lat) / 1e7)
        let (dx, dy) = (Double(b.lon) / 1e7 - ax, Double(b.lat) / 1e7 - ay)
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, ((point.x - ax) * dx + (point.y - ay) * dy) / length2)) : 0
        let (ex, ey) = (ax + t * dx - point.x, ay + t * dy - point.y)
        return (ex * ex + ey * ey).squareRoot()
    }

    /// `planarPoint`'s position in 1e-7 degrees.
    private static func planarPosition(along line: [Point7], fraction: Double) -> (lat: Double, lon: Double) {
        guard let first = line.first else { return (0, 0) }
        var remaining = planarLength(line) * min(max(fraction, 0), 1)
        for (a, b) in zip(line, line.dropFirst()) {
            let (dx, dy) = (Double(b.lon) - Double(a.lon), Double(b.lat) - Double(a.lat))
            let length = hypot(dx, dy)
            if remaining <= length, length > 0 {
                return (Double(a.lat) + dy * remaining / length, Double(a.lon) + dx * remaining / length)
            }
            remaining -= length
        }
        let last = line.last ?? first
        return (Double(last.lat), Double(last.lon))
    }

    /// The first point where two sets of lines cross or touch (within about a metre), if any.
    package static func crossingPoint(_ a: [[Point7]], _ b: [[Point7]]) -> Point7? {
        for lineA in a where lineA.count > 1 {
            for lineB in b where lineB.count > 1 {
                for i in 1..<lineA.count {
                    for j in 1..<lineB.count {
                        if let p = segmentIntersection(lineA[i - 1], lineA[i], lineB[j - 1], lineB[j]) { return p }
                    }
                }
            }
        }
        return nil
    }

    /// Where segment p1–p2 meets segment p3–p4 (within about a metre), if they do.
    package static func segmentIntersection(_ p1: Point7, _ p2: Point7, _ p3: Point7, _ p4: Point7) -> Point7? {
        let x1 = Double(p1.lon), y1 = Double(p1.lat), x2 = Double(p2.lon), y2 = Double(p2.lat)
        let x3 = Double(p3.lon), y3 = Double(p3.lat), x4 = Double(p4.lon), y4 = Double(p4.lat)
        let d = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
        let tolerance = 100.0   // 1e-5 degree, about a metre
        if abs(d) < 1e-9 {
            // Parallel: they touch only at shared endpoints.
            for (p, q) in [(p1, p3), (p1, p4), (p2, p3), (p2, p4)]
            where abs(PolygonMath.offset(p.lat, q.lat)) + abs(PolygonMath.offset(p.lon, q.lon)) < tolerance {
                return p
            }
            return nil
        }
        let t = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d
        let u = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d
        let lengthA = max(1, hypot(x2 - x1, y2 - y1)), lengthB = max(1, hypot(x4 - x3, y4 - y3))
        let slackA = tolerance / lengthA, slackB = tolerance / lengthB
        guard t >= -slackA, t <= 1 + slackA, u >= -slackB, u <= 1 + slackB else { return nil }
        return Point7(rounding: y1 + t * (y2 - y1), x1 + t * (x2 - x1))
    }
}

extension Geometry {
    /// Metres from a point: to the nearest segment of a line, 0 inside a polygon, else to its edge.
    package func distance(from point: Coordinate) -> Double {
        switch self {
        case .lineStrings(let lines):
            return lines.map { LineMath.distance(from: point, to: $0).distance }.min() ?? .infinity
        case .polygons(let polygons):
            let p7 = Point7(point)
            if polygons.contains(where: { PolygonMath.polygonContains($0, lat: p7.lat, lon: p7.lon) }) { return 0 }
            return polygons.flatMap { $0 }.map { ring in LineMath.distance(from: point, to: ring + ring.prefix(1)).distance }.min()
                ?? .infinity
        }
    }
}

extension BoundingBox {
    /// The boxes (one, or two across the antimeridian) holding every point within `radius` metres of
    /// `center` on the sphere; all longitudes when the circle reaches a pole.
    ///
    /// ```swift
    /// let boxes = BoundingBox.covering(radius: 500, around: Coordinate(lat: 60.17, lon: 24.94))
    /// ```
    package static func covering(radius: Double, around center: Coordinate) -> [BoundingBox] {
        let dLat = radius / Coordinate.earthRadius * 180 / .pi
        let minLat = center.lat - dLat, maxLat = center.lat + dLat
        if minLat <= -90 || maxLat >= 90 {
            return [BoundingBox(minLat: max(minLat, -90), minLon: -180, maxLat: min(maxLat, 90), maxLon: 180)]
        }
        // Widest longitude span of the circle (at its latitude of tangency).
        let ratio = sin(radius / Coordinate.earthRadius) / cos(center.lat * .pi / 180)
        guard ratio < 1 else { return [BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: 180)] }
        let dLon = asin(ratio) * 180 / .pi
        let minLon = center.lon - dLon, maxLon = center.lon + dLon
        if minLon < -180 {
            return [BoundingBox(minLat: minLat, minLon: minLon + 360, maxLat: maxLat, maxLon: 180),
                    BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: maxLon)]
        }
        if maxLon > 180 {
            return [BoundingBox(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: 180),
                    BoundingBox(minLat: minLat, minLon: -180, maxLat: maxLat, maxLon: maxLon - 360)]
        }
        return [BoundingBox(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon)]
    }

    /// The box as SQL values in the order the R*Tree queries bind them: min lon, min lat, max lon, max lat.
    var sqlValues: [SQLiteValue] { [.real(minLon), .real(minLat), .real(maxLon), .real(maxLat)] }
}

extension Coordinate {
    /// A longitude brought back into -180…180 after arithmetic took it across the antimeridian.
    static func normalizedLongitude(_ lon: Double) -> Double {
        lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon)
    }
}
