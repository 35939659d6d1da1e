// An id-sorted table of two integers per id, delta-coded in small groups: the import's node and way stores.

/// Id → two integers (a node's lat/lon, a way's file position/length), for ids appended in ascending
/// order (`seal()` sorts them otherwise, once, needing a plain copy of 24 bytes per entry for that moment).
/// Entries are kept in groups of 32: the first of a group whole (id, both values and where the group's
/// bytes start: 32 bytes, 1 byte per entry), the other 31 as varints of their id gap and zigzag steps of
/// both values from the entry before. OSM objects with neighbouring ids were mostly mapped together, so
/// gaps and steps are small: a node takes about 7 bytes with the chunks' slack where a 32-bit id offset
/// and packed coordinates took 12.
///
/// A lookup finds the group (the last one's again, else a binary search over every 64th group's first
/// id, then over those 64), decodes it whole into a small cache of recent groups, and searches there:
/// the nodes of neighbouring ways fall in the same few groups. The cache belongs to a `Reader`: once
/// sealed, the index can be read from several threads, each with a reader of its own.
final class DeltaCodedIndex {
    static let groupSize = 32
    /// Groups per entry of `sampleIDs`.
    static let sampleStride = 64
    /// Decoded groups kept (a power of two): 256 × 32 entries × 24 bytes, 196 KiB.
    static let cacheSlots = 256

    private struct Head {
        var id: Int64
        var a: Int64
        var b: Int64
        /// Where the group's varints start in `bytes`.
        var position: Int
    }

    // Run-time exclusivity checks on these fields were ~5% of the decoding thread (three per varint read);
    // no access overlaps another: each is a plain read or write inside one method, and once sealed the
    // index is only read (by readers on any thread).
    @exclusivity(unchecked) private var heads = ChunkedArray<Head>()
    @exclusivity(unchecked) private var bytes = ByteChunks()
    /// The first id of every `sampleStride`-th group: the first level of a lookup's search, small enough
    /// for the processor's cache.
    @exclusivity(unchecked) private var sampleIDs: [Int64] = []
    @exclusivity(unchecked) private var last = (id: Int64.min, a: Int64(0), b: Int64(0))
    @exclusivity(unchecked) private(set) var count = 0
    private var isSorted = true
    /// The reader of `lookup`, made at the first lookup after `seal()`.
    @exclusivity(unchecked) private var ownReader: Reader?

    /// Bytes held, for reporting (without readers' caches: 196 KiB each).
    var memoryBytes: Int { heads.memoryBytes + bytes.memoryBytes + sampleIDs.count * 8 }

    func append(id: Int64, _ a: Int64, _ b: Int64) {
        if id <= last.id { isSorted = false }
        if count % Self.groupSize == 0 {
            // A group's varints (at most 31 × 3 × 10 bytes) never straddle two chunks of `bytes`.
            bytes.reserve(Self.groupSize * 30)
            if heads.count % Self.sampleStride == 0 { sampleIDs.append(id) }
            heads.append(Head(id: id, a: a, b: b, position: bytes.count))
        } else {
            bytes.appendVarint(UInt64(bitPattern: id &- last.id))
            bytes.appendVarint(Varint.zigzag(a &- last.a))
            bytes.appendVarint(Varint.zigzag(b &- last.b))
        }
        last = (id, a, b)
        count += 1
    }

    /// Makes lookups possible; sorts first when ids came out of order.
    func seal() {
        ownReader = nil
        guard !isSorted else { return }
        var entries: [(id: Int64, a: Int64, b: Int64)] = []
        entries.reserveCapacity(count)
        forEach { entries.append(($0, $1, $2)) }
        entries.sort { $0.id < $1.id }
        heads = ChunkedArray()
        bytes = ByteChunks()
        sampleIDs = []
        count = 0
        last.id = .min
        for entry in entries { append(id: entry.id, entry.a, entry.b) }
        isSorted = true
    }

    /// The values stored for `id`, or nil when there are none. One thread at a time; other threads
    /// looking up at the same time use a `Reader` each.
    func lookup(_ id: Int64) -> (Int64, Int64)? {
        if ownReader == nil { ownReader = Reader(ownedBy: self) }
        return ownReader!.lookup(id)
    }

    /// Lookups with a cache of their own, for one thread; the index must be sealed and stay unchanged.
    final class Reader {
        /// The index read. Not counted as a reference (no cost per access, and the index's own reader
        /// would otherwise keep it alive for good: a fuzz run found every import's node store leaked).
        private unowned(unsafe) let index: DeltaCodedIndex
        /// The index, kept alive by a reader of another thread; nil for the index's own reader.
        private let keepAlive: DeltaCodedIndex?
        /// The group the last lookup found.
        @exclusivity(unchecked) private var lastGroup = -1
        /// Decoded groups: slot `g % cacheSlots` holds group `cachedGroup[slot]`, its ids and values at
        /// `slot * groupSize` in the three arrays.
        @exclusivity(unchecked) private var cachedGroup = [Int](repeating: -1, count: cacheSlots)
        @exclusivity(unchecked) private var cachedIDs = [Int64](repeating: 0, count: cacheSlots * groupSize)
        @exclusivity(unchecked) private var cachedA = [Int64](repeating: 0, count: cacheSlots * groupSize)
        @exclusivity(unchecked) private var cachedB = [Int64](repeating: 0, count: cacheSlots * groupSize)

        init(_ index: DeltaCodedIndex) {
            self.index = index
            keepAlive = index
        }

        /// The reader the index keeps for its own lookups.
        fileprivate init(ownedBy index: DeltaCodedIndex) {
            self.index = index
            keepAlive = nil
        }

        /// The values stored for `id`, or nil when there are none.
        func lookup(_ id: Int64) -> (Int64, Int64)? {
            guard let group = group(of: id) else { return nil }
            lastGroup = group
            let slot = group & (DeltaCodedIndex.cacheSlots - 1)
            if cachedGroup[slot] != group { decode(group, into: slot) }
            // Binary search among the group's decoded ids.
            let start = slot * DeltaCodedIndex.groupSize, end = start + index.size(of: group)
            var low = start, high = end
            while low < high {
                let mid = (low + high) >> 1
                if cachedIDs[mid] < id { low = mid + 1 } else { high = mid }
            }
            guard low < end, cachedIDs[low] == id else { return nil }
            return (cachedA[low], cachedB[low])
        }

        /// The group whose ids' range holds `id` (the last group whose first id is <= id), or nil.
        private func group(of id: Int64) -> Int? {
            let heads = index.heads
            if lastGroup >= 0, heads[lastGroup].id <= id, lastGroup + 1 == heads.count || heads[lastGroup + 1].id > id {
                return lastGroup
            }
            // The last sample <= id, then the last head <= id among the groups it starts.
            let samples = index.sampleIDs
            var low = 0, high = samples.count
            while low < high {
                let mid = (low + high) >> 1
                if samples[mid] <= id { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { return nil }
            var first = (low - 1) * DeltaCodedIndex.sampleStride, end = min(first + DeltaCodedIndex.sampleStride, heads.count)
            while first < end {
                let mid = (first + end) >> 1
                if heads[mid].id <= id { first = mid + 1 } else { end = mid }
            }
            return first - 1
        }

        private func decode(_ group: Int, into slot: Int) {
            let head = index.heads[group]
            let bytes = index.bytes
            var id = head.id, a = head.a, b = head.b, position = head.position
            let start = slot * DeltaCodedIndex.groupSize
            cachedIDs[start] = id
            cachedA[start] = a
            cachedB[start] = b
            for entry in 1..<index.size(of: group) {
                id &+= Int64(bitPattern: bytes.readVarint(at: &position))
                a &+= Varint.unzigzag(bytes.readVarint(at: &position))
                b &+= Varint.unzigzag(bytes.readVarint(at: &position))
                cachedIDs[start + entry] = id
                cachedA[start + entry] = a
                cachedB[start + entry] = b
            }
            cachedGroup[slot] = group
        }
    }

    private func size(of group: Int) -> Int {
        group + 1 == heads.count ? count - group * Self.groupSize : Self.groupSize
    }

    /// Every entry in storage order.
    private func forEach(_ body: (Int64, Int64, Int64) -> Void) {
        for group in 0..<heads.count {
            let head = heads[group]
            var id = head.id, a = head.a, b = head.b, position = head.position
            body(id, a, b)
            for _ in 1..<min(Self.groupSize, count - group * Self.groupSize) {
                id &+= Int64(bitPattern: bytes.readVarint(at: &position))
                a &+= Varint.unzigzag(bytes.readVarint(at: &position))
                b &+= Varint.unzigzag(bytes.readVarint(at: &position))
                body(id, a, b)
            }
        }
    }
}

/// Append-only bytes in chunks of 1 MiB (growing never copies), addressed by a global position.
final class ByteChunks {
    private static var shift: Int { 20 }
    private static var chunkSize: Int { 1 << shift }
    // Unchecked exclusivity: as in DeltaCodedIndex, whose lookups read here per varint.
    @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<UInt8>] = []
    /// The position the next byte is written at.
    @exclusivity(unchecked) private(set) var count = 0

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
