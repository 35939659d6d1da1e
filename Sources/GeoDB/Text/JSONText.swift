// Minimal JSON text writing (the `place.tags` column, SQL parameters, exports): compact, key order kept.

package enum JSONText {
    /// A JSON string literal, escaped per RFC 8259.
    package static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON object of string values; later duplicates of a key are dropped.
    package static func object(_ pairs: [(key: String, value: String)]) -> String {
        // Written as bytes: it runs for every imported place with tags, and string concatenation
        // made a String per piece.
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(pairs.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        for (i, (key, value)) in pairs.enumerated() where !pairs[..<i].contains(where: { $0.key == key }) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            appendQuoted(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendQuoted(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal; false as soon as `out` would pass `limit` bytes (the
    /// literal is then left unfinished). Every byte of a multi-byte UTF-8 sequence is 0x80 or above, so
    /// only ASCII bytes can need escaping; the runs between them are copied whole (most texts are one run).
    @discardableResult
    package static func appendQuoted(_ text: String, to out: inout [UInt8], limit: Int = .max) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // A literal is at least its text and two quotes long: a text too long is refused before a copy.
            guard bytes.count + 2 <= limit - out.count else { return false }
            out.append(UInt8(ascii: "\""))
            var run = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[run..<i])
                run = i + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case ..<0x20:
                    out += unicodeEscape
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                default: out.append(byte)   // " and \
                }
                // The rest, were nothing more escaped, and the closing quote.
                guard bytes.count - run + 1 <= limit - out.count else { return false }
            }
            out.append(contentsOf: bytes[run...])
            out.append(UInt8(ascii: "\""))
            return true
        }
    }

    /// After the backslash of `\u0001`: made once, not for every control character (a text can be millions).
    private static let unicodeEscape = Array("u00".utf8)

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// A JSON array of strings.
    package static func array(_ values: [String]) -> String {
        "[" + values.map(quoted).joined(separator: ",") + "]"
    }

    /// A JSON array of ids: what `json_each(?)` takes for `id IN (SELECT value FROM json_each(?))`.
    package static func array(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// The byte a one-letter JSON escape stands for (`n` after a backslash is a line feed), or nil when the
    /// letter is no JSON escape (`u`, four hex digits, is read by the caller).
    package static func unescaped(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return letter
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// Decodes a flat JSON object of string values (what `object` writes), or nil for anything else.
    /// Foundation's JSONSerialization costs microseconds per call; results decode tags on every query.
    package static func stringObject(_ text: String) -> [String: String]? {
        var bytes = Array(text.utf8)[...]
        func skipSpace() { while let b = bytes.first, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { bytes.removeFirst() } }
        func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard bytes.first == byte else { return false }
            bytes.removeFirst()
            return true
        }
        func string() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while let b = bytes.popFirst() {
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = bytes.popFirst() else { return nil }
                    switch e {
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {   // a surrogate pair
                            guard bytes.popFirst() == UInt8(ascii: "\\"), bytes.popFirst() == UInt8(ascii: "u"),
                                  let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        out += Array(String(Character(unicode)).utf8)
                    default:
                        guard let byte = unescaped(e) else { return nil }
                        out.append(byte)
                    }
                default: out.append(b)
                }
            }
            return nil
        }
        func hex4() -> UInt32? {
            guard bytes.count >= 4, let value = UInt32(String(decoding: bytes.prefix(4), as: UTF8.self), radix: 16) else { return nil }
            bytes.removeFirst(4)
            return value
        }
        guard expect(UInt8(ascii: "{")) else { return nil }
        var object: [String: String] = [:]
        if expect(UInt8(ascii: "}")) { return object }
        repeat {
            guard let key = string(), expect(UInt8(ascii: ":")), let value = string() else { return nil }
            object[key] = value
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return bytes.isEmpty ? object : nil
    }
}
