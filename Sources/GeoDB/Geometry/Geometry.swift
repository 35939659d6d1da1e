// Line and polygon geometry of places, and its compact blob encoding (docs/SCHEMA.md, "Geometry blobs").

/// The geometry stored in `place_geometry.geometry`.
///
/// ```swift
/// if case .lineStrings(let lines)? = geometry { print(lines.count, "lines") }
/// ```
public enum Geometry: Equatable, Sendable {
    /// One or more lines (the ways of a street, an interpolation line).
    case lineStrings([[Point7]])
    /// One or more polygons, each its outer ring followed by its holes.
    /// Rings are closed implicitly: the last point is not the first point repeated.
    case polygons([[[Point7]]])

    /// Every point, in order.
    public var points: [Point7] {
        switch self {
        case .lineStrings(let lines): return lines.flatMap { $0 }
        case .polygons(let polygons): return polygons.flatMap { $0.flatMap { $0 } }
        }
    }

    /// The geometry with the points closer than `tolerance` degrees to the point kept before them left
    /// out (each line's ends kept), for drawing at a scale where they would fall on one pixel. Rings left
    /// with fewer than three points are dropped, and a polygon whose outer ring is; nil when nothing is left.
    public func simplified(tolerance: Double) -> Geometry? {
        let step = Int64(tolerance * 1e7)
        func thinned(_ run: [Point7]) -> [Point7] {
            guard step > 0, run.count > 2, var last = run.first else { return run }
            var kept = [last]
            for point in run.dropFirst().dropLast()
            where max(abs(Int64(point.lat) - Int64(last.lat)), abs(Int64(point.lon) - Int64(last.lon))) >= step {
                kept.append(point)
                last = point
            }
            kept.append(run[run.count - 1])
            return kept
        }
        switch self {
        case .lineStrings(let lines):
            return .lineStrings(lines.map(thinned))
        case .polygons(let polygons):
            let kept = polygons.compactMap { rings -> [[Point7]]? in
                let thinnedRings = rings.map(thinned)
                guard let outer = thinnedRings.first, outer.count >= 3 else { return nil }
                return [outer] + thinnedRings.dropFirst().filter { $0.count >= 3 }
            }
            return kept.isEmpty ? nil : .polygons(kept)
        }
    }

    /// The geometry simplified by Douglas–Peucker as PostGIS's `ST_SimplifyPreserveTopology` does for
    /// Nominatim's `polygon_threshold`: of each line or ring, the points farther than `tolerance` degrees
    /// (planar, longitude unscaled, as PostGIS measures EPSG:4326) from the segment between the points kept
    /// around them. A line keeps its ends; a ring (started and wound by `PolygonMath.outputRing`, whose first
    /// point it keeps) keeps at least three points, so it stays a closed ring of four with its first repeated.
    /// Unlike PostGIS, rings are not checked against each other: a hole simplified far enough may cross
    /// its outer ring.
    ///
    /// ```swift
    /// let outline = geometry.douglasPeucker(tolerance: 0.0001)   // about 10 m
    /// ```
    public func douglasPeucker(tolerance: Double) -> Geometry {
        let limit = tolerance * 1e7
        guard limit > 0 else { return self }
        switch self {
        case .lineStrings(let lines):
            return .lineStrings(lines.map { Self.douglasPeucker($0, limit: limit) })
        case .polygons(let polygons):
            return .polygons(polygons.map { rings in
                rings.enumerated().map { index, ring in
                    let ring = PolygonMath.outputRing(ring, outer: index == 0)
                    guard ring.count > 3 else { return ring }
                    // The ring runs from its first point back to it: the first point is both ends.
                    let kept = Array(Self.douglasPeucker(ring + ring.prefix(1), limit: limit).dropLast())
                    guard kept.count < 3 else { return kept }
                    // Collapsed: the point farthest from the first, and the one farthest from the line between
                    // them, keep it a triangle (in ring order, so wound as before); a ring with no area stays whole.
                    let first = ring[0]
                    guard let far = ring.max(by: { Self.distance($0, first, first) < Self.distance($1, first, first) }),
                          let third = ring.max(by: { Self.distance($0, first, far) < Self.distance($1, first, far) }),
                          Self.distance(third, first, far) > 0 else { return ring }
                    return ring.filter { $0 == first || $0 == far || $0 == third }.prefix(3).map { $0 }
                }
            })
        }
    }

    /// The points of `line` Douglas–Peucker keeps within `limit` (1e-7 degree), its ends always; iterative, so a
    /// ring of a million points cannot overflow the stack.
    private static func douglasPeucker(_ line: [Point7], limit: Double) -> [Point7] {
        guard line.count > 2 else { return line }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var sections = [(0, line.count - 1)]
        while let (from, to) = sections.popLast() {
            guard to > from + 1 else { continue }
            var farthest = (index: from, distance: -1.0)
            for index in (from + 1)..<to {
                let d = distance(line[index], line[from], line[to])
                if d > farthest.distance { farthest = (index, d) }
            }
            guard farthest.distance > limit else { continue }
            keep[farthest.index] = true
            sections.append((farthest.index, to))
            sections.append((from, farthest.index))
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }

    /// Planar distance in 1e-7 degree from `p` to the segment `a`–`b` (to `a` when they are one point).
    private static func distance(_ p: Point7, _ a: Point7, _ b: Point7) -> Double {
        let px = PolygonMath.offset(p.lon, a.lon), py = PolygonMath.offset(p.lat, a.lat)
        let dx = PolygonMath.offset(b.lon, a.lon), dy = PolygonMath.offset(b.lat, a.lat)
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, (px * dx + py * dy) / length2)) : 0
        let ex = px - t * dx, ey = py - t * dy
        return (ex * ex + ey * ey).squareRoot()
    }

    /// The smallest box holding every point, or nil for an empty geometry.
    public var boundingBox: BoundingBox? {
        var box: BoundingBox?
        for point in points {
            let c = point.coordinate
            if box == nil { box = BoundingBox(c) } else { box!.extend(c) }
        }
        return box
    }

    /// Type byte of the blob encoding.
    enum TypeCode: UInt8 {
        case lineStrings = 1
        case polygons = 2
    }

    /// The blob encoding: a type byte, then part counts as unsigned LEB128 varints, each count followed
    /// by its points as zigzag varint deltas (lon, then lat, in 1e-7 degree) from the previous point.
    ///
    /// ```swift
    /// let blob = Geometry.lineStrings([[Point7(lat: 200_000_000, lon: 100_000_000), Point7(lat: 180_000_000, lon: 110_000_000)]]).encoded()
    /// ```
    public func encoded() -> [UInt8] {
        var writer = GeometryWriter()
        switch self {
        case .lineStrings(let lines):
            writer.bytes.append(TypeCode.lineStrings.rawValue)
            writer.count(lines.count)
            for line in lines { writer.run(line) }
        case .polygons(let polygons):
            writer.bytes.append(TypeCode.polygons.rawValue)
            writer.count(polygons.count)
            for rings in polygons {
                writer.count(rings.count)
                for ring in rings { writer.run(ring) }
            }
        }
        return writer.bytes
    }

    /// Decodes a blob written by `encoded()`; nil when the bytes are not a valid geometry (or a point is
    /// outside ±90/±180).
    ///
    /// ```swift
    /// let geometry = Geometry(encoded: [0x01, 0x01, 0x02, 0x14, 0x28, 0x02, 0x03])   // one line, two points
    /// ```
    public init?(encoded bytes: [UInt8]) {
        var reader = GeometryReader(bytes: bytes)
        guard let type = reader.byte().flatMap(TypeCode.init(rawValue:)) else { return nil }
        switch type {
        case .lineStrings:
            guard let count = reader.count() else { return nil }
            var lines: [[Point7]] = []
            for _ in 0..<count {
                guard let line = reader.run() else { return nil }
                lines.append(line)
            }
            self = .lineStrings(lines)
        case .polygons:
            guard let count = reader.count() else { return nil }
            var polygons: [[[Point7]]] = []
            for _ in 0..<count {
                guard let ringCount = reader.count() else { return nil }
                var rings: [[Point7]] = []
                for _ in 0..<ringCount {
                    guard let ring = reader.run() else { return nil }
                    rings.append(ring)
                }
                polygons.append(rings)
            }
            self = .polygons(polygons)
        }
        guard reader.isAtEnd else { return nil }
    }
}

private struct GeometryWriter {
    var bytes: [UInt8] = []
    var previous = Point7(lat: 0, lon: 0)

    mutating func count(_ n: Int) { varint(UInt64(n)) }

    mutating func run(_ points: [Point7]) {
        count(points.count)
        for p in points {
            zigzag(Int64(p.lon) - Int64(previous.lon))
            zigzag(Int64(p.lat) - Int64(previous.lat))
            previous = p
        }
    }

    mutating func zigzag(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}

private struct GeometryReader {
    let bytes: [UInt8]
    var index = 0
    var previous = Point7(lat: 0, lon: 0)

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let b = byte() {
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// A part count, refused when it could not fit in the remaining bytes (corrupt blob).
    mutating func count() -> Int? {
        guard let n = varint(), n <= UInt64(bytes.count - index) else { return nil }
        return Int(n)
    }

    mutating func delta() -> Int64? {
        guard let v = varint() else { return nil }
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    mutating func run() -> [Point7]? {
        guard let n = count() else { return nil }
        var points: [Point7] = []
        points.reserveCapacity(n)
        for _ in 0..<n {
            guard let dLon = delta(), let dLat = delta() else { return nil }
            let (lon, lonOverflow) = Int64(previous.lon).addingReportingOverflow(dLon)
            let (lat, latOverflow) = Int64(previous.lat).addingReportingOverflow(dLat)
            // Within ±180/±90: a damaged blob's point must not reach the geometry's arithmetic.
            guard !lonOverflow, !latOverflow, abs(lon) <= 1_800_000_000, abs(lat) <= 900_000_000 else { return nil }
            previous = Point7(lat: Int32(lat), lon: Int32(lon))
            points.append(previous)
        }
        return points
    }
}
