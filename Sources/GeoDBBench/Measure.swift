// Timing helpers: run a closure per query after a warm-up, report percentiles in microseconds.
import Foundation

enum Measure {
    /// Runs `body` once per item (after one untimed pass over the first tenth as warm-up) and returns
    /// p50/p95/p99/mean in µs and queries per second; with `label`, also the five slowest items (what to
    /// profile next). Count hits in a separate pass, not in `body`.
    static func latencies<T>(_ items: [T], label: ((T) -> String)? = nil, _ body: (T) throws -> Void) rethrows -> [String: Any] {
        for item in items.prefix(max(1, items.count / 10)) { try body(item) }
        var times: [Double] = []
        times.reserveCapacity(items.count)
        var slowest: [(us: Double, item: Int)] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for item in items {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try body(item)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
            slowest.append((times[times.count - 1], times.count - 1))
            if slowest.count > 20 { slowest = Array(slowest.sorted { $0.us > $1.us }.prefix(5)) }
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        times.sort()
        func percentile(_ p: Double) -> Double {
            times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * p))]
        }
        var report: [String: Any] = ["count": items.count, "p50_us": percentile(0.5), "p95_us": percentile(0.95), "p99_us": percentile(0.99),
                "mean_us": times.reduce(0, +) / Double(max(times.count, 1)), "qps": Double(items.count) / max(total, 1e-9)]
        if let label {
            report["slowest"] = slowest.sorted { $0.us > $1.us }.prefix(5).map { ["query": label(items[$0.item]), "us": Int($0.us)] }
        }
        return report
    }
}
