// The bytes of an OSM XML file as Foundation's XMLParser pulls them: read from the file, or inflated from
// gzip or bzip2 as the parser asks (a small .osm.gz may expand to gigabytes: never written out first),
// and checked to be UTF-8 on the way in. Foundation's parser traps on invalid UTF-8 in an element or
// attribute name (libxml2 lets it through there), and crashes on some markup OSM XML never has
// (XMLMarkupCheck), so no byte reaches it unchecked.
import Foundation
import GeoDB

/// An OSM XML file's bytes for XMLParser, checked to be UTF-8 (which OSM XML is) and to hold no markup
/// that XMLMarkupCheck refuses. Reading stops at the first bad byte or failing read, and `failure` says
/// what and where; the parser sees the file end there.
final class XMLInputStream: InputStream {
    /// What stopped reading early: invalid UTF-8, corrupt compressed data, a failing read.
    private(set) var failure: GeoDBError?
    /// Uncompressed bytes handed to the parser so far.
    private(set) var bytesRead = 0
    private let source: FileByteSource
    private let path: String
    private var utf8 = UTF8Validator()
    private var markup = XMLMarkupCheck()
    /// Lines begun so far (1 + the line feeds handed over), for naming the line of a bad byte.
    private var line = 1
    private var stopped = false

    /// Opens the file at `path`, inflating it as `format` says (`.osmXML`, `.osmXMLGzip`, `.osmXMLBzip2`).
    init(path: String, format: InputFormat) throws {
        self.path = path
        let compression: FileByteSource.Compression = format == .osmXMLGzip ? .gzip : format == .osmXMLBzip2 ? .bzip2 : .none
        source = try FileByteSource(path: path, compression: compression)
        super.init(data: Data())
    }

    deinit { source.close() }

    /// Compressed bytes read from the file so far (the same as `bytesRead` for plain XML), for progress.
    var fileOffset: Int { source.fileOffset }

    /// Hands the parser nothing more (it has failed: the rest of the file need not be read).
    func stop() { stopped = true }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !stopped }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard !stopped else { return 0 }
        let count: Int
        do {
            count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
        } catch {
            return fail(error as? GeoDBError ?? GeoDBError(.io, "\(path): \(error)"))
        }
        let bytes = UnsafeBufferPointer(start: buffer, count: count)
        if count == 0 {
            stopped = true
            if utf8.isInsideASequence {
                return fail(.badInput(file: path, at: .line(line), "the file ends inside a UTF-8 character"))
            }
            return 0
        }
        // The earlier of a bad byte and refused markup is the one reported; the parser sees neither.
        let refused = markup.firstRefused(in: bytes)
        if let bad = utf8.firstInvalid(in: bytes), bad <= refused?.index ?? Int.max {
            line += Self.lineFeeds(in: UnsafeBufferPointer(rebasing: bytes[..<bad]))
            // Where the character that breaks off began (perhaps in the buffer before).
            let offset = bytesRead + bad - utf8.bytesOfCharacter
            return fail(.badInput(file: path, at: .line(line), "invalid UTF-8 at byte offset \(offset)"
                                  + "\(source.isCompressed ? " of the uncompressed XML" : "") (OSM XML is UTF-8)"))
        }
        if let refused {
            line += Self.lineFeeds(in: UnsafeBufferPointer(rebasing: bytes[..<refused.index]))
            return fail(.badInput(file: path, at: .line(line), refused.what))
        }
        line += Self.lineFeeds(in: bytes)
        bytesRead += count
        return count
    }

    private func fail(_ error: GeoDBError) -> Int {
        if failure == nil { failure = error }
        stopped = true
        return 0
    }

    private static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var p = bytes.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = p + bytes.count
        var count = 0
        while p < end, let hit = memchr(p, 0x0a, end - p) {
            count += 1
            p = UnsafeRawPointer(hit) + 1
        }
        return count
    }
}

/// Checks UTF-8 across buffers (a character may be split between two): the shortest form only, no
/// surrogates, nothing above U+10FFFF.
struct UTF8Validator {
    /// Continuation bytes still expected for the character begun.
    private var pending = 0
    /// The range the next continuation byte must be in (narrower after E0, ED, F0 and F4).
    private var low: UInt8 = 0x80, high: UInt8 = 0xbf

    /// Bytes of the character being read that were valid (0 between characters).
    private(set) var bytesOfCharacter = 0

    var isInsideASequence: Bool { pending > 0 }

    /// The index of the first byte that is not valid UTF-8 where it stands, or nil.
    mutating func firstInvalid(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            // Most of an OSM file is ASCII: eight bytes at a time while no high bit is set.
            if pending == 0 {
                while i + 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
                guard i < count else { break }
            }
            let byte = base[i]
            if pending > 0 {
                guard byte >= low && byte <= high else { return i }
                pending -= 1
                bytesOfCharacter = pending == 0 ? 0 : bytesOfCharacter + 1
                (low, high) = (0x80, 0xbf)
            } else if byte >= 0x80 {
                switch byte {
                case 0xc2...0xdf: pending = 1
                case 0xe0: (pending, low) = (2, 0xa0)
                case 0xe1...0xec, 0xee...0xef: pending = 2
                case 0xed: (pending, high) = (2, 0x9f)
                case 0xf0: (pending, low) = (3, 0x90)
                case 0xf1...0xf3: pending = 3
                case 0xf4: (pending, high) = (3, 0x8f)
                default: return i
                }
                bytesOfCharacter = 1
            }
            i += 1
        }
        return nil
    }
}
