// How long a value may be (ValueLimits): what each importer does with a longer one, and what reading a
// file whose values are longer gives back. A 20 MB CSV field was imported as a name, and every answer
// naming the place repeated it.
import Foundation
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct ValueLimitTests {
    /// 255 characters of two bytes each fit; 256 do not, in any column, and the row is skipped by line.
    @Test func csvRowsWithALongerValueAreSkipped() throws {
        let scratch = try ScratchDirectory()
        let fits = String(repeating: "é", count: 255), long = String(repeating: "é", count: 256)
        let input = scratch.path("long.csv")
        try "name,lat,lon,note\n\(fits),60.1,24.9,ok\n\(long),60.2,24.9,ok\nShort,60.3,24.9,\(long)\n"
            .write(toFile: input, atomically: false, encoding: .utf8)
        let sink = CollectingSink()
        let reader = CSVReader(path: input)
        try reader.read(into: sink)
        #expect(sink.places.map(\.name) == [fits])
        #expect(reader.stats.skipped == [.tooLong: 2])
        #expect(reader.stats.warnings == [
            "\(input): line 3: column 'name' holds 256 characters, more than the 255 a value may have; row skipped",
            "\(input): line 4: column 'note' holds 256 characters, more than the 255 a value may have; row skipped",
        ])
        #expect(throws: GeoDBError.self) { try CSVReader(path: input, strict: true).read(into: CollectingSink()) }
    }

    /// A GeoNames row with a longer name is skipped; a longer alternate name is left out of its row.
    @Test func geoNamesLongerValues() throws {
        let long = String(repeating: "a", count: 256)
        let line = Array("Vaduz\tVaduz\tVaduz City,\(long),Vaduz-Stadt".utf8)
        let names = line.withUnsafeBufferPointer {
            GeoNamesReader.names($0, name: 0..<5, ascii: 6..<11, alternates: 12..<line.count)
        }
        #expect(names.map(\.name) == ["Vaduz", "Vaduz City", "Vaduz-Stadt"])

        let scratch = try ScratchDirectory()
        let input = scratch.path("rows.txt")
        try ("3042030\tVaduz\tVaduz\t\t47.14151\t9.52154\tP\tPPLC\tLI\t\t11\t\t\t\t5197\t\t458\tEurope/Vaduz\t2019-09-05\n"
            + "3042031\t\(long)\tVaduz\t\t47.14151\t9.52154\tP\tPPL\tLI\t\t11\t\t\t\t5197\t\t458\tEurope/Vaduz\t2019-09-05\n")
            .write(toFile: input, atomically: false, encoding: .utf8)
        let reader = GeoNamesReader(path: input)
        let sink = CollectingSink()
        try reader.read(into: sink)
        #expect(sink.places.map(\.name) == ["Vaduz"])
        #expect(reader.stats.skipped == [.tooLong: 1])
    }

    /// An OSM tag whose key or value is longer than OSM allows, or past an object's 1,000th, is left out.
    @Test func osmTagsBeyondTheLimits() {
        var tags = OSMTags()
        tags.append("name", String(repeating: "ß", count: 255))
        tags.append("name:de", String(repeating: "ß", count: 256))
        tags.append(String(repeating: "k", count: 256), "v")
        #expect(tags.tags.map(\.key) == ["name"])
        var many = OSMTags()
        for i in 0..<1_500 { many.append("k\(i)", "v") }
        #expect(many.tags.count == ValueLimits.maxTags)
    }

    /// A file from elsewhere whose place has a 6 MB name: reading the place gives the first 4 MiB, cut
    /// between characters, not a value every answer would repeat whole.
    @Test func aLongerValueInAFileIsCutWhenRead() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("out.sqlite")
        _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: output)
        let id = try #require(try QuerySession(path: output).search("Kahvila Testi").first?.id)
        let db = try Connection(path: output, mode: .readWrite)
        try db.prepare("UPDATE place SET name = ?1 WHERE id = ?2").run([.text(String(repeating: "€", count: 2_000_000)), .integer(id)])
        let name = try #require(try QuerySession(path: output).lookup(String(id)).place.name)
        #expect(name.utf8.count <= ValueLimits.maxReadTextBytes && name.utf8.count > ValueLimits.maxReadTextBytes - 3)
        #expect(name.unicodeScalars.allSatisfy { $0 == "€" })
    }
}
