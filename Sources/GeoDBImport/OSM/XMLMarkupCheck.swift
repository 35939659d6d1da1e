// What OSM XML never holds, refused before Foundation's XMLParser sees it. Its libxml2 callbacks hand a null
// string to strlen for a processing instruction without data, `#IMPLIED`/`#REQUIRED` attribute lists,
// notations and unparsed entities (a 16-byte `<osm><?x?></osm>` is a SIGSEGV); a declared encoding other
// than UTF-8 is applied after our UTF-8 check ("Café" read as Latin-1 is "CafÃ©"); and libxml2 checks an
// element's attributes for duplicates pairwise (200k attributes: 36 s). OSM XML (the API, Overpass, osmium,
// JOSM) is UTF-8 with an XML declaration, elements, attributes, comments and nothing else.
import Foundation

/// A byte-level scan of XML, buffer by buffer (a construct may be split between two), for a processing
/// instruction, a DTD, a declared encoding other than UTF-8, and an element with too many attributes.
/// Its cost is a `memchr` through text and attribute values and a look at each byte of a tag's names.
struct XMLMarkupCheck {
    /// The most attributes one element may have. An OSM element has at most ten (id, version, changeset,
    /// timestamp, user, uid, visible, action, lat, lon); the bound keeps the parser's duplicate check small.
    static let maxAttributes = 100
    /// The longest XML declaration read (`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` is 55).
    static let maxDeclarationBytes = 256

    private enum State {
        /// Between tags: the next `<` starts markup.
        case text
        /// After `<`: the next byte tells a tag from a declaration, comment or processing instruction.
        case open
        /// After `<!`: `-` begins a comment, `[` a CDATA section; anything else is a DTD.
        case bang
        /// Inside a start or end tag, outside quotes.
        case tag
        /// Inside an attribute value quoted with this byte.
        case quoted(UInt8)
        /// Inside a comment; `dashes` of `-->` seen.
        case comment(dashes: Int)
        /// Inside a CDATA section; `brackets` of `]]>` seen.
        case cdata(brackets: Int)
        /// Inside the XML declaration, collected to read its encoding.
        case declaration
    }

    private var state = State.text
    /// Whether markup has begun: only the first `<` of the file may open the XML declaration.
    private var sawMarkup = false
    private var attributes = 0
    private var declaration: [UInt8] = []

    /// The index of the first byte of `bytes` that begins something refused, and what it is; nil when the
    /// buffer holds nothing refused.
    mutating func firstRefused(in bytes: UnsafeBufferPointer<UInt8>) -> (index: Int, what: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            switch state {
            case .text:
                guard let hit = memchr(base + i, 0x3c, count - i) else { return nil }   // <
                i = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base + 1
                state = .open
                continue
            case .open:
                let first = !sawMarkup
                sawMarkup = true
                switch bytes[i] {
                case 0x3f:   // ?
                    guard first else { return (i, "a processing instruction (OSM XML has none)") }
                    state = .declaration
                    declaration = []
                case 0x21: state = .bang   // !
                default:
                    state = .tag
                    attributes = 0
                    continue   // the byte is the tag's first
                }
            case .bang:
                switch bytes[i] {
                case 0x2d: state = .comment(dashes: 0)   // -
                case 0x5b: state = .cdata(brackets: 0)   // [
                default: return (i, "a DTD (<!DOCTYPE>, <!ENTITY>, …; OSM XML has none)")
                }
            case .tag:
                // Names between the quoted values, read in one loop (most of a tag is its values).
                while i < count {
                    let byte = base[i]
                    if byte == 0x3e { state = .text; break }   // >
                    if byte == 0x22 || byte == 0x27 { state = .quoted(byte); break }
                    if byte == 0x3d {   // =
                        attributes += 1
                        if attributes > Self.maxAttributes {
                            return (i, "an element with more than \(Self.maxAttributes) attributes (an OSM element has about ten)")
                        }
                    }
                    i += 1
                }
            case .quoted(let quote):
                guard let hit = memchr(base + i, Int32(quote), count - i) else { return nil }
                i = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base + 1
                state = .tag
                continue
            case .comment(let dashes):
                let byte = bytes[i]
                state = byte == 0x3e && dashes >= 2 ? .text : .comment(dashes: byte == 0x2d ? dashes + 1 : 0)
            case .cdata(let brackets):
                let byte = bytes[i]
                state = byte == 0x3e && brackets >= 2 ? .text : .cdata(brackets: byte == 0x5d ? brackets + 1 : 0)
            case .declaration:
                let byte = bytes[i]
                if byte == 0x3e, declaration.last == 0x3f {
                    state = .text
                    if let refused = Self.refusal(ofDeclaration: declaration) { return (i, refused) }
                } else {
                    declaration.append(byte)
                    if declaration.count > Self.maxDeclarationBytes { return (i, "an XML declaration longer than \(Self.maxDeclarationBytes) bytes") }
                }
            }
            i += 1
        }
        return nil
    }

    /// Why a declaration (the bytes between `<?` and `>`) is refused: a processing instruction that is not
    /// `xml`, or an encoding other than UTF-8 (or its subset ASCII).
    private static func refusal(ofDeclaration bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let target = text.prefix { !$0.isWhitespace && $0 != "?" }
        guard target == "xml" else { return "a processing instruction (OSM XML has none)" }
        guard let range = text.range(of: "encoding") else { return nil }
        let rest = text[range.upperBound...].drop { $0.isWhitespace || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let encoding = rest.dropFirst().prefix { $0 != quote }
        guard !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased()) else { return nil }
        return "the file declares encoding \"\(encoding)\": geodb reads OSM XML as UTF-8 only (correct the declaration, or convert the file: iconv -f \(encoding) -t UTF-8)"
    }
}
