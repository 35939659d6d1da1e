// A static tree over boxes, so that a question about a point or a box looks at the few boxes near it
// rather than every box: a polygon's tens of thousands of holes, a relation's tens of thousands of rings
// or loose ends. Sort-Tile-Recursive packing, 16 boxes to a node.

/// Boxes (bounds included) numbered by where they were given, packed into a tree of boxes around them.
///
/// ```swift
/// let tree = BoxTree([holeA.box, holeB.box])
/// let hole = tree.first(containingX: x, y: y) { crosses(hole: $0) }
/// ```
package struct BoxTree: Sendable {
    static let fanout = 16

    /// The given boxes, by number.
    package let boxes: [Box7]
    /// Box numbers in leaf order: level 0 node k holds `order[k * fanout ..< (k + 1) * fanout]`.
    private let order: [Int32]
    /// Node boxes level by level from level 0 up to the root (the last node); node k of level L > 0 groups
    /// nodes `k * fanout ..< (k + 1) * fanout` of level L - 1.
    private let nodes: [Box7]
    /// The largest box number under each node (for `largest(below:containingX:y:where:)`).
    private let largestEntry: [Int32]
    /// Level L is `nodes[levelStarts[L] ..< levelStarts[L + 1]]`.
    private let levelStarts: [Int]

    package init(_ boxes: [Box7]) {
        self.boxes = boxes
        // Sort-Tile-Recursive: vertical slices of boxes sorted by centre longitude, each slice sorted by
        // centre latitude, cut into nodes of `fanout`: neighbours share nodes, so node boxes stay small.
        func centerX(_ i: Int32) -> Int64 { Int64(boxes[Int(i)].minX) + Int64(boxes[Int(i)].maxX) }
        func centerY(_ i: Int32) -> Int64 { Int64(boxes[Int(i)].minY) + Int64(boxes[Int(i)].maxY) }
        var order = (0..<Int32(boxes.count)).sorted { centerX($0) < centerX($1) }
        let leaves = (boxes.count + Self.fanout - 1) / Self.fanout
        let sliceSize = Self.fanout * Int(Double(leaves).squareRoot().rounded(.up))
        for start in stride(from: 0, to: order.count, by: max(sliceSize, 1)) {
            let end = min(start + sliceSize, order.count)
            order[start..<end].sort { centerY($0) < centerY($1) }
        }
        var nodes: [Box7] = [], largest: [Int32] = [], levelStarts = [0]
        for first in stride(from: 0, to: order.count, by: Self.fanout) {
            let members = order[first..<min(first + Self.fanout, order.count)]
            nodes.append(Self.union(members.map { boxes[Int($0)] }))
            largest.append(members.max()!)
        }
        levelStarts.append(nodes.count)
        while levelStarts[levelStarts.count - 1] - levelStarts[levelStarts.count - 2] > 1 {
            let below = levelStarts[levelStarts.count - 2]..<levelStarts[levelStarts.count - 1]
            for first in stride(from: below.lowerBound, to: below.upperBound, by: Self.fanout) {
                let children = first..<min(first + Self.fanout, below.upperBound)
                nodes.append(Self.union(children.map { nodes[$0] }))
                largest.append(children.map { largest[$0] }.max()!)
            }
            levelStarts.append(nodes.count)
        }
        self.order = order
        self.nodes = nodes
        self.largestEntry = largest
        self.levelStarts = levelStarts
    }

    private static func union(_ boxes: [Box7]) -> Box7 {
        boxes.dropFirst().reduce(boxes[0]) { box, b in
            Box7(minX: min(box.minX, b.minX), minY: min(box.minY, b.minY), maxX: max(box.maxX, b.maxX), maxY: max(box.maxY, b.maxY))
        }
    }

    private var rootLevel: Int { levelStarts.count - 2 }

    /// The box numbers (level 0) or nodes of the level below (level > 0) that node k of `level` groups.
    private func children(level: Int, node k: Int) -> Range<Int> {
        let count = level == 0 ? order.count : levelStarts[level] - levelStarts[level - 1]
        return k * Self.fanout..<min((k + 1) * Self.fanout, count)
    }

    /// The first box found that `keep(box)` says may hold an answer and `test(number)` accepts; whole
    /// nodes whose box `keep` refuses are skipped.
    private func first(keep: (Box7) -> Bool, _ test: (Int) -> Bool) -> Int? {
        guard !boxes.isEmpty else { return nil }
        func visit(level: Int, node k: Int) -> Int? {
            guard keep(nodes[levelStarts[level] + k]) else { return nil }
            for child in children(level: level, node: k) {
                if level == 0 {
                    let entry = Int(order[child])
                    if keep(boxes[entry]), test(entry) { return entry }
                } else if let found = visit(level: level - 1, node: child) {
                    return found
                }
            }
            return nil
        }
        return visit(level: rootLevel, node: 0)
    }

    /// A box around the point (bounds included) that `test` accepts, or nil.
    package func first(containingX x: Int32, y: Int32, where test: (Int) -> Bool) -> Int? {
        first(keep: { $0.minX <= x && x <= $0.maxX && $0.minY <= y && y <= $0.maxY }, test)
    }

    /// A box meeting `box` (bounds included) that `test` accepts, or nil.
    package func first(meeting box: Box7, where test: (Int) -> Bool) -> Int? {
        first(keep: { $0.minX <= box.maxX && $0.maxX >= box.minX && $0.minY <= box.maxY && $0.maxY >= box.minY }, test)
    }

    /// The largest box number below `limit` whose box holds the point (bounds included) and that `test`
    /// accepts. Boxes are tested in decreasing number, each at most once, so `test` sees exactly the
    /// numbers a scan from `limit - 1` down would, less those whose box leaves the point out: nodes wait in
    /// a heap ordered by the largest number under them.
    package func largest(below limit: Int, containingX x: Int32, y: Int32, where test: (Int) -> Bool) -> Int? {
        guard !boxes.isEmpty else { return nil }
        func holds(_ box: Box7) -> Bool { box.minX <= x && x <= box.maxX && box.minY <= y && y <= box.maxY }
        // (largest number under it, level, node); level -1 is a box itself.
        var heap: [(key: Int32, level: Int, node: Int)] = []
        func push(_ item: (key: Int32, level: Int, node: Int)) {
            heap.append(item)
            var i = heap.count - 1
            while i > 0, heap[(i - 1) / 2].key < heap[i].key { heap.swapAt(i, (i - 1) / 2); i = (i - 1) / 2 }
        }
        func pop() -> (key: Int32, level: Int, node: Int) {
            let top = heap[0]
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            var i = 0
            while true {
                var largest = i
                for child in [2 * i + 1, 2 * i + 2] where child < heap.count && heap[child].key > heap[largest].key { largest = child }
                guard largest != i else { return top }
                heap.swapAt(i, largest)
                i = largest
            }
        }
        let root = levelStarts[rootLevel]
        if holds(nodes[root]) { push((largestEntry[root], rootLevel, 0)) }
        while !heap.isEmpty {
            let item = pop()
            if item.level < 0 {
                if Int(item.key) < limit, test(Int(item.key)) { return Int(item.key) }
                continue
            }
            for child in children(level: item.level, node: item.node) {
                if item.level == 0 {
                    let entry = order[child]
                    if holds(boxes[Int(entry)]) { push((entry, -1, 0)) }
                } else {
                    let index = levelStarts[item.level - 1] + child
                    if holds(nodes[index]) { push((largestEntry[index], item.level - 1, child)) }
                }
            }
        }
        return nil
    }

    /// Branch and bound: calls `visit` with every box whose `lowerBound` is at most `bound()` at the time,
    /// nearest nodes first, so that `bound()` (the best answer so far) shrinks early and prunes the rest.
    /// A box at exactly the bound is visited, so ties can be broken by the caller.
    package func search(lowerBound: (Box7) -> Double, bound: () -> Double, _ visit: (Int) -> Void) {
        guard !boxes.isEmpty else { return }
        func descend(level: Int, node k: Int) {
            var near: [(bound: Double, child: Int)] = []
            for child in children(level: level, node: k) {
                let box = level == 0 ? boxes[Int(order[child])] : nodes[levelStarts[level - 1] + child]
                let d = lowerBound(box)
                if d <= bound() { near.append((d, child)) }
            }
            near.sort { $0.bound < $1.bound }
            for (d, child) in near where d <= bound() {
                if level == 0 { visit(Int(order[child])) } else { descend(level: level - 1, node: child) }
            }
        }
        if lowerBound(nodes[levelStarts[rootLevel]]) <= bound() { descend(level: rootLevel, node: 0) }
    }
}
