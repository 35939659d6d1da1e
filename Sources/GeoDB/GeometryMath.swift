// Planar geometry on 1e-7-degree points: polygon area, containment, interior points, points along lines.
import Foundation

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
}
