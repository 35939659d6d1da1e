// TIGER house number ranges (SampleData/tiger-autauga-sample.csv, 40 rows of the US Census's Autauga County
// as Nominatim preprocesses them) imported beside the OSM streets around them (SampleData/prattville.osm.pbf),
// end to end: found as Nominatim finds them, answered as the OSM way of their street, their ends their own
// numbers; as a plain file, gzip, a directory and a .tar.gz; bad rows reported by file and line.
import Foundation
@testable import GeoDB
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct TigerImportTests {
    static let tiger = TestPaths.sampleData("tiger-autauga-sample.csv")
    static let osm = TestPaths.sampleData("prattville.osm.pbf")
    /// Where Nominatim's API tests reverse-geocode a TIGER address (house 707 of Upper Kingston Road).
    static let kingston = Coordinate(lat: 32.4752389363, lon: -86.4810198619)

    static let imported = Result { () throws -> (scratch: ScratchDirectory, path: String, summary: ImportSummary) in
        let scratch = try ScratchDirectory()
        let path = scratch.path("tiger.sqlite")
        return (scratch, path, try TestDatabases.importFiles([tiger, osm], to: path))
    }

    static func database() throws -> GeoDatabase { try GeoDatabase(path: imported.get().path) }

    @Test func everyRowIsALineOfItsStreet() throws {
        let summary = try Self.imported.get().summary
        // The TIGER input comes after the OSM file whatever order they are given in.
        #expect(summary.sources.map(\.format) == [.osmPBF, .tiger])
        let tiger = try #require(summary.sources.last)
        #expect(tiger.records?.rows == 40)
        #expect(tiger.records?.skippedTotal == 0)
        #expect(tiger.places == 40)
        #expect(summary.countsByKind[.interpolation] == 40)
    }

    @Test func aNumberIsFoundOnItsLine() throws {
        let found = try #require(try Self.database().search("697 Upper Kingston Road").first)
        #expect(found.kind == .interpolation)
        #expect(found.match == .interpolated)
        #expect(found.address.housenumber == "697")
        #expect(found.address.street == "Upper Kingston Road")   // the OSM street's name, not TIGER's "Upper Kingston Rd"
        #expect(found.address.postcode == "36067")
        // Answered as the way of the street it was parented to, as Nominatim answers it.
        #expect(found.sourceRef?.description == "w396009653")
        #expect(found.displayName.hasPrefix("Upper Kingston Road 697"))
        // TIGER's abbreviation finds it too.
        #expect(try Self.database().search("697 Upper Kingston Rd").first?.address.housenumber == "697")
    }

    @Test func theLinesAreNoResultsOfTheirOwn() throws {
        // Found through their street only: a search for the street lists the street, not its 11 ranges.
        var options = SearchOptions()
        options.limit = 20
        let found = try Self.database().search("Upper Kingston Road", options: options)
        #expect(found.first?.kind == .street)
        #expect(!found.contains { $0.kind == .interpolation })
    }

    @Test func theEndsAreNumbersOfTheLine() throws {
        // Row 40: 743 to 661, odd, drawn from 743's end: both ends are houses of the line, at its ends.
        let db = try Self.database()
        let top = try #require(try db.search("743 Upper Kingston Road").first)
        #expect(top.match == .interpolated)
        #expect((top.lat, top.lon) == (32.47656, -86.481332))
        let bottom = try #require(try db.search("661 Upper Kingston Road").first)
        #expect(bottom.match == .interpolated)
        #expect(bottom.address.housenumber == "661")
        // Row 41 (744 to 644, even) has 744 at its first point.
        let even = try #require(try db.search("744 Upper Kingston Road").first)
        #expect((even.lat, even.lon) == (32.476572, -86.481138))
    }

    @Test func oddAndEvenLinesHoldTheirOwnNumbers() throws {
        let db = try Self.database()
        // 662 is on the even line (644–744), 663 on the odd one (661–743): two lines, 20 m apart.
        let even = try #require(try db.search("662 Upper Kingston Road").first)
        let odd = try #require(try db.search("663 Upper Kingston Road").first)
        #expect(even.id != odd.id)
        #expect(even.category?.text == "tiger:interpolation=even")
        #expect(odd.category?.text == "tiger:interpolation=odd")
        // Line 4 holds every number (829–915): 830 is one of them.
        #expect(try db.search("830 Upper Kingston Road").first?.category?.text == "tiger:interpolation=all")
    }

    @Test func reverseAnswersTheHouseNominatimAnswers() throws {
        let place = try #require(try Self.database().reverse(at: Self.kingston).first?.place)
        #expect(place.kind == .interpolation)
        #expect(place.address.housenumber == "707")
        #expect(place.sourceRef?.description == "w396009653")
        // Nominatim's position of 707 to the last digit (reverse/v1_xml.feature, "Tiger address").
        #expect((place.lat, place.lon) == (32.475358, -86.4808553))
        #expect(place.address.postcode == "36067")
    }

    @Test func reverseAtAStreetsZoomAnswersTheStreetWithTheLinesPostcode() throws {
        // Nominatim's zoom 17 (docs/SERVER.md): rank 27 at most, the street level.
        var options = ReverseOptions()
        options.maxRank = 27
        options.level = .street
        options.layers = ReverseLayer.defaults
        let place = try #require(try Self.database().reverse(at: Self.kingston, options: options).first?.place)
        #expect(place.kind == .street)
        #expect(place.name == "Upper Kingston Road")
        // The street's postcode is that of the TIGER lines along it.
        #expect(place.address.postcode == "36067")
    }

    /// The sample written as `kind` into `scratch`: gzip, a directory of it, a .tar.gz of a folder holding it.
    static func packed(_ kind: String, in scratch: ScratchDirectory) throws -> String {
        switch kind {
        case "gzip":
            let path = scratch.path("01001.csv.gz")
            let result = try runProgram("/bin/sh", ["-c", "gzip -c '\(tiger)' > '\(path)'"])
            #expect(result.status == 0)
            return path
        case "directory":
            let directory = scratch.path("tiger")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: tiger, toPath: directory + "/01001.csv")
            try Data("not data".utf8).write(to: URL(fileURLWithPath: directory + "/README"))
            return directory
        default:
            let directory = scratch.path("tiger2024")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: tiger, toPath: directory + "/01001.csv")
            try Data("not data".utf8).write(to: URL(fileURLWithPath: directory + "/README"))
            let path = scratch.path("tiger-nominatim-preprocessed.csv.tar.gz")
            let result = try runProgram("/bin/tar", ["czf", path, "-C", scratch.path(""), "tiger2024"])
            #expect(result.status == 0)
            return path
        }
    }

    @Test(arguments: ["gzip", "directory", "tar.gz"]) func packedInputsGiveTheSameLines(kind: String) throws {
        let scratch = try ScratchDirectory()
        let input = try Self.packed(kind, in: scratch)
        #expect(try InputFormat.detect(path: input) == .tiger)
        let path = scratch.path("packed.sqlite")
        let summary = try TestDatabases.importFiles([Self.osm, input], to: path)
        #expect(summary.sources.last?.records?.rows == 40)
        #expect(summary.sources.last?.places == 40)
        let place = try #require(try GeoDatabase(path: path).reverse(at: Self.kingston).first?.place)
        #expect(place.address.housenumber == "707")
    }

    @Test func theFormatIsKnownByItsHeaderLine() throws {
        #expect(try InputFormat.detect(path: Self.tiger) == .tiger)
        // Another CSV file is still CSV.
        #expect(try InputFormat.detect(path: TestPaths.fixture("csv/places-semicolon-crlf-bom.csv")) == .csv)
    }

    @Test func aBadRowIsReportedByFileAndLine() throws {
        let scratch = try ScratchDirectory()
        let lines = try String(contentsOfFile: Self.tiger, encoding: .utf8).split(separator: "\n").prefix(4)
        let bad = scratch.path("bad.csv")
        // Line 3: a house number that is none; line 5: a geometry that is no line.
        let text = [lines[0], lines[1], "12a;20;all;Upper Kingston Rd;Autauga;AL;36067;LINESTRING(-86.48 32.47,-86.47 32.47)",
                    lines[2], "1;9;odd;Upper Kingston Rd;Autauga;AL;36067;POINT(-86.48 32.47)", lines[3]].joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: bad))
        let summary = try TestDatabases.importFiles([Self.osm, bad], to: scratch.path("bad.sqlite"))
        let records = try #require(summary.sources.last?.records)
        #expect(records.rows == 5)
        #expect(records.skipped == [.badHouseNumbers: 1, .badGeometry: 1])
        #expect(records.warnings == [
            "\(bad): line 3: house numbers '12a' to '20' are not numbers from 0 to 1000000; row skipped",
            "\(bad): line 5: geometry is not a LINESTRING of two or more lon lat points; row skipped",
        ])
        #expect(summary.sources.last?.places == 3)
        // With --strict the first one stops the import, naming file and line.
        var options = ImportOptions()
        options.strict = true
        #expect(throws: GeoDBError.self) {
            _ = try Importer.run(inputs: [Self.osm, bad], output: scratch.path("strict.sqlite"), options: options)
        }
        do {
            _ = try Importer.run(inputs: [Self.osm, bad], output: scratch.path("strict.sqlite"), options: options)
        } catch let error as GeoDBError {
            #expect(error.message.hasPrefix("\(bad): line 3: house numbers '12a'"))
        }
    }

    @Test func linesWithNoStreetNearAreLeftOutAsNominatimLeavesThemOut() throws {
        // Without the OSM file no street is near: every line is counted and left out.
        let scratch = try ScratchDirectory()
        let summary = try TestDatabases.importFiles([Self.tiger], to: scratch.path("alone.sqlite"))
        #expect(summary.sources.last?.records?.skipped == [.noStreet: 40])
        #expect(summary.sources.last?.places == 0)
    }

    @Test func aTigerLinesEndsAreItsOwnNumbers() throws {
        // A TIGER line 1046–1075, odd: 1047 (the first odd number) at its start, 1075 at its end; 1046 is no house.
        let line = [Point7(lat: 324_700_000, lon: -864_800_000), Point7(lat: 324_700_000, lon: -864_700_000)]
        let tiger = try #require(InterpolationLine(numbers: "1046-1075", category: SourceCategory("tiger:interpolation=odd"), line: line))
        #expect(!tiger.covers(1046) && tiger.covers(1047) && tiger.covers(1075) && !tiger.covers(1048))
        #expect(tiger.position(of: 1047) == line[0].coordinate)
        #expect(tiger.position(of: 1075) == line[1].coordinate)
        // The same line from OSM: its ends are addresses of their own, the numbers between spread inside them.
        let osm = try #require(InterpolationLine(numbers: "1047-1075", category: SourceCategory("addr:interpolation=odd"), line: line))
        #expect(osm.number(nearest: line[0].coordinate)?.number == 1049)
        #expect(tiger.number(nearest: line[0].coordinate)?.number == 1047)
    }
}
