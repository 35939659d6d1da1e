// CSV files: the same places in four dialects (delimiters , ; tab |, LF and CRLF, BOM), quoted fields
// with delimiters, quotes and line breaks, bad rows reported by line, header detection and options.
import Foundation
import GeoDB
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct CSVImportTests {
    static func fixture(_ name: String) -> String { TestPaths.fixture("csv/\(name)") }

    static let dialects: [(file: String, delimiter: UInt8)] = [
        ("places.csv", UInt8(ascii: ",")), ("places-semicolon-crlf-bom.csv", UInt8(ascii: ";")),
        ("places.tsv", 0x09), ("places-pipe.csv", UInt8(ascii: "|")),
    ]

    static func read(_ file: String, _ options: CSVOptions = CSVOptions(), chunkSize: Int? = nil,
                     strict: Bool = false) throws -> (CollectingSink, CSVReader) {
        let sink = CollectingSink()
        let reader = CSVReader(path: fixture(file), options: options, strict: strict)
        if let chunkSize { reader.chunkSize = chunkSize }
        try reader.read(into: sink)
        return (sink, reader)
    }

    @Test(arguments: dialects) func everyDialectGivesTheSamePlaces(file: String, delimiter: UInt8) throws {
        let (sink, reader) = try Self.read(file)
        #expect(reader.delimiter == delimiter)
        #expect(sink.places.map(\.sourceRef) == ["1", "2", "3", "9", "10"])
        #expect(sink.places.map(\.name) == ["Café Ekberg", #"Vanha "Old" Kauppahalli"#, "Temppeliaukion kirkko", "Helsinki",
                                            "Semi;colon | pipe\ttab"])
        #expect(sink.places.map(\.coordinate.lat) == [60.1631, 60.1671, 60.1730, 60.1699, 60.1690])
        #expect(sink.places.map(\.coordinate.lon) == [24.9389, 24.9543, 24.9251, 24.9384, 24.9400])
        #expect(sink.places.map(\.kind) == [.poi, .poi, .poi, .city, .poi])
        #expect(sink.places.map(\.category) == ["cafe", "marketplace", "place_of_worship", "city", "shop"])
        let ekberg = sink.places[0]
        #expect(ekberg.address == Address(housenumber: "9", street: "Bulevardi", postcode: "00120", city: "Helsinki", countryCode: "FI"))
        #expect(ekberg.tags.map(\.key) == ["phone", "note"])
        #expect(ekberg.tags.map(\.value) == ["+358 9 6811 8660", "Oldest café in Finland, since 1852"])
        // A line break inside quotes stays in the value (as the file wrote it: LF or CRLF).
        #expect(sink.places[1].tags.first?.value.replacingOccurrences(of: "\r\n", with: "\n") == "Market hall\nby the harbour")
    }

    @Test(arguments: dialects) func badRowsAreReportedWithTheirLines(file: String, delimiter: UInt8) throws {
        let (_, reader) = try Self.read(file)
        #expect(reader.stats.rows == 10)
        #expect(reader.stats.skipped == [.noName: 1, .badCoordinates: 3, .badFields: 1])
        // Line numbers count physical lines: row 2 spans lines 3-4 (a quoted line break), line 11 is blank.
        let path = Self.fixture(file)
        #expect(reader.stats.warnings == [
            "\(path): line 6: no name (column 'name' is empty); row skipped",
            "\(path): line 7: latitude 'abc' is not a number; row skipped",
            "\(path): line 8: latitude 95.2 is out of range (±90); row skipped",
            "\(path): line 9: latitude 'NaN' is not a number; row skipped",
            "\(path): line 10: 4 fields, the header has 12; row skipped",
        ])
    }

    @Test(arguments: [1, 2, 5, 16]) func recordsAcrossChunkBoundaries(chunkSize: Int) throws {
        for (file, _) in Self.dialects {
            let (whole, wholeReader) = try Self.read(file)
            let (pieces, piecesReader) = try Self.read(file, chunkSize: chunkSize)
            #expect(pieces.places.map(\.name) == whole.places.map(\.name), "\(file)")
            #expect(pieces.places.map { $0.tags.map(\.value) } == whole.places.map { $0.tags.map(\.value) }, "\(file)")
            #expect(piecesReader.stats.warnings == wholeReader.stats.warnings, "\(file)")
        }
    }

    @Test func strictMakesTheFirstBadRowFatal() throws {
        let error = #expect(throws: GeoDBError.self) { _ = try Self.read("places.csv", strict: true) }
        #expect(error?.code == .badInput)
        #expect(error?.message == "\(Self.fixture("places.csv")): line 6: no name (column 'name' is empty)")
    }

    @Test func commonHeadersAreRecognised() throws {
        // store_id is not a known id header: the line number is the id, the column a tag.
        let (sink, _) = try Self.read("stores.csv")
        #expect(sink.places.map(\.sourceRef) == ["2", "3", "4"])
        #expect(sink.places.map(\.name) == ["K-Market Kamppi", "Alepa Kaisaniemi", "R-kioski Rautatientori"])
        #expect(sink.places.map(\.category) == ["supermarket", "supermarket", "kiosk"])
        #expect(sink.places[0].tags.map(\.key) == ["store_id", "opening_hours"])
        #expect(sink.places[0].address.street == "Urho Kekkosen katu")
        #expect(sink.places[2].tags.map(\.key) == ["store_id"])   // empty fields are no tags
    }

    @Test func columnsGivenExplicitly() throws {
        var options = CSVOptions()
        options.idColumn = "store_id"
        options.nameColumn = "TITLE"   // header names match case-insensitively
        let (sink, _) = try Self.read("stores.csv", options)
        #expect(sink.places.map(\.sourceRef) == ["S-001", "S-002", "S-003"])
        #expect(sink.places[0].tags.map(\.key) == ["opening_hours"])

        options = CSVOptions()
        options.nameColumn = "shop_name"
        options.latColumn = "northing"
        options.lonColumn = "easting"
        options.categoryColumn = "segment"
        options.idColumn = "shop_no"
        let (odd, reader) = try Self.read("odd-headers.csv", options)
        #expect(reader.delimiter == UInt8(ascii: "|"))
        #expect(odd.places.map(\.sourceRef) == ["7", "8"])
        #expect(odd.places.map(\.category) == ["books", "music"])
        #expect(odd.places[1].coordinate == Coordinate(lat: 60.1655, lon: 24.938))   // decimal commas
    }

    @Test func unknownHeadersNeedTheColumnOptions() throws {
        let error = #expect(throws: GeoDBError.self) { _ = try Self.read("odd-headers.csv") }
        #expect(error?.code == .badInput)
        #expect(error?.message == "\(Self.fixture("odd-headers.csv")): line 1: no name column in the header (looked for name, title, label)")
        #expect(error?.remedy?.contains("`nameColumn`") == true)
    }

    @Test func aGivenColumnMustExist() throws {
        var options = CSVOptions()
        options.latColumn = "breite"
        let error = #expect(throws: GeoDBError.self) { _ = try Self.read("stores.csv", options) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("no column 'breite' (`latColumn`)") == true)
        #expect(error?.message.contains("store_id, title, y, x, type, opening_hours, street") == true)
    }

    @Test func aFileWithoutHeaderIsRefused() throws {
        #expect(try InputFormat.detect(path: Self.fixture("no-header.csv")) == .csv)
        let error = #expect(throws: GeoDBError.self) { _ = try Self.read("no-header.csv") }
        #expect(error?.message.hasSuffix("no-header.csv: line 1: no name column in the header (looked for name, title, label)") == true)
    }

    @Test func anUnclosedQuoteIsFatalAtItsLine() throws {
        let error = #expect(throws: GeoDBError.self) { _ = try Self.read("unclosed-quote.csv") }
        #expect(error?.message == "\(Self.fixture("unclosed-quote.csv")): line 3: quoted field not closed: the \" opened here has no closing \"")
    }

    @Test func delimiterCanBeGiven() throws {
        var options = CSVOptions()
        options.delimiter = CSVOptions.delimiter("tab")
        let (sink, reader) = try Self.read("places.tsv", options)
        #expect(reader.delimiter == 0x09)
        #expect(sink.places.count == 5)
        #expect(CSVOptions.delimiter(";") == UInt8(ascii: ";"))
        #expect(CSVOptions.delimiter("\\t") == 0x09)
        #expect(CSVOptions.delimiter("ab") == nil)
        #expect(CSVOptions.delimiter("\"") == nil)
    }

    @Test func headerOnlyGivesNoPlaces() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("empty.csv")
        try Data("name;lat;lon\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let sink = CollectingSink()
        let reader = CSVReader(path: path)
        try reader.read(into: sink)
        #expect(sink.places.isEmpty && reader.stats.rows == 0)
    }
}

@Suite struct ByteParsingTests {
    static func double(_ text: String) -> Double? { Array(text.utf8).withUnsafeBufferPointer { ByteNumber.double($0) } }
    static func int(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBufferPointer { ByteNumber.int($0) } }

    @Test func doubles() {
        #expect(Self.double("60.16952") == 60.16952)
        #expect(Self.double("-74.00597") == -74.00597)
        #expect(Self.double(" 24.9 ") == 24.9)
        #expect(Self.double("+5") == 5)
        #expect(Self.double("60,1655") == 60.1655)
        #expect(Self.double("1e-3") == 0.001)
        #expect(Self.double("12.345678901234567890123") == 12.345678901234567890123)
        #expect(Self.double(".5") == 0.5)
        for bad in ["", " ", "NaN", "nan", "inf", "-", ".", "1.2.3", "12abc", "0x10", "1e", "1,000,5"] {
            #expect(Self.double(bad) == nil, "\(bad)")
        }
    }

    @Test func integers() {
        #expect(Self.int("658225") == 658_225)
        #expect(Self.int("-12") == -12)
        #expect(Self.int(" 7 ") == 7)
        for bad in ["", "1.5", "12a", "1234567890123456789"] { #expect(Self.int(bad) == nil, "\(bad)") }
    }

    @Test func formatsAreRecognisedByContent() throws {
        #expect(try InputFormat.detect(path: TestPaths.sampleData("cities15000.txt")) == .geonames)
        #expect(try InputFormat.detect(path: TestPaths.sampleData("countries.tsv")) == .countryTable)
        #expect(try InputFormat.detect(path: TestPaths.fixture("geonames/countries.txt")) == .countryTable)
        #expect(try InputFormat.detect(path: TestPaths.fixture("geonames/admin1.txt")) == .admin1Table)
        #expect(try InputFormat.detect(path: TestPaths.fixture("geonames/bad.txt")) == .geonames)
        for (file, _) in CSVImportTests.dialects {
            #expect(try InputFormat.detect(path: CSVImportTests.fixture(file)) == .csv)
        }
    }
}
