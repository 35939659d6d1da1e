// The version of this geodb, recorded in every database it writes (meta 'generator').

public enum GeoDBVersion {
    public static let string = "0.1.0"
}
