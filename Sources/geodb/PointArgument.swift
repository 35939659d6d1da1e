// The "LAT LON" positional arguments of reverse, nearby and timezone, negative values included.
import ArgumentParser
import GeoDB

/// Reads a point given as two positional arguments. The commands declare them with
/// `@Argument(parsing: .allUnrecognized)`, so that "-44.0" reaches here as a number, not as an option.
enum PointArgument {
    static func parse(_ position: [String], command: String) throws -> Coordinate {
        guard position.count == 2 else {
            throw ValidationError(position.isEmpty ? "missing the point: geodb \(command) DB LAT LON"
                                  : "expected LAT LON, got \(position.joined(separator: " "))")
        }
        guard let lat = Double(position[0]), let lon = Double(position[1]) else {
            throw ValidationError("'\(position[0]) \(position[1])' is not a latitude and longitude in degrees")
        }
        return Coordinate(lat: lat, lon: lon)
    }
}

/// Reads a box given as "min lon,min lat,max lon,max lat" (the order of GeoJSON and `ogr2ogr -spat`).
enum BoxArgument {
    static func parse(_ text: String, option: String = "--bbox") throws -> BoundingBox {
        let v = try GeoDBCommand.Nearby.numbers(text, count: 4, what: option)
        return BoundingBox(minLat: v[1], minLon: v[0], maxLat: v[3], maxLon: v[2])
    }
}
