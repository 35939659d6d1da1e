// Writer of OSM PBF files (https://wiki.openstreetmap.org/wiki/PBF_Format): an OSMHeader blob, then
// OSMData blobs of PrimitiveBlocks, each zlib-compressed. It writes what `geodb-bench tile` makes; it
// lives beside the reader to share its varints, and its output is read back by the reader in tests.
import CDeflate
import Foundation
import GeoDB

/// A block's string table, encoded once: a caller that writes the same objects many times (the tiler's
/// shifted copies) keeps one per block instead of collecting strings anew each time.
/// Objects refer to `strings[i]` as `i`; the encoding adds the empty string PBF reserves as entry 0.
public struct PBFStringTable: Sendable {
    let message: [UInt8]

    public init(_ strings: [String]) {
        var message: [UInt8] = []
        ProtobufWriter.appendBytes(field: 1, [], to: &message)
        for string in strings { ProtobufWriter.appendBytes(field: 1, Array(string.utf8), to: &message) }
        self.message = message
    }
}

/// One PrimitiveBlock being encoded: objects of one type (`Kind`), tags and roles as indices into the
/// string table it is written with. `reset` keeps the buffers' capacity for the next block.
public struct PBFBlockEncoder {
    public enum Kind: Sendable { case nodes, ways, relations }

    public private(set) var kind = Kind.nodes
    /// Objects added since `reset`.
    public private(set) var count = 0
    /// The PrimitiveGroup's fields so far (ways, relations), or the dense nodes' ids.
    private var group: [UInt8] = []
    // Dense nodes are columns: each is delta-coded against the previous node's value.
    private var latitudes: [UInt8] = []
    private var longitudes: [UInt8] = []
    private var keysValues: [UInt8] = []
    private var previous = (id: Int64(0), lat: Int64(0), lon: Int64(0))
    /// One way or relation being encoded, and one packed field of it.
    private var object: [UInt8] = []
    private var packed: [UInt8] = []

    public init() {}

    public mutating func reset(_ kind: Kind) {
        self.kind = kind
        count = 0
        group.removeAll(keepingCapacity: true)
        latitudes.removeAll(keepingCapacity: true)
        longitudes.removeAll(keepingCapacity: true)
        keysValues.removeAll(keepingCapacity: true)
        previous = (0, 0, 0)
    }

    /// Adds a node at `lat7`/`lon7` (1e-7 degree, the blocks' default granularity); `keys[i]`=`values[i]`.
    public mutating func addNode(id: Int64, lat7: Int32, lon7: Int32, keys: ArraySlice<UInt32>, values: ArraySlice<UInt32>) {
        precondition(kind == .nodes)
        Varint.append(Varint.zigzag(id &- previous.id), to: &group)
        Varint.append(Varint.zigzag(Int64(lat7) &- previous.lat), to: &latitudes)
        Varint.append(Varint.zigzag(Int64(lon7) &- previous.lon), to: &longitudes)
        previous = (id, Int64(lat7), Int64(lon7))
        // Key and value indices are 1-based in the table (0 is the empty string): 0 ends a node's tags.
        for (key, value) in zip(keys, values) {
            Varint.append(UInt64(key) + 1, to: &keysValues)
            Varint.append(UInt64(value) + 1, to: &keysValues)
        }
        keysValues.append(0)
        count += 1
    }

    public mutating func addWay(id: Int64, refs: [Int64], keys: ArraySlice<UInt32>, values: ArraySlice<UInt32>) {
        precondition(kind == .ways)
        startObject(id: id, keys: keys, values: values)
        appendDeltas(field: 8, refs)
        finishObject(field: 3)
    }

    /// Adds a relation; member `i` is `memberIDs[i]` of type `memberTypes[i]` (0 node, 1 way, 2 relation)
    /// in role `roles[i]`.
    public mutating func addRelation(id: Int64, memberIDs: [Int64], memberTypes: ArraySlice<UInt8>, roles: ArraySlice<UInt32>,
                                     keys: ArraySlice<UInt32>, values: ArraySlice<UInt32>) {
        precondition(kind == .relations)
        startObject(id: id, keys: keys, values: values)
        appendPacked(field: 8, roles.lazy.map { UInt64($0) + 1 })
        appendDeltas(field: 9, memberIDs)
        appendPacked(field: 10, memberTypes.lazy.map { UInt64($0) })
        finishObject(field: 4)
    }

    private mutating func startObject(id: Int64, keys: ArraySlice<UInt32>, values: ArraySlice<UInt32>) {
        object.removeAll(keepingCapacity: true)
        ProtobufWriter.appendKey(field: 1, wireType: 0, to: &object)
        Varint.append(UInt64(bitPattern: id), to: &object)
        appendPacked(field: 2, keys.lazy.map { UInt64($0) + 1 })
        appendPacked(field: 3, values.lazy.map { UInt64($0) + 1 })
    }

    private mutating func finishObject(field: Int) {
        ProtobufWriter.appendBytes(field: field, object, to: &group)
        count += 1
    }

    /// A packed field of plain varints; left out when empty.
    private mutating func appendPacked(field: Int, _ values: some Collection<UInt64>) {
        guard !values.isEmpty else { return }
        packed.removeAll(keepingCapacity: true)
        for value in values { Varint.append(value, to: &packed) }
        ProtobufWriter.appendBytes(field: field, packed, to: &object)
    }

    /// A packed field of signed values, each coded as its difference from the one before.
    private mutating func appendDeltas(field: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        packed.removeAll(keepingCapacity: true)
        var last: Int64 = 0
        for value in values {
            Varint.append(Varint.zigzag(value &- last), to: &packed)
            last = value
        }
        ProtobufWriter.appendBytes(field: field, packed, to: &object)
    }

    /// The PrimitiveBlock message: `strings`, then one PrimitiveGroup of the objects added.
    func message(strings: PBFStringTable) -> [UInt8] {
        var groupMessage: [UInt8]
        if kind == .nodes {
            var dense: [UInt8] = []
            ProtobufWriter.appendBytes(field: 1, group, to: &dense)
            ProtobufWriter.appendBytes(field: 8, latitudes, to: &dense)
            ProtobufWriter.appendBytes(field: 9, longitudes, to: &dense)
            ProtobufWriter.appendBytes(field: 10, keysValues, to: &dense)
            groupMessage = []
            ProtobufWriter.appendBytes(field: 2, dense, to: &groupMessage)
        } else {
            groupMessage = group
        }
        var block: [UInt8] = []
        block.reserveCapacity(strings.message.count + groupMessage.count + 16)
        ProtobufWriter.appendBytes(field: 1, strings.message, to: &block)
        ProtobufWriter.appendBytes(field: 2, groupMessage, to: &block)
        return block
    }
}

/// Writes a PBF file block by block: the caller encodes, a thread of its own compresses and writes (55%
/// of the CPU time of `geodb-bench tile`), and memory stays at a few blocks whatever the file's size.
public final class PBFWriter {
    public let path: String
    /// Bytes written so far (complete after `close()`).
    public var bytesWritten: Int { writer.bytesWritten }

    /// osmium's limit: readers may refuse blocks of more entities.
    public static let maxEntitiesPerBlock = 8_000
    /// Blocks queued for the writing thread beyond the one it compresses.
    static let blocksAhead = 2

    private let writer: BlobWriter
    private let worker: BackgroundWorker<(type: String, data: [UInt8])>

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw GeoDBError(.io, "\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        self.path = path
        let writer = BlobWriter(file: file, path: path)
        self.writer = writer
        worker = BackgroundWorker(name: "geodb-pbf-write", batchSize: 1, queueLimit: Self.blocksAhead) { blob in
            try writer.write(type: blob.type, data: blob.data)
        }
    }

    /// Ends the writing thread of a writer not closed (its caller failed); the file is left incomplete.
    deinit {
        try? worker.drain()
        writer.close()
    }

    /// Writes the HeaderBlock (first, once). `sortedByTypeThenID` promises nodes, then ways, then
    /// relations, ids ascending within each (osmium's `Sort.Type_then_ID`: its tools then skip sorting).
    public func writeHeader(writingProgram: String, sortedByTypeThenID: Bool, replicationTimestamp: Int64?) throws {
        var header: [UInt8] = []
        ProtobufWriter.appendBytes(field: 4, Array("OsmSchema-V0.6".utf8), to: &header)
        ProtobufWriter.appendBytes(field: 4, Array("DenseNodes".utf8), to: &header)
        if sortedByTypeThenID { ProtobufWriter.appendBytes(field: 5, Array("Sort.Type_then_ID".utf8), to: &header) }
        ProtobufWriter.appendBytes(field: 16, Array(writingProgram.utf8), to: &header)
        if let replicationTimestamp {
            ProtobufWriter.appendKey(field: 32, wireType: 0, to: &header)
            Varint.append(UInt64(bitPattern: replicationTimestamp), to: &header)
        }
        try worker.send(("OSMHeader", header))
    }

    public func write(_ block: PBFBlockEncoder, strings: PBFStringTable) throws {
        guard block.count > 0 else { return }
        try worker.send(("OSMData", block.message(strings: strings)))
    }

    /// Writes what is queued and closes the file; throws the first write error.
    public func close() throws {
        defer { writer.close() }
        try worker.drain()
        try writer.finish()
    }
}

/// The writing thread's side: compresses each blob and frames it (length, BlobHeader, Blob).
private final class BlobWriter: @unchecked Sendable {
    // @unchecked: used by the writing thread only until `PBFWriter.close()` has drained it.
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String
    private let compressor: OpaquePointer
    private var compressed: [UInt8] = []
    private(set) var bytesWritten = 0

    /// Level 1: the tiler's output is an intermediate file, written once and read a few times. Level 6
    /// took 2.5 times as long for a file 4% smaller (Liechtenstein ×100: 12.5 s and 260 MB, 5.0 s and 270 MB).
    static let compressionLevel: Int32 = 1

    init(file: UnsafeMutablePointer<FILE>, path: String) {
        self.file = file
        self.path = path
        compressor = libdeflate_alloc_compressor(Self.compressionLevel)
    }

    deinit { libdeflate_free_compressor(compressor) }

    func write(type: String, data: [UInt8]) throws {
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
        let size = data.withUnsafeBytes { raw in
            compressed.withUnsafeMutableBytes { libdeflate_zlib_compress(compressor, raw.baseAddress, raw.count, $0.baseAddress, bound) }
        }
        guard size > 0 else { throw GeoDBError(.io, "\(path): zlib compression failed") }
        var blob: [UInt8] = []
        blob.reserveCapacity(size + 16)
        ProtobufWriter.appendKey(field: 2, wireType: 0, to: &blob)
        Varint.append(UInt64(data.count), to: &blob)
        ProtobufWriter.appendBytes(field: 3, compressed[..<size], to: &blob)
        var blobHeader: [UInt8] = []
        ProtobufWriter.appendBytes(field: 1, Array(type.utf8), to: &blobHeader)
        ProtobufWriter.appendKey(field: 3, wireType: 0, to: &blobHeader)
        Varint.append(UInt64(blob.count), to: &blobHeader)
        let length = UInt32(blobHeader.count)
        try put([UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)])
        try put(blobHeader)
        try put(blob)
    }

    private func put(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw writeError() }
        bytesWritten += written
    }

    func finish() throws {
        guard fflush(file) == 0 else { throw writeError() }
    }

    private func writeError() -> GeoDBError {
        GeoDBError(.io, "\(path): cannot write: \(String(cString: strerror(errno)))")
    }

    func close() {
        if let file { fclose(file) }
        file = nil
    }
}

/// The few protobuf encodings the PBF messages need (the reader's `ProtobufReader` in reverse).
enum ProtobufWriter {
    static func appendKey(field: Int, wireType: Int, to bytes: inout [UInt8]) {
        Varint.append(UInt64(field << 3 | wireType), to: &bytes)
    }

    /// A length-delimited field: a nested message, a string or a packed array.
    static func appendBytes(field: Int, _ content: some Collection<UInt8>, to bytes: inout [UInt8]) {
        appendKey(field: field, wireType: 2, to: &bytes)
        Varint.append(UInt64(content.count), to: &bytes)
        bytes.append(contentsOf: content)
    }
}
