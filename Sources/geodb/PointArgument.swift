// Position and list arguments shared by the commands: "LAT LON" positionals (negative values included),
// "lat,lon" and "min lon,min lat,max lon,max lat" options, comma-separated lists.
import ArgumentParser
import Foundation
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
        let v = try CommaList.numbers(text, count: 4, option: option)
        return BoundingBox(minLat: v[1], minLon: v[0], maxLat: v[3], maxLon: v[2])
    }
}

/// Reads a point given as one option value, "lat,lon" (`--near 60.168,24.941`).
enum NearArgument {
    static func parse(_ text: String, option: String = "--near") throws -> Coordinate {
        let v = try CommaList.numbers(text, count: 2, option: option)
        return Coordinate(lat: v[0], lon: v[1])
    }
}

/// Comma-separated option values.
enum CommaList {
    /// "cafe, pharmacy" → ["cafe", "pharmacy"]; empty items dropped.
    static func items(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Exactly `count` numbers, or a message naming the option.
    static func numbers(_ text: String, count: Int, option: String) throws -> [Double] {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == count else {
            throw ValidationError("\(option) needs \(count) comma-separated numbers, got '\(text)'")
        }
        return values
    }
}
