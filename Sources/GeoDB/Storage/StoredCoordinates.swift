// Coordinates read from a database file, checked before any engine computes with them: a damaged or
// edited file (a latitude of 1e10, an infinite longitude) gives an error naming the place, not a trap
// in some conversion further on.
import GeoDBSQLite

extension Statement {
    /// Columns `lat` and `lon` of place `id` as a coordinate; throws unless within ±90/±180.
    ///
    /// ```swift
    /// let at = try row.coordinate(1, 2, place: row.int(0), in: path)
    /// ```
    package func coordinate(_ lat: Int32, _ lon: Int32, place id: Int64, in path: String) throws -> Coordinate {
        let coordinate = Coordinate(lat: double(lat), lon: double(lon))
        guard coordinate.isValid else {
            throw GeoDBError.damagedDatabase(path: path, "place \(id) has latitude \(coordinate.lat), longitude \(coordinate.lon): outside ±90/±180")
        }
        return coordinate
    }
}
