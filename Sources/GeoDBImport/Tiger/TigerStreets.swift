// The OSM streets a TIGER line is parented to, found as Nominatim's tiger_line_import finds them: the nearest
// street of the line's name, else the street running beside it, else the nearest street around. The answer is
// the street's way nearest the line (a geodb street is all the ways of one name nearby, Nominatim's parent is
// one of them), whose id TIGER results show, as Nominatim's do.
import Foundation
import GeoDB
import GeoDBSQLite

/// The named streets of the database near a TIGER input's lines, each way of them apart.
final class TigerStreets {
    /// The grid the streets are kept in: 1/64° (1.7 km north–south).
    static let cellDegrees = 1.0 / 64
    /// How far from the line's centroid a street of its name may be (Nominatim: 0.015°).
    static let namedReach = 0.015
    /// The distances at which a street beside the line is looked for, each only when the one before found
    /// none (Nominatim: 0.0005° doubled while below 0.01°).
    static let besideReaches = [0.0005, 0.001, 0.002, 0.004, 0.008]
    /// How far from the line's centroid any street may be (Nominatim: 0.00005° doubled while below 0.1°).
    static let anyReach = 0.0512
    /// How many cells around a line's box the streets are kept for: those `anyReach` needs.
    static let cellsAround = Int((anyReach / cellDegrees).rounded(.up))

    /// A way of a street: its street (index in `streets`) and its OSM id as results show it ("w396009653").
    private var ways: [(street: Int32, ref: String)] = []
    /// Each street's name and its words (`TextNormalizer.tokens`).
    private var streets: [(name: String, words: [String])] = []
    /// The ways' segments (way index, ends) and, per cell, the segments meeting it.
    private var segments: [(way: Int32, a: Point7, b: Point7)] = []
    private var cells: [Int64: [Int32]] = [:]

    /// The grid cell of a point, as one number.
    static func cell(lat: Double, lon: Double) -> Int64 {
        Int64(((lat + 90) / cellDegrees).rounded(.down)) << 32 | Int64(((lon + 180) / cellDegrees).rounded(.down))
    }

    /// Adds to `cells` those of the box of `line` and `cellsAround` around it.
    static func addCells(around line: [Point7], to cells: inout Set<Int64>) {
        guard let box = Geometry.lineStrings([line]).boundingBox else { return }
        let low = cell(lat: box.minLat, lon: box.minLon), high = cell(lat: box.maxLat, lon: box.maxLon)
        for row in (low >> 32) - Int64(cellsAround)...(high >> 32) + Int64(cellsAround) {
            for column in (low & 0xffff_ffff) - Int64(cellsAround)...(high & 0xffff_ffff) + Int64(cellsAround) {
                cells.insert(row << 32 | column)
            }
        }
    }

    /// Reads the named streets of `db` with a segment in `wanted` (cells of `cell`), each way apart: a street's
    /// lines are its ways in the order written, its own way first and then those merged into it (`place_link`).
    init(db: Connection, wanted: Set<Int64>) throws {
        guard !wanted.isEmpty else { return }
        let select = try db.prepare("""
            SELECT p.id, p.source_id, p.source_ref, p.name, g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE \(KindIndex.equals(.street, on: "p.kind")) AND p.name IS NOT NULL ORDER BY p.id
            """)
        let merged = try db.prepare("SELECT source_ref FROM place_link WHERE place_id = ? AND source_id = ? ORDER BY rowid")
        while try select.step() {
            guard let name = select.text(3), let blob = select.blob(4), case .lineStrings(let lines)? = Geometry(encoded: blob) else { continue }
            var near: [(line: Int, a: Point7, b: Point7)] = []
            for (index, line) in lines.enumerated() {
                for (a, b) in zip(line, line.dropFirst()) where Self.forEachCell(of: a, b, { wanted.contains($0) }) {
                    near.append((index, a, b))
                }
            }
            guard !near.isEmpty else { continue }
            let ref = select.text(2) ?? ""
            var refs = [ref]
            merged.reset()
            try merged.bind([.integer(select.int(0)), .integer(select.int(1))])
            while try merged.step() { refs.append(merged.text(0) ?? ref) }
            // A street whose lines are not its ways one for one (never written so) answers with its own way.
            if refs.count != lines.count { refs = Array(repeating: ref, count: lines.count) }
            let street = Int32(streets.count)
            streets.append((name, TextNormalizer.tokens(name)))
            let firstWay = ways.count
            ways += refs.map { (street, $0) }
            for (line, a, b) in near {
                let index = Int32(segments.count)
                segments.append((Int32(firstWay + line), a, b))
                _ = Self.forEachCell(of: a, b) { cell in
                    if wanted.contains(cell) { cells[cell, default: []].append(index) }
                    return false
                }
            }
        }
    }

    /// Calls `body` with each cell the box of segment a–b meets, until it returns true; whether it did.
    private static func forEachCell(of a: Point7, _ b: Point7, _ body: (Int64) -> Bool) -> Bool {
        let low = cell(lat: Double(min(a.lat, b.lat)) / 1e7, lon: Double(min(a.lon, b.lon)) / 1e7)
        let high = cell(lat: Double(max(a.lat, b.lat)) / 1e7, lon: Double(max(a.lon, b.lon)) / 1e7)
        // A segment across the antimeridian is no street's.
        guard (high & 0xffff_ffff) - (low & 0xffff_ffff) < Int64(180 / cellDegrees) else { return false }
        for row in low >> 32...high >> 32 {
            for column in low & 0xffff_ffff...high & 0xffff_ffff where body(row << 32 | column) { return true }
        }
        return false
    }

    /// The way a TIGER line of street `name` is parented to and its street's name; nil when no street is
    /// within `anyReach` (Nominatim then drops the line).
    func parent(of line: [Point7], named name: String) -> (ref: String, street: String)? {
        let centroid = Self.centroid(of: line)
        let words = TextNormalizer.tokens(name)
        let way = nearestWay(to: centroid, within: Self.namedReach) { TextNormalizer.sameStreetName(self.streets[Int($0)].words, words) }
            ?? wayBeside(line)
            ?? nearestWay(to: centroid, within: Self.anyReach) { _ in true }
        return way.map { (ways[Int($0)].ref, streets[Int(ways[Int($0)].street)].name) }
    }

    /// The way of the streets `accepted` nearest `point` within `reach` degrees (plain degrees, as PostGIS
    /// measures EPSG:4326); of two as near, the one read first.
    private func nearestWay(to point: (x: Double, y: Double), within reach: Double, accepted: (Int32) -> Bool) -> Int32? {
        var best: (distance: Double, way: Int32)?
        // A street's name is compared once per line, and only for a segment that would be the nearest yet.
        var verdicts: [Int32: Bool] = [:]
        forEachSegment(near: [point], within: reach) { segment in
            let (way, a, b) = segments[Int(segment)]
            guard !Self.boxBeyond(best?.distance ?? reach, from: point, a, b) else { return }
            let d = Self.distance(point, a, b)
            guard d <= reach, best.map({ (d, way) < ($0.distance, $0.way) }) ?? true else { return }
            let street = ways[Int(way)].street
            let verdict = verdicts[street] ?? accepted(street)
            verdicts[street] = verdict
            if verdict { best = (d, way) }
        }
        return best?.way
    }

    /// The way running beside `line`: within the first of `besideReaches` that has any, the one whose
    /// distances to the line's start, middle and end add up to least.
    private func wayBeside(_ line: [Point7]) -> Int32? {
        let points = line.map { (x: Double($0.lon) / 1e7, y: Double($0.lat) / 1e7) }
        let middle = LineMath.planarPoint(along: line, fraction: 0.5)
        let probes = [points[0], (x: middle.lon, y: middle.lat), points[points.count - 1]]
        // Each way's distance to the line and its three probes' distances to it.
        var near: [Int32: (gap: Double, probes: [Double])] = [:]
        forEachSegment(near: points, within: Self.besideReaches.last!) { segment in
            let (way, a, b) = segments[Int(segment)]
            var gap = points.map { Self.distance($0, a, b) }.min() ?? .infinity
            for (p, q) in zip(line, line.dropFirst()) {
                gap = min(gap, Self.distance((Double(a.lon) / 1e7, Double(a.lat) / 1e7), p, q),
                          Self.distance((Double(b.lon) / 1e7, Double(b.lat) / 1e7), p, q))
            }
            let distances = probes.map { Self.distance($0, a, b) }
            if let known = near[way] {
                near[way] = (min(known.gap, gap), zip(known.probes, distances).map { min($0, $1) })
            } else {
                near[way] = (gap, distances)
            }
        }
        for reach in Self.besideReaches {
            let within = near.filter { $0.value.gap <= reach }
            if let best = within.min(by: { ($0.value.probes.reduce(0, +), $0.key) < ($1.value.probes.reduce(0, +), $1.key) }) {
                return best.key
            }
        }
        return nil
    }

    /// Calls `body` with each segment in the cells within `reach` degrees of the box of `points`: a segment in
    /// several of them more than once (what the callers make of them, nearest and least, does not change).
    private func forEachSegment(near points: [(x: Double, y: Double)], within reach: Double, _ body: (Int32) -> Void) {
        let xs = points.map(\.x), ys = points.map(\.y)
        let low = Self.cell(lat: ys.min()! - reach, lon: xs.min()! - reach), high = Self.cell(lat: ys.max()! + reach, lon: xs.max()! + reach)
        for row in low >> 32...high >> 32 {
            for column in low & 0xffff_ffff...high & 0xffff_ffff {
                guard let inCell = cells[row << 32 | column] else { continue }
                for segment in inCell { body(segment) }
            }
        }
    }

    /// The centroid of a line as PostGIS's ST_Centroid makes it: its segments' midpoints weighted by length.
    static func centroid(of line: [Point7]) -> (x: Double, y: Double) {
        var x = 0.0, y = 0.0, total = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let length = hypot(Double(b.lon) - Double(a.lon), Double(b.lat) - Double(a.lat))
            x += (Double(a.lon) + Double(b.lon)) / 2 * length
            y += (Double(a.lat) + Double(b.lat)) / 2 * length
            total += length
        }
        guard total > 0 else { return (Double(line[0].lon) / 1e7, Double(line[0].lat) / 1e7) }
        return (x / total / 1e7, y / total / 1e7)
    }

    /// The distance in plain degrees from `p` to the segment a–b (`LineMath.planarDistance`).
    private static func distance(_ p: (x: Double, y: Double), _ a: Point7, _ b: Point7) -> Double {
        LineMath.planarDistance(from: p, toSegment: a, b)
    }

    /// Whether the box of segment a–b is farther than `limit` degrees from `p` in either direction: then the
    /// segment is too (most segments of the cells around are, and need no division).
    private static func boxBeyond(_ limit: Double, from p: (x: Double, y: Double), _ a: Point7, _ b: Point7) -> Bool {
        let (x, y) = (p.x * 1e7, p.y * 1e7), l = limit * 1e7
        return x < Double(min(a.lon, b.lon)) - l || x > Double(max(a.lon, b.lon)) + l
            || y < Double(min(a.lat, b.lat)) - l || y > Double(max(a.lat, b.lat)) + l
    }
}
