// Minimal JSON text writing (the `place.tags` column, SQL parameters, exports): compact, key order kept.

package enum JSONText {
    /// A JSON string literal, escaped per RFC 8259.
    package static func quoted(_ text: String) -> String {
        // Most values need no escaping: check the bytes once and skip the scalar loop.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON object of string values; later duplicates of a key are dropped.
    package static func object(_ pairs: [(key: String, value: String)]) -> String {
        var out = "{"
        for (i, (key, value)) in pairs.enumerated() where !pairs[..<i].contains(where: { $0.key == key }) {
            if out.utf8.count > 1 { out += "," }
            out += quoted(key)
            out += ":"
            out += quoted(value)
        }
        return out + "}"
    }

    /// A JSON array of strings.
    package static func array(_ values: [String]) -> String {
        "[" + values.map(quoted).joined(separator: ",") + "]"
    }
}
