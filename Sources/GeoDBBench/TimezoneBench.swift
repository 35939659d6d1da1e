// The timezone benchmark: lookups/s and latency over a GeoNames points file, agreement with its
// timezone column, and optionally every answer with the other containing zones (for peer comparison).
//   geodb-bench timezone DB POINTS [--rounds N] [--answers FILE]
// POINTS is a GeoNames dump (tab-separated; latitude, longitude and timezone in columns 5, 6 and 18).
import Foundation
import GeoDB

/// Monotonic nanoseconds.
func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

struct Points {
    var coordinates: [Coordinate] = []
    /// The GeoNames timezone column ("" when empty).
    var zones: [String] = []

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for line in raw.split(separator: 0x0a, omittingEmptySubsequences: true) {
                let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
                guard fields.count > 17,
                      let lat = Double(String(decoding: fields[4], as: UTF8.self)),
                      let lon = Double(String(decoding: fields[5], as: UTF8.self)) else { continue }
                coordinates.append(Coordinate(lat: lat, lon: lon))
                zones.append(String(decoding: fields[17], as: UTF8.self))
            }
        }
    }
}

func percentile(_ sorted: [UInt64], _ p: Double) -> UInt64 {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func timezoneBenchmark(database: String, pointsPath: String, rounds: Int, answersPath: String?) throws -> [String: Any] {
    let points = try Points(path: pointsPath)
    let n = points.coordinates.count
    var result: [String: Any] = ["kind": "timezone", "database": database, "points_file": pointsPath, "points": n]

    // Lazy: what a process answering its first queries pays (grid rows per 1° cell, polygons on demand).
    var t = now()
    let lazy = try TimeZoneLookup(path: database, loading: .lazy)
    for c in points.coordinates { _ = try lazy.tzid(at: c) }
    result["lazy_first_pass_seconds"] = Double(now() - t) / 1e9

    t = now()
    let lookup = try TimeZoneLookup(path: database, loading: .eager)
    result["eager_load_seconds"] = Double(now() - t) / 1e9

    // Throughput: whole passes over all points with the public tzid(at:).
    var rates: [Double] = []
    var answers: [String] = []
    for round in 0..<max(rounds, 1) {
        var last: [String] = []
        last.reserveCapacity(n)
        t = now()
        for c in points.coordinates { last.append(try lookup.tzid(at: c)) }
        let seconds = Double(now() - t) / 1e9
        rates.append(Double(n) / seconds)
        if round == 0 { answers = last }
    }
    result["lookups_per_second"] = median(rates)
    result["lookups_per_second_rounds"] = rates.map { $0.rounded() }

    // Latency per call (each measurement includes one clock read pair; its cost is reported alongside).
    var latencies = [UInt64](repeating: 0, count: n)
    for (i, c) in points.coordinates.enumerated() {
        let start = now()
        _ = try lookup.tzid(at: c)
        latencies[i] = now() - start
    }
    var overhead = [UInt64](repeating: 0, count: 10_000)
    for i in overhead.indices { let s = now(); overhead[i] = now() - s }
    latencies.sort()
    overhead.sort()
    result["latency_ns"] = ["p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95),
                            "p99": percentile(latencies, 0.99), "max": latencies.last ?? 0,
                            "timer_overhead_p50": percentile(overhead, 0.5)]

    // Full answers: zone, offset, DST, abbreviation, local time.
    let date = Date(timeIntervalSince1970: 1_782_907_200)   // 2026-07-01T12:00:00Z
    t = now()
    var sources: [String: Int] = [:]
    for c in points.coordinates { sources[try lookup.timeZone(at: c, date: date).source.rawValue, default: 0] += 1 }
    result["full_answers_per_second"] = Double(n) / (Double(now() - t) / 1e9)
    result["sources"] = sources
    var grid = 0
    for c in points.coordinates where try lookup.answeredByGrid(c) { grid += 1 }
    result["grid_hit_rate"] = Double(grid) / Double(max(n, 1))

    // Agreement with the GeoNames timezone column (a public oracle that lags the boundary data in places).
    var compared = 0, agreed = 0
    var disagreements: [String: Int] = [:]
    for (answer, expected) in zip(answers, points.zones) where !expected.isEmpty {
        compared += 1
        if answer == expected { agreed += 1 } else { disagreements["\(expected) → \(answer)", default: 0] += 1 }
    }
    result["geonames_compared"] = compared
    result["geonames_agreement"] = Double(agreed) / Double(max(compared, 1))
    result["geonames_top_disagreements"] = disagreements.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(20)
        .map { ["pair": $0.key, "count": $0.value] as [String: Any] }
    if let answersPath {
        // One line per point: the answer, then any other zone whose polygons contain the point, '|'-separated.
        var lines: [String] = []
        lines.reserveCapacity(n)
        for c in points.coordinates {
            let match = try lookup.zone(at: c)
            lines.append(([match.tzid] + match.candidates.filter { $0 != match.tzid }).joined(separator: "|"))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: answersPath, atomically: true, encoding: .utf8)
    }
    return result
}
