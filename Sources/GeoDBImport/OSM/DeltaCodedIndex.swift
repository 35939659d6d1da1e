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
///
/// With a `MemoryBudget`, the varints (six sevenths of the bytes) stay in memory while the budget grants
/// their chunks and go to a scratch file beyond it (`ByteChunks`); the heads stay in memory. Decoding a
/// group that is on disk reads its few hundred bytes with one `pread`, only when the group is not in the
/// reader's cache, which is what keeps that cheap.
final class DeltaCodedIndex {
    static let groupSize = 32
    /// Groups per entry of `sampleIDs`.
    static let sampleStride = 64
    /// The most decoded groups a reader keeps (a power of two): 4,096 × 32 entries × 24 bytes, 3 MiB, for
    /// an index of as many groups or more; a smaller index's readers keep as many as it has. The nodes of
    /// the ways of a few large boundary relations, which the next relations share, stay decoded: with 256
    /// (8,192 nodes) every relation of Monaco ×20 decoded its ways' groups anew, and its import took 19 %
    /// more wall time (the decoding, 12 % of its instructions; `DeltaCodedIndex.Reader.lookup`).
    static let cacheSlots = 4096
    /// The most bytes a group's varints take: 31 entries × 3 varints × 10 bytes, rounded up.
    static let groupBytes = groupSize * 30

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
    @exclusivity(unchecked) private var heads: ChunkedArray<Head>
    @exclusivity(unchecked) private var bytes: ByteChunks
    /// The first id of every `sampleStride`-th group: the first level of a lookup's search, small enough
    /// for the processor's cache.
    @exclusivity(unchecked) private var sampleIDs: [Int64] = []
    @exclusivity(unchecked) private var last = (id: Int64.min, a: Int64(0), b: Int64(0))
    @exclusivity(unchecked) private(set) var count = 0
    private var isSorted = true
    /// The reader of `lookup`, made at the first lookup after `seal()`.
    @exclusivity(unchecked) private var ownReader: Reader?
    private let budget: MemoryBudget?

    /// `budget`: the memory the index may take, shared with the import's other stores; without one, all it needs.
    init(budget: MemoryBudget? = nil) {
        self.budget = budget
        heads = ChunkedArray(budget: budget)
        bytes = ByteChunks(budget: budget)
    }

    /// Bytes held in memory, for reporting (without readers' caches: up to 3 MiB each, `cacheSlots`).
    var memoryBytes: Int { heads.memoryBytes + bytes.memoryBytes + sampleIDs.count * 8 }
    /// Bytes in the scratch file, beyond the budget.
    var spilledBytes: Int { bytes.spilledBytes }

    func append(id: Int64, _ a: Int64, _ b: Int64) throws {
        if id <= last.id { isSorted = false }
        if count % Self.groupSize == 0 {
            // A group's varints never straddle two chunks of `bytes`.
            try bytes.reserve(Self.groupBytes)
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

    /// Makes lookups possible; sorts first when ids came out of order. Sorting takes a plain copy of the
    /// entries, 24 bytes each, whatever the budget (PBF files and osmium's XML are sorted).
    func seal() throws {
        ownReader = nil
        try bytes.finishWriting()
        guard !isSorted else { return }
        var entries: [(id: Int64, a: Int64, b: Int64)] = []
        entries.reserveCapacity(count)
        let reader = Reader(self)
        for group in 0..<heads.count {
            try reader.decode(group, into: 0)
            reader.forEachCached(slot: 0, count: size(of: group)) { entries.append(($0, $1, $2)) }
        }
        entries.sort { $0.id < $1.id }
        // The old bytes and their scratch file go before the sorted copy claims the budget.
        heads = ChunkedArray(budget: budget)
        bytes = ByteChunks(budget: budget)
        sampleIDs = []
        count = 0
        last.id = .min
        for entry in entries { try append(id: entry.id, entry.a, entry.b) }
        try bytes.finishWriting()
        isSorted = true
    }

    /// The values stored for `id`, or nil when there are none. One thread at a time; other threads
    /// looking up at the same time use a `Reader` each. Throws when the scratch file cannot be read.
    func lookup(_ id: Int64) throws -> (Int64, Int64)? {
        if ownReader == nil { ownReader = Reader(ownedBy: self) }
        return try ownReader!.lookup(id)
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
        /// Slots of decoded groups less one: `cacheSlots`, or fewer for an index with fewer groups.
        private let slotMask: Int
        /// Decoded groups: slot `g & slotMask` holds group `cachedGroup[slot]`, its ids and values at
        /// `slot * groupSize` in the three arrays.
        @exclusivity(unchecked) private var cachedGroup: [Int]
        @exclusivity(unchecked) private var cachedIDs: [Int64]
        @exclusivity(unchecked) private var cachedA: [Int64]
        @exclusivity(unchecked) private var cachedB: [Int64]
        /// A group's varints read from the scratch file.
        private let groupBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: groupBytes)

        convenience init(_ index: DeltaCodedIndex) {
            self.init(index, keepAlive: index)
        }

        /// The reader the index keeps for its own lookups.
        fileprivate convenience init(ownedBy index: DeltaCodedIndex) {
            self.init(index, keepAlive: nil)
        }

        private init(_ index: DeltaCodedIndex, keepAlive: DeltaCodedIndex?) {
            self.index = index
            self.keepAlive = keepAlive
            let groups = max(index.heads.count, 1)
            let slots = min(DeltaCodedIndex.cacheSlots, groups == 1 ? 1 : 1 << (Int.bitWidth - (groups - 1).leadingZeroBitCount))
            slotMask = slots - 1
            cachedGroup = [Int](repeating: -1, count: slots)
            cachedIDs = [Int64](repeating: 0, count: slots * DeltaCodedIndex.groupSize)
            cachedA = [Int64](repeating: 0, count: slots * DeltaCodedIndex.groupSize)
            cachedB = [Int64](repeating: 0, count: slots * DeltaCodedIndex.groupSize)
        }

        deinit { groupBuffer.deallocate() }

        /// The values stored for `id`, or nil when there are none.
        func lookup(_ id: Int64) throws -> (Int64, Int64)? {
            guard let group = group(of: id) else { return nil }
            lastGroup = group
            let slot = group & slotMask
            if cachedGroup[slot] != group { try decode(group, into: slot) }
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

        fileprivate func decode(_ group: Int, into slot: Int) throws {
            let heads = index.heads
            let head = heads[group]
            let next = group + 1 < heads.count ? heads[group + 1].position : index.bytes.count
            let bytes = try index.bytes.bytes(from: head.position, upTo: next, reading: groupBuffer)
            var id = head.id, a = head.a, b = head.b, offset = 0
            let start = slot * DeltaCodedIndex.groupSize
            cachedIDs[start] = id
            cachedA[start] = a
            cachedB[start] = b
            for entry in 1..<index.size(of: group) {
                id &+= Int64(bitPattern: Varint.read(bytes, at: &offset))
                a &+= Varint.unzigzag(Varint.read(bytes, at: &offset))
                b &+= Varint.unzigzag(Varint.read(bytes, at: &offset))
                cachedIDs[start + entry] = id
                cachedA[start + entry] = a
                cachedB[start + entry] = b
            }
            cachedGroup[slot] = group
        }

        /// The first `count` entries decoded into `slot`.
        fileprivate func forEachCached(slot: Int, count: Int, _ body: (Int64, Int64, Int64) -> Void) {
            let start = slot * DeltaCodedIndex.groupSize
            for i in start..<start + count { body(cachedIDs[i], cachedA[i], cachedB[i]) }
        }
    }

    private func size(of group: Int) -> Int {
        group + 1 == heads.count ? count - group * Self.groupSize : Self.groupSize
    }
}

/// Append-only bytes in chunks of 1 MiB (growing never copies), addressed by a global position. A chunk
/// stays in memory when the budget grants it; from the first one it refuses on, each chunk is written to a
/// scratch file once full, so that one buffer is all the memory those take, and read back from the file.
final class ByteChunks {
    private static var shift: Int { 20 }
    private static var chunkSize: Int { 1 << shift }
    // Unchecked exclusivity: as in DeltaCodedIndex, whose lookups read here per group.
    /// The chunks in memory: positions from 0 to `spilledFrom`.
    @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<UInt8>] = []
    /// The chunk being written: the last of `chunks`, or `spillBuffer`.
    @exclusivity(unchecked) private var current: UnsafeMutablePointer<UInt8>?
    /// Chunks begun, in memory or not.
    private var begun = 0
    /// The position the next byte is written at.
    @exclusivity(unchecked) private(set) var count = 0
    private let budget: MemoryBudget?
    private var spill: SpillFile?
    /// Where the bytes in `spill` begin (the first chunk the budget refused); positions before are in memory.
    @exclusivity(unchecked) private var spilledFrom = Int.max
    /// The chunk being written while they go to the scratch file; nil once `finishWriting()` wrote it.
    private var spillBuffer: UnsafeMutablePointer<UInt8>?

    init(budget: MemoryBudget? = nil) {
        self.budget = budget
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        spillBuffer?.deallocate()
        budget?.release(memoryBytes)
    }

    var memoryBytes: Int { (chunks.count + (spillBuffer == nil ? 0 : 1)) * Self.chunkSize }
    /// Bytes in the scratch file.
    var spilledBytes: Int { Int(spill?.size ?? 0) }

    /// Makes sure the next `bytes` bytes go into one chunk, starting a new chunk if needed.
    func reserve(_ bytes: Int) throws {
        guard count + bytes > begun << Self.shift else { return }
        if let spill, let spillBuffer {
            // The chunk just filled goes to the file whole (its unused end too), so a position's place
            // in the file is its distance from `spilledFrom`.
            try spill.append(UnsafeRawBufferPointer(start: spillBuffer, count: Self.chunkSize))
            budget?.spilled(Self.chunkSize)
        } else if let budget, !budget.claim(Self.chunkSize) {
            spill = try SpillFile(directory: budget.scratchDirectory)
            spilledFrom = begun << Self.shift
            spillBuffer = .allocate(capacity: Self.chunkSize)
            current = spillBuffer
            budget.hold(Self.chunkSize)
        } else {
            let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.chunkSize)
            chunks.append(chunk)
            current = chunk
        }
        begun += 1
        count = (begun - 1) << Self.shift
    }

    /// Writes out the chunk being written, when the bytes go to the scratch file, and frees its buffer:
    /// every byte can be read from then on, and nothing more appended.
    func finishWriting() throws {
        guard let spill, let spillBuffer else { return }
        let used = count - ((begun - 1) << Self.shift)
        try spill.append(UnsafeRawBufferPointer(start: spillBuffer, count: used))
        try spill.flush()
        budget?.spilled(used)
        spillBuffer.deallocate()
        self.spillBuffer = nil
        current = nil
        budget?.release(Self.chunkSize)
    }

    @inline(__always)
    func appendVarint(_ value: UInt64) {
        var v = value
        let chunk = current!   // `reserve` ran first
        var offset = count & (Self.chunkSize - 1)
        while v >= 0x80 {
            chunk[offset] = UInt8(truncatingIfNeeded: v) | 0x80
            offset += 1
            v >>= 7
        }
        chunk[offset] = UInt8(v)
        count = (count & ~(Self.chunkSize - 1)) + offset + 1
    }

    /// The bytes from `start` up to `next`, the end of `start`'s chunk or as many as `buffer` holds,
    /// whichever comes first: where they are in memory, else read from the scratch file into `buffer`.
    /// Any thread may read once `finishWriting()` ran.
    @inline(__always)
    func bytes(from start: Int, upTo next: Int, reading buffer: UnsafeMutableBufferPointer<UInt8>) throws -> UnsafePointer<UInt8> {
        if start < spilledFrom { return UnsafePointer(chunks[start >> Self.shift] + (start & (Self.chunkSize - 1))) }
        // The next group may begin in the next chunk, after the unused end of this one.
        let end = min(next, ((start >> Self.shift) + 1) << Self.shift, start + buffer.count)
        if end > start, let spill {
            try spill.read(at: Int64(start - spilledFrom), into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<end - start])))
        }
        return UnsafePointer(buffer.baseAddress!)
    }
}
