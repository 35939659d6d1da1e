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
        feature += geometry.map(Self.geometry) ?? "{\"type\":\"Point\",\"coordinates\":[\(DegreesText.decimal(place.lon)),\(DegreesText.decimal(place.lat))]}"
        feature += ",\"properties\":{"
        feature += ExportField.values(place).map { key, value in
            JSONText.quoted(key) + ":" + (ExportField.numbers.contains(key) ? value : JSONText.quoted(value))
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

    /// The geometry as GeoJSON (`GeoJSONGeometry`: rings closed and wound by RFC 7946's rule).
    static func geometry(_ geometry: Geometry) -> String {
        func position(_ p: Point7) -> String {
            let c = p.coordinate
            return "[" + DegreesText.decimal(c.lon) + "," + DegreesText.decimal(c.lat) + "]"
        }
        func line(_ points: [Point7]) -> String { "[" + points.map(position).joined(separator: ",") + "]" }
        func polygon(_ rings: [[Point7]]) -> String { "[" + rings.map(line).joined(separator: ",") + "]" }
        let geoJSON = GeoJSONGeometry(geometry)
        let coordinates = switch geoJSON.coordinates {
        case .line(let points): line(points)
        case .lines(let lines): "[" + lines.map(line).joined(separator: ",") + "]"
        case .polygon(let rings): polygon(rings)
        case .polygons(let polygons): "[" + polygons.map(polygon).joined(separator: ",") + "]"
        }
        return "{\"type\":\"" + geoJSON.type + "\",\"coordinates\":" + coordinates + "}"
    }
}
