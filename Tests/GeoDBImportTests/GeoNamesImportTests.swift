// GeoNames dumps: SampleData/cities15000.txt end to end (row count, known cities, alternate names), and
// the hand-written Tests/Fixtures/geonames files for feature codes, lookup tables and bad rows.
import Foundation
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

/// Every row of a query, as values.
func query(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
    let db = try Connection(path: path, mode: .readOnly())
    return try db.prepare(sql).rows { row in (0..<row.columnCount).map { row.value($0) } }
}

/// A database imported once and shared by the tests that only read it.
final class SharedImport: @unchecked Sendable {
    /// cities15000.txt with countries.tsv beside it.
    static let cities15000 = Result {
        try SharedImport("cities15000.sqlite", [TestPaths.sampleData("cities15000.txt"), TestPaths.sampleData("countries.tsv")])
    }
    /// helsinki.osm.pbf and cities15000.txt, named GeoNames first: OSM is imported first anyway.
    static let combined = Result {
        try SharedImport("combined.sqlite", [TestPaths.sampleData("cities15000.txt"), TestPaths.sampleData("helsinki.osm.pbf")])
    }

    let scratch: ScratchDirectory
    let path: String
    let summary: ImportSummary

    private init(_ name: String, _ inputs: [String]) throws {
        scratch = try ScratchDirectory()
        path = scratch.path(name)
        summary = try Importer.run(inputs: inputs, output: path)
    }
}

/// Adds `inputs` to the database at `path` (`geodb import --append`).
@discardableResult
func append(_ inputs: [String], to path: String, strict: Bool = false) throws -> ImportSummary {
    var options = ImportOptions()
    options.append = true
    options.strict = strict
    return try Importer.run(inputs: inputs, output: path, options: options)
}

@Suite struct GeoNamesImportTests {
    static func fixture(_ name: String) -> String { TestPaths.fixture("geonames/\(name)") }

    @Test func cities15000HasEveryRow() throws {
        let db = try SharedImport.cities15000.get()
        let source = try #require(db.summary.sources.first)
        #expect(source.format == .geonames)
        #expect(source.records?.rows == 34_006)
        #expect(source.records?.skippedTotal == 0)
        #expect(source.places == 34_006)
        #expect(db.summary.lookupTables == ["countries.tsv"])
        #expect(try query(db.path, "SELECT count(*), count(DISTINCT source_ref) FROM place") == [[.integer(34_006), .integer(34_006)]])
        #expect(try query(db.path, "SELECT name, format, place_count FROM source") == [[.text("cities15000.txt"), .text("geonames"), .integer(34_006)]])
        #expect(try IntegrityCheck.run(path: db.path).filter { !$0.ok }.map(\.name) == [])
    }

    @Test(arguments: [
        // geonameid, lat, lon, population, country code, country, time zone, kind (from the dump's rows)
        ("658225", 60.16952, 24.93545, 658_864, "FI", "Finland", "Europe/Helsinki", "city"),
        ("2761369", 48.20849, 16.37208, 1_691_468, "AT", "Austria", "Europe/Vienna", "city"),
        ("1850147", 35.6895, 139.69171, 9_733_276, "JP", "Japan", "Asia/Tokyo", "city"),
        ("5128581", 40.71427, -74.00597, 8_804_190, "US", "United States", "America/New_York", "city"),
    ] as [(String, Double, Double, Int64, String, String, String, String)])
    func knownCity(id: String, lat: Double, lon: Double, population: Int64, code: String, country: String, zone: String, kind: String) throws {
        let db = try SharedImport.cities15000.get()
        let rows = try query(db.path, "SELECT lat, lon, population, country_code, country, timezone, kind FROM place WHERE source_ref = '\(id)'")
        #expect(rows == [[.real(lat), .real(lon), .integer(population), .text(code), .text(country), .text(zone), .text(kind)]])
    }

    @Test func alternateNamesAreIndexed() throws {
        let db = try SharedImport.cities15000.get()
        func refs(_ match: String) throws -> [SQLiteValue] {
            try query(db.path, "SELECT p.source_ref FROM place_fts f JOIN place p ON p.id = \(SearchRowID.placeIDSQL("f.rowid")) WHERE place_fts MATCH '\(match)'").map { $0[0] }
        }
        #expect(try refs("name:wien").contains(.text("2761369")))          // Vienna
        #expect(try refs("name:helsingfors") == [.text("658225"), .text("12747032")])   // Helsinki, East Helsinki
        #expect(try refs("name:Хельсинки") == [.text("658225")])
        #expect(try refs("name:vindobona") == [.text("2761369")])
        // Every name is a place_name row: Helsinki's 85 alternate names less the one equal to its name.
        let names = try query(db.path, "SELECT type, count(*) FROM place_name WHERE place_id = (SELECT id FROM place WHERE source_ref = '658225') GROUP BY type ORDER BY type")
        #expect(names.first == [.text("alt_name"), .integer(84)])
        #expect(names.last == [.text("name"), .integer(1)])
    }

    @Test func featureCodesBecomeKindsAndLookupsNameStatesAndCountries() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("sample.sqlite")
        let summary = try Importer.run(inputs: [Self.fixture("sample.txt"), Self.fixture("admin1.txt"), Self.fixture("countries.txt")],
                                       output: output)
        #expect(summary.places == 13)
        let rows = try query(output, "SELECT name, kind, category, state, country, country_code FROM place ORDER BY id")
        let expected: [(String, String, String, String, String, String)] = [
            ("Finland", "country", "A.PCLI", "", "Finland", "FI"),
            ("Uusimaa", "state", "A.ADM1", "Uusimaa", "Finland", "FI"),
            ("Helsinki", "city", "P.PPLC", "Uusimaa", "Finland", "FI"),
            ("Espoo", "city", "P.PPLA2", "Uusimaa", "Finland", "FI"),             // 256,760 people
            ("Kerava", "town", "P.PPL", "Uusimaa", "Finland", "FI"),              // 37,000
            ("Nuuksio", "village", "P.PPL", "Uusimaa", "Finland", "FI"),          // 500
            ("Kallio", "suburb", "P.PPLX", "Uusimaa", "Finland", "FI"),
            ("Helsinki-Vantaa Airport", "poi", "S.AIRP", "Uusimaa", "Finland", "FI"),
            ("Kaivopuisto", "poi", "L.PRK", "Uusimaa", "Finland", "FI"),
            ("Halti", "poi", "T.MT", "Lapland", "Finland", "FI"),
            ("Suomenlinna", "island", "T.ISLS", "Uusimaa", "Finland", "FI"),
            ("Vantaa", "city", "P.PPLA3", "Uusimaa", "Finland", "FI"),
            ("Berlin", "city", "P.PPLC", "Land Berlin", "Germany", "DE"),
        ]
        #expect(rows.count == expected.count)
        for (row, want) in zip(rows, expected) {
            // Finland (PCLI) has admin1 code 00, which no table names.
            #expect(row == [.text(want.0), .text(want.1), .text("geonames=" + want.2), want.3.isEmpty ? .null : .text(want.3),
                            .text(want.4), .text(want.5)])
        }
        let halti = try query(output, "SELECT tags, timezone FROM place WHERE source_ref = '655601'")
        #expect(halti == [[.text(#"{"feature_code":"T.MT","admin1_code":"19","cc2":"NO","elevation":"1324","dem":"1290","modified":"2020-06-10"}"#),
                           .text("Europe/Helsinki")]])
        // The country first; among cities population and the capital bonus decide.
        let importance = try query(output, "SELECT name FROM place WHERE kind IN ('city', 'country') ORDER BY importance DESC").map { $0[0] }
        #expect(importance == [.text("Finland"), .text("Berlin"), .text("Helsinki"), .text("Espoo"), .text("Vantaa")])
        #expect(try query(output, "SELECT data_timestamp FROM source") == [[.text("2024-02-20")]])   // newest modification date
    }

    @Test func withoutLookupTablesCodesAreKept() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("codes.sqlite")
        _ = try Importer.run(inputs: [Self.fixture("sample.txt")], output: output)
        let helsinki = try query(output, "SELECT state, country, country_code, json_extract(tags, '$.admin1_code') FROM place WHERE source_ref = '658225'")
        #expect(helsinki == [[.null, .null, .text("FI"), .text("01")]])
    }

    @Test func badRowsAreSkippedWithTheirLineNumbers() throws {
        let sink = CollectingSink()
        let reader = GeoNamesReader(path: Self.fixture("bad.txt"))
        try reader.read(into: sink)
        #expect(sink.places.map(\.sourceRef) == ["658225", "6301479"])
        #expect(reader.stats.rows == 6)
        #expect(reader.stats.skipped == [.badFields: 1, .badCoordinates: 2, .noName: 1])
        let file = Self.fixture("bad.txt")
        #expect(reader.stats.warnings == [
            "\(file): line 2: 18 tab-separated fields, GeoNames rows have 19; row skipped",
            "\(file): line 3: latitude 'north' is not a number; row skipped",
            "\(file): line 4: geonameid 649924 has no name; row skipped",
            "\(file): line 5: longitude 200.5 is out of range (±180); row skipped",
        ])
        // The last line ends in CRLF: no "\r" in its last column.
        #expect(sink.places.last?.tags.last.map { $0.value } == "2021-04-11")
    }

    @Test func strictMakesTheFirstBadRowFatal() throws {
        let reader = GeoNamesReader(path: Self.fixture("bad.txt"), strict: true)
        let error = #expect(throws: GeoDBError.self) { try reader.read(into: CollectingSink()) }
        #expect(error?.code == .badInput)
        #expect(error?.message == "\(Self.fixture("bad.txt")): line 2: 18 tab-separated fields, GeoNames rows have 19")
    }

    @Test(arguments: [1, 7, 64]) func recordsAcrossChunkBoundaries(chunkSize: Int) throws {
        let whole = CollectingSink(), pieces = CollectingSink()
        try GeoNamesReader(path: Self.fixture("sample.txt")).read(into: whole)
        let reader = GeoNamesReader(path: Self.fixture("sample.txt"))
        reader.chunkSize = chunkSize
        try reader.read(into: pieces)
        #expect(pieces.places.map(\.names) == whole.places.map(\.names))
        #expect(pieces.places.map(\.coordinate) == whole.places.map(\.coordinate))
        #expect(whole.places.count == 13)
    }

    @Test func lookupTableAloneIsRefused() throws {
        let scratch = try ScratchDirectory()
        let error = #expect(throws: GeoDBError.self) {
            _ = try Importer.run(inputs: [TestPaths.sampleData("countries.tsv")], output: scratch.path("x.sqlite"))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("lookup table") == true)
        #expect(scratch.contents().isEmpty)
    }
}
