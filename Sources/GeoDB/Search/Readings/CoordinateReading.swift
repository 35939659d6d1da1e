// A text that is a coordinate ("60.1699, 24.9384", degrees with N/E): that point, not places named so.

/// The text as a coordinate: the point, with what is nearest it.
struct CoordinateReading {
    let context: ReadingContext

    /// A query that is a coordinate: that point, with the nearest address or POI within 100 m when there is one.
    func places(at point: Coordinate, options: SearchOptions) throws -> [PlaceResult] {
        var result = PlaceResult(id: 0, sourceRef: nil, kind: .coordinate, category: nil, categoryID: nil, name: nil,
                                 displayStyle: .coordinate(near: nil), lat: point.lat, lon: point.lon,
                                 distanceM: options.near.map { $0.distance(to: point) }, address: Address(), tags: [:],
                                 score: 100, match: .coordinate)
        let nearbyPOI = try context.nearby.places(near: point, radius: 100, filter: .anyNamedPOI, name: nil, limit: 1, after: nil).places
        let buildings = try context.nearby.places(near: point, radius: 100, filter: .rawTag("building=yes"), name: nil, limit: 1,
                                                  after: nil).places
        if let nearest = (buildings + nearbyPOI).min(by: { ($0.distanceM ?? 0) < ($1.distanceM ?? 0) }) {
            result.address = nearest.address
            result.displayStyle = .coordinate(near: DisplayStyle.NearPlace(name: nearest.name, kind: nearest.kind))
        }
        return [result]
    }
}
