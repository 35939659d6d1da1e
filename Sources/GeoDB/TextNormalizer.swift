// Text normalization shared by import (what the full-text index holds) and queries (what is looked up).
import Foundation

/// Folds text the way geodb compares names: case, Unicode compatibility forms, diacritics (ä→a, ß→ss,
/// æ→ae, ø→o, ł→l), apostrophes dropped, other punctuation and hyphens as word breaks. The FTS5
/// tokenizer (`unicode61 remove_diacritics 2`) folds case and most diacritics itself; the index also
/// gets the forms it cannot produce (ß→ss, æ→ae, German ä→ae, words joined across apostrophes and
/// hyphens, abbreviation equivalents), so a query normalized here finds them.
public enum TextNormalizer {
    /// Letters FTS5 leaves alone but people write without: folded here and indexed as alternatives.
    static let extraFolds: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d",
        "þ": "th", "Þ": "th", "œ": "oe", "Œ": "oe", "ı": "i", "ŋ": "n", "ħ": "h", "ð": "d",
    ]

    /// Groups of words that mean the same in addresses; a token matches any word of its group.
    static let abbreviationGroups: [[String]] = [
        ["street", "st", "str"], ["strasse", "str"], ["avenue", "ave", "av"], ["road", "rd"], ["boulevard", "blvd"],
        ["drive", "dr"], ["lane", "ln"], ["place", "pl"], ["square", "sq"], ["court", "ct"], ["highway", "hwy"],
        ["saint", "st"], ["north", "n"], ["south", "s"], ["east", "e"], ["west", "w"], ["mount", "mt"],
        ["platz", "pl"], ["gasse", "g"], ["katu", "k"], ["tie", "t"], ["gatan", "g"], ["vägen", "v"],
    ]

    static let abbreviations: [String: [String]] = {
        var map: [String: [String]] = [:]
        for group in abbreviationGroups {
            for word in group { map[word, default: []] += group.filter { $0 != word && !(map[word]?.contains($0) ?? false) } }
        }
        return map
    }()

    /// The folded words of `text`, in order.
    public static func tokens(_ text: String) -> [String] {
        let folded = fold(text)
        return folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Lower-cased, diacritics removed, apostrophes dropped; other characters kept.
    public static func fold(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var isASCII = true
        for scalar in text.unicodeScalars {
            if scalar == "'" || scalar == "’" || scalar == "`" || scalar == "ʼ" { continue }
            if scalar.isASCII {
                out.unicodeScalars.append(scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar)
            } else if let replacement = extraFolds[scalar] {
                out += replacement
            } else {
                isASCII = false
                out.unicodeScalars.append(scalar)
            }
        }
        if isASCII { return out }
        return out.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// Equivalent words for a query token: itself and its abbreviation group.
    public static func variants(_ token: String) -> [String] {
        [token] + (abbreviations[token] ?? [])
    }

    /// Extra words the full-text index needs for `name` beyond what FTS5 makes of it (empty for most names).
    public static func indexAlternatives(_ name: String) -> [String] {
        var extra: [String] = []
        let needsFolding = name.unicodeScalars.contains { extraFolds[$0] != nil || $0 == "'" || $0 == "’" || $0 == "-" }
        let words = tokens(name)
        if needsFolding {
            extra += words
            // Hyphenated names are also found as one word ("Helsinki-Vantaa" → "helsinkivantaa").
            if name.contains("-") { extra.append(words.joined()) }
        }
        // German spelling without umlauts: ä→ae, ö→oe, ü→ue ("Muenchen" finds "München").
        let lower = name.lowercased()
        if lower.contains(where: { "äöü".contains($0) }) {
            extra += tokens(lower.replacingOccurrences(of: "ä", with: "ae").replacingOccurrences(of: "ö", with: "oe")
                .replacingOccurrences(of: "ü", with: "ue"))
        }
        for word in words { extra += abbreviations[word] ?? [] }
        return extra
    }
}
