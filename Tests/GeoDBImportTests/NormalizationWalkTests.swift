// One normalization for the index and the query: every letter of Latin-1, Latin Extended-A and -B, IPA, Greek
// and Cyrillic, upper and lower case, in a place name imported from CSV, is found as written and as
// typed in ASCII, as an exact match (short words: no typo fallback helps them).
import Foundation
import GeoDB
import GeoDBImport
import Testing
import TestSupport

@Suite struct NormalizationWalkTests {
    /// One place per letter: "Ħal x126" (the letter starting a three-letter word, and the code point to
    /// tell the places apart).
    static let letters: [(name: String, ascii: String)] = latinGreekCyrillicLetters.map { scalar in
        let tag = "x" + String(scalar.value, radix: 16)
        return ("\(Character(scalar))al \(tag)", "\(TextNormalizer.fold(String(scalar)))al \(tag)")
    }

    @Test func everyLetterIsFoundAsWrittenAndInASCII() throws {
        let scratch = try ScratchDirectory()
        let csv = scratch.path("letters.csv")
        var text = "id,name,lat,lon\n"
        for (i, letter) in Self.letters.enumerated() {
            text += "\(i + 1),\(letter.name),\(10 + Double(i / 100) * 0.01),\(20 + Double(i % 100) * 0.01)\n"
        }
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        let output = scratch.path("letters.sqlite")
        _ = try Importer.run(inputs: [csv], output: output)
        let db = try GeoDatabase(path: output)
        var options = SearchOptions()
        options.limit = 1
        #expect(Self.letters.count > 850)
        var missed: [String] = []
        for letter in Self.letters {
            #expect(letter.ascii.utf8.allSatisfy { $0 < 0x80 })
            for query in [letter.name, letter.ascii] {
                let first = try db.search(query, options: options).first
                if first?.name != letter.name || first?.match != .exact { missed.append(query) }
            }
        }
        #expect(missed.isEmpty, "\(missed.count) not found: \(missed.prefix(20))")
    }
}
