// Text formatting shared by the subcommands: numbers, sizes, aligned columns, JSON, the terminal.
import Foundation

enum Format {
    /// 1234567 → "1,234,567".
    static func count<T: BinaryInteger>(_ n: T) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// A count and its noun, plural unless one: (1, "area") → "1 area", (1234, "ring") → "1,234 rings".
    static func count<T: BinaryInteger>(_ n: T, _ noun: String) -> String {
        "\(count(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// Bytes as "685 KB", "2.3 MB" (powers of 1000, like `ls -lh --si`).
    static func bytes<T: BinaryInteger>(_ n: T) -> String {
        let value = Double(Int64(n))
        switch value {
        case ..<1000: return "\(Int64(n)) B"
        case ..<1_000_000: return String(format: "%.0f KB", value / 1000)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.2f GB", value / 1_000_000_000)
        }
    }

    static func seconds(_ s: Double) -> String { s < 10 ? String(format: "%.2f s", s) : String(format: "%.1f s", s) }

    /// `text` with the characters a terminal acts on instead of showing written as escapes (ESC as
    /// `\u{1B}`): C0 and C1 controls and DEL, line and paragraph separators, bidirectional embeddings,
    /// overrides and isolates. Names and tags come from files made by anyone: ESC]0;… would retitle the
    /// terminal, ESC[2J clear it, a line feed start a row of its own. `keepingLineFeeds` for text whose
    /// lines are the output's own.
    static func printable(_ text: String, keepingLineFeeds: Bool = false) -> String {
        func acted(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x0a: return !keepingLineFeeds
            case 0x00...0x1f, 0x7f...0x9f, 0x2028, 0x2029, 0x202a...0x202e, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard text.unicodeScalars.contains(where: acted) else { return text }
        // Appended in place: `+=` on a UnicodeScalarView made a new string per escape (100k control
        // characters in a name: minutes).
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if acted(scalar) { out.append("\\u{\(String(scalar.value, radix: 16, uppercase: true))}") } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Rows of cells as left-aligned columns (numbers right-aligned), indented; cells made `printable`.
    /// Linear in the size of the output: each cell's width is counted once, and a row's trailing spaces
    /// are dropped from its end (a regular expression's " +$" tried every space of a wide column: a
    /// 5,000-character cell over 1,000 rows took minutes).
    static func table(_ rows: [[String]], indent: Int = 2) -> String {
        let rows = rows.map { $0.map { cell in
            let text = printable(cell)
            return (text: text, width: text.count)
        } }
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: width)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.width) } }
        return rows.map { row in
            var line = String(repeating: " ", count: indent) + row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.width)
                let numeric = cell.text.first.map { $0.isNumber } ?? false && cell.text.allSatisfy { $0.isNumber || $0 == "," || $0 == "." }
                return i == row.count - 1 && !numeric ? cell.text : (numeric ? pad + cell.text : cell.text + pad)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The files an import or export removed because an earlier one to the same output died and left
    /// them: "2 files left by an earlier import that did not finish: .x.sqlite.tmp-12, …".
    static func leftovers(_ names: [String], of what: String) -> String {
        "\(names.count) file\(names.count == 1 ? "" : "s") left by an earlier \(what) that did not finish: \(names.joined(separator: ", "))"
    }

    /// Pretty JSON with snake_case keys and sorted keys, for `--json`.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

enum Terminal {
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) != 0 }

    /// Prints human-readable output: its lines as given, anything else a terminal would act on escaped
    /// (`Format.printable`). Every command's text output goes through here; JSON, CSV and GeoJSON do not.
    static func show(_ text: String) {
        print(Format.printable(text, keepingLineFeeds: true))
    }

    /// Writes to standard error without a newline (for progress lines redrawn with \r).
    static func status(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
