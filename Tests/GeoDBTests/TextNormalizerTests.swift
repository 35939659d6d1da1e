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
        ("  MAIN   st. ", ["main", "st"]),
    ])
    func tokens(text: String, expected: [String]) {
        #expect(TextNormalizer.tokens(text) == expected)
    }

    @Test func indexHoldsTheFormsFTSCannotMake() {
        #expect(TextNormalizer.indexAlternatives("München").contains("muenchen"))
        #expect(TextNormalizer.germanSpelling("Töölönkatu ÄÖÜ") == "toeoeloenkatu aeoeue")
        #expect(TextNormalizer.germanSpelling("Mu\u{308}nchen") == "muenchen")   // decomposed ü
        #expect(TextNormalizer.indexAlternatives("Hauptstraße").contains("hauptstrasse"))
        #expect(TextNormalizer.indexAlternatives("Robert's").contains("roberts"))
        #expect(TextNormalizer.indexAlternatives("Helsinki-Vantaa").contains("helsinkivantaa"))
        #expect(TextNormalizer.indexAlternatives("Main Street").contains("st"))
        #expect(TextNormalizer.indexAlternatives("Mannerheimintie").isEmpty)
        // Abbreviations in names with other letters: whole ASCII words only, never pieces of "Café".
        #expect(Set(TextNormalizer.indexAlternatives("Café St Laurent")).isSuperset(of: ["street", "saint"]))
        #expect(TextNormalizer.abbreviationAlternatives("Café St. Laurent AVE 12b")
                == TextNormalizer.abbreviations["st"]! + TextNormalizer.abbreviations["ave"]!)
        #expect(!TextNormalizer.indexAlternatives("Sté Anne").contains("street"))
        #expect(Set(TextNormalizer.variants("st")).isSuperset(of: ["st", "street", "saint"]))
    }

    /// The prefilter never rejects a name that folds to a word starting with one of the letters.
    @Test func firstLetterPrefilterIsNeverWrong() {
        let names = ["Tokyo", "Tōkyō", "Tóquio", "Токио", "東京", "Ærøskøbing", "Øresund", "Łódź", "ßtraße", "'s-Hertogenbosch",
                     "  Helsinki", "Ｔｏｋｙｏ", "Đà Nẵng", "Ḥalab", "Αθήνα", "", "--", "42nd Street", "ʼAin"]
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for name in names {
            let first = TextNormalizer.tokens(name).first?.utf8.first
            for letter in letters where first == letter {
                #expect(TextNormalizer.mayFold(name, toWordStartingWithOneOf: [letter]), "\(name) starts with \(letter)")
            }
        }
        #expect(!TextNormalizer.mayFold("Токио", toWordStartingWithOneOf: Array("t".utf8)))
        #expect(!TextNormalizer.mayFold("東京", toWordStartingWithOneOf: Array("t".utf8)))
        #expect(!TextNormalizer.mayFold("Vienna", toWordStartingWithOneOf: Array("tw".utf8)))
        #expect(TextNormalizer.mayFold("Wien", toWordStartingWithOneOf: Array("tw".utf8)))
    }

    /// The per-letter fold table gives what Foundation gives for the whole name, on real names in many
    /// scripts (the alternate names of SampleData's GeoNames cities).
    @Test func foldEqualsFoundationsOnGazetteerNames() throws {
        let text = try String(contentsOfFile: TestPaths.sampleData("cities15000.txt"), encoding: .utf8)
        var names: [String] = []
        for line in text.split(separator: "\n").prefix(3_000) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3 else { continue }
            names.append(String(fields[1]))
            names += fields[3].split(separator: ",").map(String.init)
        }
        #expect(names.count > 20_000)
        var differing: [String] = []
        for name in names {
            var kept = ""
            for scalar in name.unicodeScalars where !["'", "’", "`", "ʼ"].contains(scalar) {
                kept += TextNormalizer.extraFolds[scalar] ?? String(scalar)
            }
            let foundation = kept.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            if TextNormalizer.fold(name) != foundation { differing.append(name) }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
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
            != asciiWords(name).flatMap({ TextNormalizer.abbreviations[$0] ?? [] }) {
            differing.append(name)
        }
        #expect(names.contains { !TextNormalizer.abbreviationAlternatives($0).isEmpty })
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }
}
