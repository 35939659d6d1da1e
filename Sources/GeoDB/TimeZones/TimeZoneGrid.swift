// The numbering of timezone_grid cells (docs/SCHEMA.md, "Timezones"): a quadtree over 1° cells down to
// level 7 (1/128°), numbered so that a 1° cell and all its sub-cells are one contiguous range of ids.

/// Grid cells in units of 1e-7 degree. A point's position on the grid is x = lon + 180°, y = lat + 90°.
/// Level 0 cells are 1° squares (`base` = row * 360 + column); level z cells are 1/2^z °. A cell's id is
/// `base * 32768 + (1 << 2z | morton)`, where `morton` interleaves the z low bits of the cell's column
/// (even bits) and row (odd bits) inside its 1° cell.
package enum TimeZoneGrid {
    /// The deepest level a cell id can have (1/128°, 78,125 units of 1e-7°).
    package static let maxLevel = 7
    /// The side of a level-0 cell in 1e-7 degree.
    package static let baseSize = 10_000_000
    /// The side of a level-`maxLevel` cell in 1e-7 degree.
    package static let finestSize = baseSize >> maxLevel
    package static let columns = 360
    package static let rows = 180
    package static var baseCount: Int { columns * rows }
    /// Ids of the cells inside base cell `b` are `b * idsPerBase ..< (b + 1) * idsPerBase`.
    package static let idsPerBase = 1 << 15

    /// A point on the grid: x in 0 ..< 360°, y in 0 ..< 180° (1e-7 degree).
    package struct Position: Equatable, Sendable {
        package var x: Int
        package var y: Int

        /// Longitude 180 is the same meridian as -180 and is looked up there; latitude 90 is looked
        /// up 1e-7° south of the pole, so every valid point has a cell.
        package init(_ point: Point7) {
            x = point.lon == 1_800_000_000 ? 0 : Int(point.lon) + 1_800_000_000
            y = min(Int(point.lat) + 900_000_000, 1_799_999_999)
        }

        /// The point this position stands for (after the normalisation above).
        package var point: Point7 { Point7(lat: Int32(y - 900_000_000), lon: Int32(x - 1_800_000_000)) }

        /// Index of the 1° cell.
        package var base: Int { (y / baseSize) * columns + x / baseSize }
        /// Column and row of the finest (level 7) cell inside the 1° cell, 0 ..< 128.
        package var fineColumn: Int { (x % baseSize) / finestSize }
        package var fineRow: Int { (y % baseSize) / finestSize }
    }

    /// A cell: its level and its column and row counted over the whole grid at that level.
    package struct Cell: Hashable, Sendable {
        package var level: Int
        package var column: Int
        package var row: Int

        package init(level: Int, column: Int, row: Int) {
            self.level = level
            self.column = column
            self.row = row
        }

        /// The cell of `position` at `level`.
        package init(_ position: Position, level: Int) {
            let size = baseSize >> level
            self.init(level: level, column: position.x / size, row: position.y / size)
        }

        package var size: Int { TimeZoneGrid.baseSize >> level }
        package var minX: Int { column * size }
        package var minY: Int { row * size }
        /// The centre point, an exact 1e-7° position (every size up to level 7 is even).
        package var center: Point7 {
            Position.init(x: minX + size / 2, y: minY + size / 2).point
        }

        package var children: [Cell] {
            (0..<4).map { Cell(level: level + 1, column: column * 2 + $0 & 1, row: row * 2 + $0 >> 1) }
        }

        /// The id stored in `timezone_grid.cell`.
        package var id: Int {
            let base = (row >> level) * columns + (column >> level)
            let mask = (1 << level) - 1
            return base * idsPerBase + (1 << (2 * level) | TimeZoneGrid.interleave(column & mask, row & mask))
        }

        /// The cell with `id`, or nil for an id no cell has.
        package init?(id: Int) {
            guard id >= 0 else { return nil }
            let base = id / idsPerBase, local = id % idsPerBase
            guard base < baseCount, local > 0 else { return nil }
            let level = (Int.bitWidth - 1 - local.leadingZeroBitCount) / 2
            guard level <= maxLevel, local >> (2 * level) == 1 else { return nil }
            let morton = local & ((1 << (2 * level)) - 1)
            let (c, r) = TimeZoneGrid.deinterleave(morton)
            self.init(level: level, column: (base % columns) << level | c, row: (base / columns) << level | r)
        }
    }

    /// Bits of `column` at even positions, bits of `row` at odd positions.
    static func interleave(_ column: Int, _ row: Int) -> Int {
        var out = 0
        for bit in 0..<maxLevel {
            out |= ((column >> bit) & 1) << (2 * bit) | ((row >> bit) & 1) << (2 * bit + 1)
        }
        return out
    }

    static func deinterleave(_ morton: Int) -> (column: Int, row: Int) {
        var column = 0, row = 0
        for bit in 0..<maxLevel {
            column |= ((morton >> (2 * bit)) & 1) << bit
            row |= ((morton >> (2 * bit + 1)) & 1) << bit
        }
        return (column, row)
    }
}

extension TimeZoneGrid.Position {
    /// A position given directly (x in 0 ..< 3.6e9, y in 0 ..< 1.8e9).
    package init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
