// The error every geodb library call throws: what went wrong, where, and what to do about it.
import GeoDBSQLite

/// A failure a user can act on. `description` is the one-line message the CLI prints.
///
/// Messages name the options of the Swift API in backticks (`` `limit` -1 is out of range (1…100) ``), so
/// that a front end can put its own spelling in their place (the CLI prints `--limit`); `option` names the
/// option at fault, when one is.
///
/// ```swift
/// do { _ = try GeoDatabase(path: "missing.sqlite") } catch let error as GeoDBError {
///     print(error.code, error.message, error.remedy ?? "")
/// }
/// ```
public struct GeoDBError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is; stable for programs that branch on it.
    ///
    /// ```swift
    /// if error.code == .schemaVersionMismatch { /* re-import */ }
    /// ```
    public enum Code: String, Sendable {
        case fileNotFound, fileExists, unknownFormat, badInput, unsupportedInput
        case schemaVersionMismatch, notAGeoDatabase, interrupted, io, invalidArgument, database
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong, naming the file and the place in it when there is one.
    public let message: String
    /// What the user can do about it, when there is something.
    public let remedy: String?
    /// The option at fault, by its name in the Swift API (`limit`, `near`, `radius`, `bbox`, `after`, …).
    public let option: String?

    /// An error: `GeoDBError(.invalidArgument, "`radius` -1 m is out of range (1…100000 m)", option: "radius")`.
    ///
    /// ```swift
    /// throw GeoDBError(.invalidArgument, "`radius` -1 m is out of range (1…100000 m)", option: "radius")
    /// ```
    public init(_ code: Code, _ message: String, remedy: String? = nil, option: String? = nil) {
        self.code = code
        self.message = message
        self.remedy = remedy
        self.option = option
    }

    /// A failed SQLite call, as the library reports it: the file, what the SQL was for, and SQLite's words.
    ///
    /// ```swift
    /// throw GeoDBError.database(path: "x.sqlite", purpose: "search candidates", error)
    /// ```
    public static func database(path: String, purpose: String, _ error: SQLiteError) -> GeoDBError {
        GeoDBError(.database, "\(path): \(purpose): \(error.message) (SQLite error \(error.code))",
                   remedy: error.primaryCode == 11 || error.primaryCode == 26 ? damagedRemedy : nil)
    }

    /// A value in a database that geodb would never have written there (the file is damaged or was edited).
    ///
    /// ```swift
    /// throw GeoDBError.damagedDatabase(path: "x.sqlite", "place 12 has latitude 1e10")
    /// ```
    public static func damagedDatabase(path: String, _ what: String) -> GeoDBError {
        GeoDBError(.database, "\(path): \(what)", remedy: damagedRemedy)
    }

    private static let damagedRemedy = "the file is damaged or is not a geodb database: check its integrity, or import the data again"

    /// Bad content in an input file, at a byte offset or a line.
    ///
    /// ```swift
    /// throw GeoDBError.badInput(file: "points.csv", at: .line(7), "latitude 95 is out of range")
    /// ```
    public static func badInput(file: String, at location: InputLocation, _ what: String) -> GeoDBError {
        GeoDBError(.badInput, "\(file): \(location): \(what)")
    }

    /// "message (remedy)", one line, as the CLI prints it.
    public var description: String {
        remedy.map { "\(message) (\($0))" } ?? message
    }
}

/// Where in an input file something was found.
///
/// ```swift
/// let location: InputLocation = .byteOffset(1_024)   // "byte offset 1024"
/// ```
public enum InputLocation: CustomStringConvertible, Sendable, Equatable {
    case byteOffset(Int)
    case line(Int)
    case feature(Int)

    /// "byte offset 1234", "line 7", "feature 3".
    public var description: String {
        switch self {
        case .byteOffset(let offset): return "byte offset \(offset)"
        case .line(let line): return "line \(line)"
        case .feature(let index): return "feature \(index)"
        }
    }
}
