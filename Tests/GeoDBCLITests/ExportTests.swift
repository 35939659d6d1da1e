// `geodb export`: GeoJSON, newline-delimited GeoJSON, CSV and GeoPackage; selections; a CSV export that
// imports again as the same places; files GDAL's ogrinfo reads; clear errors.
import Foundation
import GeoDB
import Testing
import TestSupport

@Suite struct ExportTests {
    static let database = Result { try TestDatabases.helsinki() }

    /// The comparable content of each place, in id order; `keep` selects which. The address is the part a
    /// CSV row has columns for: the levels of the hierarchy below the city (suburb, neighbourhood) come
    /// from the areas of the original database, which a CSV file does not carry.
    static func places(_ path: String, keep: (PlaceResult) -> Bool = { _ in true }) throws -> [String] {
        var out: [String] = []
        try QuerySession(path: path).forEachPlace(PlaceSelection()) { place, _ in
            guard keep(place) else { return }
            out.append([place.kind.rawValue, place.category?.text ?? "-", place.categoryID ?? "-", place.name ?? "-",
                        String(format: "%.7f %.7f", place.lat, place.lon),
                        place.address.dictionary.filter { csvAddress.contains($0.key) }.sorted { $0.key < $1.key }.description,
                        place.tags.sorted { $0.key < $1.key }.description, place.timezone ?? "-",
                        place.population.map(String.init) ?? "-"].joined(separator: " | "))
        }
        return out
    }

    static let csvAddress: Set<String> = ["housenumber", "street", "postcode", "city", "state", "country", "country_code"]

    @Test func csvRoundTripGivesTheSamePlaces() throws {
        let scratch = try ScratchDirectory()
        let csv = scratch.path("places.csv"), copy = scratch.path("copy.sqlite")
        let export = try runGeodb(["export", try Self.database.get(), "--format", "csv", "--output", csv])
        #expect(export.status == 0, "\(export.stderr)")
        let reimport = try runGeodb(["import", csv, "--output", copy, "--keep-unnamed"])
        #expect(reimport.status == 0 && reimport.stderr.isEmpty, "\(reimport.stderr)")
        let original = try Self.places(try Self.database.get())
        #expect(original.count == 2529)
        #expect(try Self.places(copy) == original)
        // Without --keep-unnamed, rows with neither a name nor a house number (unnamed ATMs, …) are skipped.
        let named = try Self.places(try Self.database.get()) { $0.name != nil || $0.address.housenumber != nil }
        let strict = try runGeodb(["import", csv, "--output", scratch.path("named.sqlite"), "--json"])
        #expect(try Self.places(scratch.path("named.sqlite")) == named)
        #expect(strict.stdout.contains("\"no_name\" : \(original.count - named.count)"), "\(strict.stdout.prefix(3000))")
    }

    @Test func geoJSONHasEveryPlaceWithItsFields() throws {
        let result = try runGeodb(["export", try Self.database.get()])
        #expect(result.status == 0)
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 2529)
        let engel = try #require(features.first { ($0["properties"] as? [String: Any])?["name"] as? String == "Cafe Engel" })
        let properties = try #require(engel["properties"] as? [String: Any])
        #expect(properties["category_id"] as? String == "cafe" && properties["street"] as? String == "Aleksanterinkatu")
        #expect((properties["tags"] as? [String: String])?.isEmpty == false)
        let point = try #require((engel["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(point[0] - 24.95) < 0.01 && abs(point[1] - 60.17) < 0.01)   // [lon, lat]
        // Each property is the place's JSON field of that name (`lookup --json`, /v1), its address flattened.
        let lookup = try runGeodb(["lookup", try Self.database.get(), try #require(properties["source_id"] as? String), "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(lookup.stdout.utf8)) as? [String: Any])
        let place = try #require(answer["place"] as? [String: Any]), address = try #require(place["address"] as? [String: Any])
        for (key, value) in properties where key != "tags" {
            let same = place[key].map { "\($0)" } ?? address[key].map { "\($0)" }
            #expect(same == "\(value)", "\(key)")
        }
    }

    @Test func selectionsAndFullGeometry() throws {
        let db = try Self.database.get()
        let streets = try runGeodb(["export", db, "--ndjson", "--kind", "street", "--geometry", "full"])
        let lines = streets.stdout.split(separator: "\n")
        #expect(lines.count == 99)
        #expect(lines.allSatisfy { $0.contains("\"kind\":\"street\"") && $0.contains("LineString") })
        // Polygons follow RFC 7946's right-hand rule: outer rings counterclockwise, holes clockwise.
        let areas = try runGeodb(["export", db, "--ndjson", "--geometry", "full", "--kind", "suburb,neighbourhood"])
        var rings = 0
        for line in areas.stdout.split(separator: "\n") {
            let feature = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let polygons: [[[[Double]]]]
            switch geometry["type"] as? String {
            case "Polygon": polygons = [try #require(geometry["coordinates"] as? [[[Double]]])]
            case "MultiPolygon": polygons = try #require(geometry["coordinates"] as? [[[[Double]]]])
            default: continue
            }
            for polygon in polygons {
                for (index, ring) in polygon.enumerated() {
                    let area = zip(ring, ring.dropFirst()).reduce(0.0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
                    #expect(index == 0 ? area > 0 : area < 0, "ring \(index) of \(feature["id"] ?? "")")
                    #expect(ring.first == ring.last)
                    rings += 1
                }
            }
        }
        #expect(rings > 5)
        let cafes = try runGeodb(["export", db, "--ndjson", "--category", "cafe"]).stdout.split(separator: "\n")
        let nearby = try GeoDatabase(path: db).withSession { try $0.places(in: BoundingBox(minLat: -90, minLon: -180, maxLat: 90, maxLon: 180),
                                                      filter: try .resolve(["cafe"]), limit: 1000) }
        #expect(cafes.count == nearby.places.count && cafes.count > 50)
        let box = try runGeodb(["export", db, "--format", "csv", "--bbox", "24.94,60.165,24.945,60.17"]).stdout
        let rows = box.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count > 20 && rows.count < 2529)
        for row in rows where !box.contains("\"") {
            let lat = Double(row[4]) ?? 0, lon = Double(row[5]) ?? 0
            #expect(lat >= 60.165 && lat <= 60.17 && lon >= 24.94 && lon <= 24.945)
        }
    }

    /// A box across the antimeridian (min lon > max lon) selects both sides, as nearby does.
    @Test func boxAcrossTheAntimeridian() throws {
        let db = try TestDatabases.synthetic()
        let result = try runGeodb(["export", db, "--format", "csv", "--bbox", "179.95,-0.05,-179.95,0.05"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let lons = rows.compactMap { Double($0[5]) }
        #expect(lons.count == rows.count && lons.contains { $0 > 179.95 } && lons.contains { $0 < -179.95 })
        #expect(lons.allSatisfy { $0 >= 179.95 || $0 <= -179.95 })
        #expect(rows.compactMap { Double($0[4]) }.allSatisfy { abs($0) <= 0.05 })
        let inBox = try GeoDatabase(path: db).withSession { try $0.places(in: BoundingBox(minLat: -0.05, minLon: 179.95, maxLat: 0.05, maxLon: -179.95),
                                                     filter: .categories(Taxonomy.standard.descendants(of: "food_and_drink")
                                                         + Taxonomy.standard.descendants(of: "money")
                                                         + Taxonomy.standard.descendants(of: "health")), limit: 1000) }
        #expect(rows.count >= inBox.places.count && !rows.isEmpty)
    }

    @Test func badArgumentsAndExistingOutput() throws {
        let scratch = try ScratchDirectory()
        let db = try Self.database.get(), output = scratch.path("out.geojson")
        for arguments in [["--format", "kml"], ["--format", "gpkg"], ["--format", "csv", "--ndjson"], ["--geometry", "lines"],
                          ["--category", "cofee"]] {
            let result = try runGeodb(["export", db] + arguments)
            #expect(result.status != 0 && !result.stderr.isEmpty, "\(arguments)")
        }
        try "keep me".write(toFile: output, atomically: true, encoding: .utf8)
        let refused = try runGeodb(["export", db, "--output", output])
        #expect(refused.status == 1 && refused.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let missing = try runGeodb(["export", scratch.path("none.sqlite")])
        #expect(missing.status == 1 && missing.stderr.contains("none.sqlite"))
        #expect(try runGeodb(["export", db, "--output", output, "--force"]).status == 0)
        #expect(scratch.contents() == ["out.geojson"])   // no temporary file left
    }
}

/// GDAL reads what geodb exports (Debian's gdal-bin; `.ci/run` installs it).
@Suite(.enabled(if: Ogrinfo.available, "skipped: needs GDAL's ogrinfo (Tools/install-deps.sh gdal-bin)"))
struct OgrinfoExportTests {
    @Test(arguments: [
        (["--format", "gpkg"], "out.gpkg", "Geometry: Point"),
        (["--format", "geojson"], "out.geojson", "Geometry: Point"),
        (["--format", "geojson", "--geometry", "full"], "out.geojson", "Geometry: Unknown (any)"),
        (["--ndjson"], "out.geojsons", "Geometry: Point"),
    ])
    func ogrinfoReadsEveryPlace(arguments: [String], file: String, geometry: String) throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path(file)
        let export = try runGeodb(["export", try TestDatabases.helsinki(), "--output", output] + arguments)
        #expect(export.status == 0, "\(export.stderr)")
        let info = try Ogrinfo.run(["-so", "-al", output])
        #expect(info.status == 0 && !info.stderr.contains("ERROR"), "\(info.stderr)")
        #expect(info.stdout.contains("Feature Count: 2529"), "\(info.stdout)")
        #expect(info.stdout.contains(geometry), "\(info.stdout)")
        if file.hasSuffix(".gpkg") {
            #expect(info.stdout.contains("EPSG\",4326") || info.stdout.contains("WGS 84"))
            let street = try Ogrinfo.run(["-q", "-al", output, "-where", "name = 'Mannerheimintie'"])
            #expect(street.stdout.contains("kind (String) = street"))
            #expect(street.stdout.contains("POINT"), "\(street.stdout.prefix(2000))")
            #expect(try Ogrinfo.run(["-q", output]).stdout == "1: points (Point)\n")
        }
    }

    /// `--geometry full` writes a layer per geometry type, each with the GeoPackage R*Tree spatial index
    /// (what QGIS and GDAL use to pan and filter by extent) that GDAL's HasSpatialIndex reports and its
    /// `-spat` filter reads; GDAL's own validator finds nothing wrong, also after GDAL edits rows (the
    /// spec's triggers keep the index in step).
    @Test func geoPackageHasALayerPerGeometryTypeWithASpatialIndex() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("out.gpkg")
        let export = try runGeodb(["export", try TestDatabases.helsinki(), "--output", output, "--format", "gpkg", "--geometry", "full"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Ogrinfo.run(["-q", output]).stdout == "1: points (Point)\n2: lines (Multi Line String)\n3: polygons (Multi Polygon)\n")
        var counts: [String: Int] = [:]
        for layer in ["points", "lines", "polygons"] {
            let info = try Ogrinfo.run(["-so", output, layer])
            #expect(info.status == 0 && !info.stderr.contains("ERROR"), "\(info.stderr)")
            counts[layer] = info.stdout.split(separator: "\n").first { $0.hasPrefix("Feature Count: ") }
                .flatMap { Int($0.dropFirst("Feature Count: ".count)) }
            let index = try Ogrinfo.run(["-q", output, "-sql", "SELECT HasSpatialIndex('\(layer)', 'geom')"])
            #expect(index.stdout.contains("HasSpatialIndex (Integer) = 1"), "\(layer): \(index.stdout)")
        }
        // Every place once: 424 with a line or polygon (docs/CLI.md's export line), the rest as points.
        #expect(counts["points"] == 2529 - 424 && (counts["lines"] ?? 0) + (counts["polygons"] ?? 0) == 424, "\(counts)")
        let street = try Ogrinfo.run(["-q", output, "lines", "-where", "name = 'Mannerheimintie'"])
        #expect(street.stdout.contains("kind (String) = street") && street.stdout.contains("MULTILINESTRING"), "\(street.stdout.prefix(2000))")
        // The index answers a box: the places around the railway station, as a scan of every row finds them.
        let box = ["24.939", "60.169", "24.944", "60.172"]
        let indexed = try Ogrinfo.run(["-so", output, "points", "-spat"] + box)
        let scanned = try Ogrinfo.run(["-so", output, "-sql", "SELECT * FROM points WHERE ST_X(geom) BETWEEN \(box[0]) AND \(box[2]) "
                                       + "AND ST_Y(geom) BETWEEN \(box[1]) AND \(box[3])"])
        let count = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("Feature Count: ") } }
        #expect(count(indexed.stdout) != nil && count(indexed.stdout) == count(scanned.stdout), "\(indexed.stdout) \(scanned.stdout)")
        #expect(count(indexed.stdout) != "Feature Count: 0")
        _ = try Ogrinfo.run([output, "-sql", "DELETE FROM points WHERE fid IN (SELECT fid FROM points LIMIT 5)"])
        _ = try Ogrinfo.run([output, "-sql", "UPDATE lines SET fid = fid + 1000000000 WHERE fid = (SELECT min(fid) FROM lines)"])
        if FileManager.default.fileExists(atPath: Ogrinfo.validator) {
            let valid = try runProgram("/usr/bin/python3", [Ogrinfo.validator, output])
            #expect(valid.status == 0 && valid.stdout.isEmpty && valid.stderr.isEmpty, "\(valid.stdout) \(valid.stderr)")
        }
        let rows = try runProgram("/usr/bin/sqlite3", [output, "SELECT (SELECT count(*) FROM points) - (SELECT count(*) FROM rtree_points_geom), "
                                                        + "(SELECT count(*) FROM lines JOIN rtree_lines_geom ON id = fid) - (SELECT count(*) FROM lines)"])
        #expect(rows.status != 0 || rows.stdout == "0|0\n", "\(rows.stdout) \(rows.stderr)")
    }
}

enum Ogrinfo {
    static let path = "/usr/bin/ogrinfo"
    /// GDAL's GeoPackage validator (Debian's python3-gdal, which gdal-bin brings).
    static let validator = "/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: path) }

    static func run(_ arguments: [String]) throws -> ProcessResult { try runProgram(path, arguments) }
}
