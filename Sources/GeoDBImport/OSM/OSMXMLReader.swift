// Streaming reader for OSM XML (.osm, .osm.gz, .osm.bz2) files, on Foundation's SAX parser (libxml2).
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GeoDB

/// Reads one `.osm` XML file (plain, gzip or bzip2) without loading or inflating it whole; objects go to
/// the handler as each one closes.
public final class OSMXMLReader {
    public let path: String
    /// `.osmXML`, `.osmXMLGzip` or `.osmXMLBzip2`.
    public let format: InputFormat
    public private(set) var stats = OSMReadStats()
    public var onProgress: ((OSMReadStats) -> Void)?

    public init(path: String, format: InputFormat = .osmXML) {
        self.path = path
        self.format = format
    }

    public func read(into handler: OSMHandler) throws {
        let stream = try XMLInputStream(path: path, format: format)
        let parser = XMLParser(stream: stream)
        let delegate = Delegate(handler: handler, reader: self, parser: parser, stream: stream)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        let ok = parser.parse()
        stats = delegate.stats
        stats.bytesRead = stream.fileOffset
        stats.newestTimestamp = delegate.newestTimestamp.flatMap(ISO8601.seconds)
        // The first failure in the file: the handler's stops reading, so one of the stream's comes before it.
        if let error = delegate.failure ?? stream.failure { throw error }
        if !ok {
            let code = (parser.parserError as NSError?)?.code ?? -1
            throw GeoDBError.badInput(file: path, at: .line(delegate.errorLine ?? parser.lineNumber),
                                      "malformed XML: \(Self.describe(code))")
        }
        if !delegate.sawRoot { throw GeoDBError.badInput(file: path, at: .line(1), "no <osm> element") }
        // libxml2 in push mode accepts a document that simply stops: insist on the closing tag.
        if !delegate.closedRoot {
            throw GeoDBError.badInput(file: path, at: .line(parser.lineNumber),
                                      "the document ends before </osm> (truncated file?)")
        }
        try delegate.deliverHeader()
    }

    /// A short text for libxml2's error numbers (xmlerror.h), which Foundation on Linux does not describe.
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "the document ends early (truncated file?)"
        case 9: return "an invalid character"
        case 23, 26, 27: return "a bad entity reference"
        case 29: return "a reference to an external entity (geodb loads none)"
        case 89: return "entities that refer to themselves or expand too far (an entity bomb?)"
        case 38: return "'<' inside an attribute value"
        case 39, 40, 41: return "an attribute value is not quoted"
        case 65, 68: return "a malformed tag"
        case 73: return "a tag is not closed with '>'"
        case 74, 76: return "a closing tag does not match its opening tag"
        case 85: return "tags are not well balanced"
        case 86: return "content after the end of the document"
        default: return "XML parser error \(code)"
        }
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let handler: OSMHandler
        unowned let reader: OSMXMLReader
        unowned let parser: XMLParser
        unowned let stream: XMLInputStream
        var stats = OSMReadStats()
        var failure: Error?
        var sawRoot = false
        var closedRoot = false
        var errorLine: Int?
        var header = OSMHeader()
        var headerDelivered = false
        /// ISO 8601 UTC timestamps sort as text: keep the greatest, parse it once at the end.
        var newestTimestamp: String?

        enum Current { case none, node(Int64, Int32, Int32), way(Int64), relation(Int64), skipped }
        var current = Current.none
        var tags = OSMTags()
        var refs: [Int64] = []
        var members: [OSMMember] = []

        init(handler: OSMHandler, reader: OSMXMLReader, parser: XMLParser, stream: XMLInputStream) {
            self.handler = handler
            self.reader = reader
            self.parser = parser
            self.stream = stream
        }

        func fail(_ what: String) {
            stop(GeoDBError.badInput(file: reader.path, at: .line(parser.lineNumber), what))
        }

        func attempt(_ body: () throws -> Void) {
            do { try body() } catch { stop(error) }
        }

        /// Keeps the first failure and stops the parser and the reading of the file.
        func stop(_ error: Error) {
            if failure == nil { failure = error }
            parser.abortParsing()
            stream.stop()
        }

        func deliverHeader() throws {
            guard !headerDelivered else { return }
            headerDelivered = true
            try handler.header(header)
        }

        func id(_ attributes: [String: String], _ element: String) -> Int64? {
            guard let text = attributes["id"], let id = Int64(text) else {
                fail("<\(element)> without a valid id attribute")
                return nil
            }
            return id
        }

        /// JOSM files mark deleted objects with action="delete"; history-less files may carry visible="false".
        func isDeleted(_ attributes: [String: String]) -> Bool {
            attributes["action"] == "delete" || attributes["visible"] == "false"
        }

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            guard failure == nil else { return }
            if let stamp = attributes["timestamp"], element != "osm", stamp > (newestTimestamp ?? "") {
                newestTimestamp = stamp
            }
            switch element {
            case "node":
                attempt { try deliverHeader() }
                guard let id = id(attributes, element) else { return }
                guard let latText = attributes["lat"], let lonText = attributes["lon"],
                      let lat = Double(latText), let lon = Double(lonText) else {
                    if isDeleted(attributes) { current = .skipped; return }
                    return fail("node \(id) without numeric lat/lon attributes")
                }
                tags.removeAll()
                stats.nodes += 1
                if isDeleted(attributes) {
                    current = .skipped
                } else if Coordinate(lat: lat, lon: lon).isValid {
                    let p = Point7(Coordinate(lat: lat, lon: lon))
                    current = .node(id, p.lat, p.lon)
                } else {
                    stats.invalidCoordinates += 1
                    current = .skipped
                }
            case "way":
                attempt { try deliverHeader() }
                guard let id = id(attributes, element) else { return }
                tags.removeAll()
                refs.removeAll(keepingCapacity: true)
                stats.ways += 1
                current = isDeleted(attributes) ? .skipped : .way(id)
            case "relation":
                attempt { try deliverHeader() }
                guard let id = id(attributes, element) else { return }
                tags.removeAll()
                members.removeAll(keepingCapacity: true)
                stats.relations += 1
                current = isDeleted(attributes) ? .skipped : .relation(id)
            case "tag":
                guard let key = attributes["k"], let value = attributes["v"] else { return fail("<tag> without k and v") }
                tags.append(key, value)
            case "nd":
                guard let text = attributes["ref"], let ref = Int64(text) else { return fail("<nd> without a valid ref") }
                refs.append(ref)
            case "member":
                guard let typeText = attributes["type"], let refText = attributes["ref"], let ref = Int64(refText) else {
                    return fail("<member> without a valid type and ref")
                }
                let type: OSMMember.MemberType
                switch typeText {
                case "node": type = .node
                case "way": type = .way
                case "relation": type = .relation
                default: return fail("<member> of unknown type '\(typeText)'")
                }
                members.append(OSMMember(type: type, ref: ref, role: attributes["role"] ?? ""))
            case "osm":
                sawRoot = true
                header.writingProgram = attributes["generator"]
                if let stamp = attributes["timestamp"] { header.replicationTimestamp = ISO8601.seconds(stamp) }
            case "bounds":
                if let a = attributes["minlat"].flatMap(Double.init), let b = attributes["minlon"].flatMap(Double.init),
                   let c = attributes["maxlat"].flatMap(Double.init), let d = attributes["maxlon"].flatMap(Double.init) {
                    header.boundingBox = (b, a, d, c)
                }
            case "osmChange":
                stop(GeoDBError(.unsupportedInput, "\(reader.path): is an osmChange (diff) file; geodb imports full extracts"))
            default:
                if !sawRoot { fail("root element is <\(element)>, expected <osm>") }
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if errorLine == nil { errorLine = parser.lineNumber }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            if element == "osm" { closedRoot = true }
            switch (element, current) {
            case ("node", .node(let id, let lat, let lon)):
                attempt { try handler.node(id: id, lat7: lat, lon7: lon, tags: tags) }
                current = .none
            case ("way", .way(let id)):
                attempt { try handler.way(id: id, refs: refs, tags: tags) }
                current = .none
            case ("relation", .relation(let id)):
                attempt { try handler.relation(id: id, members: members, tags: tags) }
                current = .none
            case ("node", _), ("way", _), ("relation", _):
                current = .none
            default:
                return
            }
            let total = stats.nodes + stats.ways + stats.relations
            if total % 65_536 == 0 { reader.onProgress?(stats) }
        }
    }
}

/// ISO 8601 timestamps as OSM writes them ("2024-05-01T12:00:00Z").
enum ISO8601 {
    static func seconds(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }

    // Formatting without ISO8601DateFormatter: its first use loads ICU's calendar data, ~10 ms of every import.
    static func string(_ seconds: Int64) -> String { ISO8601Text.utc(Date(timeIntervalSince1970: TimeInterval(seconds))) }

    static func now() -> String { ISO8601Text.utc(Date()) }
}
