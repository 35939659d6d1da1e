// Where a map of a database should open: a small file's whole extent, and for a file spread over a continent
// or the world the part where most of its places are (not the middle of its extent, which for cities500 is
// in the Sahara). Found from an even sample of places read by id, so it costs the same couple of thousand
// index lookups on a file of 2 MB as on one of 20 GB.
import GeoDBSQLite

/// The part of a database where its places are densest.
///
/// ```swift
/// let area = try db.withSession { try $0.denseArea() }   // Helsinki's streets in helsinki.sqlite
/// ```
public struct DenseArea: Sendable, Hashable {
    /// The places sampled in the densest part: a box around them.
    public var box: BoundingBox
    /// The share of the file's places that `box` holds (estimated from the sample), 0...1.
    public var share: Double

    public init(box: BoundingBox, share: Double) {
        self.box = box
        self.share = share
    }

    /// An extent smaller than this (degrees, both ways) is shown whole: a city, a canton, a small country.
    static let wholeExtentDegrees = 1.0
    /// The side of the cells the sample is counted in (degrees). The densest 2 × 2 cells are taken, so that a
    /// city on a cell's edge is not cut in half: about 55 km, a city with its suburbs.
    static let cellDegrees = 0.25
    /// Places sampled.
    static let sampleSize = 2_000

    /// The densest area of the places `db` reads; nil when it has none.
    static func find(_ db: DatabaseReader) throws -> DenseArea? {
        guard let extent = try DatabaseInfo.extent(db) else { return nil }
        if extent.maxLat - extent.minLat <= wholeExtentDegrees && extent.maxLon - extent.minLon <= wholeExtentDegrees {
            return DenseArea(box: extent, share: 1)
        }
        let sample = try self.sample(db)
        guard !sample.isEmpty else { return nil }
        struct Cell: Hashable { var lat: Int, lon: Int }
        let cellOf = { (point: Coordinate) in
            Cell(lat: Int((point.lat / cellDegrees).rounded(.down)), lon: Int((point.lon / cellDegrees).rounded(.down)))
        }
        var counts: [Cell: Int] = [:]
        for point in sample { counts[cellOf(point), default: 0] += 1 }
        // Each window of 2 × 2 cells is named by its south-west cell; the one with most points wins (ties: the
        // southernmost, then westernmost, so that the answer does not depend on the dictionary's order).
        var windows: [Cell: Int] = [:]
        for (cell, count) in counts {
            for dLat in -1...0 { for dLon in -1...0 { windows[Cell(lat: cell.lat + dLat, lon: cell.lon + dLon), default: 0] += count } }
        }
        guard let best = windows.max(by: { ($0.value, -$0.key.lat, -$0.key.lon) < ($1.value, -$1.key.lat, -$1.key.lon) }) else { return nil }
        let inside = sample.filter { point in
            let cell = cellOf(point)
            return (best.key.lat...best.key.lat + 1).contains(cell.lat) && (best.key.lon...best.key.lon + 1).contains(cell.lon)
        }
        var box = BoundingBox(inside[0])
        for point in inside.dropFirst() { box.extend(point) }
        return DenseArea(box: box, share: Double(inside.count) / Double(sample.count))
    }

    /// Up to `sampleSize` places' points, spread evenly over the range of ids (each found with one lookup of
    /// the primary key; import order mixes places from all over the file's extent).
    private static func sample(_ db: DatabaseReader) throws -> [Coordinate] {
        guard let range = try db.first("read the range of place ids", "SELECT min(id), max(id) FROM place", [], { row in
            row.isNull(0) ? nil : (first: row.int(0), last: row.int(1))
        }) ?? nil else { return [] }
        let step = max(1, Double(range.last - range.first + 1) / Double(sampleSize))
        var points: [Coordinate] = [], next = range.first
        for i in 0..<sampleSize {
            // Never the same place twice: a gap in the ids would otherwise send several targets to the place after it.
            let target = max(next, range.first + Int64(Double(i) * step))
            guard target <= range.last, let found = try db.first("sample the places", """
                SELECT id, lat, lon FROM place WHERE id >= ? ORDER BY id LIMIT 1
                """, [.integer(target)], { row in (id: row.int(0), point: try row.coordinate(1, 2, place: row.int(0), in: db.path)) })
            else { break }
            points.append(found.point)
            next = found.id + 1
        }
        return points
    }
}
