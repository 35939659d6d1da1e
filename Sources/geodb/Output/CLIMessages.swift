// Library errors in the CLI's words: the library names its options in backticks (`limit`, `near`); the
// CLI prints the flag that sets each (--limit, --near).
import ArgumentParser
import GeoDB

enum CLIMessages {
    /// The flag or argument of each library option the CLI sets.
    static let flags: [String: String] = [
        "limit": "--limit", "near": "--near", "bbox": "--bbox", "countryCode": "--country", "kinds": "--kind", "kind": "--kind",
        "categories": "--category", "language": "--lang", "radius": "--radius", "after": "--after",
        "center": "LAT LON", "point": "LAT LON", "force": "--force", "append": "--append", "output": "--output",
        "delimiter": "--delimiter", "nameColumn": "--name-column", "latColumn": "--lat-column",
        "lonColumn": "--lon-column", "idColumn": "--id-column", "categoryColumn": "--category-column", "get": "--get",
    ]

    /// `error` with the library's option names replaced by the CLI's flags and anything a terminal would act
    /// on escaped (messages quote names and values from files: one line, nothing run); other errors unchanged.
    static func translated(_ error: Error) -> Error {
        guard let error = error as? GeoDBError else { return error }
        return GeoDBError(error.code, Format.printable(flagged(error.message)), remedy: error.remedy.map { Format.printable(flagged($0)) },
                          option: error.option)
    }

    /// Whether `error` is a bad value of an option (exit status 64, as ArgumentParser's usage errors): the
    /// library names the option at fault (`--limit 0`, `--near 95,0`, a cursor from another query). An
    /// invalid argument without an option is about the data (no such place, a file without timezones): 1.
    static func isUsageError(_ error: Error) -> Bool {
        guard let error = error as? GeoDBError else { return false }
        return error.code == .invalidArgument && error.option != nil
    }

    /// A library check's error as a usage error (exit status 64), for checks run while validating arguments.
    static func usageError(_ error: Error) -> Error {
        guard let error = translated(error) as? GeoDBError else { return error }
        return ValidationError(error.description)
    }

    /// `text` with each `name` in backticks replaced by its flag (or the bare name when the CLI has none).
    static func flagged(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`"), let close = rest[rest.index(after: open)...].firstIndex(of: "`") {
            out += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            out += flags[name] ?? name
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
