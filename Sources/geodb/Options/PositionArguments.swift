// Position and list arguments shared by the commands: "LAT LON" positionals (negative values included),
// "lat,lon" and "min lon,min lat,max lon,max lat" options, comma-separated lists, place kinds.
import ArgumentParser
import Foundation
import GeoDB

/// Reads a point given as two positional arguments. The commands declare them with
/// `@Argument(parsing: .allUnrecognized)`, so that "-44.0" reaches here as a number, not as an option.
enum PointArgument {
    /// The point, or a usage error: missing, not two numbers, or out of range (the library's wording).
    static func parse(_ position: [String], command: String) throws -> Coordinate {
        guard position.count == 2 else {
            throw ValidationError(position.isEmpty ? "missing the point: geodb \(command) DB LAT LON"
                                  : "expected LAT LON, got \(position.joined(separator: " "))")
        }
        guard let lat = Double(position[0]), let lon = Double(position[1]) else {
            throw ValidationError("'\(position[0]) \(position[1])' is not a latitude and longitude in degrees")
        }
        let point = Coordinate(lat: lat, lon: lon)
        do {
            try QueryValidation.coordinate(point, option: "point")
        } catch {
            throw CLIMessages.usageError(error)
        }
        return point
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

/// Place kinds given as option values ("street", "city,town").
enum KindList {
    /// The kinds of comma-separated `values`, or a usage error naming the kinds there are.
    static func parse(_ values: [String], option: String = "--kind") throws -> [PlaceKind] {
        try values.flatMap(CommaList.items).map { text in
            guard let kind = PlaceKind(rawValue: text.lowercased()), kind != .coordinate else {
                let known = PlaceKind.allCases.filter { $0 != .coordinate }.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("\(option): unknown kind '\(text)' (known: \(known))")
            }
            return kind
        }
    }
}
