// Computes the timezone grid: the quadtree cells, down to a chosen level, that lie wholly inside exactly
// one zone (docs/SCHEMA.md, "timezone_grid"). Lookups answer from these cells without polygon tests.
import GeoDB

struct TimeZoneGridBuilder {
    let polygons: PolygonSet
    let parts: [IndexedPolygon]
    /// The deepest level of stored cells (5: 1/32°, about 3.5 km).
    let level: Int

    struct Result {
        /// (cell id, zone index), sorted by cell id.
        var cells: [(id: Int, zone: Int32)] = []
        /// Cells at `level` crossed by a border (left to the polygons).
        var borderCells = 0
        /// Cells without a border that no zone or more than one zone covers.
        var uncoveredCells = 0
    }

    func build() -> Result {
        var result = Result()
        let borders = borderCells()
        result.borderCells = borders[level].count
        for base in 0..<TimeZoneGrid.baseCount {
            var cells: [(id: Int, zone: Int32)] = []
            visit(TimeZoneGrid.Cell(level: 0, column: base % TimeZoneGrid.columns, row: base / TimeZoneGrid.columns),
                  borders: borders, into: &cells, uncovered: &result.uncoveredCells)
            // Ids grow with the level inside a 1° cell: sort so the table is written in key order.
            result.cells += cells.sorted { $0.id < $1.id }
        }
        return result
    }

    private func visit(_ cell: TimeZoneGrid.Cell, borders: [Set<Int>], into cells: inout [(id: Int, zone: Int32)],
                       uncovered: inout Int) {
        if borders[cell.level].contains(Self.key(cell)) {
            guard cell.level < level else { return }
            for child in cell.children { visit(child, borders: borders, into: &cells, uncovered: &uncovered) }
            return
        }
        // No border crosses the cell, so every point in it lies in the same zones as its centre.
        var zone: Int32?, zones = 0
        try? polygons.forEachContaining(cell.center) { polygon in
            if polygon.owner != zone { zone = polygon.owner; zones += 1 }
        }
        if zones == 1, let zone { cells.append((cell.id, zone)) } else { uncovered += 1 }
    }

    static func key(_ cell: TimeZoneGrid.Cell) -> Int { cell.row << 32 | cell.column }

    /// For each level 0...level, the cells that an edge touches (bounds included, so a little more than
    /// the cells a border crosses: safe).
    private func borderCells() -> [Set<Int>] {
        var finest = Set<Int>()
        let size = TimeZoneGrid.baseSize >> level
        let columns = TimeZoneGrid.columns << level, rows = TimeZoneGrid.rows << level
        var lastKey = -1
        func mark(_ column: Int, _ row: Int) {
            let key = row << 32 | column
            if key != lastKey { finest.insert(key); lastKey = key }
        }
        for polygon in parts {
            polygon.forEachEdge { a, b in
                let ax = Double(Int(a.lon) + 1_800_000_000), ay = Double(Int(a.lat) + 900_000_000)
                let bx = Double(Int(b.lon) + 1_800_000_000), by = Double(Int(b.lat) + 900_000_000)
                let x0 = min(ax, bx), x1 = max(ax, bx)
                let c0 = max(0, Int(((x0 - 2) / Double(size)).rounded(.down)))
                let c1 = min(columns - 1, Int(((x1 + 2) / Double(size)).rounded(.down)))
                guard c0 <= c1 else { return }
                for column in c0...c1 {
                    // The part of the edge inside this column (widened by 2 units), as a latitude range.
                    let sx0 = max(Double(column * size) - 2, x0), sx1 = min(Double((column + 1) * size) + 2, x1)
                    var y0: Double, y1: Double
                    if bx == ax {
                        y0 = min(ay, by); y1 = max(ay, by)
                    } else {
                        let ya = ay + (sx0 - ax) * (by - ay) / (bx - ax), yb = ay + (sx1 - ax) * (by - ay) / (bx - ax)
                        y0 = min(ya, yb); y1 = max(ya, yb)
                    }
                    let r0 = max(0, Int(((y0 - 2) / Double(size)).rounded(.down)))
                    let r1 = min(rows - 1, Int(((y1 + 2) / Double(size)).rounded(.down)))
                    guard r0 <= r1 else { continue }
                    for row in r0...r1 { mark(column, row) }
                }
            }
        }
        var levels = [finest]
        for _ in 0..<level {
            var parents = Set<Int>()
            parents.reserveCapacity(levels[0].count / 2)
            for key in levels[0] { parents.insert(((key >> 33) << 32) | ((key & 0xffff_ffff) >> 1)) }
            levels.insert(parents, at: 0)
        }
        return levels
    }
}
