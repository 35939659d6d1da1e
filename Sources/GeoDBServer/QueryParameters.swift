// A request's query string, decoded strictly: a malformed parameter is a 400 that names it, never a
// guess. Each API reads its parameters through these typed accessors.
import Foundation
import GeoDB

/// The parameters of one request.
///
/// ```swift
/// let parameters = try QueryParameters("q=Vaduz&limit=5")
/// let limit = try parameters.int("limit", in: 1...40) ?? 10
/// ```
struct QueryParameters {
    /// Longest decoded value accepted: no query text is longer, and longer ones are attacks.
    static let maxValueBytes = 1_000
    private var values: [String: [String]] = [:]

    /// Decodes `query` (`a=1&b=x+y%21`). Throws for invalid percent-encoding, bytes that are not UTF-8 and
    /// values longer than `maxValueBytes`. A repeated parameter keeps every value (`all`); the accessors read
    /// its first.
    init(_ query: Substring) throws(APIError) {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decoded(parts[0], parameter: String(parts[0].prefix(40)))
            let value = parts.count > 1 ? try Self.decoded(parts[1], parameter: name) : ""
            guard value.utf8.count <= Self.maxValueBytes else {
                throw .badParameter(name, "parameter '\(name)' is longer than \(Self.maxValueBytes) bytes")
            }
            values[name, default: []].append(value)
        }
    }

    /// `text` with `+` as a space and `%XX` as its byte.
    private static func decoded(_ text: Substring, parameter: String) throws(APIError) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .badParameter(parameter, "parameter '\(parameter)' has invalid percent-encoding")
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw .badParameter(parameter, "parameter '\(parameter)' is not UTF-8 text")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The value, nil when absent or empty (clients send `viewbox=` for none).
    func string(_ name: String) -> String? {
        guard let value = values[name]?.first.map(Self.trimmed), !value.isEmpty else { return nil }
        return value
    }

    /// `text` without the white space and line breaks around it. Most values have none, which their first
    /// and last bytes show (a visible ASCII character is neither); only the others go through Foundation's
    /// trimming, which bridges to NSString (0.8 % of the server's CPU on the popular mix, where every request
    /// reads a few parameters).
    static func trimmed(_ text: String) -> String {
        let visible = UInt8(ascii: "!")...UInt8(ascii: "~")
        if let first = text.utf8.first, let last = text.utf8.last, visible.contains(first), visible.contains(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func required(_ name: String) throws(APIError) -> String {
        guard let value = string(name) else { throw .missing(name) }
        return value
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The names of the parameters given (Photon answers 400 for one it does not know).
    var names: some Collection<String> { values.keys }

    /// Every value of a parameter given more than once, trimmed, not split (Photon's `include=a,b&include=c`
    /// is two conditions).
    func repeated(_ name: String) -> [String] {
        (values[name] ?? []).map(Self.trimmed)
    }

    /// Every value of a parameter given more than once (`osm_tag=a&osm_tag=b`), and each split at commas.
    func all(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",").map { Self.trimmed(String($0)) } }.filter { !$0.isEmpty }
    }

    /// The parameters other than `except`, sorted: what a page cursor must belong to.
    func signature(except: Set<String>) -> String {
        values.filter { !except.contains($0.key) }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.joined(separator: ","))" }.joined(separator: "&")
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .badParameter(name, "parameter '\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'")
        }
        return value
    }

    /// Any finite number (Nominatim's reverse takes a latitude of -700 and answers that nothing is there).
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .badParameter(name, "parameter '\(name)' must be a number, not '\(text.prefix(40))'")
        }
        return value
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws(APIError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .badParameter(name, "parameter '\(name)' must be a number from \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound)), not '\(text.prefix(40))'")
        }
        return value
    }

    /// `1`/`0`, `true`/`false`, `yes`/`no`.
    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let text = string(name)?.lowercased() else { return nil }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .badParameter(name, "parameter '\(name)' must be 0 or 1, not '\(text.prefix(40))'")
        }
    }

    /// Nominatim's reading of a flag: anything but `0` is true (`no`, `false` and `00` too).
    func nominatimFlag(_ name: String) -> Bool? {
        string(name).map { $0 != "0" }
    }

    /// A comma-separated list, its items trimmed, empty ones left out.
    func list(_ name: String) -> [String] {
        (string(name) ?? "").split(separator: ",").map { Self.trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    /// A point from two parameters, nil when both are absent; one without the other is an error.
    func coordinate(lat: String = "lat", lon: String = "lon") throws(APIError) -> Coordinate? {
        let latitude = try double(lat, in: -90...90), longitude = try double(lon, in: -180...180)
        switch (latitude, longitude) {
        case let (la?, lo?): return Coordinate(lat: la, lon: lo)
        case (nil, nil): return nil
        case (nil, _): throw .missing(lat)
        case (_, nil): throw .missing(lon)
        }
    }

    func requiredCoordinate() throws(APIError) -> Coordinate {
        guard let point = try coordinate() else { throw .missing("lat") }
        return point
    }

    /// A box of four numbers in the order `order` names them (Nominatim's viewbox is x1,y1,x2,y2 with the
    /// corners in either order; Photon's bbox is minLon,minLat,maxLon,maxLat).
    func box(_ name: String, cornersInAnyOrder: Bool) throws(APIError) -> BoundingBox? {
        guard let text = string(name) else { return nil }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite),
              (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]),
              (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]) else {
            throw .badParameter(name, "parameter '\(name)' must be four numbers: lon,lat,lon,lat (got '\(text.prefix(60))')")
        }
        var box = BoundingBox(minLat: numbers[1], minLon: numbers[0], maxLat: numbers[3], maxLon: numbers[2])
        if cornersInAnyOrder {
            box = BoundingBox(minLat: min(numbers[1], numbers[3]), minLon: min(numbers[0], numbers[2]),
                              maxLat: max(numbers[1], numbers[3]), maxLon: max(numbers[0], numbers[2]))
        } else if box.minLat > box.maxLat {
            throw .badParameter(name, "parameter '\(name)': the minimum latitude is above the maximum")
        }
        return box
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
