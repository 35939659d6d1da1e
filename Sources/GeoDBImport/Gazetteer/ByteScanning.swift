// Byte-level reading for the text formats (GeoNames, CSV): a file streamed through one buffer, and
// numbers parsed straight from bytes. Ten times faster than splitting Strings (docs/DESIGN-NOTES.md), and
// safe with CRLF files, where Swift sees "\r\n" as one Character.
import Foundation
import GeoDB

/// Streams a file through a buffer that holds whole records: the parser gets the bytes not yet used
/// and returns how many it used; the rest is kept for the next round. Memory is bounded by the buffer
/// (grown only for a record longer than it).
struct ChunkedFileReader {
    static let defaultChunkSize = 4 << 20
    /// The longest record read (a GeoNames row with 400,000 alternate names is 3 MB).
    static let maxRecordBytes = 64 << 20
    let path: String
    var chunkSize = defaultChunkSize
    /// Inflated as it is read when not `.none` (an importance file is gzip).
    var compression = FileByteSource.Compression.none
    /// Where the bytes come from when not the file at `path` itself (a member of a TIGER tar archive; `path`
    /// then only names it in messages).
    var source: ByteSource?

    /// Calls `parse(bytes, atEnd)` until the file is used up; at the end `parse` must use every byte.
    /// `progress` gets how far into the file reading has come after each round: the bytes used, or of a
    /// compressed file the compressed bytes read (what its size on disk is a share of).
    func read(progress: ((Int) -> Void)? = nil,
              _ parse: (UnsafeBufferPointer<UInt8>, _ atEnd: Bool) throws -> Int) throws {
        let opened = source == nil ? try FileByteSource(path: path, compression: compression) : nil
        defer { opened?.close() }
        guard let file = source ?? opened else { return }
        var capacity = chunkSize
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        var used = 0
        var atEnd = false
        while true {
            while filled < capacity && !atEnd {
                let n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
                filled += n
                if n == 0 { atEnd = true }
            }
            let consumed = try parse(UnsafeBufferPointer(start: buffer, count: filled), atEnd)
            used += consumed
            progress?(file.isCompressed ? file.fileOffset : used)
            if atEnd { return }
            if consumed == 0 {
                // One record longer than the buffer: make room for it, up to a limit no real row comes near.
                guard capacity < Self.maxRecordBytes else {
                    throw GeoDBError.badInput(file: path, at: .byteOffset(used),
                                              "a record (line) longer than \(Self.maxRecordBytes >> 20) MiB: not a GeoNames or CSV file?")
                }
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            } else {
                memmove(buffer, buffer + consumed, filled - consumed)
                filled -= consumed
            }
        }
    }
}

extension ChunkedFileReader {
    /// Calls `body` with each line (without its "\n" or "\r\n") and its 1-based number.
    func readLines(progress: ((Int) -> Void)? = nil,
                   _ body: (UnsafeBufferPointer<UInt8>, _ line: Int) throws -> Void) throws {
        var number = 0
        try read(progress: progress) { bytes, atEnd in
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            while start < bytes.count {
                let end: Int
                if let newline = memchr(base + start, 0x0a, bytes.count - start) {
                    end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                } else if atEnd {
                    end = bytes.count
                } else {
                    break
                }
                number += 1
                var lineEnd = end
                if lineEnd > start && bytes[lineEnd - 1] == 0x0d { lineEnd -= 1 }
                try body(bytes.slice(start..<lineEnd), number)
                start = end + 1
            }
            return min(start, bytes.count)
        }
    }
}

/// Splits `line` at every `separator` byte into `fields` (cleared first), stopping after `limit` fields
/// (the last then runs to the end of the line).
func splitFields(_ line: UnsafeBufferPointer<UInt8>, separator: UInt8, limit: Int = .max, into fields: inout [Range<Int>]) {
    fields.removeAll(keepingCapacity: true)
    guard let base = line.baseAddress else { return fields.append(0..<0) }
    var start = 0
    while fields.count < limit - 1, let hit = memchr(base + start, Int32(separator), line.count - start) {
        let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        fields.append(start..<end)
        start = end + 1
    }
    fields.append(start..<line.count)
}

/// Numbers parsed from bytes, strictly: digits with an optional sign, decimal point (or comma) and
/// exponent, surrounding spaces allowed; no "nan", "inf", hex or thousands separators.
enum ByteNumber {
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, end = bytes.count
        while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        while end > i && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var seenPoint = false
        var exact = true
        while i < end {
            let b = bytes[i]
            if b >= 0x30 && b <= 0x39 {
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + UInt64(b - 0x30)
                    if seenPoint { fractionDigits += 1 }
                } else {
                    exact = false
                }
                digits += 1
            } else if (b == UInt8(ascii: ".") || b == UInt8(ascii: ",")) && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i == end && exact && mantissa < (1 << 53) && fractionDigits < powersOfTen.count {
            // Both operands are exact doubles, so one division gives the correctly rounded result.
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        // Rare forms (exponent, many digits): check the syntax, then let the standard library round.
        if i < end {
            guard bytes[i] | 0x20 == UInt8(ascii: "e") else { return nil }
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
            let exponentStart = i
            while i < end && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            guard i == end && i > exponentStart else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// A decimal integer (optional sign, up to 18 digits), surrounding spaces allowed.
    static func int(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0, end = bytes.count
        while i < end && bytes[i] == 0x20 { i += 1 }
        while end > i && bytes[end - 1] == 0x20 { end -= 1 }
        var negative = false
        if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < end, end - i <= 18 else { return nil }
        var value: Int64 = 0
        while i < end {
            let b = bytes[i]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            value = value * 10 + Int64(b - 0x30)
            i += 1
        }
        return negative ? -value : value
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes of `range` as a String (invalid UTF-8 becomes U+FFFD).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }

    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: self[range]) }
}
