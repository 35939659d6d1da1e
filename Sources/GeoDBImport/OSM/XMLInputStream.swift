// The bytes of an OSM XML file as Foundation's XMLParser pulls them: read from the file, or inflated from
// gzip or bzip2 as the parser asks (a small .osm.gz may expand to gigabytes: never written out first),
// and checked to be UTF-8 on the way in. Foundation's parser traps on invalid UTF-8 in an element or
// attribute name (libxml2 lets it through there), and crashes on some markup OSM XML never has
// (XMLMarkupCheck), so no byte reaches it unchecked.
import CBzip2
import CZlib
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
    private let source: XMLByteSource
    private let path: String
    private var utf8 = UTF8Validator()
    private var markup = XMLMarkupCheck()
    /// Lines begun so far (1 + the line feeds handed over), for naming the line of a bad byte.
    private var line = 1
    private var stopped = false

    /// Opens the file at `path`, inflating it as `format` says (`.osmXML`, `.osmXMLGzip`, `.osmXMLBzip2`).
    init(path: String, format: InputFormat) throws {
        self.path = path
        source = try XMLByteSource(path: path, format: format)
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

/// The bytes of a plain, gzip or bzip2 file, decompressed as they are read. Errors name the file and
/// about where in it the data went wrong.
final class XMLByteSource {
    private enum Reader {
        case plain(UnsafeMutablePointer<FILE>)
        case gzip(gzFile)
        case bzip2(Bzip2Reader)
    }

    private let reader: Reader
    private let path: String
    private var closed = false

    init(path: String, format: InputFormat) throws {
        self.path = path
        switch format {
        case .osmXMLGzip:
            guard let file = gzopen(path, "rb") else { throw Self.cannotOpen(path) }
            gzbuffer(file, 1 << 20)
            reader = .gzip(file)
        case .osmXMLBzip2:
            reader = .bzip2(try Bzip2Reader(path: path))
        default:
            guard let file = fopen(path, "rb") else { throw Self.cannotOpen(path) }
            reader = .plain(file)
        }
    }

    private static func cannotOpen(_ path: String) -> GeoDBError {
        GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
    }

    var isCompressed: Bool {
        if case .plain = reader { return false }
        return true
    }

    /// Bytes of the file (compressed, when it is) read so far.
    var fileOffset: Int {
        switch reader {
        case .plain(let file): return ftell(file)
        case .gzip(let file): return Int(gzoffset(file))
        case .bzip2(let bzip2): return bzip2.bytesRead
        }
    }

    /// Fills `buffer` from its start with the next bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch reader {
        case .plain(let file):
            let n = fread(buffer.baseAddress, 1, buffer.count, file)
            if n == 0 && ferror(file) != 0 { throw GeoDBError(.io, "\(path): read failed: \(String(cString: strerror(errno)))") }
            return n
        case .gzip(let file):
            let n = Int(gzread(file, buffer.baseAddress, UInt32(min(buffer.count, Int(Int32.max)))))
            var status: Int32 = Z_OK
            _ = gzerror(file, &status)
            if n < 0 || (n == 0 && status != Z_OK) {
                let what = status == Z_BUF_ERROR ? "the file ends inside gzip data (truncated file?)" : "corrupt gzip data"
                throw GeoDBError.badInput(file: path, at: .byteOffset(Int(gzoffset(file))), what)
            }
            return n
        case .bzip2(let bzip2):
            return try bzip2.read(into: buffer)
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        switch reader {
        case .plain(let file): fclose(file)
        case .gzip(let file): gzclose(file)
        case .bzip2(let bzip2): bzip2.close()
        }
    }
}

/// A bzip2 file decompressed as it is read. Several bzip2 streams one after the other (as pbzip2 and
/// lbzip2 write them) are one file.
final class Bzip2Reader {
    static let bufferSize = 1 << 20
    private let path: String
    private let file: UnsafeMutablePointer<FILE>
    private let compressed = UnsafeMutablePointer<CChar>.allocate(capacity: bufferSize)
    private var stream = bz_stream()
    /// Compressed bytes read from the file.
    private(set) var bytesRead = 0
    /// Input fed to the current stream before its end.
    private var inStream = false
    private var atEnd = false
    private var closed = false

    init(path: String) throws {
        guard let file = fopen(path, "rb") else {
            compressed.deallocate()
            throw GeoDBError(.fileNotFound, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.file = file
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
            fclose(file)
            compressed.deallocate()
            throw GeoDBError(.io, "\(path): cannot start bzip2")
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        BZ2_bzDecompressEnd(&stream)
        fclose(file)
        compressed.deallocate()
    }

    deinit { close() }

    private func bad(_ what: String) -> GeoDBError {
        GeoDBError.badInput(file: path, at: .byteOffset(bytesRead - Int(stream.avail_in)), what)
    }

    /// Fills `buffer` with the next decompressed bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !atEnd, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            if stream.avail_in == 0 {
                let n = fread(compressed, 1, Self.bufferSize, file)
                if ferror(file) != 0 { throw GeoDBError(.io, "\(path): read failed: \(String(cString: strerror(errno)))") }
                if n == 0 {
                    if inStream { throw bad("file ends inside a bzip2 stream (truncated file?)") }
                    atEnd = true
                    return 0
                }
                stream.next_in = compressed
                stream.avail_in = UInt32(n)
                bytesRead += n
            }
            inStream = true
            stream.next_out = out.assumingMemoryBound(to: CChar.self)
            stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
            let rc = BZ2_bzDecompress(&stream)
            let produced = Int(UInt32(min(buffer.count, Int(UInt32.max))) - stream.avail_out)
            if rc == BZ_STREAM_END {
                // Another stream may follow: start afresh on the input left over.
                let (next, left) = (stream.next_in, stream.avail_in)
                BZ2_bzDecompressEnd(&stream)
                stream = bz_stream()
                guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw bad("cannot restart bzip2") }
                (stream.next_in, stream.avail_in) = (next, left)
                inStream = false
            } else if rc != BZ_OK {
                throw bad(rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data" : "corrupt bzip2 data (libbz2 error \(rc))")
            }
            if produced > 0 { return produced }
        }
    }
}
