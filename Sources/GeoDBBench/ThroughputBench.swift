// Queries per second of mixed traffic (forward search, autocomplete, reverse, nearby, timezone) on one
// GeoDatabase shared by 1 and then 2 threads: what an app or server gets from the thread-safe API.
import Foundation
import GeoDB
import GeoDBSQLite

enum ThroughputBench {
    /// One query of the mix.
    enum Query: Sendable {
        case search(String, autocomplete: Bool)
        case reverse(Coordinate)
        case nearby(Coordinate)
        case timezone(Coordinate)
    }

    static func run(path: String, queries: Int, seconds: Double, random: inout SplitMix) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        let raw = try Connection(path: path, mode: .readOnly())
        let names = try raw.prepare("SELECT name FROM place WHERE name IS NOT NULL AND length(name) BETWEEN 4 AND 40 ORDER BY id")
            .rows { $0.text(0) ?? "" }
        let positions = try raw.prepare("SELECT lat, lon FROM place ORDER BY id").rows { Coordinate(lat: $0.double(0), lon: $0.double(1)) }
        guard !names.isEmpty, !positions.isEmpty else { return ["error": "no named places"] }
        let withTimeZones = db.hasTimeZones
        let mix: [Query] = (0..<queries).map { index in
            let name = names[Int.random(in: 0..<names.count, using: &random)]
            let near = positions[Int.random(in: 0..<positions.count, using: &random)]
            let point = Coordinate(lat: near.lat + Double.random(in: -0.002...0.002, using: &random),
                                   lon: near.lon + Double.random(in: -0.002...0.002, using: &random))
            switch index % (withTimeZones ? 5 : 4) {
            case 0: return .search(name, autocomplete: false)
            case 1: return .search(String(name.prefix(max(3, name.count / 2))), autocomplete: true)
            case 2: return .reverse(point)
            case 3: return .nearby(point)
            default: return .timezone(point)
            }
        }
        let foodAndDrink = try CategoryFilter.resolve(["food_and_drink"])
        @Sendable func answer(_ query: Query) throws {
            switch query {
            case .search(let text, let autocomplete):
                var options = SearchOptions()
                options.autocomplete = autocomplete
                _ = try db.search(text, options: options)
            case .reverse(let point): _ = try db.reverse(at: point)
            case .nearby(let point): _ = try db.places(near: point, radius: 500, filter: foodAndDrink)
            case .timezone(let point): _ = try db.timeZone(at: point)
            }
        }
        var report: [String: Any] = ["mix": withTimeZones ? "search, autocomplete, reverse, nearby 500 m, timezone"
                                                          : "search, autocomplete, reverse, nearby 500 m",
                                     "queries": mix.count]
        for threads in [1, 2] {
            // Warm every thread's session first, then count queries answered in `seconds`, three times.
            _ = try rate(threads: threads, seconds: 0.3, mix: mix, answer)
            let rates = try (0..<3).map { _ in try rate(threads: threads, seconds: seconds, mix: mix, answer) }.sorted()
            report["threads_\(threads)_qps"] = rates[1]
        }
        if let one = report["threads_1_qps"] as? Double, let two = report["threads_2_qps"] as? Double {
            report["scaling_2_threads"] = two / one
        }
        return report
    }

    /// Queries per second answered by `threads` threads, each walking the mix from its own offset.
    private static func rate(threads: Int, seconds: Double, mix: [Query],
                             _ answer: @escaping @Sendable (Query) throws -> Void) throws -> Double {
        let tally = Tally()
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var index = thread * mix.count / threads, answered = 0
            while DispatchTime.now().uptimeNanoseconds < end {
                do { try answer(mix[index % mix.count]) } catch { return tally.fail("\(error)") }
                index += 1
                answered += 1
            }
            tally.add(answered)
        }
        if let message = tally.failure { throw GeoDBError(.database, message) }
        return Double(tally.answered) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

/// Queries answered by all threads, and the first error, under a lock.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var answered = 0
    private(set) var failure: String?

    func add(_ count: Int) { lock.withLock { answered += count } }
    func fail(_ message: String) { lock.withLock { failure = failure ?? message } }
}
