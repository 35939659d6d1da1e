// Real data: SampleData/helsinki.osm.pbf and the same extract as XML must give the same database,
// with known objects in it.
import Foundation
import GeoDB
import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

/// Helsinki imported once from PBF and once from XML, shared by the tests of this suite.
final class HelsinkiDatabases: @unchecked Sendable {
    static let shared = Result { try HelsinkiDatabases() }
    let scratch: ScratchDirectory
    let pbf: String
    let xml: String
    let pbfSummary: ImportSummary

    private init() throws {
        scratch = try ScratchDirectory()
        pbf = scratch.path("helsinki-pbf.sqlite")
        xml = scratch.path("helsinki-xml.sqlite")
        pbfSummary = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: pbf)
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm")], output: xml)
    }
}

@Suite struct HelsinkiImportTests {
    let dbs: HelsinkiDatabases

    init() throws { dbs = try HelsinkiDatabases.shared.get() }

    func rows(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
        let db = try Connection(path: path, mode: .readOnly())
        return try db.prepare(sql).rows { row in (0..<row.columnCount).map { row.value($0) } }
    }

    @Test func pbfAndXMLGiveTheSamePlaces() throws {
        let sql = "SELECT id, source_ref, kind, category, name, lat, lon, housenumber, street, tags FROM place ORDER BY id"
        let fromPBF = try rows(dbs.pbf, sql)
        let fromXML = try rows(dbs.xml, sql)
        #expect(fromPBF.count == 2529)
        #expect(fromPBF == fromXML)
        let names = "SELECT place_id, name, type, lang FROM place_name ORDER BY rowid"
        #expect(try rows(dbs.pbf, names) == rows(dbs.xml, names))
    }

    @Test func countsMatchTheSourceData() throws {
        let s = dbs.pbfSummary
        // osmium fileinfo -e: 24,260 nodes, 5,130 ways, 620 relations.
        #expect(s.sources[0].read.nodes == 24_260 && s.sources[0].read.ways == 5_130 && s.sources[0].read.relations == 620)
        // Every object with addr:housenumber (osmium tags-filter addr:housenumber: 1,470) has its address.
        #expect(try rows(dbs.pbf, "SELECT count(*) FROM place WHERE housenumber IS NOT NULL") == [[.integer(1470)]])
        #expect(s.countsByKind[.street] == 99)
        // Stop positions duplicate their platforms and stations: not places.
        #expect(try rows(dbs.pbf, "SELECT count(*) FROM place WHERE category = 'public_transport=stop_position'") == [[.integer(0)]])
        #expect(try rows(dbs.pbf, "SELECT count(*) FROM place WHERE category = 'public_transport=platform'") != [[.integer(0)]])
        #expect(s.sources[0].build.relationsSkipped > 0)   // boundaries cut at the extract edge
    }

    @Test func knownNodePlaceHasItsExactPosition() throws {
        // n1372477580: place=city Helsinki, x24.9425769 y60.1674098 (osmium getid).
        let city = try rows(dbs.pbf, "SELECT kind, category, lat, lon, population FROM place WHERE source_ref = 'n1372477580'")
        #expect(city == [[.text("city"), .text("place=city"), .real(60.1674098), .real(24.9425769), .integer(629725)]])
        let names = try rows(dbs.pbf, """
            SELECT name FROM place_name WHERE place_id = (SELECT id FROM place WHERE source_ref = 'n1372477580')
              AND (lang = 'sv' OR type = 'loc_name')
            """)
        #expect(names == [[.text("Stadi")], [.text("Helsingfors")]])
    }

    @Test func buildingPOIIsAtItsPointOnSurfaceWithItsAddress() throws {
        // Stockmann (w122595241): where PostGIS's ST_PointOnSurface (Nominatim's point of an area) puts it,
        // 4 m from its centroid computed independently with the shoelace formula (60.168293766, 24.942155741).
        let r = try rows(dbs.pbf, "SELECT kind, category, name, lat, lon, housenumber, street FROM place WHERE source_ref = 'w122595241'")
        #expect(r.count == 1)
        guard case .real(let lat) = r[0][3], case .real(let lon) = r[0][4] else { Issue.record("no position"); return }
        #expect(lat == 60.1683005 && lon == 24.9420835)
        #expect(Coordinate(lat: lat, lon: lon).distance(to: Coordinate(lat: 60.168293766, lon: 24.942155741)) < 5)
        #expect(Array(r[0][0..<3]) == [.text("poi"), .text("shop=department_store"), .text("Stockmann")])
        #expect(Array(r[0][5...]) == [.text("52"), .text("Aleksanterinkatu")])
    }

    @Test func streetOfFiftyWaysIsOneStreet() throws {
        // osmium tags-filter -R w/name=Mannerheimintie: 50 ways, all highway=primary.
        let r = try rows(dbs.pbf, """
            SELECT p.category, g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE p.kind = 'street' AND p.name = 'Mannerheimintie'
            """)
        #expect(r.count == 1)
        guard case .blob(let bytes) = r.first?[1], case .lineStrings(let lines)? = Geometry(encoded: bytes) else {
            Issue.record("no street geometry"); return
        }
        #expect(lines.count == 50)
        #expect(r[0][0] == .text("highway=primary"))
        let names = try rows(dbs.pbf, """
            SELECT name FROM place_name WHERE place_id = (SELECT id FROM place WHERE kind = 'street' AND name = 'Mannerheimintie')
            AND lang = 'sv'
            """)
        #expect(names == [[.text("Mannerheimvägen")]])
    }

    @Test func fullTextAndSpatialIndexesFindPlaces() throws {
        let db = try Connection(path: dbs.pbf, mode: .readOnly())
        let hits = try db.prepare("""
            SELECT p.name FROM place_fts f JOIN place p ON p.id = \(SearchRowID.placeIDSQL("f.rowid"))
            WHERE place_fts MATCH 'name:stockmann' AND p.kind = 'poi' ORDER BY p.id
            """).rows { $0.text(0) ?? "" }
        #expect(hits.contains("Stockmann"))
        // Every place is found by a spatial query at its own position.
        let missing = try db.scalarInt("""
            SELECT count(*) FROM place p WHERE p.id NOT IN (
              SELECT r.id FROM place_rtree r WHERE r.min_lon <= p.lon AND r.max_lon >= p.lon
                AND r.min_lat <= p.lat AND r.max_lat >= p.lat)
            """)
        #expect(missing == 0)
    }

    /// Box queries through the tree must return exactly the entries a full scan of the same boxes finds:
    /// the packed bulk load (default) and SQLite's own row-by-row insertion alike.
    @Test(arguments: [RTreeBuild.packed, .insert]) func rtreeQueriesMatchAFullScan(build: RTreeBuild) throws {
        let scratch = try ScratchDirectory()
        var options = ImportOptions()
        options.rtreeBuild = build
        let path = scratch.path("\(build).sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: path, options: options)
        let db = try Connection(path: path, mode: .readOnly())
        let all = try db.prepare("SELECT id, min_lon, max_lon, min_lat, max_lat FROM place_rtree")
            .rows { ($0.int(0), $0.double(1), $0.double(2), $0.double(3), $0.double(4)) }
        #expect(all.count == 2529)
        let query = try db.prepare("""
            SELECT id FROM place_rtree WHERE min_lon <= ?3 AND max_lon >= ?1 AND min_lat <= ?4 AND max_lat >= ?2 ORDER BY id
            """)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let lon = Double.random(in: 24.93...24.955, using: &generator), lat = Double.random(in: 60.163...60.18, using: &generator)
            let size = Double.random(in: 0.0001...0.01, using: &generator)
            let hits = try query.rows([.real(lon), .real(lat), .real(lon + size), .real(lat + size / 2)]) { $0.int(0) }
            let expected = all.filter { $0.1 <= lon + size && $0.2 >= lon && $0.3 <= lat + size / 2 && $0.4 >= lat }.map(\.0).sorted()
            #expect(hits == expected)
        }
        #expect(try IntegrityCheck.run(path: path).allSatisfy(\.ok))
        if build == .packed {
            // Boxes are rounded outwards to the nearest float: each contains its place's exact position.
            let outside = try db.scalarInt("""
                SELECT count(*) FROM place p JOIN place_rtree r ON r.id = p.id
                WHERE p.lat < r.min_lat OR p.lat > r.max_lat OR p.lon < r.min_lon OR p.lon > r.max_lon
                """)
            #expect(outside == 0)
        }
    }

    @Test func sourceIsRecorded() throws {
        let info = try GeoDatabase(path: dbs.pbf).info()
        #expect(info.sources.count == 1)
        #expect(info.sources[0].name == "helsinki.osm.pbf" && info.sources[0].format == "osm.pbf")
        #expect(info.sources[0].sizeBytes == 685_110 && info.sources[0].placeCount == 2529)
        #expect(info.sources[0].dataTimestamp == "2019-04-21T09:50:14Z")   // newest object, as osmium fileinfo says
        #expect(info.boundingBox.map { $0.minLon > 24.93 && $0.maxLat < 60.18 } == true)
        #expect(info.kinds.first?.name == "poi")
    }
}
