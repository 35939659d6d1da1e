// A place's geometry as RFC 7946 GeoJSON has it, for every writer of GeoJSON (`geodb export`, the server's
// `polygon_geojson` and /v1 geometry): they wound rings two ways, so the same polygon came out clockwise
// from one and counterclockwise from the other.

/// The GeoJSON type and coordinates of a geometry: polygon rings closed (the first point repeated),
/// turned by the right-hand rule (outer rings counterclockwise, holes clockwise) and started at their
/// least point; the database keeps rings as the source drew them. Writers only write the numbers.
package struct GeoJSONGeometry {
    package enum Coordinates {
        case line([Point7])
        case lines([[Point7]])
        case polygon([[Point7]])
        case polygons([[[Point7]]])
    }

    /// "LineString", "MultiLineString", "Polygon" or "MultiPolygon".
    package let type: String
    package let coordinates: Coordinates

    package init(_ geometry: Geometry) {
        switch geometry {
        case .lineStrings(let lines) where lines.count == 1: (type, coordinates) = ("LineString", .line(lines[0]))
        case .lineStrings(let lines): (type, coordinates) = ("MultiLineString", .lines(lines))
        case .polygons(let polygons) where polygons.count == 1: (type, coordinates) = ("Polygon", .polygon(Self.wound(polygons[0])))
        case .polygons(let polygons): (type, coordinates) = ("MultiPolygon", .polygons(polygons.map(Self.wound)))
        }
    }

    /// A polygon's rings, each closed, turned as RFC 7946 says (section 3.1.6) and started where
    /// `PolygonMath.outputRing` starts it.
    static func wound(_ rings: [[Point7]]) -> [[Point7]] {
        rings.enumerated().map { index, ring in
            let turned = PolygonMath.outputRing(ring, outer: index == 0)
            return turned + turned.prefix(1)
        }
    }
}

/// Degrees as decimal text: at most 7 decimals (the database's precision, 1 cm), trailing zeros dropped,
/// no exponent, no "-0". What exports and Nominatim's string coordinates write.
package enum DegreesText {
    package static func decimal(_ value: Double) -> String {
        let units = Int64((value * 1e7).rounded())
        let whole = String(units.magnitude / 10_000_000)
        var fraction = String(units.magnitude % 10_000_000)
        fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (units < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// A place's geometry in the text formats Nominatim offers beside GeoJSON (`polygon_text`, `polygon_svg`,
/// `polygon_kml`), the point when it has none: rings closed and wound as GeoJSON has them, degrees as
/// `DegreesText` writes them.
package enum GeometryText {
    /// Well-known text: `POINT(9.52 47.14)`, `LINESTRING(9.5 47.1,9.6 47.2)`, `MULTIPOLYGON(((…)),((…)))`.
    package static func wkt(_ geometry: Geometry?, point: Coordinate) -> String {
        func position(_ p: Point7) -> String { degrees(p.lon) + " " + degrees(p.lat) }
        func list(_ points: [Point7]) -> String { "(" + points.map(position).joined(separator: ",") + ")" }
        func rings(_ rings: [[Point7]]) -> String { "(" + rings.map(list).joined(separator: ",") + ")" }
        guard let geometry else { return "POINT(\(DegreesText.decimal(point.lon)) \(DegreesText.decimal(point.lat)))" }
        let geoJSON = GeoJSONGeometry(geometry)
        return switch geoJSON.coordinates {
        case .line(let points): "LINESTRING" + list(points)
        case .lines(let lines): "MULTILINESTRING(" + lines.map(list).joined(separator: ",") + ")"
        case .polygon(let polygon): "POLYGON" + rings(polygon)
        case .polygons(let polygons): "MULTIPOLYGON(" + polygons.map(rings).joined(separator: ",") + ")"
        }
    }

    /// An SVG path with y pointing down (latitude negated): `M 9.5 -47.1 L 9.6 -47.2`, a ring ended by `Z`
    /// instead of its repeated first point; a point is `cx="9.5" cy="-47.1"`.
    package static func svg(_ geometry: Geometry?, point: Coordinate) -> String {
        func position(_ p: Point7) -> String { degrees(p.lon) + " " + degrees(-p.lat) }
        func path(_ points: [Point7]) -> String {
            "M " + position(points[0]) + (points.count > 1 ? " L " + points.dropFirst().map(position).joined(separator: " ") : "")
        }
        func ring(_ points: [Point7]) -> String { path(Array(points.dropLast())) + " Z" }
        guard let geometry else { return "cx=\"\(DegreesText.decimal(point.lon))\" cy=\"\(DegreesText.decimal(-point.lat))\"" }
        return switch GeoJSONGeometry(geometry).coordinates {
        case .line(let points): path(points)
        case .lines(let lines): lines.map(path).joined(separator: " ")
        case .polygon(let polygon): polygon.map(ring).joined(separator: " ")
        case .polygons(let polygons): polygons.flatMap { $0.map(ring) }.joined(separator: " ")
        }
    }

    /// KML geometry elements: `<Point>`, `<LineString>`, `<Polygon>` (outer and inner boundaries), several in
    /// a `<MultiGeometry>`.
    package static func kml(_ geometry: Geometry?, point: Coordinate) -> String {
        func coordinates(_ points: [Point7]) -> String {
            "<coordinates>" + points.map { degrees($0.lon) + "," + degrees($0.lat) }.joined(separator: " ") + "</coordinates>"
        }
        func line(_ points: [Point7]) -> String { "<LineString>" + coordinates(points) + "</LineString>" }
        func polygon(_ rings: [[Point7]]) -> String {
            let outer = "<outerBoundaryIs><LinearRing>" + coordinates(rings[0]) + "</LinearRing></outerBoundaryIs>"
            let inner = rings.dropFirst().map { "<innerBoundaryIs><LinearRing>" + coordinates($0) + "</LinearRing></innerBoundaryIs>" }
            return "<Polygon>" + outer + inner.joined() + "</Polygon>"
        }
        func multi(_ parts: [String]) -> String { "<MultiGeometry>" + parts.joined() + "</MultiGeometry>" }
        guard let geometry else {
            return "<Point><coordinates>\(DegreesText.decimal(point.lon)),\(DegreesText.decimal(point.lat))</coordinates></Point>"
        }
        return switch GeoJSONGeometry(geometry).coordinates {
        case .line(let points): line(points)
        case .lines(let lines): multi(lines.map(line))
        case .polygon(let rings): polygon(rings)
        case .polygons(let polygons): multi(polygons.map(polygon))
        }
    }

    private static func degrees(_ units: Int32) -> String { DegreesText.decimal(Double(units) / 1e7) }
}
