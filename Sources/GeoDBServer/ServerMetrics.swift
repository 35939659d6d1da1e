// `/metrics` in Prometheus's text format: requests and errors by endpoint and status, a latency histogram
// per endpoint, reloads, and the process's resident memory (to see that it stays flat under load).
import Foundation
import Synchronization

/// Counters of one server, updated by every request.
final class ServerMetrics: Sendable {
    /// Histogram bucket bounds, seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    private struct Latency {
        var counts = [UInt64](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count: UInt64 = 0
    }

    private struct State {
        var requests: [String: [Int: UInt64]] = [:]   // endpoint → status → count
        var latency: [String: Latency] = [:]
        var reloads: UInt64 = 0
    }

    private let state = Mutex(State())

    func record(endpoint: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[endpoint, default: [:]][status, default: 0] += 1
            // Changed where it is stored: a copy taken out would copy its counts on the first change, every request.
            if let bucket = Self.buckets.firstIndex(where: { seconds <= $0 }) { state.latency[endpoint, default: Latency()].counts[bucket] += 1 }
            state.latency[endpoint, default: Latency()].sum += seconds
            state.latency[endpoint, default: Latency()].count += 1
        }
    }

    func recordReloads(_ count: Int) {
        state.withLock { $0.reloads += UInt64(count) }
    }

    /// The text `/metrics` answers.
    func exposition(databases: Int) -> String {
        let state = state.withLock { $0 }
        var out = """
            # HELP geodb_http_requests_total Requests answered, by endpoint and HTTP status.
            # TYPE geodb_http_requests_total counter

            """
        for (endpoint, statuses) in state.requests.sorted(by: { $0.key < $1.key }) {
            for (status, count) in statuses.sorted(by: { $0.key < $1.key }) {
                out += "geodb_http_requests_total{endpoint=\"\(endpoint)\",status=\"\(status)\"} \(count)\n"
            }
        }
        out += """
            # HELP geodb_http_errors_total Requests answered with a 4xx or 5xx status, by endpoint.
            # TYPE geodb_http_errors_total counter

            """
        for (endpoint, statuses) in state.requests.sorted(by: { $0.key < $1.key }) {
            out += "geodb_http_errors_total{endpoint=\"\(endpoint)\"} \(statuses.filter { $0.key >= 400 }.values.reduce(0, +))\n"
        }
        out += """
            # HELP geodb_http_request_duration_seconds Time from request to response, by endpoint.
            # TYPE geodb_http_request_duration_seconds histogram

            """
        for (endpoint, latency) in state.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative: UInt64 = 0
            for (bound, count) in zip(Self.buckets, latency.counts) {
                cumulative += count
                out += "geodb_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "geodb_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"+Inf\"} \(latency.count)\n"
            out += "geodb_http_request_duration_seconds_sum{endpoint=\"\(endpoint)\"} \(latency.sum)\n"
            out += "geodb_http_request_duration_seconds_count{endpoint=\"\(endpoint)\"} \(latency.count)\n"
        }
        out += """
            # HELP geodb_databases Database files served.
            # TYPE geodb_databases gauge
            geodb_databases \(databases)
            # HELP geodb_database_reloads_total Database files opened anew after a new import replaced them.
            # TYPE geodb_database_reloads_total counter
            geodb_database_reloads_total \(state.reloads)

            """
        if let rss = Self.residentBytes() {
            out += """
                # HELP process_resident_memory_bytes Resident memory size in bytes.
                # TYPE process_resident_memory_bytes gauge
                process_resident_memory_bytes \(rss)

                """
        }
        return out
    }

    /// Resident memory from /proc/self/statm (Linux), nil elsewhere.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
