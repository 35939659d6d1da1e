// A minimal protobuf wire-format reader: exactly what the OSM PBF messages need, bounds-checked.

/// Thrown when a message does not parse; the PBF reader adds the file and offset.
struct ProtobufError: Error {
    let what: String
}

/// Reads protobuf fields from a byte range. Every read is checked against the range's end.
struct ProtobufReader {
    let base: UnsafePointer<UInt8>
    private(set) var index: Int
    let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.index = 0
        self.end = buffer.count
    }

    init(base: UnsafePointer<UInt8>, range: Range<Int>) {
        self.base = base
        self.index = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { index >= end }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < end {
            let byte = base[index]
            index += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw ProtobufError(what: "varint longer than 10 bytes") }
        }
        throw ProtobufError(what: "message ends inside a varint")
    }

    @inline(__always)
    mutating func sint64() throws -> Int64 {
        Varint.unzigzag(try varint())
    }

    @inline(__always)
    mutating func int64() throws -> Int64 { Int64(bitPattern: try varint()) }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func field() throws -> (number: Int, wireType: Int)? {
        guard index < end else { return nil }
        let key = try varint()
        return (Int(key >> 3), Int(key & 7))
    }

    /// The byte range of a length-delimited field (wire type 2).
    mutating func lengthDelimited() throws -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - index) else {
            throw ProtobufError(what: "field of \(length) bytes runs past the end of its message")
        }
        let start = index
        index += Int(length)
        return start..<index
    }

    mutating func string() throws -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// Skips a field of the given wire type.
    mutating func skip(wireType: Int) throws {
        switch wireType {
        case 0: _ = try varint()
        case 1: try advance(8)
        case 2: _ = try lengthDelimited()
        case 5: try advance(4)
        default: throw ProtobufError(what: "unsupported wire type \(wireType)")
        }
    }

    private mutating func advance(_ n: Int) throws {
        guard end - index >= n else { throw ProtobufError(what: "message ends inside a fixed-size field") }
        index += n
    }

    /// A reader over a sub-range (a nested message or a packed array).
    func sub(_ range: Range<Int>) -> ProtobufReader { ProtobufReader(base: base, range: range) }
}
