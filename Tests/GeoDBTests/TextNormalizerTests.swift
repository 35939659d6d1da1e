// Normalization shared by the index and queries.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct TextNormalizerTests {
    @Test(arguments: [
        ("Töölönlahdenkatu", ["toolonlahdenkatu"]),
        ("Straße des 17. Juni", ["strasse", "des", "17", "juni"]),
        ("Robert's Coffee", ["roberts", "coffee"]),
        ("Helsinki-Vantaa", ["helsinki", "vantaa"]),
        ("ÆRØ Łódź", ["aero", "lodz"]),
        ("ＡＢＣ１２", ["abc12"]),
        ("Ħal Ŧarxien Ŋar", ["hal", "tarxien", "nar"]),
        ("Москва Київ Αθήνα", ["moskva", "kiiv", "athina"]),
        ("Ǆemal ĳssel", ["dzemal", "ijssel"]),
        ("Мо\u{301}сква", ["moskva"]),   // a decomposed accent on a Cyrillic letter
        ("  MAIN   st. ", ["main", "st"]),
        ("'O'Neill` Rock`n'Roll' ''", ["oneill", "rocknroll"]),   // apostrophes dropped, not ending words
        ("ABC123def-9 ", ["abc123def", "9"]),
        ("", []),
    ])
    func tokens(text: String, expected: [String]) {
        #expect(TextNormalizer.tokens(text) == expected)
    }

    /// The ASCII words, written straight into their Strings, are the runs of letters, digits and apostrophes
    /// lower-cased without the apostrophes, on every ASCII name of cities15000 (and its ASCII column).
    @Test func asciiTokensAreTheRunsOfLettersAndDigits() throws {
        let names = (try Self.cities15000(column: 1) + Self.cities15000(column: 2)).filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        #expect(names.count > 40_000)
        let differing = names.filter { name in
            let runs = name.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "`") }
            let expected = runs.map { String($0.filter { $0 != "'" && $0 != "`" }) }.filter { !$0.isEmpty }
            return TextNormalizer.tokens(name) != expected
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    @Test func indexHoldsTheFormsFTSCannotMake() {
        #expect(TextNormalizer.indexAlternatives("München").contains("muenchen"))
        #expect(TextNormalizer.germanSpelling("Töölönkatu ÄÖÜ") == "toeoeloenkatu aeoeue")
        #expect(TextNormalizer.germanSpelling("Mu\u{308}nchen") == "muenchen")   // decomposed ü
        #expect(TextNormalizer.indexAlternatives("Hauptstraße").contains("hauptstrasse"))
        #expect(TextNormalizer.indexAlternatives("Robert's").contains("roberts"))
        #expect(TextNormalizer.indexAlternatives("Helsinki-Vantaa").contains("helsinkivantaa"))
        // Split at apostrophes, as FTS5 splits a name (but for an elided letter), and joined, as `tokens` reads it;
        // not at ʻ, a letter to FTS5.
        #expect(Set(TextNormalizer.indexAlternatives("Boulevard d'Italie")).isSuperset(of: ["ditalie", "italie"]))
        #expect(!TextNormalizer.indexAlternatives("N'Djamena").contains("n"))
        #expect(Set(TextNormalizer.indexAlternatives("Chen’er")).isSuperset(of: ["chener", "chen", "er"]))
        #expect(!TextNormalizer.indexAlternatives("Hawaiʻi").contains("hawai"))
        #expect(TextNormalizer.indexAlternatives("Main Street").contains("st"))
        #expect(TextNormalizer.indexAlternatives("Esplanadi").isEmpty)
        // Compound endings of Schema/abbreviations.tsv also in their short form, with enough stem before.
        #expect(TextNormalizer.indexAlternatives("Mannerheimintie") == ["mannerheimint"])
        #expect(TextNormalizer.indexAlternatives("Austrasse") == ["austr"])
        #expect(TextNormalizer.indexAlternatives("Partie").isEmpty)
        #expect(TextNormalizer.variants("landstrasse") == ["landstrasse", "landstr"])
        // Abbreviations in names with other letters: whole ASCII words only, never pieces of "Café".
        #expect(Set(TextNormalizer.indexAlternatives("Café St Laurent")).isSuperset(of: ["street", "saint"]))
        #expect(TextNormalizer.abbreviationAlternatives("Café St. Laurent AVE 12b")
                == TextNormalizer.abbreviations["st"]! + TextNormalizer.abbreviations["ave"]!)
        let rules = TextNormalizer.abbreviationRules
        #expect(rules.groups.count > 20 && rules.suffixes.contains { $0.long == Array("strasse".utf8) && $0.short == Array("str".utf8) })
        #expect(!TextNormalizer.indexAlternatives("Sté Anne").contains("street"))
        #expect(Set(TextNormalizer.variants("st")).isSuperset(of: ["st", "street", "saint"]))
    }

    /// The prefilter never rejects a name that folds to a word starting with one of the letters.
    @Test func firstLetterPrefilterIsNeverWrong() {
        let names = ["Tokyo", "Tōkyō", "Tóquio", "Токио", "東京", "Ærøskøbing", "Øresund", "Łódź", "ßtraße", "'s-Hertogenbosch",
                     "  Helsinki", "Ｔｏｋｙｏ", "Đà Nẵng", "Ḥalab", "Αθήνα", "Ἀθῆναι", "", "--", "42nd Street", "ʼAin",
                     "ᲂstrov", "ሄልሲንኪ Helsinki", "ჰელსინკი"]
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for name in names {
            let first = TextNormalizer.tokens(name).first?.utf8.first
            for letter in letters where first == letter {
                #expect(TextNormalizer.mayFold(name, toWordStartingWithOneOf: [letter]), "\(name) starts with \(letter)")
            }
        }
        #expect(TextNormalizer.mayFold("Токио", toWordStartingWithOneOf: Array("t".utf8)))
        #expect(!TextNormalizer.mayFold("Երևան", toWordStartingWithOneOf: Array("e".utf8)))
        #expect(!TextNormalizer.mayFold("東京", toWordStartingWithOneOf: Array("t".utf8)))
        // Of U+1000–U+1FFF, the scripts that never fold to ASCII (Georgian, Ethiopic, Myanmar) are told from
        // Greek Extended and Latin Extended Additional, which do.
        #expect(!TextNormalizer.mayFold("ჰელსინკი", toWordStartingWithOneOf: Array("h".utf8)))
        #expect(!TextNormalizer.mayHoldWord("ሄልሲንኪ", startingWithOneOf: Array("hs".utf8)))
        #expect(!TextNormalizer.mayHoldWord("ဟယ်လ်ဆင်ကီ", startingWithOneOf: Array("hs".utf8)))
        #expect(TextNormalizer.mayHoldWord("ሄልሲንኪ Helsinki", startingWithOneOf: Array("h".utf8)))
        #expect(TextNormalizer.mayFold("Ἀθῆναι", toWordStartingWithOneOf: Array("a".utf8)))
        #expect(TextNormalizer.mayHoldWord("Ḥalab", startingWithOneOf: Array("x".utf8)))
        #expect(!TextNormalizer.mayFold("Vienna", toWordStartingWithOneOf: Array("tw".utf8)))
        #expect(TextNormalizer.mayFold("Wien", toWordStartingWithOneOf: Array("tw".utf8)))
        // Any word, not only the first; none when no word can.
        #expect(TextNormalizer.mayHoldWord("Casino Helsinki", startingWithOneOf: Array("h".utf8)))
        #expect(TextNormalizer.mayHoldWord("Lee's Summit", startingWithOneOf: Array("s".utf8)))
        #expect(!TextNormalizer.mayHoldWord("Lee's Summit", startingWithOneOf: Array("x".utf8)))
        #expect(TextNormalizer.mayHoldWord("Place d'Armes", startingWithOneOf: Array("a".utf8)))
        #expect(TextNormalizer.mayHoldWord("Hel'sinki", startingWithOneOf: Array("s".utf8)))
        #expect(!TextNormalizer.mayHoldWord("Casino Helsinki", startingWithOneOf: Array("ax".utf8)))
        #expect(!TextNormalizer.mayHoldWord("القاهرة", startingWithOneOf: Array("a".utf8)))
        #expect(TextNormalizer.mayHoldWord("Ville de Québec", startingWithOneOf: Array("q".utf8)))
    }

    /// A word beginning with a letter of Latin-1 to Cyrillic begins as the letter's fold does: the word
    /// prefilter passes a name for that first letter, at its start or after a space, and for no other when
    /// the fold is ASCII ("Хельсинки" holds no word of s).
    @Test func wordPrefilterKnowsEachLettersFold() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for value in TextNormalizer.letterRange {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for name in ["\(scalar)x", "ab \(scalar)", "x-\(scalar)y z"] {
                let firsts = Set(TextNormalizer.tokens(name).compactMap(\.utf8.first))
                for letter in letters where firsts.contains(letter) {
                    #expect(TextNormalizer.mayHoldWord(name, startingWithOneOf: [letter]), "\(name) holds a word of \(letter)")
                }
            }
        }
        #expect(!TextNormalizer.mayHoldWord("Хельсинки", startingWithOneOf: Array("s".utf8)))
        #expect(TextNormalizer.mayHoldWord("Хельсинки", startingWithOneOf: Array("k".utf8)))
        #expect(TextNormalizer.mayHoldWord("Улица Сибирская", startingWithOneOf: Array("s".utf8)))
        #expect(!TextNormalizer.mayHoldWord("Ärø Öst", startingWithOneOf: Array("s".utf8)))
    }

    /// Every letter of Latin-1, Latin Extended-A and -B, Greek and Cyrillic folds to lower-case ASCII
    /// letters, and its upper and lower case alike.
    @Test func everyLetterFoldsToASCII() {
        for scalar in latinGreekCyrillicLetters {
            let value = scalar.value
            let folded = TextNormalizer.fold(String(scalar))
            #expect(folded.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }, "U+\(String(value, radix: 16)) → \(folded)")
            for other in [String(scalar).uppercased(), String(scalar).lowercased()] where other.unicodeScalars.count == 1 {
                guard let o = other.unicodeScalars.first, TextNormalizer.letterRange.contains(o.value) else { continue }
                #expect(TextNormalizer.fold(other) == folded, "\(scalar) \(other)")
            }
        }
        #expect(latinGreekCyrillicLetters.count > 850)
        #expect(TextNormalizer.fold("Hawaiʻi") == "hawaii")   // the ʻokina is an apostrophe
    }

    /// The generated table of numeric scalars is this toolchain's Unicode data, scalar by scalar (else rerun
    /// Tools/generate/generate-numeric-scalars.swift).
    @Test func numericScalarsAreTheToolchains() {
        var differing: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if TextNormalizer.holdsNumericScalar(String(scalar)) != (scalar.properties.numericType != nil) {
                differing.append("U+" + String(value, radix: 16))
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        #expect(TextNormalizer.holdsNumericScalar("三亚") && TextNormalizer.holdsNumericScalar("Route 7") && TextNormalizer.holdsNumericScalar("½"))
        #expect(!TextNormalizer.holdsNumericScalar("上海") && !TextNormalizer.holdsNumericScalar("Zürich") && !TextNormalizer.holdsNumericScalar(""))
    }

    /// The byte-level abbreviation scan equals looking up every ASCII word, on SampleData's GeoNames names.
    @Test func abbreviationScanEqualsLookingUpEveryWord() throws {
        let text = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        var names = ["Main St", "St. John's", "5th Ave.", "N Main", "Rue St-Denis", "Ave", "", "s", "Strasse",
                     "Café St Laurent", "Mt. Fuji", "N°5 Rd"]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3 else { continue }
            names.append(String(fields[1]))
            names += fields[3].split(separator: ",").map(String.init)
        }
        #expect(names.count > 100_000)
        /// The words of the name that are wholly ASCII letters and digits, lower-cased.
        func asciiWords(_ name: String) -> [String] {
            name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) && $0.isASCII }
                .filter { $0.allSatisfy(\.isASCII) }.map { $0.lowercased() }
        }
        var differing: [String] = []
        for name in names where TextNormalizer.abbreviationAlternatives(name)
            != asciiWords(name).flatMap({ TextNormalizer.abbreviations(ofASCIIWord: $0.utf8) }) {
            differing.append(name)
        }
        #expect(names.contains { !TextNormalizer.abbreviationAlternatives($0).isEmpty })
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    /// Highlights of ASCII text (read byte by byte) are those of the same text read as Characters, on every
    /// ASCII name of cities15000 and a few with "\r\n" and punctuation.
    @Test func asciiHighlightsEqualTheCharacterPath() throws {
        let names = ["Main St.\r\nSuite 5", "A\r\nB", "12-14 O'Brien Rd", "(Old) Town", "x", ""] + (try Self.cities15000(column: 2))   // asciiname
        #expect(names.count > 20_000)
        let differing = Self.highlightsDifferingOnTheCharacterPath(names.filter { $0.utf8.allSatisfy { $0 < 0x80 } })
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    /// One column of every line of SampleData/cities15000.txt (1: name, 2: asciiname).
    private static func cities15000(column: Int) throws -> [String] {
        let text = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count > column ? String(fields[column]) : nil
        }
    }

    /// The names whose highlights differ from those of the same name read as Characters (forced by a dash
    /// beyond the combining marks, which adds no word), each name's words the query, the last typed halfway.
    private static func highlightsDifferingOnTheCharacterPath(_ names: [String]) -> [String] {
        names.filter { name in
            var words = TextNormalizer.tokens(name)
            if let last = words.last { words[words.count - 1] = String(last.prefix(max(1, last.count / 2))) }
            let highlighter = Highlighter(words: words, numbers: [], lastIsPrefix: true)
            return highlighter.ranges(in: name) != highlighter.ranges(in: name + "\u{2014}")
        }
    }

    /// Highlights of Latin text (scalars below the combining marks, read scalar by scalar) are those of the same
    /// text read as Characters, on every name of cities15000 in such letters and a few more.
    @Test func latinHighlightsEqualTheCharacterPath() throws {
        let names = ["Töölönkatu 5", "Ærø Ö\r\nB", "Łódź ½ ²", "Ĳssel ŉ ǅ", "São Tomé", "ʻOhana ˈx"] + (try Self.cities15000(column: 1))   // name
        let latin = names.filter { name in
            !name.utf8.allSatisfy { $0 < 0x80 } && name.unicodeScalars.allSatisfy { $0.value < 0x300 }
        }
        #expect(latin.count > 2_000)
        let differing = Self.highlightsDifferingOnTheCharacterPath(latin)
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    /// The byte-level pass for names with umlauts gives what the String functions give, on SampleData's
    /// OSM names (Finnish and Swedish) and GeoNames names, and declines every name it cannot do alone.
    @Test func umlautPassEqualsTheStringFunctions() throws {
        var names = ["Töölönkatu 5", "Mäkelänkatu", "Västra Ågatan", "Östra Tullgatan St", "ÄÖÜ äöü", "Kärnä`n",
                     "Über Straße", "Ærø Ö", "Ö × 2", "Müller\u{308}", "Ölands väg", "Tie Ä", "Ä", "-ä-", "Ä1b2"]
        let osm = try String(contentsOfFile: TestPaths.sampleData("helsinki.osm"), encoding: .utf8)
        let value = try Regex(#"k="(?:name|name:[a-z]+|alt_name|addr:street)" v="([^"]*)""#)
        names += osm.matches(of: value).map { String($0.output[1].substring ?? "") }
        let gazetteer = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        for line in gazetteer.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3 else { continue }
            names += [String(fields[1])] + fields[3].split(separator: ",").map(String.init)
        }
        let withUmlauts = names.filter { $0.unicodeScalars.contains { "ÄÖÜäöü".unicodeScalars.contains($0) } }
        var compared = 0, declined: [String] = [], differing: [String] = []
        for name in withUmlauts {
            guard let fast = TextNormalizer.latin1UmlautAlternatives(name) else { declined.append(name); continue }
            compared += 1
            if fast != TextNormalizer.foldedAlternatives(name, needsFolding: false, hasUmlaut: true) { differing.append(name) }
        }
        let differingCount = differing.count
        #expect(compared > 1_000)
        #expect(differingCount == 0, "\(differing.prefix(10))")
        // Declined: only names with a character outside ASCII and Latin-1 letters that fold to one letter.
        let handled = Set((0xC0...0xFF).compactMap(Unicode.Scalar.init).filter { TextNormalizer.fold(String($0)).utf8.count == 1 })
        #expect(declined.allSatisfy { $0.unicodeScalars.contains { !$0.isASCII && !handled.contains($0) } }, "\(declined.prefix(5))")
        #expect(declined.contains("Über Straße") && declined.contains("Ö × 2") && declined.contains("Müller\u{308}"))
        #expect(TextNormalizer.indexAlternatives("Töölönkatu 5") == ["toeoeloenkatu", "5", "toolonk"])
        #expect(TextNormalizer.indexAlternatives("Östra Tullgatan St") == ["oestra", "tullgatan", "st", "tullg"] + TextNormalizer.abbreviations["st"]!)
    }

    /// A house number as search compares it, and the one rule keys are made with: a name keyed with its number
    /// is the key of the name's words and the number (what search asks for "Töölönkatu 5"), whatever the name's
    /// script; only one-word numbers of ASCII letters and digits are keyed.
    @Test func houseNumbersAndTheirKeys() {
        #expect(TextNormalizer.houseNumber("13 A") == "13a" && TextNormalizer.houseNumber("12-14") == "12-14"
                && TextNormalizer.houseNumber(" 5\tB ") == "5b")
        #expect(NameKey.numberToken(of: "12B") == "12b" && NameKey.numberToken(of: "5") == "5")
        for number in ["13 A", "12-14", "5;7", "", "½"] { #expect(NameKey.numberToken(of: number) == nil, "\(number)") }
        #expect(NameKey.numberToken(of: nil) == nil)
        for name in ["Töölönkatu", "Alte Landstrasse", "Hel'sinki", "Улица Ленина", "東京"] {
            #expect(NameKey.numbered(name, number: "5") == NameKey.of(words: TextNormalizer.tokens(name) + ["5"]), "\(name)")
            let keys = NameKey.text(of: [name], number: "5", firstWords: .none).split(separator: " ").map(String.init)
            #expect(keys == [NameKey.of(words: TextNormalizer.tokens(name))!, NameKey.numbered(name, number: "5")!], "\(name)")
        }
    }

    /// A name's first-word prefix tokens are those search makes of what is typed (`NameKey.firstWordPrefix` of its
    /// folded first word's first one to three scalars, of a longer typed word its first three), whatever the
    /// name's script and whether its bytes are hashed as ASCII; an alternate name's reach a row only as
    /// `leadingAlso`, without its whole first word. A `meta` value that is no known level reads as none.
    @Test func firstWordPrefixTokens() {
        for name in ["Siltasaarenkatu", "Alte Landstrasse", "Hel'sinki", "Улица Ленина", "東京", "Ö"] {
            let first = TextNormalizer.tokens(name)[0]
            let scalars = Array(first.unicodeScalars)
            let prefixes = (1...min(3, scalars.count)).map { NameKey.firstWordPrefix(String(String.UnicodeScalarView(scalars.prefix($0)))) }
            let keys = Set(NameKey.text(of: [name], firstWords: .wholeAndPrefixes).split(separator: " ").map(String.init))
            #expect(keys == Set([NameKey.of(words: TextNormalizer.tokens(name))!, NameKey.firstWord(first)] + prefixes), "\(name)")
            #expect(NameKey.firstWordPrefix(first + "xyz") == prefixes.last || scalars.count < 3, "\(name)")
            let alsoKeys = Set(NameKey.text(of: ["Vaduz"], firstWords: .wholeAndPrefixes, leadingAlso: [name]).split(separator: " ").map(String.init))
            #expect(alsoKeys.isSuperset(of: prefixes) && !alsoKeys.contains(NameKey.firstWord(first)), "\(name)")
            #expect(Set(NameKey.text(of: [name], firstWords: .whole).split(separator: " ").map(String.init)).isDisjoint(with: prefixes), "\(name)")
        }
        #expect(FirstWordTokens(metaValue: "2") == .wholeAndPrefixes && FirstWordTokens(metaValue: "1") == .whole)
        for value in ["0", "3", "x", "", nil] as [String?] { #expect(FirstWordTokens(metaValue: value) == FirstWordTokens.none, "\(value ?? "nil")") }
        #expect(FirstWordTokens.wholeAndPrefixes.ofAlternates == .whole)
    }
}
