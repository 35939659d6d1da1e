// Text normalization shared by import (what the full-text index holds) and queries (what is looked up).
import Foundation

/// Folds text the way geodb compares names: case, Unicode compatibility forms, diacritics (ä→a, ß→ss,
/// æ→ae, ø→o, ł→l), apostrophes dropped, other punctuation and hyphens as word breaks. The FTS5
/// tokenizer (`unicode61 remove_diacritics 2`) folds case and most diacritics itself; the index also
/// gets the forms it cannot produce (ß→ss, æ→ae, German ä→ae, words joined across apostrophes and
/// hyphens, abbreviation equivalents), so a query normalized here finds them.
package enum TextNormalizer {
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
    package static func tokens(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(text) }
        let folded = fold(text)
        if folded.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(folded) }   // Latin names, folded
        return folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// `tokens` for ASCII text, on bytes (most names and queries): lower-cased letters and digits.
    static func asciiTokens(_ text: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte | 0x20)
            case UInt8(ascii: "'"), UInt8(ascii: "`"): continue
            default:
                if !word.isEmpty {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Whether the first word of `text` could fold to one starting with one of the ASCII letters or digits
    /// `firsts`: false only when it certainly cannot, so callers skip folding names that cannot equal a
    /// query. An ASCII first character must be one of `firsts` in any case; a non-ASCII one may fold to it unless it comes
    /// from a script that never folds to ASCII (Greek, Cyrillic, Arabic, CJK, …: UTF-8 lead bytes from
    /// 0xCC up, except 0xE1 (Latin Extended Additional), 0xE2 (punctuation) and 0xEF (fullwidth forms)).
    static func mayFold(_ text: String, toWordStartingWithOneOf firsts: [UInt8]) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return firsts.contains(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return firsts.contains(byte | 0x20)
            case 0x80...0xCB, 0xE1, 0xE2, 0xEF: return true
            case 0xCC...: return false
            default: continue   // ASCII punctuation and spaces: not part of a word
            }
        }
        return false
    }

    /// `foldedAlternatives` of a name with an umlaut and nothing to fold beyond Latin-1 letters (most names
    /// of a Finnish, Swedish or German extract), in one pass over its bytes: the words of its German spelling,
    /// then the abbreviations of its folded words. Nil when the name has any other non-ASCII character.
    /// (On Strings it was 4 % of a tiled-Helsinki import's CPU, on the writer thread that bounds the read.)
    static func latin1UmlautAlternatives(_ name: String) -> [String]? {
        // The word being read and the results, in one value the byte loop mutates: with a nested function
        // capturing separate variables instead, every access was checked for exclusivity at run time.
        struct Words {
            var germanWords: [String] = [], abbreviated: [String] = []
            var german: [UInt8] = [], folded: [UInt8] = []

            mutating func end() {
                guard !german.isEmpty else { return }
                germanWords.append(String(decoding: german, as: UTF8.self))
                abbreviated += TextNormalizer.abbreviations(ofASCIIWord: folded)
                german.removeAll(keepingCapacity: true)
                folded.removeAll(keepingCapacity: true)
            }
        }
        var words = Words()
        var name = name
        let complete = name.withUTF8 { bytes -> Bool in
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                    words.german.append(lower)
                    words.folded.append(lower)
                case UInt8(ascii: "'"), UInt8(ascii: "`"):
                    break
                case 0..<0x80:
                    words.end()
                case 0xC3 where i + 1 < bytes.count && (0x80...0xBF).contains(bytes[i + 1]):
                    // U+00C0…U+00FF.
                    i += 1
                    let scalar = Int(bytes[i]) - 0x80
                    let letter = latin1Folds[scalar]
                    guard letter != 0 else { return false }
                    words.folded.append(letter)
                    words.german.append(letter)
                    if latin1Umlauts[scalar] { words.german.append(UInt8(ascii: "e")) }
                default:
                    return false
                }
                i += 1
            }
            words.end()
            return true
        }
        return complete ? words.germanWords + words.abbreviated : nil
    }

    /// For U+00C0…U+00FF: the one ASCII letter `fold` makes of it, or 0 (symbols, ß, æ, þ, …).
    private static let latin1Folds: [UInt8] = (0xC0...0xFF).map { value in
        let folded = Array(fold(String(Unicode.Scalar(UInt8(value)))).utf8)
        return folded.count == 1 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(folded[0]) ? folded[0] : 0
    }

    /// For U+00C0…U+00FF: whether it is Ä, Ö, Ü, ä, ö or ü (German spelling: its letter then "e").
    private static let latin1Umlauts: [Bool] = (0xC0...0xFF).map { [0xC4, 0xD6, 0xDC, 0xE4, 0xF6, 0xFC].contains($0) }

    /// `text` lower-cased with ä→ae, ö→oe, ü→ue, composed or not (a, o, u + U+0308), scalar by scalar:
    /// Foundation's `replacingOccurrences` cost microseconds per name in imports full of Finnish names.
    static func germanSpelling(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar = " "
        for scalar in text.lowercased().unicodeScalars {
            switch scalar {
            case "ä": out.append(contentsOf: "ae".unicodeScalars)
            case "ö": out.append(contentsOf: "oe".unicodeScalars)
            case "ü": out.append(contentsOf: "ue".unicodeScalars)
            case "\u{308}" where previous == "a" || previous == "o" || previous == "u": out.append("e")
            default: out.append(scalar)
            }
            previous = scalar
        }
        return String(out)
    }

    /// `abbreviations` of the words of `text` that are wholly ASCII letters and digits (lower-cased; "Café"
    /// is not a word "caf"). Runs for every imported name without diacritics (over
    /// a million for GeoNames' cities500): a word becomes a String only when an abbreviation key has its
    /// length and first letter, which rules out nearly all words (cities500: 24 % of the writer thread's
    /// time went to making and hashing a String per word).
    static func abbreviationAlternatives(_ text: String) -> [String] {
        var result: [String] = []
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0, foreign = false
            for i in 0...bytes.count {
                let byte = i < bytes.count ? bytes[i] : 0x20
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    continue
                case 0x80...:
                    foreign = true
                default:
                    if !foreign { result += abbreviations(ofASCIIWord: bytes[start..<i]) }
                    start = i + 1
                    foreign = false
                }
            }
        }
        var text = text
        text.withUTF8 { scan($0) }
        return result
    }

    /// `abbreviations[word]` for a word of ASCII letters and digits in any case, given as bytes: a String is
    /// made only when a key has the word's length and first letter.
    static func abbreviations<Word: Collection<UInt8>>(ofASCIIWord word: Word) -> [String] {
        guard let first = word.first, word.count < abbreviationShapes.count,
              abbreviationShapes[word.count][Int(first | 0x20)] else { return [] }
        return abbreviations[String(decoding: word, as: UTF8.self).lowercased()] ?? []
    }

    /// For each word length, which bytes start an abbreviation key of that length (lower case).
    static let abbreviationShapes: [[Bool]] = {
        var shapes = [[Bool]](repeating: [Bool](repeating: false, count: 256),
                              count: (abbreviations.keys.map(\.utf8.count).max() ?? 0) + 1)
        for key in abbreviations.keys { shapes[key.utf8.count][Int(key.utf8.first!)] = true }
        return shapes
    }()

    /// Lower-cased, diacritics removed, apostrophes dropped; other characters kept.
    package static func fold(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var folded = true   // no scalar left for Foundation
        for scalar in text.unicodeScalars {
            if scalar == "'" || scalar == "’" || scalar == "`" || scalar == "ʼ" { continue }
            if scalar.isASCII {
                let value = UInt8(scalar.value)
                out.unicodeScalars.append(Unicode.Scalar(value >= 0x41 && value <= 0x5A ? value | 0x20 : value))
            } else if let replacement = extraFolds[scalar] {
                out += replacement
            } else if latinFoldRange.contains(scalar.value) {
                out += latinFolds[Int(scalar.value - latinFoldRange.lowerBound)]
            } else {
                folded = false
                out.unicodeScalars.append(scalar)
            }
        }
        if folded { return out }
        return out.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// Latin letters with diacritics (Latin-1 Supplement, Latin Extended-A and -B), folded once by
    /// Foundation: most non-ASCII names need nothing else, and a Foundation call per name costs microseconds.
    static let latinFoldRange: ClosedRange<UInt32> = 0xC0...0x24F
    static let latinFolds: [String] = latinFoldRange.map { value in
        Unicode.Scalar(value).map { String($0).folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil) } ?? ""
    }

    /// Equivalent words for a query token: itself and its abbreviation group.
    package static func variants(_ token: String) -> [String] {
        [token] + (abbreviations[token] ?? [])
    }

    /// Extra words the full-text index needs for `name` beyond what FTS5 makes of it (empty for most names).
    /// Runs for every name imported (millions for GeoNames), so one pass over the scalars decides first
    /// whether any alternative can exist.
    package static func indexAlternatives(_ name: String) -> [String] {
        var needsFolding = false, hasUmlaut = false, hasASCIILetter = false
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x27, 0x2D, 0x2019: needsFolding = true                         // ' - ’
            case 0x41...0x5A, 0x61...0x7A: hasASCIILetter = true
            case 0xC4, 0xD6, 0xDC, 0xE4, 0xF6, 0xFC: hasUmlaut = true           // Ä Ö Ü ä ö ü
            case 0xC0..<0x180 where extraFolds[scalar] != nil: needsFolding = true
            default: break
            }
        }
        guard needsFolding || hasUmlaut || hasASCIILetter else { return [] }
        // Only abbreviations to look for (most names): its ASCII words suffice, without folding the rest.
        guard needsFolding || hasUmlaut else { return abbreviationAlternatives(name) }
        if !needsFolding, let extra = latin1UmlautAlternatives(name) { return extra }
        return foldedAlternatives(name, needsFolding: needsFolding, hasUmlaut: hasUmlaut)
    }

    /// `indexAlternatives` of a name that needs folding or has an umlaut, on Strings.
    static func foldedAlternatives(_ name: String, needsFolding: Bool, hasUmlaut: Bool) -> [String] {
        var extra: [String] = []
        let words = tokens(name)
        if needsFolding {
            extra += words
            // Hyphenated names are also found as one word ("Helsinki-Vantaa" → "helsinkivantaa").
            if name.utf8.contains(UInt8(ascii: "-")) { extra.append(words.joined()) }
        }
        // German spelling without umlauts: ä→ae, ö→oe, ü→ue ("Muenchen" finds "München").
        if hasUmlaut { extra += tokens(germanSpelling(name)) }
        for word in words { extra += abbreviations[word] ?? [] }
        return extra
    }
}
