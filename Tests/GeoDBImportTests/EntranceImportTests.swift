// Entrances (`place_entrance`): the entrance nodes of a place made of a way, kept at import and read with the
// place's details, on SampleData/liechtenstein.osm.pbf and a small hand-written file; a file written before
// geodb kept them still opens, with none.
import Foundation
import GeoDB
import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct EntranceImportTests {
    @Test func aBuildingHasTheEntranceNodesOfItsWay() throws {
        let db = try GeoDatabase(path: try TestDatabases.liechtenstein())
        // Rathaus Vaduz (way 28712183): two doors among its nodes, by node id.
        let townHall = try db.lookup("w28712183")
        #expect(townHall.entrances == [
            PlaceEntrance(osmID: 9723046556, type: "yes", coordinate: Coordinate(lat: 47.1406168, lon: 9.5218968)),
            PlaceEntrance(osmID: 9723046557, type: "main", coordinate: Coordinate(lat: 47.1407957, lon: 9.5220114)),
        ])
        // A door's other tags are kept (its address), notes and surveys are not (`survey:date`).
        let house = try db.lookup("w213915484")
        #expect(house.entrances.map(\.osmID) == [2235603635])
        #expect(house.entrances.first?.tags == ["addr:city": "Triesen", "addr:country": "LI", "addr:housenumber": "7",
                                                "addr:postcode": "9495", "addr:street": "Gapont"])
        // Several places in one read; a place without entrances (the town's node) is left out.
        let vaduz = try db.lookup("n1932181216")
        #expect(vaduz.entrances.isEmpty)
        let read = try db.withSession { try $0.entrances(ofPlaces: [townHall.place.id, house.place.id, vaduz.place.id]) }
        #expect(read.keys.sorted() == [townHall.place.id, house.place.id].sorted())
        #expect(read[townHall.place.id] == townHall.entrances)
    }

    /// `routing:entrance` when `entrance` is missing; the way's first node once though a closed way lists it
    /// twice; no entrances for a street (its ways are merged into one place) or a node that is not on the way.
    @Test func whichNodesAreEntrances() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.path("doors.osm")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="1" lat="47.0000000" lon="9.0000000"><tag k="entrance" v="main"/><tag k="note" v="checked"/><tag k="source:date" v="2020"/><tag k="wheelchair" v="yes"/></node>
              <node id="2" lat="47.0000000" lon="9.0010000"/>
              <node id="3" lat="47.0010000" lon="9.0010000"><tag k="routing:entrance" v="service"/></node>
              <node id="4" lat="47.0010000" lon="9.0000000"/>
              <node id="5" lat="47.0020000" lon="9.0000000"><tag k="entrance" v="yes"/></node>
              <node id="6" lat="47.0030000" lon="9.0000000"/>
              <node id="7" lat="47.0005000" lon="9.0005000"><tag k="entrance" v="yes"/></node>
              <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/><tag k="building" v="yes"/><tag k="name" v="Hall"/></way>
              <way id="11"><nd ref="4"/><nd ref="5"/><nd ref="6"/><tag k="highway" v="residential"/><tag k="name" v="Lane"/></way>
            </osm>
            """.write(toFile: input, atomically: true, encoding: .utf8)
        let output = scratch.path("doors.sqlite")
        _ = try TestDatabases.importFile(input, to: output)
        let db = try GeoDatabase(path: output)
        #expect(try db.lookup("w10").entrances == [
            PlaceEntrance(osmID: 1, type: "main", coordinate: Coordinate(lat: 47, lon: 9), tags: ["wheelchair": "yes"]),
            PlaceEntrance(osmID: 3, type: "service", coordinate: Coordinate(lat: 47.001, lon: 9.001)),
        ])
        #expect(try db.lookup("w11").entrances.isEmpty)
    }

    /// A file of this schema version written before geodb kept entrances has no `place_entrance`: it opens,
    /// answers, and its places have no entrances; appending to it adds the table.
    @Test func aFileWithoutTheTableHasNoEntrances() throws {
        let scratch = try ScratchDirectory()
        let old = scratch.path("old.sqlite")
        try FileManager.default.copyItem(atPath: try TestDatabases.liechtenstein(), toPath: old)
        do {
            let connection = try Connection(path: old, mode: .readWrite)
            try connection.execute("DROP TABLE place_entrance")
        }
        let db = try GeoDatabase(path: old)
        let townHall = try db.lookup("w28712183")
        #expect(townHall.entrances.isEmpty)
        #expect(try db.withSession { try $0.entrances(ofPlaces: [townHall.place.id]) }.isEmpty)
        #expect(try !db.search("Rathaus Vaduz").isEmpty)

        // A table of that name defined otherwise is no geodb file.
        let changed = scratch.path("changed.sqlite")
        try FileManager.default.copyItem(atPath: old, toPath: changed)
        do {
            let connection = try Connection(path: changed, mode: .readWrite)
            try connection.execute("CREATE TABLE place_entrance (place_id INTEGER)")
        }
        #expect(throws: GeoDBError.self) { try GeoDatabase(path: changed) }

        var options = ImportOptions()
        options.append = true
        _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: old, options: options)
        #expect(try GeoDatabase(path: old).withSession { try $0.entrances(ofPlaces: [townHall.place.id]) }.isEmpty)
        let connection = try Connection(path: old, mode: .readOnly())
        #expect(try Schema.hasEntrances(connection))
    }
}
