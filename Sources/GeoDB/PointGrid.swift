// An in-memory grid of place points for exact nearest-place queries over many places (a GeoNames
// gazetteer): 1° cells, great-circle distances, correct across the antimeridian and at the poles.

/// Points bucketed by 1° cell, in one array sorted by cell with an offset per cell (24 bytes per point).
struct PointGrid {
    private var ids: [Int64] = []
    private var coordinates: [Coordinate] = []
    private var cellStart: [Int32]   // 180 × 360 cells + 1

    init(points: [(id: Int64, coordinate: Coordinate)]) {
        let sorted = points.sorted { (Self.cell($0.coordinate), $0.id) < (Self.cell($1.coordinate), $1.id) }
        ids = sorted.map(\.id)
        coordinates = sorted.map(\.coordinate)
        cellStart = [Int32](repeating: 0, count: 180 * 360 + 1)
        for p in sorted { cellStart[Self.cell(p.coordinate) + 1] += 1 }
        for i in 1..<cellStart.count { cellStart[i] += cellStart[i - 1] }
    }

    static func cell(_ c: Coordinate) -> Int {
        let row = min(179, max(0, Int((c.lat + 90).rounded(.down))))
        let column = min(359, max(0, Int((c.lon + 180).rounded(.down))))
        return row * 360 + column
    }

    /// The `limit` nearest points within `radius` metres, nearest first (ties by id). The search radius
    /// doubles from 25 km; once the k-th best lies within it, nothing outside can be nearer.
    func nearest(_ point: Coordinate, radius: Double, limit: Int) -> [(id: Int64, distance: Double)] {
        var r = min(radius, 25_000)
        while true {
            var found: [(id: Int64, distance: Double)] = []
            for box in QuerySession.boxes(around: point, radius: r) {
                let rows = Int((box.minLat + 90).rounded(.down))...min(179, Int((box.maxLat + 90).rounded(.down)))
                let columns = Int((box.minLon + 180).rounded(.down))...min(359, Int((box.maxLon + 180).rounded(.down)))
                for row in rows where row >= 0 {
                    for column in columns where column >= 0 {
                        let cell = row * 360 + column
                        for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                            let d = point.distance(to: coordinates[i])
                            if d <= r { found.append((ids[i], d)) }
                        }
                    }
                }
            }
            if found.count >= limit || r >= radius {
                return Array(found.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(limit))
            }
            r = min(radius, r * 2)
        }
    }
}
