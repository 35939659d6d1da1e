// Search results as GeoJSON (`geodb search --geojson`): a FeatureCollection of points, each with the place's
// JSON (`ResultJSON.place`, what `--json` and /v1 write) as its properties.
import GeoDB

/// Results as a GeoJSON FeatureCollection of points.
enum GeoJSONOutput {
    static func featureCollection(_ results: [PlaceResult]) -> String {
        JSON.object([("type", .string("FeatureCollection")), ("features", .array(results.map { place in
            .object([("type", .string("Feature")), ("geometry", JSON.geometry(nil, point: place.coordinate)),
                     ("properties", ResultJSON.place(place))])
        }))]).indented()
    }
}
