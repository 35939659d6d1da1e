// An in-memory grid of place points for exact nearest-place queries over many places (a GeoNames
// gazetteer): 1° cells, great-circle distances, correct across the antimeridian and at the poles.

/// Points bucketed by 1° cell and sorted by latitude inside each, in one array with an offset per cell
/// (24 bytes per point): a query reads only the latitude band of each cell its circle reaches.
package struct PointGrid: Sendable {
    private var ids: [Int64] = []
    private var coordinates: [Coordinate] = []
    private var cellStart: [Int32]   // 180 × 360 cells + 1

    package init(points: [(id: Int64, coordinate: Coordinate)]) {
        let sorted = points.sorted {
            (Self.cell($0.coordinate), $0.coordinate.lat, $0.id) < (Self.cell($1.coordinate), $1.coordinate.lat, $1.id)
        }
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
    /// doubles from 5 km; once the k-th best lies within it, nothing outside can be nearer.
    package func nearest(_ point: Coordinate, radius: Double, limit: Int) -> [(id: Int64, distance: Double)] {
        var r = min(radius, 5_000)
        while true {
            var best: [(id: Int64, distance: Double)] = []   // the `limit` nearest so far, nearest first
            for box in BoundingBox.covering(radius: r, around: point) {
                let rows = Int((box.minLat + 90).rounded(.down))...min(179, Int((box.maxLat + 90).rounded(.down)))
                let columns = Int((box.minLon + 180).rounded(.down))...min(359, Int((box.maxLon + 180).rounded(.down)))
                for row in rows where row >= 0 {
                    for column in columns where column >= 0 {
                        let cell = row * 360 + column
                        // The box bounds the circle exactly; the margin keeps points on its edge despite rounding.
                        var i = firstIndex(atLeast: box.minLat - 1e-9, from: Int(cellStart[cell]), to: Int(cellStart[cell + 1]))
                        while i < Int(cellStart[cell + 1]), coordinates[i].lat <= box.maxLat + 1e-9 {
                            let c = coordinates[i]
                            if c.lon >= box.minLon - 1e-9 && c.lon <= box.maxLon + 1e-9 {
                                let d = point.distance(to: c)
                                if d <= r { Self.keep((ids[i], d), in: &best, limit: limit) }
                            }
                            i += 1
                        }
                    }
                }
            }
            if best.count >= limit || r >= radius { return best }
            r = min(radius, r * 2)
        }
    }

    /// The first index in `start..<end` (sorted by latitude) whose latitude is at least `lat`.
    private func firstIndex(atLeast lat: Double, from start: Int, to end: Int) -> Int {
        var low = start, high = end
        while low < high {
            let middle = (low + high) / 2
            if coordinates[middle].lat < lat { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Inserts `candidate` into `best` (sorted by distance, then id) when it is among the `limit` nearest.
    private static func keep(_ candidate: (id: Int64, distance: Double), in best: inout [(id: Int64, distance: Double)],
                             limit: Int) {
        let before = { (a: (id: Int64, distance: Double), b: (id: Int64, distance: Double)) in (a.distance, a.id) < (b.distance, b.id) }
        if best.count == limit, let last = best.last, !before(candidate, last) { return }
        let index = best.firstIndex { before(candidate, $0) } ?? best.count
        best.insert(candidate, at: index)
        if best.count > limit { best.removeLast() }
    }
}
