// Scratch storage on disk for import data written once and read back later (way node lists,
// street geometry), so that memory stays bounded by what must be looked up quickly.
import Foundation
import GeoDB

/// An append-only file, unlinked as soon as it is created (it disappears with the process, even on a
/// crash), written through a buffer and read back with `pread`. Not thread-safe, but for `read(at:into:)`
/// of bytes already flushed, which any thread may call.
final class SpillFile {
    private let descriptor: Int32
    // Unchecked exclusivity: run-time checks on these were most of `append`'s cost (one call per way).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var flushedSize: Int64 = 0
    static let bufferSize = 1 << 20

    /// Creates the file in `directory` (the output's directory: the same disk as the database).
    init(directory: String) throws {
        var template = Array((directory + "/.geodb-spill-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw GeoDBError(.io, "cannot create a scratch file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit { close(descriptor) }

    /// Bytes written so far: the offset the next append starts at.
    var size: Int64 { flushedSize + Int64(buffer.count) }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {   // a whole buffer's worth (a chunk of ByteChunks) is not copied first
            try write(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Reads `count` bytes at `offset` (which must have been written).
    func read(at offset: Int64, count: Int, into out: inout [UInt8]) throws {
        if offset + Int64(count) > flushedSize { try flush() }
        if out.count < count { out = [UInt8](repeating: 0, count: count) }
        try out.withUnsafeMutableBytes { try read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Fills `out` with the bytes at `offset`, which must have been flushed (`flush()`, or a later append
    /// past them); safe from several threads at once.
    func read(at offset: Int64, into out: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < out.count {
            let n = pread(descriptor, out.baseAddress! + done, out.count - done, off_t(offset) + off_t(done))
            guard n > 0 else {
                let cause = n == 0 ? "it ends at \(offset + Int64(done)), before the bytes written there" : String(cString: strerror(errno))
                throw GeoDBError(.io, "cannot read a scratch file: \(cause)")
            }
            done += n
        }
    }

    /// Writes out the buffered bytes.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            guard n > 0 else { throw GeoDBError(.io, "cannot write a scratch file (disk full?): \(String(cString: strerror(errno)))") }
            done += n
        }
        flushedSize += Int64(bytes.count)
    }
}

/// An append-only array in fixed-size chunks: growing it never copies or doubles a buffer, so its
/// memory is the element size times the count, plus one chunk (held in `budget`, when given).
final class ChunkedArray<Element> {
    private static var shift: Int { 12 }
    private static var chunkSize: Int { 1 << shift }
    // Unchecked exclusivity: as in DeltaCodedIndex, whose group heads live here.
    @exclusivity(unchecked) private var chunks: [UnsafeMutablePointer<Element>] = []
    @exclusivity(unchecked) private(set) var count = 0
    private let budget: MemoryBudget?

    init(budget: MemoryBudget? = nil) {
        self.budget = budget
    }

    deinit {
        for (i, chunk) in chunks.enumerated() {
            chunk.deinitialize(count: min(Self.chunkSize, count - i * Self.chunkSize))
            chunk.deallocate()
        }
        budget?.release(memoryBytes)
    }

    var memoryBytes: Int { chunks.count * Self.chunkSize * MemoryLayout<Element>.stride }

    func append(_ element: Element) {
        if count == chunks.count * Self.chunkSize {
            chunks.append(.allocate(capacity: Self.chunkSize))
            budget?.hold(Self.chunkSize * MemoryLayout<Element>.stride)
        }
        (chunks[count >> Self.shift] + (count & (Self.chunkSize - 1))).initialize(to: element)
        count += 1
    }

    subscript(index: Int) -> Element {
        get { chunks[index >> Self.shift][index & (Self.chunkSize - 1)] }
        set { chunks[index >> Self.shift][index & (Self.chunkSize - 1)] = newValue }
    }

    var last: Element? { count == 0 ? nil : self[count - 1] }
}
