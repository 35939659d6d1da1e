// Places as RFC 7946 GeoJSON features: the point, or the line or polygon geometry when asked for, with
// the place's fields and a `tags` object as properties.
import GeoDB

struct GeoJSONWriter: ExportWriter {
    private let out: ByteOutput
    private let newlineDelimited: Bool
    private var first = true

    init(_ out: ByteOutput, newlineDelimited: Bool) {
        self.out = out
        self.newlineDelimited = newlineDelimited
    }

    mutating func begin(withGeometry: Bool) throws {
        if !newlineDelimited { try out.write("{\"type\":\"FeatureCollection\",\"features\":[\n") }
    }

    mutating func write(_ place: PlaceResult, geometry: Geometry?) throws {
        var feature = newlineDelimited || first ? "" : ",\n"
        first = false
        feature += "{\"type\":\"Feature\",\"id\":\(place.id),\"geometry\":"
        feature += geometry.map(Self.geometry) ?? "{\"type\":\"Point\",\"coordinates\":[\(DecimalText.degrees(place.lon)),\(DecimalText.degrees(place.lat))]}"
        feature += ",\"properties\":{"
        feature += ExportField.values(place).map { key, value in
            JSONText.quoted(key) + ":" + (key == "id" || key == "population" ? value : JSONText.quoted(value))
        }.joined(separator: ",")
        if !place.tags.isEmpty {
            feature += ",\"tags\":" + JSONText.object(place.tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        }
        feature += "}}"
        if newlineDelimited { feature += "\n" }
        try out.write(feature)
    }

    mutating func finish() throws {
        if !newlineDelimited { try out.write("\n]}\n") }
        try out.flush()
    }

    /// A LineString/MultiLineString or Polygon/MultiPolygon; rings closed by repeating their first point
    /// and turned by RFC 7946's right-hand rule (outer rings counterclockwise, holes clockwise): the
    /// database keeps rings as the source drew them.
    static func geometry(_ geometry: Geometry) -> String {
        func position(_ p: Point7) -> String {
            let c = p.coordinate
            return "[" + DecimalText.degrees(c.lon) + "," + DecimalText.degrees(c.lat) + "]"
        }
        func line(_ points: [Point7]) -> String { "[" + points.map(position).joined(separator: ",") + "]" }
        func ring(_ points: [Point7], outer: Bool) -> String {
            let counterclockwise = PolygonMath.doubleSignedArea(points) > 0
            let turned = counterclockwise == outer ? points : points.reversed()
            return line(turned + turned.prefix(1))
        }
        func polygon(_ rings: [[Point7]]) -> String {
            "[" + rings.enumerated().map { ring($1, outer: $0 == 0) }.joined(separator: ",") + "]"
        }
        switch geometry {
        case .lineStrings(let lines) where lines.count == 1:
            return "{\"type\":\"LineString\",\"coordinates\":" + line(lines[0]) + "}"
        case .lineStrings(let lines):
            return "{\"type\":\"MultiLineString\",\"coordinates\":[" + lines.map(line).joined(separator: ",") + "]}"
        case .polygons(let polygons) where polygons.count == 1:
            return "{\"type\":\"Polygon\",\"coordinates\":" + polygon(polygons[0]) + "}"
        case .polygons(let polygons):
            return "{\"type\":\"MultiPolygon\",\"coordinates\":[" + polygons.map(polygon).joined(separator: ",") + "]}"
        }
    }
}
