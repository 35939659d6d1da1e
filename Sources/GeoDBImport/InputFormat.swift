// Recognises an input file's format from its first bytes, never from its name.
import CZlib
import Foundation
import GeoDB

/// The input formats geodb imports.
public enum InputFormat: String, Sendable {
    case osmPBF = "osm.pbf"
    case osmXML = "osm.xml"
    case osmXMLGzip = "osm.xml.gz"
    /// Timezone boundaries: a GeoJSON FeatureCollection whose first feature has a `tzid` property.
    case timezoneGeoJSON = "timezone.geojson"

    /// Looks at the start of the file; throws a clear error for empty, unreadable and unknown files.
    public static func detect(path: String) throws -> InputFormat {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw GeoDBError(.fileNotFound, exists ? "\(path): cannot be read (permissions?)" : "\(path): no such file")
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        guard !head.isEmpty else { throw GeoDBError.badInput(file: path, at: .byteOffset(0), "empty file") }
        if isPBF(head) { return .osmPBF }
        if head.starts(with: [0x1f, 0x8b]) { return .osmXMLGzip }
        if head.starts(with: Array("BZh".utf8)) {
            throw GeoDBError(.unsupportedInput, "\(path): bzip2-compressed input is not supported",
                             remedy: "decompress it first: bunzip2 -k \(path)")
        }
        if isOSMXML(head) { return .osmXML }
        if GeoJSONReader.looksLikeFeatureCollection(head) { return try TimeZoneImporter.detect(path) }
        throw GeoDBError(.unknownFormat, "\(path): unknown format (expected OSM PBF, OSM XML or timezone GeoJSON)",
                         remedy: "check the file; geodb recognises formats by content, not by name")
    }

    /// A PBF file starts with a 4-byte big-endian header length, then a BlobHeader whose type is "OSMHeader".
    static func isPBF(_ head: [UInt8]) -> Bool {
        guard head.count >= 16 else { return false }
        let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard length > 0, length < 64 * 1024, head[4] == 0x0a, Int(head[5]) == 9 else { return false }
        return Array(head[6..<min(15, head.count)]) == Array("OSMHeader".utf8)
    }

    /// XML (after an optional BOM and whitespace) with an `<osm` root in the first bytes.
    static func isOSMXML(_ head: [UInt8]) -> Bool {
        let bytes = textStart(head)
        guard bytes.first == UInt8(ascii: "<") else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("<osm") && !text.hasPrefix("<!DOCTYPE html")
    }

    /// The bytes after an optional UTF-8 byte order mark and whitespace.
    static func textStart(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var bytes = head[...]
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) { bytes = bytes.dropFirst(3) }
        return bytes.drop { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
    }
}

/// Decompresses a gzip file to a temporary file (XMLParser streams from a file, not from zlib).
enum Gunzip {
    static func decompress(_ path: String, to output: String) throws {
        guard let input = gzopen(path, "rb") else { throw GeoDBError(.fileNotFound, "\(path): cannot open") }
        defer { gzclose(input) }
        guard let out = fopen(output, "wb") else {
            throw GeoDBError(.io, "\(output): cannot create: \(String(cString: strerror(errno)))")
        }
        defer { fclose(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { gzread(input, $0.baseAddress, UInt32($0.count)) }
            if n < 0 { throw GeoDBError.badInput(file: path, at: .byteOffset(Int(gzoffset(input))), "corrupt gzip data") }
            if n == 0 { break }
            guard fwrite(buffer, 1, Int(n), out) == Int(n) else { throw GeoDBError(.io, "\(output): write failed") }
        }
    }
}
