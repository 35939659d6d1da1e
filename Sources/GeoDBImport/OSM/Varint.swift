// The variable-length integers of the OSM PBF format and of the import's scratch tables.

/// Base-128 varints (7 bits per byte, low bits first, high bit set on all but the last byte) and the
/// zigzag mapping that makes small negative numbers small too (0, -1, 1, -2 … → 0, 1, 2, 3 …), as in
/// protocol buffers. (GeoDB's geometry blobs have their own copy: a function shared across the module
/// boundary as `package` was not inlined, and PBF decoding calls these for every coordinate.)
enum Varint {
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// Decodes the varint at `bytes + offset` (the caller knows one is there) and moves `offset` past it.
    @inline(__always)
    static func read(_ bytes: UnsafePointer<UInt8>, at offset: inout Int) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// Appends `value` as a varint of 1 to 10 bytes.
    @inline(__always)
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}
