// Where every node is: 12 bytes per node (a 32-bit id offset and packed lat/lon) in chunks, by id.
import GeoDB

/// Node id → location, for building way geometry. A chunk holds up to 4,096 nodes as 32-bit offsets
/// from the chunk's first id plus 64-bit packed coordinates: 12 bytes per node, never a doubled buffer;
/// a chunk ends early where ids jump by more than 2³², so chunks are small to waste little then. Ids are expected in ascending order, as PBF and osmium-written XML have them; a file
/// out of order is sorted once when the first way arrives (needing a second copy for that moment).
final class NodeLocationStore {
    static let chunkSize = 1 << 12

    private struct Chunk {
        var base: Int64
        var offsets: UnsafeMutablePointer<UInt32>
        var locations: UnsafeMutablePointer<Int64>
        var count: Int
    }

    private var chunks: [Chunk] = []
    private var bases: [Int64] = []   // chunks[i].base, contiguous for the binary search
    private(set) var count = 0
    private var lastID = Int64.min
    private var isSorted = true
    private var hint = (chunk: 0, index: 0)

    deinit { release() }

    private func release() {
        for chunk in chunks {
            chunk.offsets.deallocate()
            chunk.locations.deallocate()
        }
        chunks = []
        bases = []
    }

    /// Bytes held, for reporting.
    var memoryBytes: Int { chunks.count * (Self.chunkSize * 12 + MemoryLayout<Chunk>.stride + 8) }

    func append(id: Int64, lat7: Int32, lon7: Int32) {
        if id <= lastID { isSorted = false }
        lastID = id
        let last = chunks.count - 1
        if last < 0 || chunks[last].count == Self.chunkSize || id < chunks[last].base
            || id - chunks[last].base > Int64(UInt32.max) {
            chunks.append(Chunk(base: id, offsets: .allocate(capacity: Self.chunkSize),
                                locations: .allocate(capacity: Self.chunkSize), count: 0))
            bases.append(id)
        }
        let c = chunks.count - 1
        chunks[c].offsets[chunks[c].count] = UInt32(id - chunks[c].base)
        chunks[c].locations[chunks[c].count] = Self.pack(lat7, lon7)
        chunks[c].count += 1
        count += 1
    }

    /// Makes lookups possible; sorts first when nodes came out of order.
    func seal() {
        guard !isSorted else { return }
        var pairs: [(id: Int64, location: Int64)] = []
        pairs.reserveCapacity(count)
        for chunk in chunks {
            for i in 0..<chunk.count { pairs.append((chunk.base + Int64(chunk.offsets[i]), chunk.locations[i])) }
        }
        pairs.sort { $0.id < $1.id }
        release()
        count = 0
        lastID = Int64.min
        for pair in pairs {
            append(id: pair.id, lat7: Int32(truncatingIfNeeded: pair.location >> 32),
                   lon7: Int32(bitPattern: UInt32(truncatingIfNeeded: pair.location)))
        }
        isSorted = true
    }

    /// The location of a node, or nil when the file does not have it.
    func location(of id: Int64) -> Point7? {
        guard !chunks.isEmpty else { return nil }
        // Ways mostly list nodes that were stored one after another: try the next slot first.
        if hint.chunk < chunks.count {
            let chunk = chunks[hint.chunk], next = hint.index + 1
            if next < chunk.count, chunk.base + Int64(chunk.offsets[next]) == id {
                hint.index = next
                return Self.unpack(chunk.locations[next])
            }
        }
        // The last chunk whose base is <= id.
        var low = 0, high = bases.count
        while low < high {
            let mid = (low + high) / 2
            if bases[mid] <= id { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let chunk = chunks[low - 1]
        let delta = id - chunk.base
        guard delta <= Int64(UInt32.max) else { return nil }
        let target = UInt32(delta)
        var lo = 0, hi = chunk.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunk.offsets[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        guard lo < chunk.count, chunk.offsets[lo] == target else { return nil }
        hint = (low - 1, lo)
        return Self.unpack(chunk.locations[lo])
    }

    @inline(__always)
    static func pack(_ lat: Int32, _ lon: Int32) -> Int64 {
        Int64(lat) << 32 | Int64(UInt32(bitPattern: lon))
    }

    @inline(__always)
    static func unpack(_ value: Int64) -> Point7 {
        Point7(lat: Int32(truncatingIfNeeded: value >> 32), lon: Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
    }
}

/// Way id → node ids, for assembling relation polygons after all ways are read. The node ids go to a
/// scratch file as zigzag varint deltas; memory holds 16 bytes per way (id and file position).
final class WayRefStore {
    private let spill: SpillFile
    private var ids = ChunkedArray<Int64>()
    /// File offset << 24 | byte length of each way's varints.
    private var positions = ChunkedArray<Int64>()
    private var isSorted = true
    private var encoded: [UInt8] = []
    private var readBuffer: [UInt8] = []

    init(spill: SpillFile) {
        self.spill = spill
    }

    var memoryBytes: Int { ids.memoryBytes + positions.memoryBytes }

    func add(wayID: Int64, refs: [Int64]) throws {
        encoded.removeAll(keepingCapacity: true)
        var previous: Int64 = 0
        for ref in refs {
            let delta = ref &- previous
            var v = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
            while v >= 0x80 {
                encoded.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            encoded.append(UInt8(v))
            previous = ref
        }
        guard encoded.count < 1 << 24 else { return }   // an absurd way (OSM caps ways at 2,000 nodes)
        if let last = ids.last, wayID <= last { isSorted = false }
        ids.append(wayID)
        positions.append(spill.size << 24 | Int64(encoded.count))
        try encoded.withUnsafeBytes { try spill.append($0) }
    }

    func seal() {
        guard !isSorted else { return }
        let order = (0..<ids.count).sorted { ids[$0] < ids[$1] }
        let sortedIDs = ChunkedArray<Int64>(), sortedPositions = ChunkedArray<Int64>()
        for i in order {
            sortedIDs.append(ids[i])
            sortedPositions.append(positions[i])
        }
        ids = sortedIDs
        positions = sortedPositions
        isSorted = true
    }

    /// The node ids of a way, or nil when the file does not have it.
    func refs(of wayID: Int64) throws -> [Int64]? {
        let index = ids.lowerBound(wayID) { $0 }
        guard index < ids.count, ids[index] == wayID else { return nil }
        let position = positions[index]
        let length = Int(position & 0xff_ffff)
        try spill.read(at: position >> 24, count: length, into: &readBuffer)
        var refs: [Int64] = []
        var previous: Int64 = 0, value: UInt64 = 0, shift: UInt64 = 0
        for byte in readBuffer[0..<length] {
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 {
                previous &+= Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
                refs.append(previous)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return refs
    }
}

/// House number, street and postcode of every node with `addr:housenumber`, for the ends of
/// interpolation lines: parallel arrays and one byte buffer instead of a dictionary of strings.
struct AddressNodeIndex {
    private var ids: [Int64] = []
    private var ends: [Int] = []
    private var bytes: [UInt8] = []
    private var isSorted = true
    private static let separator: UInt8 = 0x1f

    mutating func add(id: Int64, housenumber: String, street: String?, postcode: String?) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
        bytes += housenumber.utf8
        bytes.append(Self.separator)
        bytes += (street ?? "").utf8
        bytes.append(Self.separator)
        bytes += (postcode ?? "").utf8
        ends.append(bytes.count)
    }

    mutating func seal() {
        guard !isSorted else { return }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        var newBytes: [UInt8] = [], newEnds: [Int] = []
        for i in order {
            newBytes += entry(i)
            newEnds.append(newBytes.count)
        }
        ids = order.map { ids[$0] }
        bytes = newBytes
        ends = newEnds
        isSorted = true
    }

    private func entry(_ i: Int) -> ArraySlice<UInt8> {
        bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
    }

    func lookup(_ id: Int64) -> (housenumber: String, street: String?, postcode: String?)? {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < ids.count, ids[lo] == id else { return nil }
        let parts = entry(lo).split(separator: Self.separator, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        return (parts[0], parts[1].isEmpty ? nil : parts[1], parts[2].isEmpty ? nil : parts[2])
    }
}
