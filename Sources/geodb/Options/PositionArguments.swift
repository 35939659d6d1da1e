// Position and list arguments shared by the commands: "LAT LON" or "LAT,LON" positionals (negative values
// included, options among them reported as ArgumentParser does, swapped ones warned about), "lat,lon" and
// "min lon,min lat,max lon,max lat" options, comma-separated lists, place kinds.
import ArgumentParser
import Foundation
import GeoDB

/// Reads a point given as positional arguments: "LAT LON" (two arguments), "LAT,LON" (one, as `search` and
/// `--near` take it) or degrees, minutes and seconds ("60°10'12\"N 24°56'18\"E"). The commands declare them
/// with `@Argument(parsing: .allUnrecognized)`, so that "-44.0" reaches here as a number, not as an option.
enum PointArgument {
    /// The point, or a usage error: missing, not two numbers, or out of range (the library's wording).
    static func parse(_ position: [String], command: String) throws -> Coordinate {
        let position = position.filter { $0 != "--" }   // the usual end of options, before "-33.9 151.2"
        guard !position.isEmpty else { throw ValidationError("missing the point: geodb \(command) DB LAT LON (or LAT,LON)") }
        let text = position.joined(separator: " ")
        let numbers = text.split { $0 == "," || $0 == " " }
        let point: Coordinate
        if numbers.count == 2, let lat = Double(numbers[0]), let lon = Double(numbers[1]) {
            point = Coordinate(lat: lat, lon: lon)
        } else if let parsed = CoordinateParser.parse(text) {
            point = parsed
        } else {
            throw ValidationError(numbers.count == 2 ? "'\(text)' is not a latitude and longitude in degrees"
                                  : "expected LAT LON (or LAT,LON), got \(text)")
        }
        do {
            try QueryValidation.coordinate(point, option: "point")
        } catch {
            throw CLIMessages.usageError(error)
        }
        return point
    }

    /// Whether `argument` among the positionals is an option ArgumentParser left there ("--limt", "-x"), not a
    /// negative number ("-33.9", "-33.9,151.2", "-.5") or the end of options ("--").
    static func isOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "--", let next = argument.dropFirst().first else { return false }
        return !(next.isNumber || next == ".")
    }
}

/// ArgumentParser's own error for an option the command does not have ("Unknown option '--limt'. Did you
/// mean '--limit'?"), for the commands whose positionals take what ArgumentParser does not recognise (so
/// that negative coordinates are values): it parses the option alone against `Options`, the command's
/// options without its positionals.
struct OptionsOnly<Options: ParsableArguments>: ParsableCommand {
    @OptionGroup var options: Options

    /// Throws a usage error for the first option among `positionals`, as ArgumentParser words it.
    static func rejectOptions(in positionals: [String]) throws {
        guard let option = positionals.first(where: PointArgument.isOption) else { return }
        do {
            _ = try parse([option])
        } catch {
            throw ValidationError(message(for: error))
        }
        // An option of the command, out of place: after "--", which ends the options.
        throw ValidationError(positionals.contains("--") ? "'\(option)' comes after '--', which ends the options: give it before"
                              : "Unknown option '\(option)'")
    }
}

/// ArgumentParser reports an unknown option only after `validate()`, and a value after one (`search DB Kamppi
/// --limt 2`) has joined the positionals by then, or the option meant (`import x.pbf --outptu y`) is missing:
/// `validate()` would refuse that instead of naming the option. A command asks here first: its command line
/// parsed again without the `extra` positionals and with `adding` (what makes `validate()` pass) says
/// whether an option is unknown, in ArgumentParser's words ("Unknown option '--limt'. Did you mean '--limit'?").
enum UnknownOption {
    static func reject<Command: ParsableCommand>(_ command: Command.Type, name: String, extra: [String] = [],
                                                 adding: [String] = []) throws {
        var arguments = Array(CommandLine.arguments.drop { $0 != name }.dropFirst())
        guard arguments.contains(where: PointArgument.isOption) else { return }
        for value in extra.reversed() {
            if let index = arguments.lastIndex(of: value) { arguments.remove(at: index) }
        }
        do {
            _ = try command.parse(arguments + adding)
        } catch {
            let message = command.message(for: error)
            if message.hasPrefix("Unknown option") { throw ValidationError(message) }
        }
    }
}

/// Latitude and longitude given the wrong way round, as far as the files can tell: the point is outside
/// every file's extent and the point swapped is inside one (Helsinki given as 24.94 60.17). A warning on
/// standard error; the answer is still for the point as given.
enum SwappedCoordinates {
    static func warn(_ point: Coordinate, extents: [BoundingBox]) {
        let swapped = Coordinate(lat: point.lon, lon: point.lat)
        guard swapped.isValid, !extents.contains(where: { contains($0, point) }), extents.contains(where: { contains($0, swapped) })
        else { return }
        Terminal.status("warning: \(text(point)) (lat, lon) lies outside the database's places but \(text(swapped)) inside: latitude "
                        + "and longitude swapped? Answering for \(text(point)); for the other give \(text(swapped, separator: " "))\n")
    }

    private static func contains(_ box: BoundingBox, _ p: Coordinate) -> Bool {
        p.lat >= box.minLat && p.lat <= box.maxLat && p.lon >= box.minLon && p.lon <= box.maxLon
    }

    private static func text(_ p: Coordinate, separator: String = ", ") -> String {
        [p.lat, p.lon].map { String(describing: ($0 * 1e7).rounded() / 1e7) }.joined(separator: separator)
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

/// Categories given as an option value ("cafe,pharmacy"), checked while validating the arguments: an
/// unknown category, or categories mixed with a raw tag, is a usage error (exit status 64).
enum CategoryArgument {
    static func validate(_ text: String?) throws {
        do { _ = try text.map { try CategoryFilter.resolve(CommaList.items($0)) } } catch { throw CLIMessages.usageError(error) }
    }
}
