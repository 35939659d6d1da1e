// Where every node is: 16 bytes per node (id + packed lat/lon) in fixed-size chunks, looked up by id.
import GeoDB

/// Node id → location, for building way geometry. Memory is exactly 16 bytes per node plus one chunk:
/// chunks are allocated at their final size, so the store never doubles a buffer while growing.
/// Ids are expected in ascending order, as every PBF and osmium-written XML has them; a file out of
/// order is sorted once when the first way arrives (which needs a second copy of the ids for that moment).
final class NodeLocationStore {
    static let chunkSize = 1 << 16

    private var chunkIDs: [UnsafeMutablePointer<Int64>] = []
    private var chunkLocations: [UnsafeMutablePointer<Int64>] = []
    private var chunkFirstIDs: [Int64] = []
    private var countInLastChunk = NodeLocationStore.chunkSize
    private(set) var count = 0
    private var lastID = Int64.min
    private var isSorted = true
    private var hint = (chunk: 0, index: 0)

    deinit {
        for pointer in chunkIDs { pointer.deallocate() }
        for pointer in chunkLocations { pointer.deallocate() }
    }

    /// Bytes held, for reporting.
    var memoryBytes: Int { chunkIDs.count * Self.chunkSize * 16 }

    func append(id: Int64, lat7: Int32, lon7: Int32) {
        if countInLastChunk == Self.chunkSize {
            chunkIDs.append(.allocate(capacity: Self.chunkSize))
            chunkLocations.append(.allocate(capacity: Self.chunkSize))
            chunkFirstIDs.append(id)
            countInLastChunk = 0
        }
        if id <= lastID { isSorted = false }
        lastID = id
        chunkIDs[chunkIDs.count - 1][countInLastChunk] = id
        chunkLocations[chunkLocations.count - 1][countInLastChunk] = Self.pack(lat7, lon7)
        countInLastChunk += 1
        count += 1
    }

    /// Makes lookups possible; sorts first when nodes came out of order.
    func seal() {
        guard !isSorted else { return }
        var pairs: [(Int64, Int64)] = []
        pairs.reserveCapacity(count)
        for c in chunkIDs.indices {
            let n = c == chunkIDs.count - 1 ? countInLastChunk : Self.chunkSize
            for i in 0..<n { pairs.append((chunkIDs[c][i], chunkLocations[c][i])) }
        }
        pairs.sort { $0.0 < $1.0 }
        for (offset, pair) in pairs.enumerated() {
            let c = offset / Self.chunkSize, i = offset % Self.chunkSize
            chunkIDs[c][i] = pair.0
            chunkLocations[c][i] = pair.1
            if i == 0 { chunkFirstIDs[c] = pair.0 }
        }
        isSorted = true
        lastID = pairs.last?.0 ?? Int64.min
    }

    /// The location of a node, or nil when the file does not have it.
    func location(of id: Int64) -> Point7? {
        guard !chunkIDs.isEmpty else { return nil }
        // Ways mostly list nodes that were stored one after another: try the next slot first.
        let next = hint.index + 1
        if hint.chunk < chunkIDs.count, next < size(of: hint.chunk), chunkIDs[hint.chunk][next] == id {
            hint.index = next
            return Self.unpack(chunkLocations[hint.chunk][next])
        }
        // The last chunk whose first id is <= id.
        var low = 0, high = chunkFirstIDs.count
        while low < high {
            let mid = (low + high) / 2
            if chunkFirstIDs[mid] <= id { low = mid + 1 } else { high = mid }
        }
        let chunk = low - 1
        guard chunk >= 0 else { return nil }
        let ids = chunkIDs[chunk]
        var lo = 0, hi = size(of: chunk)
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < size(of: chunk), ids[lo] == id else { return nil }
        hint = (chunk, lo)
        return Self.unpack(chunkLocations[chunk][lo])
    }

    private func size(of chunk: Int) -> Int { chunk == chunkIDs.count - 1 ? countInLastChunk : Self.chunkSize }

    @inline(__always)
    static func pack(_ lat: Int32, _ lon: Int32) -> Int64 {
        Int64(lat) << 32 | Int64(UInt32(bitPattern: lon))
    }

    @inline(__always)
    static func unpack(_ value: Int64) -> Point7 {
        Point7(lat: Int32(truncatingIfNeeded: value >> 32), lon: Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
    }
}

/// Way id → node ids, for assembling relation polygons after all ways are read. Node ids are stored
/// as zigzag varint deltas (1–3 bytes each in real data) in fixed 1 MiB pages, never one array per way.
final class WayRefStore {
    static let pageSize = 1 << 20

    private var pages: [UnsafeMutablePointer<UInt8>] = []
    private var used = WayRefStore.pageSize
    private var wayIDs: [Int64] = []
    private var offsets: [Int64] = []   // page << 32 | offset within page
    private var isSorted = true

    deinit { for page in pages { page.deallocate() } }

    var memoryBytes: Int { pages.count * Self.pageSize + wayIDs.capacity * 16 }

    func add(wayID: Int64, refs: [Int64]) {
        // Worst case 10 bytes per value plus the count; a way never spans pages.
        let needed = (refs.count + 1) * 10
        if used + needed > Self.pageSize {
            pages.append(.allocate(capacity: Swift.max(Self.pageSize, needed)))
            used = 0
        }
        if let last = wayIDs.last, wayID <= last { isSorted = false }
        wayIDs.append(wayID)
        offsets.append(Int64(pages.count - 1) << 32 | Int64(used))
        let page = pages[pages.count - 1]
        write(UInt64(refs.count), to: page)
        var previous: Int64 = 0
        for ref in refs {
            let delta = ref &- previous
            write(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)), to: page)
            previous = ref
        }
    }

    @inline(__always)
    private func write(_ value: UInt64, to page: UnsafeMutablePointer<UInt8>) {
        var v = value
        while v >= 0x80 {
            page[used] = UInt8(truncatingIfNeeded: v) | 0x80
            used += 1
            v >>= 7
        }
        page[used] = UInt8(v)
        used += 1
    }

    func seal() {
        guard !isSorted else { return }
        let order = wayIDs.indices.sorted { wayIDs[$0] < wayIDs[$1] }
        wayIDs = order.map { wayIDs[$0] }
        offsets = order.map { offsets[$0] }
        isSorted = true
    }

    /// The node ids of a way, or nil when the file does not have it.
    func refs(of wayID: Int64) -> [Int64]? {
        var lo = 0, hi = wayIDs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if wayIDs[mid] < wayID { lo = mid + 1 } else { hi = mid }
        }
        guard lo < wayIDs.count, wayIDs[lo] == wayID else { return nil }
        let page = pages[Int(offsets[lo] >> 32)]
        var position = Int(offsets[lo] & 0xffff_ffff)
        func read() -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = page[position]
                position += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }
        let count = Int(read())
        var refs: [Int64] = []
        refs.reserveCapacity(count)
        var previous: Int64 = 0
        for _ in 0..<count {
            let v = read()
            previous &+= Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
            refs.append(previous)
        }
        return refs
    }
}
