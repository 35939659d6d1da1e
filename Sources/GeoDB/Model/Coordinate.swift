// Positions: exact degrees for the API, 1e-7-degree integers (OSM's own precision) for storage.
import Foundation

/// A WGS 84 position in degrees.
///
/// ```swift
/// let helsinki = Coordinate(lat: 60.1699, lon: 24.9384)
/// ```
public struct Coordinate: Hashable, Sendable, Codable {
    /// Latitude in degrees, -90…90.
    public var lat: Double
    /// Longitude in degrees, -180…180.
    public var lon: Double

    /// A position in WGS 84 degrees: `Coordinate(lat: 60.1699, lon: 24.9384)`.
    ///
    /// ```swift
    /// let point = Coordinate(lat: -44.0, lon: -176.5)
    /// ```
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// True when latitude is within ±90 and longitude within ±180 (and neither is NaN).
    public var isValid: Bool { (-90...90).contains(lat) && (-180...180).contains(lon) }

    /// Great-circle distance in metres (haversine on the mean Earth radius).
    ///
    /// ```swift
    /// let metres = helsinki.distance(to: Coordinate(lat: 59.437, lon: 24.7536))   // ≈ 80 km to Tallinn
    /// ```
    public func distance(to other: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (other.lat - lat) * toRadians
        let dLon = (other.lon - lon) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(lat * toRadians) * cos(other.lat * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Coordinate.earthRadius * asin(min(1, a.squareRoot()))
    }

    /// Mean Earth radius in metres (IUGG).
    public static let earthRadius = 6_371_008.8
}

/// A position in units of 1e-7 degree, as OSM stores it: exact, compact and cheap to compare.
///
/// ```swift
/// let p = Point7(Coordinate(lat: 60.1699, lon: 24.9384))   // lat 601699000, lon 249384000
/// ```
public struct Point7: Hashable, Sendable {
    /// Latitude in 1e-7 degrees.
    public var lat: Int32
    /// Longitude in 1e-7 degrees.
    public var lon: Int32

    /// A position in 1e-7 degrees: `Point7(lat: 601_699_000, lon: 249_384_000)`.
    ///
    /// ```swift
    /// let p = Point7(lat: 601_699_000, lon: 249_384_000)
    /// ```
    public init(lat: Int32, lon: Int32) {
        self.lat = lat
        self.lon = lon
    }

    /// Rounds degrees to the nearest 1e-7; callers check `Coordinate.isValid` first.
    ///
    /// ```swift
    /// let p = Point7(helsinki)
    /// ```
    public init(_ coordinate: Coordinate) {
        self.lat = Int32((coordinate.lat * 1e7).rounded())
        self.lon = Int32((coordinate.lon * 1e7).rounded())
    }

    /// A position computed in 1e-7 degrees (a centroid, a point along a line), rounded; nil when either
    /// value is not a number or lies outside ±90/±180 (arithmetic on a nearly degenerate shape can leave
    /// the globe, and converting such a value to `Int32` would trap).
    ///
    /// ```swift
    /// let p = Point7(rounding: 601_699_000.4, 249_384_000.6)   // lat 601699000, lon 249384001
    /// ```
    public init?(rounding lat: Double, _ lon: Double) {
        guard abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else { return nil }   // false for NaN
        self.lat = Int32(lat.rounded())
        self.lon = Int32(lon.rounded())
    }

    /// The same position in degrees.
    public var coordinate: Coordinate { Coordinate(lat: Double(lat) / 1e7, lon: Double(lon) / 1e7) }
}

/// A latitude/longitude box in degrees.
///
/// ```swift
/// let centre = BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96)
/// ```
public struct BoundingBox: Hashable, Sendable, Codable {
    /// Southern edge, degrees.
    public var minLat: Double
    /// Western edge, degrees (greater than `maxLon` for a box across the antimeridian).
    public var minLon: Double
    /// Northern edge, degrees.
    public var maxLat: Double
    /// Eastern edge, degrees.
    public var maxLon: Double

    /// A box: `BoundingBox(minLat: 60.16, minLon: 24.93, maxLat: 60.18, maxLon: 24.96)`.
    ///
    /// ```swift
    /// let fiji = BoundingBox(minLat: -21, minLon: 176, maxLat: -12, maxLon: -178)   // across 180°
    /// ```
    public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
    }

    /// The box of one point.
    ///
    /// ```swift
    /// var box = BoundingBox(helsinki); box.extend(tallinn)
    /// ```
    public init(_ coordinate: Coordinate) {
        self.init(minLat: coordinate.lat, minLon: coordinate.lon, maxLat: coordinate.lat, maxLon: coordinate.lon)
    }

    /// Grows the box to include `coordinate`.
    public mutating func extend(_ coordinate: Coordinate) {
        minLat = Swift.min(minLat, coordinate.lat)
        maxLat = Swift.max(maxLat, coordinate.lat)
        minLon = Swift.min(minLon, coordinate.lon)
        maxLon = Swift.max(maxLon, coordinate.lon)
    }

    /// Grows the box to include `other`.
    public mutating func extend(_ other: BoundingBox) {
        minLat = Swift.min(minLat, other.minLat)
        maxLat = Swift.max(maxLat, other.maxLat)
        minLon = Swift.min(minLon, other.minLon)
        maxLon = Swift.max(maxLon, other.maxLon)
    }

    /// Whether the point lies inside or on the edge (boxes across the antimeridian included).
    ///
    /// ```swift
    /// fiji.contains(Coordinate(lat: -17.7, lon: 179.9))   // true
    /// ```
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.lat >= minLat && coordinate.lat <= maxLat else { return false }
        return minLon <= maxLon ? coordinate.lon >= minLon && coordinate.lon <= maxLon
            : coordinate.lon >= minLon || coordinate.lon <= maxLon
    }

    /// The middle of the box.
    public var center: Coordinate { Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2) }
}
