// Where every node is, delta-coded in small groups by id: about 7 bytes per node.
import GeoDB

/// Node id → location, for building way geometry. Nodes are kept in id order in groups of 32: the first
/// node of a group in full (id, lat, lon and where the group's bytes start: 24 bytes, under 1 byte per
/// node), the other 31 as varints of their differences from the node before (zigzag for coordinates).
/// Nodes with neighbouring ids were mostly mapped together, so id gaps and coordinate steps are small:
/// on tiled central Helsinki (×50) a node takes 7.3 bytes with the chunks' slack, where a 32-bit id
/// offset and packed coordinates took 12. Lookups find the group by binary search and decode at most 31 nodes; a way's next node
/// is usually the next one in the store, so lookups first continue from where the last one ended.
/// Ids are expected in ascending order, as PBF and osmium-written XML have them; a file out of order
/// is sorted once when the first way arrives (needing a plain copy, 16 bytes per node, for that moment).
final class NodeLocationStore {
    static let groupSize = 32

    private struct Head {
        var id: Int64
        var lat: Int32
        var lon: Int32
        /// Where the group's varints start in `bytes`.
        var position: Int
    }

    /// A decoded node and where the next one's varints start; the lookup cursor.
    private struct Cursor {
        var group: Int
        var index: Int
        var id: Int64
        var lat: Int32
        var lon: Int32
        var position: Int
    }

    private var heads = ChunkedArray<Head>()
    private var bytes = ByteChunks()
    private var last = Cursor(group: -1, index: 0, id: .min, lat: 0, lon: 0, position: 0)
    private var cursor: Cursor?
    private(set) var count = 0
    private var isSorted = true

    /// Bytes held, for reporting.
    var memoryBytes: Int { heads.memoryBytes + bytes.memoryBytes }

    func append(id: Int64, lat7: Int32, lon7: Int32) {
        if id <= last.id { isSorted = false }
        if count % Self.groupSize == 0 {
            // A group's varints (at most 31 × 3 × 10 bytes) never straddle two chunks of `bytes`.
            bytes.reserve(Self.groupSize * 30)
            heads.append(Head(id: id, lat: lat7, lon: lon7, position: bytes.count))
        } else {
            bytes.appendVarint(UInt64(bitPattern: id &- last.id))
            bytes.appendVarint(Self.zigzag(Int64(lat7) - Int64(last.lat)))
            bytes.appendVarint(Self.zigzag(Int64(lon7) - Int64(last.lon)))
        }
        last.id = id
        last.lat = lat7
        last.lon = lon7
        count += 1
    }

    /// Makes lookups possible; sorts first when nodes came out of order.
    func seal() {
        guard !isSorted else { return }
        var nodes: [(id: Int64, lat: Int32, lon: Int32)] = []
        nodes.reserveCapacity(count)
        forEach { nodes.append(($0, $1, $2)) }
        nodes.sort { $0.id < $1.id }
        heads = ChunkedArray()
        bytes = ByteChunks()
        count = 0
        last.id = .min
        cursor = nil
        for node in nodes { append(id: node.id, lat7: node.lat, lon7: node.lon) }
        isSorted = true
    }

    /// The location of a node, or nil when the file does not have it.
    func location(of id: Int64) -> Point7? {
        var c: Cursor
        if let current = cursor, current.id <= id, current.group + 1 == heads.count || heads[current.group + 1].id > id {
            c = current   // ahead of the last lookup, in its group
        } else {
            // The last group whose first id is <= id.
            let group = heads.lowerBound(id &+ 1) { $0.id } - 1
            guard group >= 0 else { return nil }
            let head = heads[group]
            c = Cursor(group: group, index: 0, id: head.id, lat: head.lat, lon: head.lon, position: head.position)
        }
        let size = c.group + 1 == heads.count ? count - c.group * Self.groupSize : Self.groupSize
        while c.id < id && c.index + 1 < size {
            c.id &+= Int64(bitPattern: bytes.readVarint(at: &c.position))
            c.lat = Int32(truncatingIfNeeded: Int64(c.lat) + Self.unzigzag(bytes.readVarint(at: &c.position)))
            c.lon = Int32(truncatingIfNeeded: Int64(c.lon) + Self.unzigzag(bytes.readVarint(at: &c.position)))
            c.index += 1
        }
        cursor = c
        return c.id == id ? Point7(lat: c.lat, lon: c.lon) : nil
    }

    /// Every node in storage order.
    private func forEach(_ body: (Int64, Int32, Int32) -> Void) {
        for group in 0..<heads.count {
            let head = heads[group]
            var id = head.id, lat = Int64(head.lat), lon = Int64(head.lon), position = head.position
            body(id, head.lat, head.lon)
            for _ in 1..<min(Self.groupSize, count - group * Self.groupSize) {
                id &+= Int64(bitPattern: bytes.readVarint(at: &position))
                lat += Self.unzigzag(bytes.readVarint(at: &position))
                lon += Self.unzigzag(bytes.readVarint(at: &position))
                body(id, Int32(truncatingIfNeeded: lat), Int32(truncatingIfNeeded: lon))
            }
        }
    }

    @inline(__always)
    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    @inline(__always)
    private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}

/// Append-only bytes in chunks of 1 MiB (growing never copies), addressed by a global position.
final class ByteChunks {
    private static var shift: Int { 20 }
    private static var chunkSize: Int { 1 << shift }
    private var chunks: [UnsafeMutablePointer<UInt8>] = []
    /// The position the next byte is written at.
    private(set) var count = 0

    deinit { for chunk in chunks { chunk.deallocate() } }

    var memoryBytes: Int { chunks.count * Self.chunkSize }

    /// Makes sure the next `bytes` bytes go into one chunk, starting a new chunk if needed.
    func reserve(_ bytes: Int) {
        if count + bytes > chunks.count << Self.shift {
            chunks.append(.allocate(capacity: Self.chunkSize))
            count = (chunks.count - 1) << Self.shift
        }
    }

    @inline(__always)
    func appendVarint(_ value: UInt64) {
        var v = value
        let chunk = chunks[count >> Self.shift]
        var offset = count & (Self.chunkSize - 1)
        while v >= 0x80 {
            chunk[offset] = UInt8(truncatingIfNeeded: v) | 0x80
            offset += 1
            v >>= 7
        }
        chunk[offset] = UInt8(v)
        count = (count & ~(Self.chunkSize - 1)) + offset + 1
    }

    /// Decodes the varint at `position` (within one chunk, as `reserve` arranged) and moves past it.
    @inline(__always)
    func readVarint(at position: inout Int) -> UInt64 {
        let chunk = chunks[position >> Self.shift]
        var offset = position & (Self.chunkSize - 1)
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = chunk[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        position = (position & ~(Self.chunkSize - 1)) + offset
        return value
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
