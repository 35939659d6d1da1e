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
