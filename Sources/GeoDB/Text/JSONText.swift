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
    /// Foundation's JSONSerialization costs microseconds per call; results decode tags on every query. Read
    /// in place from the String's bytes, a string without escapes (nearly all) made from its bytes at once:
    /// byte by byte through an array slice, this was 3 % of the popular queries' instructions (Liechtenstein
    /// ×20), 14,000 a place read.
    package static func stringObject(_ text: String) -> [String: String]? {
        var text = text
        return text.withUTF8(stringObject(bytes:))
    }

    private static func stringObject(bytes: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var i = 0
        func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }
        func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        func hex4() -> UInt32? {
            guard bytes.count - i >= 4 else { return nil }
            var value: UInt32 = 0
            for byte in bytes[i..<(i + 4)] {
                guard let digit = hexValue(byte) else { return nil }
                value = value << 4 | digit
            }
            i += 4
            return value
        }
        func string() -> String? {
            guard expect(quote) else { return nil }
            let start = i
            while i < bytes.count, bytes[i] != quote, bytes[i] != backslash { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == quote {
                i += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
            }
            var out = Array(bytes[start..<i])
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                switch byte {
                case quote: return String(decoding: out, as: UTF8.self)
                case backslash:
                    guard i < bytes.count else { return nil }
                    let letter = bytes[i]
                    i += 1
                    guard letter == UInt8(ascii: "u") else {
                        guard let unescaped = unescaped(letter) else { return nil }
                        out.append(unescaped)
                        continue
                    }
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {   // a surrogate pair
                        guard bytes.count - i >= 2, bytes[i] == backslash, bytes[i + 1] == UInt8(ascii: "u") else { return nil }
                        i += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    out += Array(String(Character(unicode)).utf8)
                default: out.append(byte)
                }
            }
            return nil
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
        return i == bytes.count ? object : nil
    }

    /// The value of a hex digit (either case), or nil.
    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
