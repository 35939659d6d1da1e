// A place's geometry as RFC 7946 GeoJSON has it, for every writer of GeoJSON (`geodb export`, the server's
// `polygon_geojson` and /v1 geometry): they wound rings two ways, so the same polygon came out clockwise
// from one and counterclockwise from the other.

/// The GeoJSON type and coordinates of a geometry: polygon rings closed (the first point repeated) and
/// turned by the right-hand rule (outer rings counterclockwise, holes clockwise); the database keeps
/// rings as the source drew them. Writers only write the numbers.
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

    /// A polygon's rings, each closed and turned as RFC 7946 says (section 3.1.6).
    static func wound(_ rings: [[Point7]]) -> [[Point7]] {
        rings.enumerated().map { index, ring in
            let counterclockwise = PolygonMath.doubleSignedArea(ring) > 0
            let turned = counterclockwise == (index == 0) ? ring : ring.reversed()
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
