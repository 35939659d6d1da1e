// Inputs that made an import algorithm quadratic (Tests/Fixtures/crashers/README.md, "Found 2026-11-25"),
// generated at two sizes: ten times the input must cost about ten times the work, counted by the algorithm or
// timed.
import Foundation
import GeoDB
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct ImportScalingTests {
    /// `count` two-node ways in columns of 100, 0.01° apart, each 0.001° long with a 0.001° gap to the next:
    /// no two join, and no gap is short enough to close (`boundary_*_disjoint_ways.osm.pbf`).
    static func disjointWays(_ count: Int) -> (ways: [[Int64]], nodes: [Int64: Point7]) {
        var ways: [[Int64]] = [], nodes: [Int64: Point7] = [:]
        for i in 0..<count {
            let column = Int32(i / 100), row = Int32(i % 100)
            let a = Int64(2 * i), b = Int64(2 * i + 1)
            nodes[a] = Point7(lat: 600_000_000 + 20_000 * row, lon: 240_000_000 + 100_000 * column)
            nodes[b] = Point7(lat: 600_000_000 + 20_000 * row + 10_000, lon: 240_000_000 + 100_000 * column)
            ways.append([a, b])
        }
        return (ways, nodes)
    }

    /// `count` squares in a grid, each with a square hole: every ring lies in at most one other.
    static func squaresWithHoles(_ count: Int) -> (ways: [[Int64]], nodes: [Int64: Point7]) {
        var ways: [[Int64]] = [], nodes: [Int64: Point7] = [:]
        func square(lat: Int32, lon: Int32, size: Int32) {
            let first = Int64(nodes.count)
            for (k, (dy, dx)) in [(0, 0), (0, size), (size, size), (size, 0)].enumerated() {
                nodes[first + Int64(k)] = Point7(lat: lat + dy, lon: lon + dx)
            }
            ways.append([first, first + 1, first + 2, first + 3, first])
        }
        for i in 0..<count {
            let lat = 600_000_000 + Int32(i / 100) * 100_000, lon = 240_000_000 + Int32(i % 100) * 100_000
            square(lat: lat, lon: lon, size: 50_000)
            square(lat: lat + 10_000, lon: lon + 10_000, size: 20_000)
        }
        return (ways, nodes)
    }

    @Test func waysThatDoNotJoinCostInProportion() {
        var work: [Int] = []
        for count in [2_000, 20_000] {
            let (ways, nodes) = Self.disjointWays(count)
            let result = RingAssembler.assemble(ways: ways) { nodes[$0] }
            #expect(result.polygons.count == 0)
            #expect(result.openWays == count)
            #expect(!result.gapClosingAbandoned)
            work.append(result.candidateTests)
        }
        // A scan of every other end per chain (the old search) is 100 times the work at 10 times the ways.
        #expect(work[1] < 30 * work[0], "\(work)")
    }

    @Test func ringsNestInProportion() {
        var work: [Int] = []
        for count in [1_000, 10_000] {
            let (ways, nodes) = Self.squaresWithHoles(count)
            let result = RingAssembler.assemble(ways: ways) { nodes[$0] }
            #expect(result.polygons.count == count)
            #expect(result.polygons.allSatisfy { $0.count == 2 })
            work.append(result.candidateTests)
        }
        // One containment test per hole (its square); the old scan tested every larger ring.
        #expect(work == [1_000, 10_000])
    }

    /// Joining ends must still close gaps as before: two halves of a square, a short gap at each corner.
    @Test func gapsBetweenChainsStillClose() {
        let nodes: [Int64: Point7] = [
            1: Point7(lat: 0, lon: 0), 2: Point7(lat: 0, lon: 1_000_000), 3: Point7(lat: 1_000_000, lon: 1_000_000),
            4: Point7(lat: 1_000_000, lon: 990_000), 5: Point7(lat: 1_000_000, lon: 0), 6: Point7(lat: 10_000, lon: 0),
        ]
        let result = RingAssembler.assemble(ways: [[1, 2, 3], [4, 5, 6]]) { nodes[$0] }
        #expect(result.repairedRings == 1)
        #expect(result.polygons.map { $0.map(\.count) } == [[6]])
    }

    /// A way cut at the extract's edge keeps the ids of nodes the extract lacks (Helsinki's extract cuts
    /// Kluuvi's boundary so): the gap is measured from the last located node, not abandoned at the first missing one.
    @Test func chainsEndingInMissingNodesStillClose() {
        let nodes: [Int64: Point7] = [
            1: Point7(lat: 0, lon: 0), 2: Point7(lat: 0, lon: 1_000_000), 3: Point7(lat: 1_000_000, lon: 1_000_000),
            5: Point7(lat: 1_000_000, lon: 0), 6: Point7(lat: 10_000, lon: 0),
        ]
        let result = RingAssembler.assemble(ways: [[1, 2, 3, 97], [98, 5, 6, 99]]) { nodes[$0] }
        #expect(result.repairedRings == 1)
        #expect(result.polygons.map { $0.map(\.count) } == [[5]])
    }

    /// Thousands of loose ends on one spot: every end is equally near, so an exact search is quadratic.
    /// Gap closing is given up once it has cost `gapWorkPerEnd` per end; the closed ring is still a polygon.
    @Test func pilesOfLooseEndsAreGivenUp() {
        var nodes: [Int64: Point7] = [:]
        var ways: [[Int64]] = []
        for i in 0..<5_000 {
            nodes[Int64(2 * i)] = Point7(lat: 0, lon: 0)
            nodes[Int64(2 * i + 1)] = Point7(lat: 0, lon: 0)
            ways.append([Int64(2 * i), Int64(2 * i + 1)])
        }
        for (k, p) in [Point7(lat: 0, lon: 0), Point7(lat: 0, lon: 100), Point7(lat: 100, lon: 100)].enumerated() {
            nodes[100_000 + Int64(k)] = p
        }
        ways.append([100_000, 100_001, 100_002, 100_000])
        let result = RingAssembler.assemble(ways: ways) { nodes[$0] }
        #expect(result.gapClosingAbandoned)
        #expect(result.candidateTests < 2 * RingAssembler.gapWorkPerEnd * 10_000)
        #expect(result.polygons.count == 1)
    }

    /// The reproducer's shape as a file: a boundary whose 5,000 ways are loose pieces, beside one closed
    /// ring; the boundary imports from that ring.
    @Test func boundaryWithThousandsOfLooseWaysImports() throws {
        let scratch = try ScratchDirectory()
        let (loose, nodes) = Self.disjointWays(5_000)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n"
        for (id, p) in nodes.sorted(by: { $0.key < $1.key }) {
            xml += "<node id=\"\(id + 1)\" lat=\"\(Double(p.lat) / 1e7)\" lon=\"\(Double(p.lon) / 1e7)\"/>\n"
        }
        let square = [(59.9, 23.9), (59.9, 23.95), (59.95, 23.95), (59.95, 23.9)]
        for (k, (lat, lon)) in square.enumerated() { xml += "<node id=\"\(1_000_000 + k)\" lat=\"\(lat)\" lon=\"\(lon)\"/>\n" }
        for (i, way) in loose.enumerated() {
            xml += "<way id=\"\(i + 1)\">" + way.map { "<nd ref=\"\($0 + 1)\"/>" }.joined() + "</way>\n"
        }
        xml += "<way id=\"100000\">" + [0, 1, 2, 3, 0].map { "<nd ref=\"\(1_000_000 + $0)\"/>" }.joined() + "</way>\n"
        xml += "<relation id=\"100\">" + (1...loose.count).map { "<member type=\"way\" ref=\"\($0)\" role=\"outer\"/>" }.joined()
            + "<member type=\"way\" ref=\"100000\" role=\"outer\"/>"
            + "<tag k=\"type\" v=\"boundary\"/><tag k=\"boundary\" v=\"administrative\"/><tag k=\"admin_level\" v=\"8\"/>"
            + "<tag k=\"name\" v=\"Big\"/></relation>\n</osm>\n"
        let input = scratch.path("loose.osm")
        try xml.write(toFile: input, atomically: false, encoding: .utf8)
        let summary = try Importer.run(inputs: [input], output: scratch.path("out.sqlite"))
        #expect(summary.sources.first?.build.relationsAssembled == 1)
        #expect(summary.sources.first?.build.gapClosingAbandoned == 0)
        let place = try QuerySession(path: scratch.path("out.sqlite")).lookup("r100").place
        #expect(place.name == "Big")
        #expect((59.9...59.95).contains(place.lat) && (23.9...23.95).contains(place.lon), "\(place.lat), \(place.lon)")
    }

    /// One zone of `side` × `side` degrees with a small triangular hole every quarter degree
    /// (`tz_polygon_*_holes.geojson`): the grid tests a point per cell, each against the holes.
    static func zoneWithHoles(side: Int) -> String {
        var rings = ["[[0,0],[\(side),0],[\(side),\(side)],[0,\(side)],[0,0]]"]
        for row in 0..<(4 * side) {
            for column in 0..<(4 * side) {
                let x = 0.1 + Double(column) / 4, y = 0.1 + Double(row) / 4
                rings.append("[[\(x),\(y)],[\(x + 0.01),\(y)],[\(x + 0.01),\(y + 0.01)],[\(x),\(y)]]")
            }
        }
        return #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"tzid":"Test/Holes"},"#
            + #""geometry":{"type":"Polygon","coordinates":["# + rings.joined(separator: ",") + "]}}]}"
    }

    @Test func zoneWithManyHolesCostsInProportion() throws {
        let scratch = try ScratchDirectory()
        var seconds: [Double] = []
        // A warm-up, then 576 and 5,776 holes (sides of 6 and 19°: ten times the area and the holes).
        for (index, side) in [4, 6, 19].enumerated() {
            let input = scratch.path("holes-\(side).geojson"), output = scratch.path("tz-\(side).sqlite")
            try Self.zoneWithHoles(side: side).write(toFile: input, atomically: false, encoding: .utf8)
            let start = Date()
            let summary = try Importer.run(inputs: [input], output: output)
            if index > 0 { seconds.append(Date().timeIntervalSince(start)) }
            #expect(summary.timeZones?.holes == 16 * side * side)
            let session = try QuerySession(path: output)
            // Beside a hole, in a hole (the zone's nearest edge is the hole's), outside the zone.
            #expect(try session.timeZone(at: Coordinate(lat: 0.3, lon: 0.3)).source == .polygon)
            let inHole = try session.timeZone(at: Coordinate(lat: 0.102, lon: 0.108))
            #expect(inHole.source == .nearest && inHole.tzid == "Test/Holes")
            #expect(try session.timeZone(at: Coordinate(lat: -10, lon: -10)).source == .ocean)
        }
        // Testing every hole from every grid cell (the old rule) is 100 times the time at 10 times the holes.
        #expect(seconds[1] < 30 * seconds[0], "\(seconds)")
    }
}
