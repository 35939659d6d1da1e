// The cells of a grid that a pass of the address phase cares about, numbered densely, so that what it keeps
// per cell is an array slot rather than a dictionary entry.

/// Cells (a row and a column of a grid) numbered 0, 1, 2… in the order first inserted: a set of cells and a
/// dictionary from cell to slot in one. Open addressing with a multiplicative hash instead of `Set`/`Dictionary`:
/// `AddressCompleter` asks for a cell once per street segment and cell near it, once per address and once per cell
/// around each place lacking a postcode, millions of times on a tiled ×20 extract, and Swift's seeded SipHash was
/// a fifth of its time.
struct CellNumbering {
    /// Each slot's cell packed as `key(row:column:)` and its number, -1 in an empty slot (every key is some
    /// cell's: rows and columns just outside the grid, -1, are cells too).
    private var keys: [UInt64]
    private var numbers: [Int32]
    private var mask: Int
    /// How many cells are numbered (the next number).
    private(set) var count = 0

    init() {
        keys = Array(repeating: 0, count: 1024)
        numbers = Array(repeating: -1, count: 1024)
        mask = 1023
    }

    /// The number of the cell, given it now if it had none.
    @discardableResult
    mutating func insert(row: Int32, column: Int32) -> Int32 {
        let key = Self.key(row: row, column: column)
        var slot = Self.slot(of: key, mask: mask)
        while numbers[slot] >= 0 {
            if keys[slot] == key { return numbers[slot] }
            slot = (slot + 1) & mask
        }
        let number = Int32(count)
        keys[slot] = key
        numbers[slot] = number
        count += 1
        // At most half full: probes stay short.
        if count * 2 > keys.count { grow() }
        return number
    }

    /// The number of the cell, nil when it was never inserted.
    func number(row: Int32, column: Int32) -> Int32? {
        let key = Self.key(row: row, column: column)
        var slot = Self.slot(of: key, mask: mask)
        while numbers[slot] >= 0 {
            if keys[slot] == key { return numbers[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The cells by number.
    var cells: [(row: Int32, column: Int32)] {
        var cells = [(row: Int32, column: Int32)](repeating: (0, 0), count: count)
        for (key, number) in zip(keys, numbers) where number >= 0 {
            cells[Int(number)] = (Int32(bitPattern: UInt32(key >> 32)), Int32(bitPattern: UInt32(truncatingIfNeeded: key)))
        }
        return cells
    }

    private mutating func grow() {
        let (oldKeys, oldNumbers) = (keys, numbers)
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        numbers = Array(repeating: -1, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (key, number) in zip(oldKeys, oldNumbers) where number >= 0 {
            var slot = Self.slot(of: key, mask: mask)
            while numbers[slot] >= 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            numbers[slot] = number
        }
    }

    @inline(__always)
    private static func key(row: Int32, column: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: row)) << 32 | UInt64(UInt32(bitPattern: column))
    }

    /// Fibonacci hashing: the high bits of the key times 2^64/φ, which spreads neighbouring cells apart.
    @inline(__always)
    private static func slot(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
