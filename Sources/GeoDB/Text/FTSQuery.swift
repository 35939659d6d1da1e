// FTS5 MATCH expressions built from user text: every word quoted, so nothing the user types is read as
// FTS5 syntax (column filters, NEAR, operators, unbalanced quotes).

/// Builds FTS5 MATCH expressions from user text without ever passing its syntax through.
package enum FTSQuery {
    /// The column filters of `place_fts` (docs/SCHEMA.md): what search compares as a place's names (its
    /// names, or an address's street) …
    package static let names = "{name street lang_name}"
    /// … of those, the names ranked fully whatever language is asked for (its main name and its names in no
    /// language, or an address's street), and the others of its own (in a language) …
    package static let namesInNoLanguage = "{name street}"
    package static let namesInLanguages = "{lang_name}"
    /// … a place's names, not an address's street …
    package static let placeNames = "{name lang_name}"
    /// … and its whole address (the street wherever it is indexed, number, postcode and areas).
    package static let address = "{street address}"

    /// `col: (a OR b) (c OR d*)` — each group an OR of quoted words (a trailing `*` marks a prefix), all
    /// groups required; nil when there is no word.
    ///
    /// ```swift
    /// FTSQuery.groups([["main", "mn"], ["st*"]])   // ("main" OR "mn") AND "st"*
    /// ```
    package static func groups(_ groups: [[String]], column: String? = nil) -> String? {
        let parts = groups.compactMap { alternatives -> String? in
            let terms = phrases(alternatives).map { word -> String in
                let isPrefix = word.hasSuffix("*")
                let bare = isPrefix ? String(word.dropLast()) : word
                return "\"" + bare.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (isPrefix ? "*" : "")
            }
            guard !terms.isEmpty else { return nil }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
        }
        guard !parts.isEmpty else { return nil }
        let body = parts.joined(separator: " AND ")
        return column.map { "\($0): (\(body))" } ?? body
    }

    /// How many phrases `groups(groups)` writes, which FTS5 numbers in the order written
    /// (`geodb_phrase_columns`): one per word that is not empty or a bare `*`.
    package static func phraseCount(_ groups: [[String]]) -> Int {
        groups.reduce(0) { $0 + phrases($1).count }
    }

    private static func phrases(_ alternatives: [String]) -> [String] {
        alternatives.filter { !$0.isEmpty && $0 != "*" }
    }

    /// The columns `namesInNoLanguage` and `namesInLanguages` filter to, as `geodb_phrase_columns` marks them:
    /// bits 1 (street) and 2 (name), and 3 (lang_name), of place_fts's columns address, street, name, lang_name.
    package static let inNoLanguageColumnBits: UInt8 = 1 << 1 | 1 << 2
    package static let inLanguagesColumnBits: UInt8 = 1 << 3

    /// `col: "tok1"* "tok2"*` for the words of `text` (letters and digits only; quotes escaped),
    /// or nil when the text has no words.
    ///
    /// ```swift
    /// FTSQuery.allPrefixes("Cafe En", column: "name")   // name: "cafe"* "en"*
    /// ```
    package static func allPrefixes(_ text: String, column: String) -> String? {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.prefix(16)
        guard !words.isEmpty else { return nil }
        return "\(column): " + words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }
}
