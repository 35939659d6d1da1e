// The JSON geodb writes (the CLI's --json, /v1, Nominatim's and Photon's formats): values built in the
// order their documentation lists the fields, written without Foundation's encoder (an answer of ten places
// is 20 µs less), compact for the server, indented for a person.

/// A JSON value whose object keys keep their order.
package enum JSON: Sendable {
    case string(String)
    case number(Double)
    case int(Int64)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    /// An object of the pairs whose value is not nil.
    package static func fields(_ pairs: [(String, JSON?)]) -> JSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// An object of string values (`address`, `tags`), keys sorted so that answers are stable.
    package static func strings(_ values: [String: String]) -> JSON {
        .object(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }

    /// A GeoJSON geometry: the point, or the place's lines and polygons (`GeoJSONGeometry`: rings closed and
    /// wound by RFC 7946's rule, as `geodb export` writes them).
    package static func geometry(_ geometry: Geometry?, point: Coordinate) -> JSON {
        guard let geometry else {
            return .object([("type", .string("Point")), ("coordinates", .array([.number(point.lon), .number(point.lat)]))])
        }
        func position(_ p: Point7) -> JSON { .array([.number(Double(p.lon) / 1e7), .number(Double(p.lat) / 1e7)]) }
        func line(_ points: [Point7]) -> JSON { .array(points.map(position)) }
        func polygon(_ rings: [[Point7]]) -> JSON { .array(rings.map(line)) }
        let geoJSON = GeoJSONGeometry(geometry)
        let coordinates: JSON = switch geoJSON.coordinates {
        case .line(let points): line(points)
        case .lines(let lines): .array(lines.map(line))
        case .polygon(let rings): polygon(rings)
        case .polygons(let polygons): .array(polygons.map(polygon))
        }
        return .object([("type", .string(geoJSON.type)), ("coordinates", coordinates)])
    }

    /// The compact text as UTF-8, or nil as soon as it grows past `limit` bytes or `stop()` is true (asked
    /// every 1,024 values): an answer too large or out of time is given up before it is written whole. (A
    /// place named with 60 MB of control characters once made 720 MB answers that took 20 s.)
    package func encoded(limit: Int = .max, stop: @escaping () -> Bool = { false }) -> [UInt8]? {
        var output = Output(limit: limit, stop: stop)
        write(to: &output)
        return output.stopped ? nil : output.bytes
    }

    /// The text indented two spaces a level, keys in their order: what the CLI's `--json` prints.
    package func indented() -> String {
        var bytes: [UInt8] = []
        writeIndented(to: &bytes, level: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func writeIndented(to bytes: inout [UInt8], level: Int) {
        func newline(_ level: Int) { bytes.append(0x0a); bytes += repeatElement(0x20, count: 2 * level) }
        switch self {
        case .array(let items) where !items.isEmpty:
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(level + 1)
                item.writeIndented(to: &bytes, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "]"))
        case .object(let pairs) where !pairs.isEmpty:
            bytes.append(UInt8(ascii: "{"))
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(level + 1)
                _ = JSONText.appendQuoted(key, to: &bytes, limit: .max)
                bytes += Array(": ".utf8)
                value.writeIndented(to: &bytes, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "}"))
        default:
            bytes += encoded() ?? []
        }
    }

    /// The bytes written so far, and whether writing has stopped.
    private struct Output {
        var bytes: [UInt8] = []
        let limit: Int
        let stop: () -> Bool
        var values = 0
        var stopped = false

        mutating func append(_ text: String) {
            bytes += text.utf8
            if bytes.count > limit { stopped = true }
        }

        mutating func appendQuoted(_ text: String) {
            if !JSONText.appendQuoted(text, to: &bytes, limit: limit) { stopped = true }
        }
    }

    private func write(to out: inout Output) {
        out.values += 1
        if out.values % 1_024 == 0, out.stop() { out.stopped = true }
        guard !out.stopped else { return }
        switch self {
        case .string(let s): out.appendQuoted(s)
        case .number(let d): out.append(d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)") : "null")
        case .int(let i): out.append(String(i))
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .array(let items):
            out.append("[")
            for (i, item) in items.enumerated() {
                guard !out.stopped else { return }
                if i > 0 { out.append(",") }
                item.write(to: &out)
            }
            out.append("]")
        case .object(let pairs):
            out.append("{")
            for (i, (key, value)) in pairs.enumerated() {
                guard !out.stopped else { return }
                if i > 0 { out.append(",") }
                out.appendQuoted(key)
                out.append(":")
                value.write(to: &out)
            }
            out.append("}")
        }
    }
}
