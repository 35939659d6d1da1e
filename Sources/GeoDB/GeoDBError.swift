// The error every geodb library call throws: what went wrong, where, and what to do about it.

/// A failure a user can act on. `description` is the one-line message the CLI prints.
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

    /// An error: `GeoDBError(.invalidArgument, "radius -1 m is out of range", remedy: "give 1…100000")`.
    ///
    /// ```swift
    /// throw GeoDBError(.invalidArgument, "radius -1 m is out of range", remedy: "give 1…100000")
    /// ```
    public init(_ code: Code, _ message: String, remedy: String? = nil) {
        self.code = code
        self.message = message
        self.remedy = remedy
    }

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
