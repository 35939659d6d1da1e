// Search results as GeoJSON (`geodb search --geojson`): a FeatureCollection of points with every field.
import GeoDB

/// Results as a GeoJSON FeatureCollection of points.
enum GeoJSONOutput {
    static func featureCollection(_ results: [PlaceResult]) throws -> String {
        struct Feature: Encodable {
            let type = "Feature"
            let geometry: Point
            let properties: PlaceResult
        }
        struct Point: Encodable {
            let type = "Point"
            let coordinates: [Double]
        }
        struct Collection: Encodable {
            let type = "FeatureCollection"
            let features: [Feature]
        }
        return try Format.json(Collection(features: results.map {
            Feature(geometry: Point(coordinates: [$0.lon, $0.lat]), properties: $0)
        }))
    }
}
