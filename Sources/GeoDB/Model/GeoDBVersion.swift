// The version of this geodb, recorded in every database it writes (meta 'generator').

/// The version of geodb, written into every database it makes (`meta.generator`).
///
/// ```swift
/// print("geodb", GeoDBVersion.string)
/// ```
public enum GeoDBVersion {
    /// Semantic version, e.g. "0.1.0".
    public static let string = "0.1.0"
}
