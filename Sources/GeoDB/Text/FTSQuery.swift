// FTS5 MATCH expressions built from user text: every word quoted, so nothing the user types is read as
// FTS5 syntax (column filters, NEAR, operators, unbalanced quotes), and each quoted string one token of the
// index, since place_fts keeps no positions (detail = column), which FTS5 needs for a phrase of several.
import GeoDBSQLite

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
            let terms = words(alternatives).map(term)
            guard !terms.isEmpty else { return nil }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
        }
        guard !parts.isEmpty else { return nil }
        let body = parts.joined(separator: " AND ")
        return column.map { "\($0): (\(body))" } ?? body
    }

    /// How many phrases `groups(groups)` writes, which FTS5 numbers in the order written
    /// (`geodb_phrase_columns`): one per token of each word that is not empty or a bare `*` (one for a word
    /// without tokens).
    package static func phraseCount(_ groups: [[String]]) -> Int {
        groups.reduce(0) { count, alternatives in
            words(alternatives).reduce(count) { $0 + max(1, tokens(of: $1.hasSuffix("*") ? String($1.dropLast()) : $1).count) }
        }
    }

    private static func words(_ alternatives: [String]) -> [String] {
        alternatives.filter { !$0.isEmpty && $0 != "*" }
    }

    /// place_fts's tokenizer, as Schema/003_search.sql names it (a test compares the two).
    package static let tokenizer = FullTextTokenizer("unicode61 remove_diacritics 2")

    /// `word` (a trailing `*`: a prefix) as FTS5 is to read it: quoted, or where the index's tokenizer splits it
    /// into several tokens (a mark FTS5 counts as a separator, Devanagari's virama: `नमस्ते` is `नमस` `त`; an
    /// apostrophe), its tokens quoted and ANDed, the last a prefix: the rows holding them all, anywhere, where
    /// a phrase would want them side by side; ranking compares the words themselves.
    private static func term(_ word: String) -> String {
        let isPrefix = word.hasSuffix("*")
        let bare = isPrefix ? String(word.dropLast()) : word
        let tokens = tokens(of: bare)
        guard tokens.count > 1 else { return quoted(bare) + (isPrefix ? "*" : "") }
        return "(" + tokens.indices.map { quoted(tokens[$0]) + (isPrefix && $0 == tokens.count - 1 ? "*" : "") }
            .joined(separator: " AND ") + ")"
    }

    /// `text` as one FTS5 string: in double quotes, a quote in it doubled. Foundation's `replacingOccurrences`
    /// only for a text with a quote: it cost 10,000 instructions a call, and a search quotes each word and key
    /// a dozen times ("Vaduz": 3 % of its instructions); a typo search quotes each trigram of its word.
    package static func quoted(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + text + "\"" }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The index's tokens of `word`: itself when it is ASCII letters and digits (nearly every query word,
    /// which `TextNormalizer` folds to those), else what the tokenizer makes of it (itself should it fail:
    /// FTS5 then says what is wrong with the expression).
    static func tokens(of word: String) -> [String] {
        if word.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }) {
            return word.isEmpty ? [] : [word]
        }
        return (try? tokenizer.tokens(word)) ?? [word]
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
        return "\(column): " + words.map { term($0 + "*") }.joined(separator: " ")
    }
}
