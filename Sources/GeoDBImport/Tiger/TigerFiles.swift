// The CSV files of a TIGER input, one after the other, however they come: a file (plain or gzip), a
// directory of them, or Nominatim's .tar.gz of them, whose tar stream is read as it is inflated (512-byte
// headers, each member's bytes handed on as they come), never extracted to disk.
import Foundation
import GeoDB

/// A TIGER input (`InputFormat.tiger`): what it is, and its CSV files as byte streams.
struct TigerFiles {
    /// The header line of Nominatim's preprocessed TIGER CSV files, which is what makes a file one.
    static let header = Array("from;to;interpolation;street;city;state;postcode;geometry".utf8)

    let path: String

    /// Whether `bytes` (a file's first bytes, inflated) begin with the TIGER header line.
    static func startsWithHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        var text = bytes
        if text.starts(with: [0xef, 0xbb, 0xbf]) { text = text.dropFirst(3) }
        guard text.starts(with: header) else { return false }
        let rest = text.dropFirst(header.count)
        return rest.isEmpty || rest.first == 0x0a || rest.first == 0x0d
    }

    /// Whether the inflated head of a gzip file is TIGER: a CSV file, or a tar whose first .csv member (within
    /// the head, after directories and the like) is one.
    static func isTiger(inflatedHead head: [UInt8]) -> Bool {
        if startsWithHeader(head[...]) { return true }
        var offset = 0
        while offset + TarStream.blockSize <= head.count, TarStream.isTarHeader(head[offset...]),
              let size = TarStream.octal(head[(offset + 124)..<(offset + 136)]) {
            let name = String(decoding: head[offset..<(offset + 100)].prefix { $0 != 0 }, as: UTF8.self)
            let data = offset + TarStream.blockSize
            if name.hasSuffix(".csv") { return data < head.count && startsWithHeader(head[data...]) }
            offset = data + (size + TarStream.blockSize - 1) / TarStream.blockSize * TarStream.blockSize
        }
        return false
    }

    /// The first `count` inflated bytes of the gzip file at `path` (fewer when it is shorter).
    static func inflatedHead(of path: String, count: Int) throws -> [UInt8] {
        let file = try FileByteSource(path: path, compression: .gzip)
        defer { file.close() }
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        try head.withUnsafeMutableBytes { buffer in
            while filled < count {
                let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if n == 0 { break }
                filled += n
            }
        }
        return Array(head.prefix(filled))
    }

    /// The CSV files of the directory at `path` (names ending in .csv or .csv.gz, in name order), when it is
    /// a directory; nil when it is none.
    static func directoryFiles(_ path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".csv.gz") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// The bytes of all its files on disk (what progress measures reading against).
    var sizeBytes: Int {
        let files = Self.directoryFiles(path) ?? [path]
        return files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
    }

    /// Hands `body` each CSV file of the input: its name as messages give it ("tiger.tar.gz:01001.csv") and
    /// its bytes. `progress` gets the input's bytes read on disk so far.
    func forEachFile(progress: @escaping (Int) -> Void, _ body: (String, ByteSource) throws -> Void) throws {
        if let files = Self.directoryFiles(path) {
            var before = 0
            for file in files {
                let source = try FileByteSource(path: file, compression: try Self.compression(of: file))
                defer { source.close() }
                try body(file, OffsetByteSource(source) { progress(before + $0) })
                before += (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            }
            return
        }
        let compression = try Self.compression(of: path)
        let source = try FileByteSource(path: path, compression: compression)
        defer { source.close() }
        if compression == .gzip, try TarStream.isTarHeader(Self.inflatedHead(of: path, count: TarStream.blockSize)[...]) {
            let tar = TarStream(source: source, path: path)
            while let member = try tar.next() {
                // Only the CSV files, as Nominatim takes them (a README beside them is no data).
                guard member.name.hasSuffix(".csv") else { try member.skipRest(); continue }
                try body("\(path):\(member.name)", OffsetByteSource(member, progress: progress))
                try member.skipRest()
            }
        } else {
            try body(path, OffsetByteSource(source, progress: progress))
        }
    }

    /// gzip for a file beginning with its magic number, else none.
    private static func compression(of path: String) throws -> FileByteSource.Compression {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw GeoDBError(.fileNotFound, "\(path): cannot be read (permissions?)")
        }
        defer { try? handle.close() }
        let magic = [UInt8]((try? handle.read(upToCount: 2)) ?? Data())
        return magic == [0x1f, 0x8b] ? .gzip : .none
    }
}

/// Bytes read from somewhere, as `ChunkedFileReader` takes them: a file (`FileByteSource`) or a member of a
/// tar stream.
protocol ByteSource: AnyObject {
    /// Fills `buffer` from its start with the next bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes of the file on disk read so far (compressed, when it is).
    var fileOffset: Int { get }
    /// Whether the bytes read differ from those on disk (progress then goes by `fileOffset`).
    var isCompressed: Bool { get }
}

extension FileByteSource: ByteSource {}

/// A byte source that reports its file's offset after each read.
private final class OffsetByteSource: ByteSource {
    private let source: ByteSource
    private let progress: (Int) -> Void

    init(_ source: ByteSource, progress: @escaping (Int) -> Void) {
        self.source = source
        self.progress = progress
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try source.read(into: buffer)
        progress(source.fileOffset)
        return n
    }

    var fileOffset: Int { source.fileOffset }
    var isCompressed: Bool { true }
}

/// A tar archive read as a stream (POSIX ustar and GNU long names): each member's header block, then its
/// bytes, then padding to the next 512-byte block.
final class TarStream {
    static let blockSize = 512
    private let source: ByteSource
    private let path: String
    /// Bytes of the archive (inflated) read so far, for messages.
    private(set) var offset = 0
    private var current: Member?

    init(source: ByteSource, path: String) {
        self.source = source
        self.path = path
    }

    /// Whether `block` is a tar header: "ustar" at offset 257 and a checksum that adds up.
    static func isTarHeader(_ block: ArraySlice<UInt8>) -> Bool {
        guard block.count >= blockSize else { return false }
        let b = Array(block.prefix(blockSize))
        guard b[257..<262].elementsEqual("ustar".utf8), let stored = octal(b[148..<156]) else { return false }
        let sum = b.enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 32 : Int($1.element)) }
        return sum == stored
    }

    /// An octal field (digits, ended by NUL or space); nil when it holds anything else.
    static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        let digits = field.drop { $0 == 0x20 }.prefix { $0 != 0 && $0 != 0x20 }
        guard !digits.isEmpty, digits.count <= 11, digits.allSatisfy({ (0x30...0x37).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 8 + Int($1 - 0x30) }
    }

    /// A member's bytes, read as they come.
    final class Member: ByteSource {
        let name: String
        private let tar: TarStream
        private var left: Int
        private let padding: Int

        fileprivate init(name: String, size: Int, tar: TarStream) {
            self.name = name
            self.tar = tar
            left = size
            padding = (TarStream.blockSize - size % TarStream.blockSize) % TarStream.blockSize
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard left > 0 else { return 0 }
            let n = try tar.readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(left)))
            guard n > 0 else { throw tar.bad("the archive ends inside member \(name) (truncated file?)") }
            left -= n
            return n
        }

        var fileOffset: Int { tar.source.fileOffset }
        var isCompressed: Bool { true }

        /// Reads past what is left of the member and its padding.
        func skipRest() throws {
            var scratch = [UInt8](repeating: 0, count: 64 * 1024)
            try scratch.withUnsafeMutableBytes { buffer in
                while left > 0 { _ = try read(into: buffer) }
                try tar.readExactly(padding, into: buffer)
            }
            left = 0
        }
    }

    /// The next regular file of the archive (directories and other entries passed over); nil at its end.
    func next() throws -> Member? {
        var longName: String?
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        while true {
            let start = offset
            let got = try block.withUnsafeMutableBytes { try readExactly(Self.blockSize, into: $0, endAllowed: true) }
            // Two zero blocks end an archive; an archive cut at a block boundary is taken as ended too.
            guard got, block.contains(where: { $0 != 0 }) else { return nil }
            guard Self.isTarHeader(block[...]), let size = Self.octal(block[124..<136]) else {
                throw GeoDBError.badInput(file: path, at: .byteOffset(start), "not a tar header (a .tar.gz of TIGER CSV files was expected)")
            }
            func text(_ range: Range<Int>) -> String { String(decoding: block[range].prefix { $0 != 0 }, as: UTF8.self) }
            var name = longName ?? text(0..<100)
            if longName == nil, block[257..<262].elementsEqual("ustar".utf8), block[345] != 0 { name = text(345..<500) + "/" + name }
            let member = Member(name: name, size: size, tar: self)
            switch block[156] {
            case UInt8(ascii: "L"):
                // A GNU long name: the member's bytes are the next entry's name.
                guard size <= 64 * 1024 else { throw bad("a long name of \(size) bytes") }
                var bytes = [UInt8](repeating: 0, count: size), got = 0
                try bytes.withUnsafeMutableBytes { buffer in
                    while got < size { got += try member.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...])) }
                }
                try member.skipRest()
                longName = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                return member
            default:
                longName = nil
                try member.skipRest()
            }
        }
    }

    fileprivate func bad(_ what: String) -> GeoDBError {
        GeoDBError.badInput(file: path, at: .byteOffset(offset), what)
    }

    fileprivate func readSome(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try source.read(into: buffer)
        offset += n
        return n
    }

    /// Reads exactly `count` bytes into the start of `buffer` (in pieces of its size when longer; only the
    /// last piece is kept); false when the archive ended before the first byte and `endAllowed`.
    @discardableResult
    fileprivate func readExactly(_ count: Int, into buffer: UnsafeMutableRawBufferPointer, endAllowed: Bool = false) throws -> Bool {
        var done = 0
        while done < count {
            let piece = min(count - done, buffer.count)
            var filled = 0
            while filled < piece {
                let n = try readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<piece]))
                if n == 0 {
                    if endAllowed && done == 0 && filled == 0 { return false }
                    throw bad("the archive ends inside a tar block (truncated file?)")
                }
                filled += n
            }
            done += piece
        }
        return true
    }
}
