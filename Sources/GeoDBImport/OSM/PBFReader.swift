// Streaming reader for OSM PBF files: frames of BlobHeader + Blob, zlib-compressed PrimitiveBlocks,
// dense nodes, ways and relations (https://wiki.openstreetmap.org/wiki/PBF_Format).
import CDeflate
import Foundation
import GeoDB

/// Counts a reader keeps while it reads.
public struct OSMReadStats: Sendable {
    public var nodes = 0
    public var ways = 0
    public var relations = 0
    /// Nodes dropped because their coordinates were outside ±90/±180.
    public var invalidCoordinates = 0
    public var bytesRead = 0
    /// Seconds since 1970 of the newest object in the file, when the file carries timestamps.
    public var newestTimestamp: Int64?

    mutating func noteTimestamp(_ seconds: Int64) {
        if seconds > (newestTimestamp ?? Int64.min) { newestTimestamp = seconds }
    }
}

/// Reads one `.osm.pbf` file block by block; memory is bounded by three blocks (32 MiB each at most by
/// the spec). The calling thread reads and inflates the blobs while a second thread decodes them and
/// calls the handler, in file order (inflating was about a fifth of the work when one thread did both).
public final class PBFReader {
    public let path: String
    /// Complete once `read(into:)` has returned.
    public private(set) var stats = OSMReadStats()
    /// Called after each block with the counts so far, on the thread that calls the handler.
    public var onProgress: ((OSMReadStats) -> Void)?

    private let displayName: String

    static let maxHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024
    static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]
    /// Inflated blocks waiting for the decoding thread. With one more being decoded and one being read,
    /// at most three are in memory. Four waiting were no faster, and their memory showed as growth with
    /// the input (the tiled extracts' larger files have more of their 6.7 MB blocks in a row).
    static let blocksAhead = 1

    /// Used on the reading thread only (libdeflate's decompressors are not shared between threads).
    private let decompressor: OpaquePointer

    public init(path: String) {
        self.path = path
        self.displayName = path
        decompressor = libdeflate_alloc_decompressor()
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// One inflated blob, with where it starts in the file and how far the file has been read after it.
    private struct Block {
        var type: String
        var offset: Int
        var bytesRead: Int
        var data: [UInt8]
    }

    public func read(into handler: OSMHandler) throws {
        guard let file = fopen(path, "rb") else {
            throw GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let decoder = BackgroundWorker<Block>(name: "geodb-pbf-decode", batchSize: 1, queueLimit: Self.blocksAhead) {
            [self] block in try decode(block, handler: handler)
        }
        do {
            try readFrames(file) { try decoder.send($0) }
        } catch {
            // A block before the failing frame may have failed to decode: that error comes first in the file.
            try decoder.drain()
            throw error
        }
        try decoder.drain()
    }

    // MARK: frames (reading thread)

    private func readFrames(_ file: UnsafeMutablePointer<FILE>, _ send: (Block) throws -> Void) throws {
        var bytesRead = 0
        var sawHeader = false
        while true {
            let offset = bytesRead
            func bad(_ what: String) -> GeoDBError { self.bad(what, at: offset) }
            var lengthBytes = [UInt8](repeating: 0, count: 4)
            let got = fread(&lengthBytes, 1, 4, file)
            if got == 0 && feof(file) != 0 { break }
            guard got == 4 else { throw bad("file ends inside a blob length (truncated file?)") }
            let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard headerLength > 0, headerLength <= Self.maxHeaderSize else {
                throw bad("blob header length \(headerLength) is not between 1 and 64 KiB (not a PBF file, or corrupt)")
            }
            let headerBytes = try readExactly(headerLength, from: file, what: "blob header", at: offset)
            let (type, dataSize) = try parseBlobHeader(headerBytes, at: offset)
            guard dataSize <= Self.maxBlobSize else { throw bad("blob of \(dataSize) bytes exceeds the 32 MiB limit") }
            let compressed = try readExactly(dataSize, from: file, what: "blob", at: offset)
            bytesRead += 4 + headerLength + dataSize
            if !sawHeader && type != "OSMHeader" {
                throw bad("first blob is '\(type)', expected 'OSMHeader' (not an OSM PBF file?)")
            }
            guard type == "OSMHeader" || type == "OSMData" else { throw bad("unknown blob type '\(type)'") }
            sawHeader = true
            try send(Block(type: type, offset: offset, bytesRead: bytesRead, data: try inflate(compressed, at: offset)))
        }
        guard sawHeader else { throw bad("no OSMHeader blob: empty or not a PBF file", at: bytesRead) }
    }

    private func bad(_ what: String, at offset: Int) -> GeoDBError {
        .badInput(file: displayName, at: .byteOffset(offset), what)
    }

    private func readExactly(_ count: Int, from file: UnsafeMutablePointer<FILE>, what: String, at offset: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        guard got == count else {
            throw bad("file ends inside a \(what): \(got) of \(count) bytes present (truncated file?)", at: offset)
        }
        return buffer
    }

    private func parseBlobHeader(_ bytes: [UInt8], at offset: Int) throws -> (type: String, dataSize: Int) {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtobufReader(buffer)
            var type: String?
            var dataSize: Int?
            do {
                while let (number, wire) = try reader.field() {
                    switch (number, wire) {
                    case (1, 2): type = try reader.string()
                    case (3, 0): dataSize = Int(truncatingIfNeeded: try reader.varint())
                    default: try reader.skip(wireType: wire)
                    }
                }
            } catch let error as ProtobufError {
                throw bad("corrupt blob header: \(error.what)", at: offset)
            }
            guard let type, let dataSize, dataSize >= 0 else { throw bad("blob header without type or size", at: offset) }
            return (type, dataSize)
        }
    }

    /// The blob's data, decompressed.
    private func inflate(_ compressed: [UInt8], at offset: Int) throws -> [UInt8] {
        func bad(_ what: String) -> GeoDBError { self.bad(what, at: offset) }
        var rawRange: Range<Int>?
        var zlibRange: Range<Int>?
        var rawSize: Int?
        try compressed.withUnsafeBufferPointer { buffer in
            var reader = ProtobufReader(buffer)
            do {
                while let (number, wire) = try reader.field() {
                    switch (number, wire) {
                    case (1, 2): rawRange = try reader.lengthDelimited()
                    case (2, 0): rawSize = Int(truncatingIfNeeded: try reader.varint())
                    case (3, 2): zlibRange = try reader.lengthDelimited()
                    case (4, _): throw bad("blob uses LZMA compression, which geodb does not read (recompress with `osmium cat -o out.osm.pbf`)")
                    case (5, _): throw bad("blob uses bzip2 compression, which geodb does not read (recompress with `osmium cat -o out.osm.pbf`)")
                    case (6, _): throw bad("blob uses LZ4 compression, which geodb does not read (recompress with `osmium cat -o out.osm.pbf`)")
                    case (7, _): throw bad("blob uses Zstandard compression, which geodb does not read (recompress with `osmium cat -o out.osm.pbf`)")
                    default: try reader.skip(wireType: wire)
                    }
                }
            } catch let error as ProtobufError {
                throw bad("corrupt blob: \(error.what)")
            }
        }
        if let rawRange { return Array(compressed[rawRange]) }
        guard let zlibRange, let rawSize else { throw bad("blob holds no data") }
        // raw_size is a signed field: a negative one would become a negative array capacity (a trap).
        guard (0...Self.maxBlobSize).contains(rawSize) else {
            throw bad("blob's raw size \(rawSize) is not between 0 and the 32 MiB limit")
        }
        var inflatedSize = 0
        var result = LIBDEFLATE_SUCCESS
        let inflated = [UInt8](unsafeUninitializedCapacity: rawSize) { out, initialized in
            result = compressed.withUnsafeBufferPointer { input in
                libdeflate_zlib_decompress(decompressor, input.baseAddress! + zlibRange.lowerBound, zlibRange.count,
                                           out.baseAddress, rawSize, &inflatedSize)
            }
            initialized = result == LIBDEFLATE_SUCCESS ? inflatedSize : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS where inflatedSize == rawSize: break
        case LIBDEFLATE_SUCCESS, LIBDEFLATE_SHORT_OUTPUT:
            throw bad("corrupt zlib blob (inflates to fewer bytes than the header's \(rawSize))")
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw bad("corrupt zlib blob (inflates to more bytes than the header's \(rawSize))")
        default:
            throw bad("corrupt zlib blob (invalid compressed data)")
        }
        return inflated
    }

    // MARK: blocks (decoding thread)

    private func decode(_ block: Block, handler: OSMHandler) throws {
        if block.type == "OSMHeader" {
            try handler.header(try parseHeaderBlock(block))
        } else {
            try parsePrimitiveBlock(block, handler: handler)
        }
        stats.bytesRead = block.bytesRead
        onProgress?(stats)
    }

    // MARK: header

    private func parseHeaderBlock(_ block: Block) throws -> OSMHeader {
        func bad(_ what: String) -> GeoDBError { self.bad(what, at: block.offset) }
        return try block.data.withUnsafeBufferPointer { all in
            var reader = ProtobufReader(all)
            var header = OSMHeader()
            do {
                while let (number, wire) = try reader.field() {
                    switch (number, wire) {
                    case (1, 2):
                        var box = reader.sub(try reader.lengthDelimited())
                        var edges = [Int64](repeating: 0, count: 5)
                        while let (n, w) = try box.field() {
                            if (1...4).contains(n) && w == 0 { edges[n] = try box.sint64() } else { try box.skip(wireType: w) }
                        }
                        header.boundingBox = (Double(edges[1]) / 1e9, Double(edges[4]) / 1e9,
                                              Double(edges[2]) / 1e9, Double(edges[3]) / 1e9)
                    case (4, 2):
                        let feature = try reader.string()
                        if !Self.knownFeatures.contains(feature) {
                            throw GeoDBError(.unsupportedInput, "\(displayName): requires the PBF feature '\(feature)', which geodb does not support")
                        }
                    case (16, 2): header.writingProgram = try reader.string()
                    case (32, 0): header.replicationTimestamp = try reader.int64()
                    case (33, 0): header.replicationSequence = try reader.int64()
                    case (34, 2): header.replicationURL = try reader.string()
                    default: try reader.skip(wireType: wire)
                    }
                }
            } catch let error as ProtobufError {
                throw bad("corrupt header block: \(error.what)")
            }
            return header
        }
    }

    private func parsePrimitiveBlock(_ block: Block, handler: OSMHandler) throws {
        try block.data.withUnsafeBufferPointer { all in
            var reader = ProtobufReader(all)
            do {
                var stringTable: Range<Int>?
                var groups: [Range<Int>] = []
                var granularity: Int64 = 100
                var dateGranularity: Int64 = 1000
                var latOffset: Int64 = 0
                var lonOffset: Int64 = 0
                while let (number, wire) = try reader.field() {
                    switch (number, wire) {
                    case (1, 2): stringTable = try reader.lengthDelimited()
                    case (2, 2): groups.append(try reader.lengthDelimited())
                    case (17, 0): granularity = try reader.int64()
                    case (18, 0): dateGranularity = try reader.int64()
                    case (19, 0): latOffset = try reader.int64()
                    case (20, 0): lonOffset = try reader.int64()
                    default: try reader.skip(wireType: wire)
                    }
                }
                var block = BlockDecoder(strings: BlockStrings(try decodeStrings(reader, stringTable)),
                                         granularity: granularity, latOffset: latOffset, lonOffset: lonOffset,
                                         dateGranularity: dateGranularity)
                for group in groups {
                    var groupReader = reader.sub(group)
                    while let (number, wire) = try groupReader.field() {
                        guard wire == 2 else { try groupReader.skip(wireType: wire); continue }
                        let message = groupReader.sub(try groupReader.lengthDelimited())
                        switch number {
                        case 1: try block.plainNode(message, handler: handler, stats: &stats)
                        case 2: try block.denseNodes(message, handler: handler, stats: &stats)
                        case 3: try block.way(message, handler: handler, stats: &stats)
                        case 4: try block.relation(message, handler: handler, stats: &stats)
                        default: break  // changesets: nothing to import
                        }
                    }
                }
            } catch let error as ProtobufError {
                throw bad("corrupt data block: \(error.what)", at: block.offset)
            }
        }
    }

    private func decodeStrings(_ reader: ProtobufReader, _ range: Range<Int>?) throws -> [String] {
        guard let range else { return [] }
        var table = reader.sub(range)
        var strings: [String] = []
        while let (number, wire) = try table.field() {
            if number == 1 && wire == 2 { strings.append(try table.string()) } else { try table.skip(wireType: wire) }
        }
        return strings
    }
}

/// A block's string table, with what the importer knows of the strings used as tag keys (decided on
/// first use: a block's thousands of tags share a few dozen keys).
private struct BlockStrings {
    let strings: [String]
    private var keyInfos: [OSMKeyInfo?]

    init(_ strings: [String]) {
        self.strings = strings
        keyInfos = Array(repeating: nil, count: strings.count)
    }

    func string(_ index: UInt64) throws -> String {
        guard index < UInt64(strings.count) else {
            throw ProtobufError(what: "string index \(index) outside the block's table of \(strings.count)")
        }
        return strings[Int(index)]
    }

    /// Appends the tag of string `key` and string `value` to `tags`.
    mutating func appendTag(key: UInt64, value: UInt64, to tags: inout OSMTags) throws {
        let keyText = try string(key)
        let info: OSMKeyInfo
        if let known = keyInfos[Int(key)] {
            info = known
        } else {
            info = OSMKeyInfo(keyText)
            keyInfos[Int(key)] = info
        }
        tags.append(keyText, try string(value), info: info)
    }
}

/// Decodes the objects of one PrimitiveBlock, given its string table and coordinate scaling.
private struct BlockDecoder {
    var strings: BlockStrings
    let granularity: Int64
    let latOffset: Int64
    let lonOffset: Int64
    let dateGranularity: Int64
    /// The tags of the object being decoded (`OSMTags.removeAll`); a handler that keeps them gets a copy
    /// on write.
    var tagBuffer = OSMTags()

    /// The timestamp inside an Info message (field 2), in seconds.
    func infoTimestamp(_ info: ProtobufReader) throws -> Int64? {
        var m = info
        while let (number, wire) = try m.field() {
            if number == 2 && wire == 0 { return try m.int64() &* dateGranularity / 1000 }
            try m.skip(wireType: wire)
        }
        return nil
    }

    /// The newest timestamp of a DenseInfo message (field 2: delta-coded timestamps).
    func newestDenseTimestamp(_ info: ProtobufReader) throws -> Int64? {
        var m = info
        while let (number, wire) = try m.field() {
            guard number == 2 && wire == 2 else { try m.skip(wireType: wire); continue }
            var stamps = m.sub(try m.lengthDelimited())
            var value: Int64 = 0, newest = Int64.min
            while !stamps.isAtEnd {
                value &+= try stamps.sint64()
                newest = max(newest, value)
            }
            return newest == Int64.min ? nil : newest &* dateGranularity / 1000
        }
        return nil
    }

    /// Converts a block coordinate to 1e-7 degree, or nil when it is outside the valid range.
    @inline(__always)
    func scaled(_ lat: Int64, _ lon: Int64) -> (Int32, Int32)? {
        let lat7 = (latOffset &+ granularity &* lat) / 100
        let lon7 = (lonOffset &+ granularity &* lon) / 100
        guard abs(lat7) <= 900_000_000, abs(lon7) <= 1_800_000_000 else { return nil }
        return (Int32(lat7), Int32(lon7))
    }

    mutating func tags(keys: Range<Int>?, values: Range<Int>?, in reader: ProtobufReader) throws -> OSMTags {
        tagBuffer.removeAll()
        guard let keys, let values else { return tagBuffer }
        var k = reader.sub(keys), v = reader.sub(values)
        while !k.isAtEnd {
            guard !v.isAtEnd else { throw ProtobufError(what: "more tag keys than values") }
            try strings.appendTag(key: try k.varint(), value: try v.varint(), to: &tagBuffer)
        }
        return tagBuffer
    }

    mutating func plainNode(_ message: ProtobufReader, handler: OSMHandler, stats: inout OSMReadStats) throws {
        var m = message
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var keys: Range<Int>?, values: Range<Int>?
        while let (number, wire) = try m.field() {
            switch (number, wire) {
            case (1, 0): id = try m.sint64()
            case (2, 2): keys = try m.lengthDelimited()
            case (3, 2): values = try m.lengthDelimited()
            case (4, 2): if let t = try infoTimestamp(m.sub(try m.lengthDelimited())) { stats.noteTimestamp(t) }
            case (8, 0): lat = try m.sint64()
            case (9, 0): lon = try m.sint64()
            default: try m.skip(wireType: wire)
            }
        }
        stats.nodes += 1
        guard let (lat7, lon7) = scaled(lat, lon) else { stats.invalidCoordinates += 1; return }
        try handler.node(id: id, lat7: lat7, lon7: lon7, tags: try tags(keys: keys, values: values, in: message))
    }

    mutating func denseNodes(_ message: ProtobufReader, handler: OSMHandler, stats: inout OSMReadStats) throws {
        var m = message
        var idRange: Range<Int>?, latRange: Range<Int>?, lonRange: Range<Int>?, kvRange: Range<Int>?
        while let (number, wire) = try m.field() {
            switch (number, wire) {
            case (1, 2): idRange = try m.lengthDelimited()
            case (5, 2): if let t = try newestDenseTimestamp(m.sub(try m.lengthDelimited())) { stats.noteTimestamp(t) }
            case (8, 2): latRange = try m.lengthDelimited()
            case (9, 2): lonRange = try m.lengthDelimited()
            case (10, 2): kvRange = try m.lengthDelimited()
            default: try m.skip(wireType: wire)
            }
        }
        guard let idRange else { return }
        guard let latRange, let lonRange else { throw ProtobufError(what: "dense nodes without coordinates") }
        var ids = m.sub(idRange), lats = m.sub(latRange), lons = m.sub(lonRange)
        var keysValues = kvRange.map { m.sub($0) }
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        while !ids.isAtEnd {
            guard !lats.isAtEnd, !lons.isAtEnd else { throw ProtobufError(what: "dense node arrays of different lengths") }
            id &+= try ids.sint64()
            lat &+= try lats.sint64()
            lon &+= try lons.sint64()
            tagBuffer.removeAll()
            if keysValues != nil {
                while true {
                    let key = try keysValues!.varint()
                    if key == 0 { break }
                    try strings.appendTag(key: key, value: try keysValues!.varint(), to: &tagBuffer)
                }
            }
            stats.nodes += 1
            guard let (lat7, lon7) = scaled(lat, lon) else { stats.invalidCoordinates += 1; continue }
            try handler.node(id: id, lat7: lat7, lon7: lon7, tags: tagBuffer)
        }
    }

    mutating func way(_ message: ProtobufReader, handler: OSMHandler, stats: inout OSMReadStats) throws {
        var m = message
        var id: Int64 = 0
        var keys: Range<Int>?, values: Range<Int>?, refRange: Range<Int>?
        while let (number, wire) = try m.field() {
            switch (number, wire) {
            case (1, 0): id = try m.int64()
            case (2, 2): keys = try m.lengthDelimited()
            case (3, 2): values = try m.lengthDelimited()
            case (4, 2): if let t = try infoTimestamp(m.sub(try m.lengthDelimited())) { stats.noteTimestamp(t) }
            case (8, 2): refRange = try m.lengthDelimited()
            default: try m.skip(wireType: wire)
            }
        }
        var refs: [Int64] = []
        if let refRange {
            var r = m.sub(refRange)
            refs.reserveCapacity(refRange.count)
            var ref: Int64 = 0
            while !r.isAtEnd {
                ref &+= try r.sint64()
                refs.append(ref)
            }
        }
        stats.ways += 1
        try handler.way(id: id, refs: refs, tags: try tags(keys: keys, values: values, in: message))
    }

    mutating func relation(_ message: ProtobufReader, handler: OSMHandler, stats: inout OSMReadStats) throws {
        var m = message
        var id: Int64 = 0
        var keys: Range<Int>?, values: Range<Int>?
        var roles: Range<Int>?, memberIDs: Range<Int>?, types: Range<Int>?
        while let (number, wire) = try m.field() {
            switch (number, wire) {
            case (1, 0): id = try m.int64()
            case (2, 2): keys = try m.lengthDelimited()
            case (3, 2): values = try m.lengthDelimited()
            case (4, 2): if let t = try infoTimestamp(m.sub(try m.lengthDelimited())) { stats.noteTimestamp(t) }
            case (8, 2): roles = try m.lengthDelimited()
            case (9, 2): memberIDs = try m.lengthDelimited()
            case (10, 2): types = try m.lengthDelimited()
            default: try m.skip(wireType: wire)
            }
        }
        let tags = try self.tags(keys: keys, values: values, in: message)
        var members: [OSMMember] = []
        if let roles, let memberIDs, let types, handler.wantsMembers(ofRelationTagged: tags) {
            var r = m.sub(roles), ids = m.sub(memberIDs), t = m.sub(types)
            var ref: Int64 = 0
            while !ids.isAtEnd {
                guard !r.isAtEnd, !t.isAtEnd else { throw ProtobufError(what: "relation member arrays of different lengths") }
                ref &+= try ids.sint64()
                let role = try strings.string(try r.varint())
                guard let type = OSMMember.MemberType(rawValue: UInt8(truncatingIfNeeded: try t.varint())) else {
                    throw ProtobufError(what: "relation \(id) has a member of unknown type")
                }
                members.append(OSMMember(type: type, ref: ref, role: role))
            }
        }
        stats.relations += 1
        try handler.relation(id: id, members: members, tags: tags)
    }
}
