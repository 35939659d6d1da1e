// CSV fields as RFC 4180 writes them (exports, `geodb timezone --batch`).

package enum CSVText {
    /// A field quoted when it holds a comma, quote or line break (quotes doubled), else as it is.
    ///
    /// ```swift
    /// CSVText.quoted("Kamppi, Helsinki")   // "\"Kamppi, Helsinki\""
    /// ```
    package static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0a || $0 == 0x0d })
        else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
