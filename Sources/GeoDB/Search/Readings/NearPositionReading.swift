// Words and a position ("sporry weiher, N 47.10791° E 9.52676°", "restaurant near 47.16712,9.51100"), read as
// Nominatim reads them: the words within 0.1° of the position (or in the box asked for), nearest first.

/// The text as words and a position: the search of the words around it.
struct NearPositionReading {
    /// The words without the position.
    let rest: String
    /// The options of the search of `rest`: near the position, in its box.
    let options: SearchOptions

    /// The reading of a text holding a position besides words; nil for any other.
    init?(text: String, options: SearchOptions) {
        guard let (rest, point) = CoordinateParser.split(text) else { return nil }
        self.rest = rest
        var around = options
        around.near = point
        around.bbox = options.bbox ?? BoundingBox(minLat: max(-90, point.lat - 0.1), minLon: max(-180, point.lon - 0.1),
                                                  maxLat: min(90, point.lat + 0.1), maxLon: min(180, point.lon + 0.1))
        self.options = around
    }
}
