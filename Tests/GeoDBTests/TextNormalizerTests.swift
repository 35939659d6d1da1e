// Normalization shared by the index and queries.
import GeoDB
import Testing

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
        #expect(TextNormalizer.indexAlternatives("Hauptstraße").contains("hauptstrasse"))
        #expect(TextNormalizer.indexAlternatives("Robert's").contains("roberts"))
        #expect(TextNormalizer.indexAlternatives("Helsinki-Vantaa").contains("helsinkivantaa"))
        #expect(TextNormalizer.indexAlternatives("Main Street").contains("st"))
        #expect(TextNormalizer.indexAlternatives("Mannerheimintie").isEmpty)
        #expect(Set(TextNormalizer.variants("st")).isSuperset(of: ["st", "street", "saint"]))
    }
}
