// Well-Known Binary (OGC Simple Features, 2D, little-endian) of places: the one encoder of what `geodb export
// --format gpkg` puts inside its GeoPackage blobs and what `geodb import --wkb` stores in `place_wkb`.
// Rings are closed and wound as GeoJSONGeometry has them (outer counterclockwise, holes clockwise), so a
// place's WKB, its WKT (`polygon_text`) and its GeoJSON describe the same rings in the same order.

/// Writes WKB geometries into `bytes`.
///
/// ```swift
/// let blob = WKBWriter.place(geometry, point: place.coordinate)   // Point, LineString, Polygon or Multi…
/// ```
package struct WKBWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A place as one geometry column holds it: its line or polygon when it has one, in the type GeoJSON
    /// gives it (LineString or MultiLineString, Polygon or MultiPolygon), else its point.
    package static func place(_ geometry: Geometry?, point: Coordinate) -> [UInt8] {
        var writer = WKBWriter()
        guard let geometry else {
            writer.point(point.lon, point.lat)
            return writer.bytes
        }
        switch GeoJSONGeometry(geometry).coordinates {
        case .line(let points): writer.lineString(points)
        case .lines(let lines): writer.start(type: 5, count: lines.count); lines.forEach { writer.lineString($0) }
        case .polygon(let rings): writer.polygon(rings)
        case .polygons(let polygons): writer.start(type: 6, count: polygons.count); polygons.forEach { writer.polygon($0) }
        }
        return writer.bytes
    }

    package mutating func point(_ x: Double, _ y: Double) {
        start(type: 1)
        double(x, into: &bytes)
        double(y, into: &bytes)
    }

    /// The geometry as a MultiLineString or MultiPolygon even of one part: the form of a layer of one type.
    package mutating func multi(_ geometry: Geometry) {
        switch geometry {
        case .lineStrings(let lines):
            start(type: 5, count: lines.count)
            for line in lines { lineString(line) }
        case .polygons(let polygons):
            start(type: 6, count: polygons.count)
            for rings in polygons { polygon(GeoJSONGeometry.wound(rings)) }
        }
    }

    private mutating func lineString(_ points: [Point7]) {
        start(type: 2)
        positions(points)
    }

    /// `rings` already closed (the first point repeated) and wound.
    private mutating func polygon(_ rings: [[Point7]]) {
        start(type: 3, count: rings.count)
        for ring in rings { positions(ring) }
    }

    private mutating func positions(_ points: [Point7]) {
        int32(Int32(points.count), into: &bytes)
        for p in points {
            let c = p.coordinate
            double(c.lon, into: &bytes)
            double(c.lat, into: &bytes)
        }
    }

    private mutating func start(type: Int32, count: Int? = nil) {
        bytes.append(1)   // little-endian
        int32(type, into: &bytes)
        if let count { int32(Int32(count), into: &bytes) }
    }

    package func int32(_ value: Int32, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    package func double(_ value: Double, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }
}
