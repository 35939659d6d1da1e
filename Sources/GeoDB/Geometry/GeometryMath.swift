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
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum += Double(previous.lon) * Double(p.lat) - Double(p.lon) * Double(previous.lat)
            previous = p
        }
        return sum
    }

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

    /// A point inside the polygons: the area-weighted centroid when it lies inside, otherwise the middle of
    /// the widest inside stretch of the largest polygon on the centroid's latitude (concave shapes).
    package static func interiorPoint(_ polygons: [[[Point7]]]) -> Point7? {
        var areaSum = 0.0, xSum = 0.0, ySum = 0.0
        for rings in polygons {
            for (index, ring) in rings.enumerated() {
                let (a, cx, cy) = centroidTerms(ring)
                // Outer rings add, holes subtract, whatever their winding.
                let sign: Double = index == 0 ? 1 : -1
                areaSum += sign * abs(a)
                xSum += sign * cx * abs(a)
                ySum += sign * cy * abs(a)
            }
        }
        guard let largest = polygons.max(by: { abs(doubleSignedArea($0.first ?? [])) < abs(doubleSignedArea($1.first ?? [])) }),
              let outer = largest.first, !outer.isEmpty else { return nil }
        guard areaSum > 0 else { return outer[0] }
        let centroid = Point7(lat: Int32((ySum / areaSum).rounded()), lon: Int32((xSum / areaSum).rounded()))
        if polygons.contains(where: { polygonContains($0, lat: centroid.lat, lon: centroid.lon) }) { return centroid }
        return scanlineMiddle(largest, lat: centroid.lat) ?? outer[0]
    }

    /// (signed area, centroid x, centroid y) of one ring.
    static func centroidTerms(_ ring: [Point7]) -> (Double, Double, Double) {
        let a = doubleSignedArea(ring)
        guard a != 0 else {
            let n = Double(max(ring.count, 1))
            return (0, ring.reduce(0) { $0 + Double($1.lon) } / n, ring.reduce(0) { $0 + Double($1.lat) } / n)
        }
        var cx = 0.0, cy = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            let cross = Double(previous.lon) * Double(p.lat) - Double(p.lon) * Double(previous.lat)
            cx += (Double(previous.lon) + Double(p.lon)) * cross
            cy += (Double(previous.lat) + Double(p.lat)) * cross
            previous = p
        }
        return (a / 2, cx / (3 * a), cy / (3 * a))
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
                    crossings.append(Double(ring[i].lon) + (y - yi) / (yj - yi) * Double(ring[j].lon - ring[i].lon))
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
        return Point7(lat: lat, lon: Int32(best.middle.rounded()))
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
                return Point7(lat: a.lat + Int32((Double(b.lat - a.lat) * t).rounded()),
                              lon: a.lon + Int32((Double(b.lon - a.lon) * t).rounded()))
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
            let dx = Double(line[i].lon - line[i - 1].lon) * scale, dy = Double(line[i].lat - line[i - 1].lat)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// Metres from a point to a line, and where along the line (0…1) the nearest point is; local
    /// equirectangular projection, exact to well under a metre at street scale.
    package static func distance(from point: Coordinate, to line: [Point7]) -> (distance: Double, fraction: Double) {
        guard let first = line.first else { return (.infinity, 0) }
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let scale = cos(point.lat * .pi / 180)
        func xy(_ p: Point7) -> (Double, Double) {
            var dLon = Double(p.lon) / 1e7 - point.lon
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return (dLon * scale * metresPerDegree, (Double(p.lat) / 1e7 - point.lat) * metresPerDegree)
        }
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
            for (p, q) in [(p1, p3), (p1, p4), (p2, p3), (p2, p4)] where abs(Double(p.lat - q.lat)) + abs(Double(p.lon - q.lon)) < tolerance {
                return p
            }
            return nil
        }
        let t = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d
        let u = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d
        let lengthA = max(1, hypot(x2 - x1, y2 - y1)), lengthB = max(1, hypot(x4 - x3, y4 - y3))
        let slackA = tolerance / lengthA, slackB = tolerance / lengthB
        guard t >= -slackA, t <= 1 + slackA, u >= -slackB, u <= 1 + slackB else { return nil }
        return Point7(lat: Int32((y1 + t * (y2 - y1)).rounded()), lon: Int32((x1 + t * (x2 - x1)).rounded()))
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
