// Writes a packed R*Tree straight into SQLite's rtree shadow tables (Sort-Tile-Recursive bulk load).
// SQLite inserts R*Tree rows one by one at ~40k rows/s; packing the whole tree at once is far faster
// and gives fuller, less overlapping nodes. Layout per https://sqlite.org/rtree.html and rtree.c:
// a node is a blob of the table's node size: 2 bytes depth (root only), 2 bytes cell count, then
// cells of an 8-byte id and the coordinates as 4-byte floats, all big-endian.
import GeoDB
import GeoDBSQLite

/// Boxes to index, as the rtree stores them: 32-bit floats rounded outwards.
struct RTreeEntries {
    typealias Box = (minX: Float, maxX: Float, minY: Float, maxY: Float)
    /// Ids as runs of consecutive ones (places get consecutive ids: one run per import), so an entry
    /// costs its 16-byte box alone.
    private let runs = ChunkedArray<(first: Int64, count: Int)>()
    let boxes = ChunkedArray<Box>()

    var count: Int { boxes.count }

    /// The ids in entry order.
    var ids: [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        for i in 0..<runs.count { ids += (0..<runs[i].count).map { runs[i].first + Int64($0) } }
        return ids
    }

    func append(id: Int64, _ box: BoundingBox) {
        append(id: id, (Self.down(box.minLon), Self.up(box.maxLon), Self.down(box.minLat), Self.up(box.maxLat)))
    }

    func append(id: Int64, _ box: Box) {
        if let last = runs.last, last.first + Int64(last.count) == id {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((id, 1))
        }
        boxes.append(box)
    }

    /// The entry of `id`, found in the runs (ids ascend: earlier imports' entries first, then this one's).
    private func index(of id: Int64) -> Int? {
        var low = 0, high = runs.count, before = 0
        // Entries before run r: kept as a running sum would cost a field per run; runs are few, so sum them.
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].first + Int64(runs[middle].count) <= id { low = middle + 1 } else { high = middle }
        }
        guard low < runs.count, runs[low].first <= id else { return nil }
        for r in 0..<low { before += runs[r].count }
        return before + Int(id - runs[low].first)
    }

    /// Gives `id` another box (a place that took over a merged area's polygon).
    func setBox(id: Int64, _ box: BoundingBox) {
        guard let index = index(of: id) else { return }
        boxes[index] = (Self.down(box.minLon), Self.up(box.maxLon), Self.down(box.minLat), Self.up(box.maxLat))
    }

    /// Leaves `id` out of the tree (a place merged into another); its slot stays, marked empty.
    func remove(id: Int64) {
        guard let index = index(of: id) else { return }
        boxes[index] = Self.removed
    }

    /// The box of a removed entry: empty (min above max), so no query can meet it; packing skips it.
    static let removed: Box = (.infinity, -.infinity, .infinity, -.infinity)

    /// The largest float not above `x`, so the float box always contains the exact one.
    static func down(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    static func up(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }
}

/// A packed R*Tree ready to write: its nodes and the rows of its `_rowid` and `_parent` tables.
struct PackedRTree {
    fileprivate var nodes: [(number: Int64, blob: [UInt8])] = []
    fileprivate var parents: [(child: Int64, parent: Int64)] = []
    /// Which leaf holds each entry, in rowid order.
    fileprivate var leaves: [(rowid: Int64, node: Int64)] = []
}

enum RTreeBulkLoader {
    /// Replaces the content of the (2-dimensional) rtree `table` with `entries`.
    static func load(_ entries: RTreeEntries, into table: String, db: Connection) throws {
        try write(pack(entries, nodeSize: nodeSize(of: table, db: db)), into: table, db: db)
    }

    /// The size of `table`'s nodes (SQLite's choice, from the page size), read from its root.
    static func nodeSize(of table: String, db: Connection) throws -> Int {
        guard let nodeSize = try db.scalarInt("SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1"),
              nodeSize > 4 else {
            throw GeoDBError(.database, "rtree \(table) has no root node")
        }
        return Int(nodeSize)
    }

    /// The tree of `entries` in nodes of `nodeSize` bytes; no database needed (it runs beside other work).
    static func pack(_ entries: RTreeEntries, nodeSize: Int) -> PackedRTree {
        let cellSize = 24
        let capacity = (nodeSize - 4) / cellSize
        var tree = PackedRTree()
        guard entries.count > 0, (0..<entries.count).contains(where: { entries.boxes[$0].minX <= entries.boxes[$0].maxX }) else {
            // An empty tree is a root leaf with no cells, as SQLite creates it.
            tree.nodes = [(1, [UInt8](repeating: 0, count: nodeSize))]
            return tree
        }

        // Level 0 cells are the entries (less removed ones); each level packs the cells below into nodes
        // until one remains.
        var cells = zip(entries.ids, 0..<entries.count).map { Cell(id: $0, box: entries.boxes[$1]) }
            .filter { $0.box.minX <= $0.box.maxX }
        var levels: [[[Cell]]] = []
        repeat {
            let nodes = tile(cells, capacity: capacity)
            levels.append(nodes)
            // Above the leaves a cell's id is the index of its child node in the level below.
            cells = nodes.enumerated().map { Cell(id: Int64($0.offset), box: union($0.element)) }
        } while levels.last!.count > 1

        // Number nodes top-down so the root is node 1, as SQLite requires.
        var numbers: [[Int64]] = []
        var next: Int64 = 1
        for level in levels.reversed() {
            numbers.insert((0..<level.count).map { _ in defer { next += 1 }; return next }, at: 0)
        }
        let depth = levels.count - 1
        var blob = [UInt8](repeating: 0, count: nodeSize)
        tree.leaves.reserveCapacity(entries.count)
        for (levelIndex, level) in levels.enumerated() {
            for (nodeIndex, node) in level.enumerated() {
                let number = numbers[levelIndex][nodeIndex]
                for i in blob.indices { blob[i] = 0 }
                if levelIndex == depth { put16(UInt16(depth), at: 0, in: &blob) }
                put16(UInt16(node.count), at: 2, in: &blob)
                for (cellIndex, cell) in node.enumerated() {
                    let childID = levelIndex == 0 ? cell.id : numbers[levelIndex - 1][Int(cell.id)]
                    var offset = 4 + cellIndex * cellSize
                    put64(UInt64(bitPattern: childID), at: offset, in: &blob)
                    offset += 8
                    for value in [cell.box.minX, cell.box.maxX, cell.box.minY, cell.box.maxY] {
                        put32(value.bitPattern, at: offset, in: &blob)
                        offset += 4
                    }
                    if levelIndex == 0 {
                        tree.leaves.append((childID, number))
                    } else {
                        tree.parents.append((childID, number))
                    }
                }
                tree.nodes.append((number, blob))
            }
        }
        // Rows in key order append to the b-tree, where the leaves' order scattered them (x50: 0.07 s of inserts).
        tree.leaves.sort { $0.rowid < $1.rowid }
        return tree
    }

    /// Replaces the content of the rtree `table` with `tree` (packed for this table's node size).
    static func write(_ tree: PackedRTree, into table: String, db: Connection) throws {
        // Nodes of another size would be read as garbage: the tree may be packed for one database's table
        // and written into another's (the import's scratch database).
        let size = try nodeSize(of: table, db: db)
        guard tree.nodes.allSatisfy({ $0.blob.count == size }) else {
            throw GeoDBError(.database, "rtree \(table) has \(size)-byte nodes; the packed tree's are \(tree.nodes.first?.blob.count ?? 0)")
        }
        try db.execute("DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_rowid\"; DELETE FROM \"\(table)_parent\";")
        let insertNode = try db.prepare("INSERT INTO \"\(table)_node\"(nodeno, data) VALUES (?, ?)")
        let insertRowID = try db.prepare("INSERT INTO \"\(table)_rowid\"(rowid, nodeno) VALUES (?, ?)")
        let insertParent = try db.prepare("INSERT INTO \"\(table)_parent\"(nodeno, parentnode) VALUES (?, ?)")
        for (child, parent) in tree.parents { try insertParent.run([.integer(child), .integer(parent)]) }
        for (number, blob) in tree.nodes { try insertNode.run([.integer(number), .blob(blob)]) }
        for (rowid, node) in tree.leaves {
            try insertRowID.bind(1, rowid)
            try insertRowID.bind(2, node)
            _ = try insertRowID.step()
            insertRowID.reset()
        }
    }

    struct Cell {
        var id: Int64
        var box: (minX: Float, maxX: Float, minY: Float, maxY: Float)
    }

    /// Sort-Tile-Recursive: vertical slices by x centre, each sorted by y centre, cut into full nodes.
    static func tile(_ cells: [Cell], capacity: Int) -> [[Cell]] {
        guard cells.count > capacity else { return [cells] }
        let nodeCount = (cells.count + capacity - 1) / capacity
        let sliceCount = Int(Double(nodeCount).squareRoot().rounded(.up))
        let sliceSize = sliceCount * capacity
        let byX = cells.sorted { ($0.box.minX + $0.box.maxX) < ($1.box.minX + $1.box.maxX) }
        var nodes: [[Cell]] = []
        var start = 0
        while start < byX.count {
            let slice = byX[start..<min(start + sliceSize, byX.count)]
                .sorted { ($0.box.minY + $0.box.maxY) < ($1.box.minY + $1.box.maxY) }
            var i = slice.startIndex
            while i < slice.endIndex {
                nodes.append(Array(slice[i..<min(i + capacity, slice.endIndex)]))
                i += capacity
            }
            start += sliceSize
        }
        return nodes
    }

    static func union(_ cells: [Cell]) -> (minX: Float, maxX: Float, minY: Float, maxY: Float) {
        var box = cells[0].box
        for cell in cells.dropFirst() {
            box.minX = min(box.minX, cell.box.minX); box.maxX = max(box.maxX, cell.box.maxX)
            box.minY = min(box.minY, cell.box.minY); box.maxY = max(box.maxY, cell.box.maxY)
        }
        return box
    }

    static func put16(_ v: UInt16, at offset: Int, in blob: inout [UInt8]) {
        blob[offset] = UInt8(v >> 8); blob[offset + 1] = UInt8(v & 0xff)
    }

    static func put32(_ v: UInt32, at offset: Int, in blob: inout [UInt8]) {
        for i in 0..<4 { blob[offset + i] = UInt8((v >> (24 - 8 * UInt32(i))) & 0xff) }
    }

    static func put64(_ v: UInt64, at offset: Int, in blob: inout [UInt8]) {
        for i in 0..<8 { blob[offset + i] = UInt8((v >> (56 - 8 * UInt64(i))) & 0xff) }
    }
}
