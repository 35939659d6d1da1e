// `geodb import --wkb`: every place's geometry as standard WKB in `place_wkb`, readable without geodb. A
// polygon decoded from its bytes by the WKB layout alone is the polygon `geodb export` writes as GeoJSON,
// and the file stays a geodb database that every command opens.
import Foundation
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct StandardGeometryTests {
    /// Little-endian WKB read by its layout (OGC Simple Features): byte order, type, counts, doubles.
    struct WKBReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() -> UInt8 { defer { offset += 1 }; return bytes[offset] }
        mutating func uint32() -> UInt32 {
            defer { offset += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        mutating func double() -> Double {
            defer { offset += 8 }
            return Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) })
        }
        /// The rings of a Polygon after its byte order and type.
        mutating func rings() -> [[[Double]]] {
            (0..<uint32()).map { _ in (0..<uint32()).map { _ in [double(), double()] } }
        }
    }

    @Test func polygonReadsBackAsTheExportedGeoJSON() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("liechtenstein-wkb.sqlite")
        let imported = try runGeodb(["import", TestPaths.sampleData("liechtenstein.osm.pbf"), "--wkb", "--output", path, "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Connection(path: path, mode: .readOnly())
        #expect(try db.scalarInt("SELECT count(*) FROM place_wkb") == db.scalarInt("SELECT count(*) FROM place"))
        // The largest single polygon (a Polygon's first five bytes: little-endian, type 3).
        let rows = try db.prepare("""
            SELECT place_id, geom FROM place_wkb WHERE substr(geom, 1, 5) = x'0103000000'
            ORDER BY length(geom) DESC, place_id LIMIT 1
            """)
        #expect(try rows.step())
        let id = rows.int(0)
        var wkb = WKBReader(bytes: try #require(rows.blob(1)))
        #expect(wkb.byte() == 1, "little-endian")
        #expect(wkb.uint32() == 3, "Polygon")
        let rings = wkb.rings()
        #expect(wkb.offset == wkb.bytes.count)
        #expect(rings.count >= 1 && rings.allSatisfy { $0.count >= 4 && $0.first == $0.last })

        let exported = try runGeodb(["export", path, "--ndjson", "--geometry", "full"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let line = try #require(exported.stdout.split(separator: "\n").first { $0.hasPrefix("{\"type\":\"Feature\",\"id\":\(id),") })
        let feature = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Polygon")
        let geoJSON = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(geoJSON.count == rings.count)
        for (ring, exportedRing) in zip(rings, geoJSON) {
            #expect(ring.count == exportedRing.count)
            // GeoJSON writes at most 7 decimals: the database's precision.
            #expect(zip(ring, exportedRing).allSatisfy { abs($0[0] - $1[0]) < 1e-9 && abs($0[1] - $1[1]) < 1e-9 })
        }

        // Every command still opens the file, and its checks pass.
        let check = try runGeodb(["inspect", path, "--check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let search = try runGeodb(["search", path, "Vaduz", "--limit", "1"])
        #expect(search.status == 0 && search.stdout.contains("Vaduz"), "\(search.stderr)")
    }

    /// GDAL opens the view as a layer with a geometry in EPSG:4326 (ogrinfo, which CI installs; geodb's own
    /// connections have views turned off, so this is the view's reader here).
    @Test(.enabled(if: Ogrinfo.available, "skipped: needs GDAL's ogrinfo (Tools/install-deps.sh gdal-bin)"))
    func gdalReadsTheViewAsALayer() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("helsinki-wkb.sqlite")
        #expect(try runGeodb(["import", TestPaths.sampleData("helsinki.osm.pbf"), "--wkb", "-o", path, "-q"]).status == 0)
        let layers = try Ogrinfo.run(["-ro", "-q", path])
        #expect(layers.stdout.contains("place_wkb_named"), "\(layers.stdout)\(layers.stderr)")
        let summary = try Ogrinfo.run(["-ro", "-so", path, "place_wkb_named"])
        #expect(summary.stdout.contains("Feature Count: 2529") && summary.stdout.contains("Geometry Column = geom")
                && summary.stdout.contains("ID[\"EPSG\",4326]"), "\(summary.stdout)\(summary.stderr)")
        let stockmann = try Ogrinfo.run(["-ro", path, "place_wkb_named", "-where", "name = 'Stockmann'"])
        #expect(stockmann.stdout.contains("POLYGON ((24.94"), "\(stockmann.stdout)")
    }

    /// A point is a WKB Point of the place's coordinates; appending keeps the table whole.
    @Test func pointsAndAppends() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("helsinki-wkb.sqlite")
        #expect(try runGeodb(["import", TestPaths.sampleData("helsinki.osm.pbf"), "--wkb", "-o", path, "-q"]).status == 0)
        let appended = try runGeodb(["import", TestPaths.sampleData("cities15000.txt"), "--append", path, "-q"])
        #expect(appended.status == 0, "\(appended.stderr)")
        let db = try Connection(path: path, mode: .readOnly())
        #expect(try db.scalarInt("SELECT count(*) FROM place_wkb") == db.scalarInt("SELECT count(*) FROM place"))
        let rows = try db.prepare("""
            SELECT p.lon, p.lat, w.geom FROM place p JOIN place_wkb w ON w.place_id = p.id WHERE p.source_ref = '1850147'
            """)
        #expect(try rows.step(), "Tokyo, appended from GeoNames")
        var wkb = WKBReader(bytes: try #require(rows.blob(2)))
        #expect(wkb.byte() == 1 && wkb.uint32() == 1)
        #expect(wkb.double() == rows.double(0) && wkb.double() == rows.double(1))
    }
}
