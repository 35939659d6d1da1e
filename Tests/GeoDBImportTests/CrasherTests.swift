// Inputs that once crashed or hung an import (Tests/Fixtures/crashers/README.md says where each came
// from): each now fails with a one-line error naming the file and the place in it, leaving nothing
// behind, or imports in bounded time with a sensible answer.
import Foundation
import GeoDB
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct CrasherTests {
    static func crasher(_ name: String) -> String { TestPaths.fixture("crashers/\(name)") }

    @Test(arguments: [
        ("pbf_rawsize_minus1.osm.pbf", "byte offset 98: blob's raw size -1 is not between 0 and the 32 MiB limit"),
        ("pbf_rawsize_int64min.osm.pbf", "byte offset 98: blob's raw size -9223372036854775808 is not between 0 and the 32 MiB limit"),
        ("xml_invalid_utf8_in_element_name.osm", "line 3: invalid UTF-8 at byte offset 61 (OSM XML is UTF-8)"),
        ("xml_invalid_utf8_in_element_name.osm.gz", "line 3: invalid UTF-8 at byte offset 61 of the uncompressed XML (OSM XML is UTF-8)"),
        ("xml_invalid_utf8_in_attr_name.osm", "line 6: invalid UTF-8 at byte offset 134 (OSM XML is UTF-8)"),
        ("xml_random_flip_095_excerpt.osm", "line 4: invalid UTF-8 at byte offset 118 (OSM XML is UTF-8)"),
        ("xml_random_flip_108_excerpt.osm", "line 4: invalid UTF-8 at byte offset 109 (OSM XML is UTF-8)"),
        ("xml_random_flip_119_excerpt.osm", "line 4: invalid UTF-8 at byte offset 145 (OSM XML is UTF-8)"),
        ("xml_random_flip_122_excerpt.osm", "line 3: invalid UTF-8 at byte offset 89 (OSM XML is UTF-8)"),
        ("xml_pi_without_data.osm", "line 1: a processing instruction (OSM XML has none)"),
        ("xml_pi_without_data.osm.gz", "line 1: a processing instruction (OSM XML has none)"),
        ("xml_dtd_attlist_implied.osm", "line 1: \(Self.dtd)"),
        ("xml_dtd_notation_empty_system.osm", "line 1: \(Self.dtd)"),
        ("xml_dtd_notation_public_only.osm", "line 1: \(Self.dtd)"),
        ("xml_dtd_unparsed_entity.osm", "line 1: \(Self.dtd)"),
        ("xml_declared_latin1_utf8_bytes.osm", "line 1: the file declares encoding \"ISO-8859-1\": geodb reads OSM XML as UTF-8 only "
            + "(correct the declaration, or convert the file: iconv -f ISO-8859-1 -t UTF-8)"),
    ])
    func badInputIsAOneLineError(file: String, expected: String) throws {
        let setup = try ImportFailureTests.Setup()
        let error = try setup.failingImport(Self.crasher(file))
        #expect(error?.code == .badInput)
        #expect(error?.message == "\(Self.crasher(file)): \(expected)")
    }

    static let dtd = "a DTD (<!DOCTYPE>, <!ENTITY>, …; OSM XML has none)"

    /// Entities that expand a billion times, and one that names a local file: a DTD, refused before the
    /// parser sees it.
    @Test func xmlEntityBombAndExternalEntity() throws {
        let setup = try ImportFailureTests.Setup()
        let laughs = "<!ENTITY a0 \"ha\">" + (1...11).map { "<!ENTITY a\($0) \"\(String(repeating: "&a\($0 - 1);", count: 10))\">" }.joined()
        for (name, doctype, entity, expected) in [
            ("laughs.osm", laughs, "a11", "line 2: \(Self.dtd)"),
            ("external.osm", "<!ENTITY x SYSTEM \"file:///etc/passwd\">", "x", "line 2: \(Self.dtd)"),
        ] {
            let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE osm [\(doctype)]>\n<osm version=\"0.6\">\n"
                + "<node id=\"1\" lat=\"60\" lon=\"24\"><tag k=\"name\" v=\"&\(entity);\"/></node>\n</osm>\n"
            let input = try setup.write(name, Data(xml.utf8))
            let error = try setup.failingImport(input)
            #expect(error?.message == "\(input): \(expected)")
        }
    }

    /// What the markup check lets through: the XML declaration (either quote, a BOM before it, UTF-8 or
    /// ASCII declared), comments (holding `<?` and `<!`), CDATA, `>` inside values, a tag split across
    /// the stream's buffers; and what it refuses wherever it stands in the file.
    @Test func xmlMarkupCheck() throws {
        func refusal(_ xml: String, chunk: Int = 1 << 16) -> String? {
            var check = XMLMarkupCheck()
            let bytes = Array(xml.utf8)
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                let slice = Array(bytes[start..<min(bytes.count, start + chunk)])
                if let refused = slice.withUnsafeBufferPointer({ check.firstRefused(in: $0) }) { return refused.what }
            }
            return nil
        }
        let body = "<osm><!-- <?x?> <!DOCTYPE --><node id='1' lat=\"1\" lon=\"2\"><tag k=\"a>b\" v='c'/><![CDATA[ <?x?> ]]></node></osm>"
        for accepted in ["<?xml version='1.0' encoding='UTF-8'?>\n" + body, "\u{FEFF}<?xml version=\"1.0\" encoding=\"us-ascii\"?>" + body,
                         "<?xml version=\"1.0\"?>" + body, body] {
            #expect(refusal(accepted) == nil, "\(accepted)")
            #expect(refusal(accepted, chunk: 1) == nil, "\(accepted), a byte at a time")
        }
        for (refused, what) in [
            ("<osm><?x?></osm>", "a processing instruction (OSM XML has none)"),
            ("<?xml-stylesheet href='a'?><osm/>", "a processing instruction (OSM XML has none)"),
            ("<?xml version='1.0'?><osm><?xml version='1.0'?></osm>", "a processing instruction (OSM XML has none)"),
            ("<osm><!ELEMENT osm ANY></osm>", Self.dtd),
            ("<?xml version='1.0' encoding='windows-1252'?><osm/>", "the file declares encoding \"windows-1252\": geodb reads OSM XML as UTF-8 only (correct the declaration, or convert the file: iconv -f windows-1252 -t UTF-8)"),
            ("<osm><node " + (0...XMLMarkupCheck.maxAttributes).map { "a\($0)='x'" }.joined(separator: " ") + "/></osm>",
             "an element with more than 100 attributes (an OSM element has about ten)"),
        ] {
            #expect(refusal(refused) == what, "\(refused)")
            #expect(refusal(refused, chunk: 1) == what, "\(refused), a byte at a time")
        }
    }

    /// An element with 100,000 attributes (libxml2 compares them pairwise: 200,000 took 36 s), refused at
    /// its 101st whatever the total, through the importer as a one-line error.
    @Test func xmlElementWithAHundredThousandAttributes() throws {
        let setup = try ImportFailureTests.Setup()
        let attributes = (0..<100_000).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let input = try setup.write("attributes.osm", Data("<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n<node id=\"1\" \(attributes)/>\n</osm>\n".utf8))
        let error = try setup.failingImport(input)
        #expect(error?.message == "\(input): line 3: an element with more than 100 attributes (an OSM element has about ten)")
    }

    /// A street from 179.9° to -179.9° is 0.2° long: its point is on the date line, not at longitude 0.
    @Test(arguments: ["osm_antimeridian_street.osm", "osm_antimeridian_street.osm.pbf"])
    func streetAcrossTheDateLine(file: String) throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("out.sqlite")
        _ = try Importer.run(inputs: [Self.crasher(file)], output: output)
        let street = try #require(try QuerySession(path: output).search("Dateline Road").first)
        #expect(street.kind == .street)
        #expect(abs(street.lon) == 180)
        #expect(abs(street.lat + 16.805) < 0.001)
        #expect(scratch.contents() == ["out.sqlite"])
    }

    /// The hole leaves a strip 0.5° wide: the place's point lies in it, not far off the globe.
    @Test func holeThatNearlyCancelsItsPolygon() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("out.sqlite")
        _ = try Importer.run(inputs: [Self.crasher("osm_multipolygon_hole_cancels_area.osm")], output: output)
        let place = try QuerySession(path: output).lookup("r100").place
        #expect((0...1).contains(place.lat) && (0...0.5).contains(place.lon), "\(place.lat), \(place.lon)")
    }

    /// Values nested a million deep in a timezone file's properties and beside its features: skipped
    /// without recursion (they overflowed the stack).
    @Test func geoJSONNestedAMillionDeep() throws {
        let scratch = try ScratchDirectory()
        let depth = 1_000_000
        let polygon = #""geometry":{"type":"Polygon","coordinates":[[[24,60],[25,60],[25,61],[24,61],[24,60]]]}"#
        let arrays = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"Test/Zone","deep":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}," + polygon + "}]}"
        let objects = #"{"type":"FeatureCollection","x":"# + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth) + #","features":[{"type":"Feature","properties":{"tzid":"Test/Zone"},"# + polygon + "}]}"
        for (name, text) in [("arrays.geojson", arrays), ("objects.geojson", objects)] {
            let input = scratch.path(name)
            try text.write(toFile: input, atomically: false, encoding: .utf8)
            let summary = try Importer.run(inputs: [input], output: scratch.path("\(name).sqlite"))
            #expect(summary.timeZones?.zones == 1)
        }
    }

    /// A text file whose second line never ends: refused at 64 MiB, not read into one ever larger buffer.
    @Test func aLineThatNeverEnds() throws {
        let setup = try ImportFailureTests.Setup()
        var data = Data("name,lat,lon\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: ChunkedFileReader.maxRecordBytes + 1))
        let input = try setup.write("endless.csv", data)
        let error = try setup.failingImport(input)
        #expect(error?.message == "\(input): byte offset 13: a record (line) longer than 64 MiB: not a GeoNames or CSV file?")
    }

    /// 400,000 alternate names, each twice: made distinct by hash, not by comparing each with all before it
    /// (quadratic: 86 s for one row).
    @Test func geoNamesRowWithManyAlternateNames() throws {
        let names = (0..<400_000).map { "n\($0 % 200_000)" }.joined(separator: ",")
        let line = Array("Lavasan\tLavasan\t\(names)".utf8)
        let nameEnd = 7, asciiEnd = 15
        let start = Date()
        let result = line.withUnsafeBufferPointer {
            GeoNamesReader.names($0, name: 0..<nameEnd, ascii: (nameEnd + 1)..<asciiEnd, alternates: (asciiEnd + 1)..<line.count)
        }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(result.count == 200_001)
        #expect(result.first?.name == "Lavasan" && result.last?.name == "n199999")
    }

    /// Such a row, imported: a place with its names, in a few seconds.
    @Test func geoNamesImportOfARowWithManyAlternateNames() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.path("one-row.txt")
        let names = (0..<20_000).map { "Lavasan \($0 % 10_000)" }.joined(separator: ",")
        // A short row first, as in the dump the row came from: the format is recognised by its first line.
        try ("362\tShahrak-e Qods\tShahrak-e Qods\t\t35.75936\t51.37601\tP\tPPL\tIR\t\t26\t\t\t\t29774\t\t\tAsia/Tehran\t2020-01-01\n"
            + "490\tLavāsān\tLavasan\t\(names)\t35.8\t51.6\tP\tPPL\tIR\t\t26\t\t\t\t\t\t\tAsia/Tehran\t2020-01-01\n")
            .write(toFile: input, atomically: false, encoding: .utf8)
        let start = Date()
        let summary = try Importer.run(inputs: [input], output: scratch.path("out.sqlite"))
        #expect(summary.places == 2)
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(try QuerySession(path: scratch.path("out.sqlite")).search("Lavasan 9999").first?.name == "Lavāsān")
    }
}
