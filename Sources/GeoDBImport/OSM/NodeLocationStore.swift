// Where every node is, and which nodes each way lists: id-sorted tables delta-coded in small groups.
import GeoDB

/// Node id → location, for building way geometry: about 7 bytes per node (`DeltaCodedIndex`; a 32-bit
/// id offset and packed coordinates took 12), 6 of them on disk beyond the budget. Ids are expected in
/// ascending order, as PBF and osmium-written XML have them; a file out of order is sorted once when the
/// first way arrives.
final class NodeLocationStore {
    private let index: DeltaCodedIndex

    /// `budget`: the memory it may take (nil: all it needs).
    init(budget: MemoryBudget? = nil) {
        index = DeltaCodedIndex(budget: budget)
    }

    /// Bytes held in memory, for reporting.
    var memoryBytes: Int { index.memoryBytes }
    /// Bytes on disk beyond the budget.
    var spilledBytes: Int { index.spilledBytes }
    var count: Int { index.count }

    func append(id: Int64, lat7: Int32, lon7: Int32) throws {
        try index.append(id: id, Int64(lat7), Int64(lon7))
    }

    /// Makes lookups possible; sorts first when nodes came out of order.
    func seal() throws { try index.seal() }

    /// The location of a node, or nil when the file does not have it. One thread at a time (see `Reader`).
    func location(of id: Int64) throws -> Point7? {
        try index.lookup(id).map(Self.point)
    }

    /// Lookups for another thread, once sealed.
    func makeReader() -> Reader { Reader(index: DeltaCodedIndex.Reader(index)) }

    struct Reader {
        let index: DeltaCodedIndex.Reader

        func location(of id: Int64) throws -> Point7? {
            try index.lookup(id).map(NodeLocationStore.point)
        }
    }

    private static func point(_ values: (Int64, Int64)) -> Point7 {
        Point7(lat: Int32(truncatingIfNeeded: values.0), lon: Int32(truncatingIfNeeded: values.1))
    }
}

/// Way id → node ids, for assembling relation polygons after all ways are read: the ids as zigzag
/// varint deltas in `SpilledRecords`.
final class WayRefStore {
    private let records: SpilledRecords
    // Unchecked exclusivity: `add` passes it inout once per node reference.
    @exclusivity(unchecked) private var encoded: [UInt8] = []

    init(spill: SpillFile, budget: MemoryBudget? = nil) {
        records = SpilledRecords(spill: spill, budget: budget)
    }

    var memoryBytes: Int { records.memoryBytes }
    var spilledBytes: Int { records.spilledBytes }

    func add(wayID: Int64, refs: [Int64]) throws {
        encoded.removeAll(keepingCapacity: true)
        var previous: Int64 = 0
        for ref in refs {
            Varint.append(Varint.zigzag(ref &- previous), to: &encoded)
            previous = ref
        }
        try records.append(id: wayID, encoded)
    }

    func seal() throws { try records.seal() }

    /// The node ids of a way, or nil when the file does not have it.
    func refs(of wayID: Int64) throws -> [Int64]? {
        try records.read(wayID) { bytes in
            var refs: [Int64] = []
            var previous: Int64 = 0, value: UInt64 = 0, shift: UInt64 = 0
            for byte in bytes {
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 {
                    previous &+= Varint.unzigzag(value)
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
}

/// House number, street and postcode of every node with `addr:housenumber`, for the ends of
/// interpolation lines, as separated texts in `SpilledRecords`.
final class AddressNodeIndex {
    private let records: SpilledRecords
    private var encoded: [UInt8] = []
    private static let separator: UInt8 = 0x1f

    init(spill: SpillFile, budget: MemoryBudget? = nil) {
        records = SpilledRecords(spill: spill, budget: budget)
    }

    func add(id: Int64, housenumber: String, street: String?, postcode: String?) throws {
        encoded.removeAll(keepingCapacity: true)
        encoded += housenumber.utf8
        encoded.append(Self.separator)
        encoded += (street ?? "").utf8
        encoded.append(Self.separator)
        encoded += (postcode ?? "").utf8
        try records.append(id: id, encoded)
    }

    func seal() throws { try records.seal() }

    func lookup(_ id: Int64) throws -> (housenumber: String, street: String?, postcode: String?)? {
        try records.read(id) { bytes in
            let parts = bytes.split(separator: Self.separator, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            return (parts[0], parts[1].isEmpty ? nil : parts[1], parts[2].isEmpty ? nil : parts[2])
        }
    }
}

/// The entrance nodes of a file (`OSMClassifier.entrance`), for the places made of ways: their ids in memory,
/// sorted (8 bytes a node: every node of such a way is looked for), their location, type and tags in
/// `SpilledRecords` (read only for a way's few hits).
final class EntranceNodeIndex {
    private let records: SpilledRecords
    private var ids: [Int64] = []
    private var encoded: [UInt8] = []
    private static let separator: UInt8 = 0x1f

    init(spill: SpillFile, budget: MemoryBudget? = nil) {
        records = SpilledRecords(spill: spill, budget: budget)
    }

    var isEmpty: Bool { ids.isEmpty }

    func add(id: Int64, at point: Point7, type: String, tags: [(key: String, value: String)]) throws {
        encoded.removeAll(keepingCapacity: true)
        Varint.append(Varint.zigzag(Int64(point.lat)), to: &encoded)
        Varint.append(Varint.zigzag(Int64(point.lon)), to: &encoded)
        // The tags as JSON first: JSON escapes control characters, so the separator cannot be in it.
        if !tags.isEmpty { encoded += JSONText.object(tags).utf8 }
        encoded.append(Self.separator)
        encoded += type.utf8
        try records.append(id: id, encoded)
        ids.append(id)
    }

    /// Makes lookups possible; sorts first when nodes came out of order.
    func seal() throws {
        try records.seal()
        if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) { ids = Array(Set(ids)).sorted() }
    }

    /// The entrances among a way's nodes, by node id, each once (a closed way lists its first node twice).
    func entrances(among refs: [Int64]) throws -> [PlaceEntrance] {
        var found: [Int64] = []
        for ref in refs where contains(ref) && !found.contains(ref) { found.append(ref) }
        return try found.sorted().compactMap(entrance)
    }

    private func contains(_ id: Int64) -> Bool {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }

    private func entrance(_ id: Int64) throws -> PlaceEntrance? {
        try records.read(id) { bytes -> PlaceEntrance? in
            // Written by `add` in this import: the two varints are there.
            var offset = 0
            let decoded = bytes.withUnsafeBufferPointer { buffer -> (lat: Int64, lon: Int64)? in
                guard let base = buffer.baseAddress else { return nil }
                return (Varint.unzigzag(Varint.read(base, at: &offset)), Varint.unzigzag(Varint.read(base, at: &offset)))
            }
            let rest = bytes.dropFirst(offset)
            guard let (lat, lon) = decoded, let separator = rest.firstIndex(of: Self.separator) else { return nil }
            let json = String(decoding: rest[..<separator], as: UTF8.self)
            let point = Point7(lat: Int32(truncatingIfNeeded: lat), lon: Int32(truncatingIfNeeded: lon))
            return PlaceEntrance(osmID: id, type: String(decoding: rest[(separator + 1)...], as: UTF8.self), coordinate: point.coordinate,
                                 tags: json.isEmpty ? [:] : JSONText.stringObject(json) ?? [:])
        } ?? nil
    }
}

/// Byte records by id, written once and read back rarely: the bytes go to a scratch file, memory holds
/// each record's id, file position and length in a `DeltaCodedIndex` (about 4 bytes per record; beyond
/// `budget`, 0.5 in memory and the rest in a scratch file of its own).
final class SpilledRecords {
    private let spill: SpillFile
    private let index: DeltaCodedIndex
    private var readBuffer: [UInt8] = []

    init(spill: SpillFile, budget: MemoryBudget? = nil) {
        self.spill = spill
        index = DeltaCodedIndex(budget: budget)
    }

    var memoryBytes: Int { index.memoryBytes }
    var spilledBytes: Int { index.spilledBytes }

    func append(id: Int64, _ bytes: [UInt8]) throws {
        try index.append(id: id, spill.size, Int64(bytes.count))
        try bytes.withUnsafeBytes { try spill.append($0) }
    }

    /// Makes lookups possible; sorts first when ids came out of order.
    func seal() throws { try index.seal() }

    /// `decode` applied to the record of `id`, or nil when there is none.
    func read<T>(_ id: Int64, _ decode: (ArraySlice<UInt8>) -> T) throws -> T? {
        guard let (offset, length) = try index.lookup(id) else { return nil }
        try spill.read(at: offset, count: Int(length), into: &readBuffer)
        return decode(readBuffer[0..<Int(length)])
    }
}
