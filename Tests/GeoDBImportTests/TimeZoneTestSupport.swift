// Timezone databases and an independent reference for the timezone tests: every polygon of a GeoJSON
// file (read with Foundation's JSON parser, not geodb's) tested one by one with plain rational arithmetic.
import Foundation
import GeoDB
import GeoDBSQLite
@testable import GeoDBImport
import TestSupport

enum TimeZoneTestData {
    /// The simplified world file (6 MB, in SampleData); tests that need it are skipped, saying so, where it is
    /// missing.
    static let worldFile = TestPaths.root.appendingPathComponent("SampleData/timezones.geojson").path
    static var hasWorldFile: Bool { FileManager.default.fileExists(atPath: worldFile) }

    private static let directory = Result { try ScratchDirectory() }
    nonisolated(unsafe) private static var built: [String: String] = [:]
    private static let lock = NSLock()

    /// A database holding only the timezones of `input`, with a grid to `gridLevel` (negative: none),
    /// built once per test process.
    static func database(_ input: String, gridLevel: Int = TimeZoneImport.gridLevel) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(input)#\(gridLevel)"
        if let path = built[key] { return path }
        let path = try directory.get().path("tz-\(built.count).sqlite")
        let db = try Connection(path: path, mode: .create)
        try Schema.createTables(in: db)
        try db.execute("BEGIN")
        _ = try TimeZoneImport(gridLevel: gridLevel).write(input, into: db)
        try db.execute("COMMIT")
        try Schema.createIndexes(in: db)
        built[key] = path
        return path
    }
}

/// Every polygon of a GeoJSON file, for brute-force answers.
struct ReferenceZones {
    struct Polygon {
        var tzid: String
        var rings: [[(x: Int64, y: Int64)]]
        var area: Double
    }

    var polygons: [Polygon] = []

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        for feature in root?["features"] as? [[String: Any]] ?? [] {
            let tzid = (feature["properties"] as? [String: Any])?["tzid"] as? String ?? ""
            let geometry = feature["geometry"] as? [String: Any] ?? [:]
            let coordinates = geometry["coordinates"] as? [Any] ?? []
            let parts = geometry["type"] as? String == "Polygon" ? [coordinates] : coordinates
            for part in parts {
                let rings = (part as? [[[Double]]] ?? []).map { ring in
                    ring.dropLast().map { (x: Int64(($0[0] * 1e7).rounded()), y: Int64(($0[1] * 1e7).rounded())) }
                }
                var twice = 0.0
                for (i, a) in rings[0].enumerated() {
                    let b = rings[0][(i + 1) % rings[0].count]
                    twice += Double(b.x) * Double(a.y) - Double(a.x) * Double(b.y)
                }
                polygons.append(Polygon(tzid: tzid, rings: rings, area: abs(twice) / 2e14))
            }
        }
    }

    /// Zones containing the point, by the overlap rule: smallest polygon first, then id.
    func containing(_ p: Point7) -> [String] {
        var smallest: [String: Double] = [:]
        for polygon in polygons where Self.odd(polygon.rings[0], p) && !polygon.rings.dropFirst().contains(where: { Self.odd($0, p) }) {
            smallest[polygon.tzid] = min(smallest[polygon.tzid] ?? .infinity, polygon.area)
        }
        return smallest.keys.sorted { smallest[$0]! != smallest[$1]! ? smallest[$0]! < smallest[$1]! : $0 < $1 }
    }

    /// The crossing rule: edges with one end above the latitude and one at or below, crossed east of the point.
    static func odd(_ ring: [(x: Int64, y: Int64)], _ p: Point7) -> Bool {
        let x = Int64(p.lon), y = Int64(p.lat)
        var odd = false
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            guard (a.y > y) != (b.y > y) else { continue }
            // The crossing's longitude is num / den; compare with x without dividing.
            let num = a.x * (b.y - y) + b.x * (y - a.y), den = b.y - a.y
            if den > 0 ? num > x * den : num < x * den { odd.toggle() }
        }
        return odd
    }
}

/// Deterministic pseudo-random numbers in [0, 1).
struct TestRandom {
    var state: UInt64

    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}
