// The tags column's JSON: what JSONText writes, its own decoder reads back, and agrees with Foundation's.
import Foundation
@testable import GeoDB
import Testing

@Suite struct JSONTextTests {
    @Test func writtenObjectsDecodeToTheSamePairs() {
        let values = ["plain", "", "quote \" and backslash \\", "line\nbreak\ttab\r", "\u{1}\u{1f}", "Töölö 東京 🚲",
                      "slash / and unicode \u{2028}", String(repeating: "x", count: 5_000)]
        for (index, value) in values.enumerated() {
            let pairs = [(key: "k\(index)", value: value), (key: "opening_hours", value: "Mo-Fr 08:00-16:00")]
            let text = JSONText.object(pairs)
            #expect(JSONText.stringObject(text) == Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) }), "\(value)")
        }
    }

    /// The exact text stored in `place.tags`: compact, short escapes where JSON has them, lower-case hex.
    @Test func writesCompactTextWithShortEscapes() {
        #expect(JSONText.object([("k", "a\"b\\c\n\r\t\u{1f}é 東"), ("k", "dropped"), ("x", "")])
                == #"{"k":"a\"b\\c\n\r\t\u001fé 東","x":""}"#)
        #expect(JSONText.object([]) == "{}")
        #expect(JSONText.quoted("\u{0}/") == #""\u0000/""#)
    }

    @Test func agreesWithFoundationOnEscapesAndSpacing() throws {
        for text in [#"{}"#, #" { "a" : "b" , "c":"\u00e4\ud83d\udeb2\/\b\f" } "#, #"{"empty":""}"#,
                     #"{"name":"Vaduz \u00C4 \"Städtle\" \uD83D\uDEB2 end","k":"v"}"#] {
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
            #expect(JSONText.stringObject(text) == foundation, "\(text)")
        }
    }

    @Test func anythingElseIsNil() {
        for text in ["", "[]", #"{"a":1}"#, #"{"a":"b""#, #"{"a":"b"} x"#, #"{"a":"\ud800"}"#, #"{"a":"\u12"}"#, "{'a':'b'}",
                     #"{"a" "b"}"#, #"{"a":"b",}"#] {
            #expect(JSONText.stringObject(text) == nil, "\(text)")
        }
        // Values that are not strings: the tags decoder falls back to Foundation and keeps the strings.
        #expect(PlaceReader.decodeTags(#"{"a":1,"b":"c"}"#) == ["b": "c"])
    }
}
