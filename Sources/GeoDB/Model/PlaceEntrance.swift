// A door of a place: an OSM node tagged `entrance=*` on the way the place was made of (`place_entrance`).

/// An entrance of a place (a building's doors, as Nominatim's `entrances=1` lists them).
///
/// ```swift
/// let doors = try db.withSession { try $0.entrances(ofPlaces: [building.id]) }[building.id] ?? []
/// print(doors.map { "\($0.type) at \($0.coordinate.lat), \($0.coordinate.lon)" })
/// ```
public struct PlaceEntrance: Codable, Sendable, Equatable {
    /// The entrance node's OSM id.
    public var osmID: Int64
    /// The value of its `entrance` tag (else `routing:entrance`): `yes`, `main`, `service`, `emergency`, …
    public var type: String
    public var coordinate: Coordinate
    /// The node's other tags (`addr:*`, `wheelchair`, `door`, …), notes and sources left out.
    public var tags: [String: String]

    public init(osmID: Int64, type: String, coordinate: Coordinate, tags: [String: String] = [:]) {
        self.osmID = osmID
        self.type = type
        self.coordinate = coordinate
        self.tags = tags
    }
}
