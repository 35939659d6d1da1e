// Databases the query tests share, built once per test process from SampleData and generated data.
import Foundation
import GeoDB
import GeoDBImport

public enum TestDatabases {
    private static let directory = Result { try ScratchDirectory() }
    nonisolated(unsafe) private static var built: [String: String] = [:]
    private static let lock = NSLock()

    /// SampleData/helsinki.osm.pbf imported.
    public static func helsinki() throws -> String {
        try database("helsinki") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: output)
        }
    }

    /// SampleData/helsinki.osm.pbf with SampleData/timezones-small.geojson: every query kind has answers.
    public static func helsinkiWithTimeZones() throws -> String {
        try database("helsinki-timezones") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf"),
                                          TestPaths.sampleData("timezones-small.geojson")], output: output)
        }
    }

    /// SampleData/helsinki.osm.pbf and monaco.osm.pbf with the timezones, and the optional standard geometry
    /// (`--wkb`): what the schema contract test reads (places, areas with polygons, zones, `place_wkb`).
    public static func helsinkiMonacoTimeZones() throws -> String {
        try database("helsinki-monaco-timezones") { output in
            var options = ImportOptions()
            options.standardGeometry = true
            _ = try Importer.run(inputs: ["helsinki.osm.pbf", "monaco.osm.pbf", "timezones-small.geojson"].map(TestPaths.sampleData),
                                 output: output, options: options)
        }
    }

    /// SampleData/liechtenstein.osm.pbf imported: a whole country with its boundaries.
    public static func liechtenstein() throws -> String {
        try database("liechtenstein") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("liechtenstein.osm.pbf")], output: output)
        }
    }

    /// SampleData/monaco.osm.pbf imported: a city-state with wards.
    public static func monaco() throws -> String {
        try database("monaco") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("monaco.osm.pbf")], output: output)
        }
    }

    /// All of SampleData, as Tools/demo.sh imports it into demo/combined.sqlite: Helsinki (OSM), GeoNames
    /// cities15000 with country names, and timezones.
    public static func combined() throws -> String {
        try database("combined") { output in
            _ = try Importer.run(inputs: ["helsinki.osm.pbf", "cities15000.txt", "countries.tsv", "timezones-small.geojson"]
                                    .map(TestPaths.sampleData), output: output)
        }
    }

    /// 600 POIs in six clusters around the antimeridian (lat 0, -16.5, 65) and both poles, with
    /// cafes, restaurants, pharmacies and ATMs, a fifth of them unnamed.
    public static func synthetic() throws -> String {
        try database("synthetic") { output in
            let centers = [(0.0, 180.0), (-16.5, 180.0), (65.0, -180.0), (89.99, 0.0), (-89.995, 0.0), (0.0, -179.99)]
            let amenities = ["cafe", "restaurant", "pharmacy", "atm"]
            var xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"
            var state: UInt64 = 12345
            func random() -> Double {   // deterministic, in [0, 1)
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 11) / Double(1 << 53)
            }
            for i in 0..<600 {
                let (lat0, lon0) = centers[i % centers.count]
                let polar = abs(lat0) > 89
                var lat = lat0 + (random() - 0.5) * (polar ? 0.01 : 0.1)
                var lon = lon0 + (random() - 0.5) * (polar ? 360 : 0.2)
                lat = min(90, max(-90, lat))
                if lon > 180 { lon -= 360 }
                if lon < -180 { lon += 360 }
                let name = i % 5 == 0 ? "" : "<tag k='name' v='Place \(i)'/>"
                xml += "<node id='\(i + 1)' lat='\(String(format: "%.7f", lat))' lon='\(String(format: "%.7f", lon))'>"
                    + "<tag k='amenity' v='\(amenities[i % amenities.count])'/>\(name)</node>\n"
            }
            xml += "</osm>\n"
            let input = output + ".osm"
            try xml.write(toFile: input, atomically: true, encoding: .utf8)
            _ = try Importer.run(inputs: [input], output: output)
        }
    }

    /// SampleData/cities15000.txt (GeoNames) with SampleData/countries.tsv imported: a GeoNames-only database.
    public static func cities() throws -> String {
        try database("cities") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("cities15000.txt"), TestPaths.sampleData("countries.tsv")],
                                 output: output)
        }
    }

    /// `cities()` and SampleData/geonames-namesakes.txt: small places named as big cities are in other languages.
    public static func citiesWithNamesakes() throws -> String {
        try database("cities-namesakes") { output in
            _ = try Importer.run(inputs: [TestPaths.sampleData("cities15000.txt"), TestPaths.sampleData("geonames-namesakes.txt"),
                                          TestPaths.sampleData("countries.tsv")], output: output)
        }
    }

    /// A file of SampleData imported alone (the halves of SampleData/vaduz-schaan.osm.pbf, and it).
    public static func sample(_ name: String) throws -> String {
        try database("sample-\(name)") { output in _ = try Importer.run(inputs: [TestPaths.sampleData(name)], output: output) }
    }

    /// A fixture of Tests/Fixtures imported.
    public static func fixture(_ name: String) throws -> String {
        try database(name) { output in _ = try Importer.run(inputs: [TestPaths.fixture(name)], output: output) }
    }

    /// Imports one file into `output`.
    public static func importFile(_ input: String, to output: String) throws -> ImportSummary {
        try importFiles([input], to: output)
    }

    /// Imports files into `output` in one import.
    public static func importFiles(_ inputs: [String], to output: String) throws -> ImportSummary {
        try Importer.run(inputs: inputs, output: output)
    }

    private static func database(_ name: String, build: (String) throws -> Void) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = built[name] { return path }
        let path = try directory.get().path("\(name).sqlite")
        try build(path)
        built[name] = path
        return path
    }
}
