// The rules every public query checks its options against, each worded once. The messages name the
// option by its Swift name in backticks; front ends put their own spelling there (the CLI: `--limit`).

/// Checks of query options; each throws `GeoDBError(.invalidArgument)` with `option` set. The library
/// runs them on every call; front ends can run them early (the CLI does for positional points).
///
/// ```swift
/// try QueryValidation.limit(options.limit, max: SearchOptions.maxLimit)
/// ```
public enum QueryValidation {
    /// A result count: 1…`max`.
    ///
    /// ```swift
    /// try QueryValidation.limit(0, max: 100)   // "`limit` 0 is out of range (1…100)"
    /// ```
    public static func limit(_ limit: Int, max: Int, option: String = "limit") throws {
        guard (1...max).contains(limit) else {
            throw GeoDBError(.invalidArgument, "`\(option)` \(limit) is out of range (1…\(max))", option: option)
        }
    }

    /// A position: latitude within ±90, longitude within ±180, neither NaN.
    ///
    /// ```swift
    /// try QueryValidation.coordinate(Coordinate(lat: 91, lon: 0), option: "near")
    /// ```
    public static func coordinate(_ c: Coordinate, option: String) throws {
        guard c.isValid else {
            throw GeoDBError(.invalidArgument, "`\(option)` \(number(c.lat)), \(number(c.lon)) is out of range \(coordinateRange)",
                             option: option)
        }
    }

    /// A distance in metres: 1…`max`.
    ///
    /// ```swift
    /// try QueryValidation.radius(0.5, max: 100_000)   // "`radius` 0.5 m is out of range (1…100000 m)"
    /// ```
    public static func radius(_ metres: Double, max: Double, option: String = "radius") throws {
        guard metres >= 1, metres <= max else {
            throw GeoDBError(.invalidArgument, "`\(option)` \(number(metres)) m is out of range (1…\(number(max)) m)", option: option)
        }
    }

    /// A box: corners in range, the minimum latitude not above the maximum. A minimum longitude above the
    /// maximum is a box across the antimeridian, not an error.
    ///
    /// ```swift
    /// try QueryValidation.box(BoundingBox(minLat: -21, minLon: 176, maxLat: -12, maxLon: -178))   // fine: across 180°
    /// ```
    public static func box(_ box: BoundingBox, option: String = "bbox") throws {
        let text = [box.minLon, box.minLat, box.maxLon, box.maxLat].map(number).joined(separator: ",")
        guard Coordinate(lat: box.minLat, lon: box.minLon).isValid, Coordinate(lat: box.maxLat, lon: box.maxLon).isValid else {
            throw GeoDBError(.invalidArgument, "`\(option)` \(text) is out of range \(coordinateRange)", option: option)
        }
        guard box.minLat <= box.maxLat else {
            throw GeoDBError(.invalidArgument, "`\(option)` \(text) has its minimum latitude above its maximum",
                             remedy: "give min lon,min lat,max lon,max lat", option: option)
        }
    }

    /// An ISO 3166-1 alpha-2 country code, in either case.
    ///
    /// ```swift
    /// try QueryValidation.countryCode("fi")   // fine
    /// ```
    public static func countryCode(_ code: String, option: String = "countryCode") throws {
        guard CountryCode.parse(code) != nil else {
            throw GeoDBError(.invalidArgument, "`\(option)` '\(code)' is not a two-letter ISO 3166-1 country code", option: option)
        }
    }

    /// The error for a name that is none of a list's (a reverse level or layer).
    ///
    /// ```swift
    /// throw QueryValidation.unknownValue("rivers", option: "layers", known: ["address", "poi", "natural"])
    /// ```
    public static func unknownValue(_ text: String, option: String, known: [String]) -> GeoDBError {
        GeoDBError(.invalidArgument, "`\(option)` '\(text.prefix(40))' is none of \(known.joined(separator: ", "))", option: option)
    }

    /// The error for a cursor that is not one this query printed: malformed, or from another query or database.
    ///
    /// ```swift
    /// throw QueryValidation.foreignCursor("zz")
    /// ```
    public static func foreignCursor(_ text: String, option: String = "after") -> GeoDBError {
        GeoDBError(.invalidArgument, "`\(option)` '\(text.prefix(64))' is not a cursor from a previous page of this query",
                   option: option)
    }

    /// How the coordinate rules word the valid range.
    public static let coordinateRange = "(latitude -90…90, longitude -180…180)"

    /// A number as people write it: 500, 0.5, 60.1699 (no trailing ".0").
    static func number(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
