// A streaming, byte-level GeoJSON reader for FeatureCollections of polygons: reads the file in 1 MiB
// chunks and hands over one feature at a time, so memory is bounded by the largest feature, not the file.
// Foundation's JSON parsers need the whole text in memory and run at ~10 MB/s; this runs at disk speed.
import Foundation
import GeoDB

/// One feature of a FeatureCollection: its string properties and its polygons.
struct GeoJSONFeature {
    /// Position in the `features` array, from 0 (as in `jq '.features[N]'`).
    var index: Int
    /// Properties whose values are strings (other values are skipped).
    var properties: [String: String]
    /// Polygons (a Polygon is one), each its outer ring then holes; rings closed implicitly (the repeated
    /// last position dropped), consecutive duplicate positions merged.
    var polygons: [[[Point7]]]
    /// Rings dropped because fewer than 3 distinct positions were left after merging duplicates.
    var degenerateRings: Int
}

/// Reads a GeoJSON FeatureCollection of Polygon/MultiPolygon features.
struct GeoJSONReader {
    let path: String
    let displayName: String

    /// Calls `body` with each feature in order. Throws `GeoDBError.badInput` naming the feature (and the
    /// byte offset) for anything that is not valid GeoJSON polygon data.
    func read(progress: ((Int) -> Void)? = nil, _ body: (GeoJSONFeature) throws -> Void) throws {
        var scanner = try GeoJSONScanner(path: path, displayName: displayName)
        defer { scanner.close() }
        try scanner.featureCollection(limit: nil, progress: progress, body)
    }

    /// The properties of the first feature, for recognising a file by content; nil when the file has no
    /// feature. Reads no further than the first feature.
    func firstFeatureProperties() throws -> [String: String]? {
        var scanner = try GeoJSONScanner(path: path, displayName: displayName)
        defer { scanner.close() }
        var properties: [String: String]?
        try scanner.featureCollection(limit: 1, progress: nil) { properties = $0.properties }
        return properties
    }

    /// Whether the first bytes look like a GeoJSON FeatureCollection (a JSON object naming one).
    static func looksLikeFeatureCollection(_ head: [UInt8]) -> Bool {
        let bytes = InputFormat.textStart(head)
        guard bytes.first == UInt8(ascii: "{") else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("\"FeatureCollection\"") || text.contains("\"features\"")
    }
}

/// The scanner behind `GeoJSONReader`: a struct with mutating methods, so the hot loops touch no
/// reference-counted state.
private struct GeoJSONScanner {
    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var pos = 0
    private var end = 0
    /// File offset of `buffer[0]`.
    private var base = 0
    private var atEOF = false
    private let name: String
    /// The feature being read, for error messages.
    private var feature: Int?

    /// The longest number accepted (digits, sign, point, exponent).
    private static let maxNumberLength = 128

    init(path: String, displayName: String) throws {
        guard let file = fopen(path, "rb") else {
            throw GeoDBError(.fileNotFound, "\(displayName): cannot open: \(String(cString: strerror(errno)))")
        }
        self.file = file
        buffer = .allocate(capacity: capacity)
        name = displayName
    }

    func close() {
        fclose(file)
        buffer.deallocate()
    }

    var offset: Int { base + pos }

    // MARK: errors

    private func error(_ what: String) -> GeoDBError {
        if let feature {
            return GeoDBError.badInput(file: name, at: .feature(feature), "\(what) (byte offset \(offset))")
        }
        return GeoDBError.badInput(file: name, at: .byteOffset(offset), what)
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7e).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02x", byte)
    }

    // MARK: buffer

    /// Makes at least `count` bytes available from `pos`, unless the file ends first; true when any byte is.
    @discardableResult
    private mutating func fill(_ count: Int = 1) -> Bool {
        if end - pos >= count || atEOF { return pos < end }
        let remaining = end - pos
        if remaining > 0 && pos > 0 { memmove(buffer, buffer + pos, remaining) }
        base += pos
        pos = 0
        end = remaining
        while end < count && !atEOF {
            let n = fread(buffer + end, 1, capacity - end, file)
            if n == 0 { atEOF = true }
            end += n
        }
        return pos < end
    }

    /// The next byte that is not whitespace, not consumed; throws at the end of the file.
    private mutating func peek() throws -> UInt8 {
        while true {
            while pos < end {
                let b = buffer[pos]
                if b != 0x20 && b != 0x0a && b != 0x0d && b != 0x09 { return b }
                pos += 1
            }
            guard fill() else { throw error("the file ends early (truncated?)") }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        let b = try peek()
        guard b == byte else { throw error("expected \(what), found \(describe(b))") }
        pos += 1
    }

    /// After a member or element: true for ',', false for the closing byte.
    private mutating func more(closing: UInt8) throws -> Bool {
        let b = try peek()
        pos += 1
        if b == UInt8(ascii: ",") { return true }
        if b == closing { return false }
        pos -= 1
        throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))', found \(describe(b))")
    }

    // MARK: values

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        var bytes: [UInt8] = []
        while true {
            guard fill() else { throw error("the file ends inside a string (truncated?)") }
            let b = buffer[pos]
            pos += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &bytes)
            case 0..<0x20:
                pos -= 1
                throw error("a control character inside a string")
            default:
                bytes.append(b)
            }
        }
    }

    private mutating func escape(into bytes: inout [UInt8]) throws {
        guard fill() else { throw error("the file ends inside a string (truncated?)") }
        let b = buffer[pos]
        pos += 1
        if let byte = JSONText.unescaped(b) {
            bytes.append(byte)
            return
        }
        switch b {
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xd800..<0xdc00).contains(scalar) {
                // A high surrogate must be followed by \u and a low one.
                fill(6)
                if end - pos >= 6, buffer[pos] == UInt8(ascii: "\\"), buffer[pos + 1] == UInt8(ascii: "u") {
                    pos += 2
                    let low = try hex4()
                    scalar = (0xdc00..<0xe000).contains(low) ? 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00) : 0xfffd
                } else {
                    scalar = 0xfffd
                }
            }
            bytes.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{fffd}").utf8))
        default:
            pos -= 1
            throw error("an invalid escape \\\(Character(Unicode.Scalar(b))) in a string")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        fill(4)
        guard end - pos >= 4 else { throw error("the file ends inside a string (truncated?)") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = buffer[pos]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape in a string")
            }
            value = value << 4 | UInt32(digit)
            pos += 1
        }
        return value
    }

    /// A JSON number in units of 1e-7, rounded half away from zero, exactly (no floating point);
    /// nil when it is beyond ±1e11 units (no coordinate is).
    private mutating func number7() throws -> Int64? {
        _ = try peek()
        fill(Self.maxNumberLength)
        var p = pos
        let negative = buffer[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0
        var significant = 0, exponent = 0, digits = 0
        while p < end, buffer[p] &- UInt8(ascii: "0") < 10 {
            let d = UInt64(buffer[p] &- UInt8(ascii: "0"))
            if significant < 19 {
                mantissa = mantissa &* 10 &+ d
                if mantissa > 0 { significant += 1 }
            } else {
                exponent += 1
            }
            p += 1
            digits += 1
        }
        guard digits > 0 else { throw error(p < end ? "expected a number, found \(describe(buffer[p]))" : "the file ends early (truncated?)") }
        if p < end && buffer[p] == UInt8(ascii: ".") {
            p += 1
            var fraction = 0
            while p < end, buffer[p] &- UInt8(ascii: "0") < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(buffer[p] &- UInt8(ascii: "0"))
                    if mantissa > 0 { significant += 1 }
                    exponent -= 1
                }
                p += 1
                fraction += 1
            }
            guard fraction > 0 else { pos = p; throw error("a number with no digits after its decimal point") }
        }
        if p < end && (buffer[p] | 0x20) == UInt8(ascii: "e") {
            p += 1
            var negativeExponent = false
            if p < end && (buffer[p] == UInt8(ascii: "+") || buffer[p] == UInt8(ascii: "-")) {
                negativeExponent = buffer[p] == UInt8(ascii: "-")
                p += 1
            }
            var value = 0, count = 0
            while p < end, buffer[p] &- UInt8(ascii: "0") < 10 {
                value = min(value * 10 + Int(buffer[p] &- UInt8(ascii: "0")), 100_000)
                p += 1
                count += 1
            }
            guard count > 0 else { pos = p; throw error("a number with an empty exponent") }
            exponent += negativeExponent ? -value : value
        }
        guard p < end || atEOF else { throw error("a number longer than \(Self.maxNumberLength) characters") }
        pos = p
        // value = mantissa × 10^exponent degrees = mantissa × 10^(exponent + 7) units
        let scale = exponent + 7
        var units: UInt64
        if mantissa == 0 {
            units = 0
        } else if scale >= 0 {
            guard scale <= 11 else { return nil }
            let (product, overflow) = mantissa.multipliedReportingOverflow(by: Self.powersOf10[scale])
            guard !overflow, product <= 100_000_000_000 else { return nil }
            units = product
        } else if -scale > 19 {
            units = 0
        } else {
            let divisor = Self.powersOf10[-scale]
            units = mantissa / divisor
            let remainder = mantissa % divisor
            if remainder >= divisor - remainder { units += 1 }
            guard units <= 100_000_000_000 else { return nil }
        }
        return negative ? -Int64(units) : Int64(units)
    }

    private static let powersOf10: [UInt64] = (0...19).map { n in (0..<n).reduce(UInt64(1)) { r, _ in r * 10 } }

    /// Skips any JSON value (validating its structure loosely). Without recursion: a value nested a
    /// million deep (`[[[[…`) costs a byte of stack here per level, not a stack frame.
    private mutating func skipValue() throws {
        var closers: [UInt8] = []   // the closing byte of each array or object open
        while true {
            // One value begins here: a scalar, or an array or object opened.
            let b = try peek()
            switch b {
            case UInt8(ascii: "\""):
                _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                pos += 1
                let closer = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if try peek() == closer {
                    pos += 1
                } else {
                    closers.append(closer)
                    if closer == UInt8(ascii: "}") { try memberName() }
                    continue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try number7()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word = Array((b == UInt8(ascii: "t") ? "true" : b == UInt8(ascii: "f") ? "false" : "null").utf8)
                fill(word.count)
                guard end - pos >= word.count, word.elementsEqual(UnsafeBufferPointer(start: buffer + pos, count: word.count)) else {
                    throw error("expected a JSON value, found \(describe(b))")
                }
                pos += word.count
            default:
                throw error("expected a JSON value, found \(describe(b))")
            }
            // The value is complete: close what it completes, up to a container with more to come.
            while let closer = closers.last, try !more(closing: closer) { closers.removeLast() }
            guard let closer = closers.last else { return }
            if closer == UInt8(ascii: "}") { try memberName() }
        }
    }

    /// An object member's name and its ':'.
    private mutating func memberName() throws {
        _ = try string()
        try expect(UInt8(ascii: ":"), "':'")
    }

    /// Reads an object, calling `member` with the reader at each member's value (which it must consume).
    private mutating func object(_ what: String, _ member: (inout GeoJSONScanner, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), what)
        if try peek() == UInt8(ascii: "}") { pos += 1; return }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"), "':'")
            try member(&self, key)
        } while try more(closing: UInt8(ascii: "}"))
    }

    /// `null`, consumed, or false (nothing consumed) when the next value is something else.
    private mutating func null() throws -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try skipValue()
        return true
    }

    // MARK: GeoJSON

    mutating func featureCollection(limit: Int?, progress: ((Int) -> Void)?, _ body: (GeoJSONFeature) throws -> Void) throws {
        if fill(3), buffer[0] == 0xef, buffer[1] == 0xbb, buffer[2] == 0xbf { pos = 3 }
        guard (try? peek()) == UInt8(ascii: "{") else {
            throw error("not GeoJSON: expected a FeatureCollection object")
        }
        var sawFeatures = false
        var type: String?
        do {
            try collection(&sawFeatures, &type, limit: limit, progress: progress, body)
        } catch is StopReading {
            return
        }
        guard sawFeatures, type != nil else {
            throw error("not a GeoJSON FeatureCollection: no \(type == nil ? "\"type\"" : "\"features\"") member")
        }
        if (try? peek()) != nil { throw error("text after the end of the FeatureCollection") }
    }

    /// Thrown by `features` when it has read as many features as asked for.
    private struct StopReading: Error {}

    private mutating func collection(_ sawFeatures: inout Bool, _ type: inout String?, limit: Int?,
                                     progress: ((Int) -> Void)?, _ body: (GeoJSONFeature) throws -> Void) throws {
        try object("a FeatureCollection") { reader, key in
            switch key {
            case "type":
                type = try reader.string()
                guard type == "FeatureCollection" else {
                    throw reader.error("a GeoJSON \(type ?? "") where a FeatureCollection was expected")
                }
            case "features":
                sawFeatures = true
                try reader.features(limit: limit, progress: progress, body)
            default:
                try reader.skipValue()
            }
        }
    }

    /// Reads the features array; throws `StopReading` after `limit` features.
    private mutating func features(limit: Int?, progress: ((Int) -> Void)?, _ body: (GeoJSONFeature) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "the features array")
        if try peek() == UInt8(ascii: "]") { pos += 1; return }
        var index = 0
        repeat {
            feature = index
            let parsed = try self.parseFeature(index)
            try body(parsed)
            feature = nil
            index += 1
            progress?(offset)
            if let limit, index >= limit { throw StopReading() }
        } while try more(closing: UInt8(ascii: "]"))
    }

    private mutating func parseFeature(_ index: Int) throws -> GeoJSONFeature {
        guard try peek() == UInt8(ascii: "{") else { throw error("a feature must be a JSON object") }
        var result = GeoJSONFeature(index: index, properties: [:], polygons: [], degenerateRings: 0)
        var type: String?, sawGeometry = false
        try object("a feature") { reader, key in
            switch key {
            case "type":
                type = try reader.string()
            case "properties":
                if try !reader.null() { result.properties = try reader.properties() }
            case "geometry":
                guard try !reader.null() else { throw reader.error("the feature has no geometry (null)") }
                sawGeometry = true
                try reader.geometry(into: &result)
            default:
                try reader.skipValue()
            }
        }
        guard type == "Feature" else { throw error(type.map { "a \($0) where a Feature was expected" } ?? "a feature without \"type\": \"Feature\"") }
        guard sawGeometry else { throw error("the feature has no geometry") }
        return result
    }

    private mutating func properties() throws -> [String: String] {
        var out: [String: String] = [:]
        try object("the properties object") { reader, key in
            if try reader.peek() == UInt8(ascii: "\"") { out[key] = try reader.string() } else { try reader.skipValue() }
        }
        return out
    }

    private mutating func geometry(into feature: inout GeoJSONFeature) throws {
        var type: String?
        var depth: Int?
        try object("a geometry object") { reader, key in
            switch key {
            case "type":
                type = try reader.string()
                if let type, type != "Polygon" && type != "MultiPolygon" { throw reader.notPolygonal(type) }
            case "coordinates":
                depth = try reader.coordinates(into: &feature)
            default:
                try reader.skipValue()
            }
        }
        switch type {
        case "Polygon", "MultiPolygon":
            let expected = type == "Polygon" ? 3 : 4
            guard let depth else { throw error("the \(type!) has no coordinates") }
            guard depth == expected || depth == 0 else {
                throw error("the coordinates of a \(type!) must be nested \(expected) deep, not \(depth)")
            }
            guard !feature.polygons.isEmpty else { throw error("the \(type!) has no polygons") }
        case nil:
            throw error("a geometry without \"type\"")
        case let other?:
            throw notPolygonal(other)
        }
    }

    private func notPolygonal(_ type: String) -> GeoDBError {
        error("a \(type) geometry; timezone boundaries must be Polygon or MultiPolygon")
    }

    /// Reads a coordinates array of polygons (nested 3 deep) or multipolygons (4 deep) into `feature`
    /// and returns the depth (0 when empty). Rings are checked as they close.
    private mutating func coordinates(into feature: inout GeoJSONFeature) throws -> Int {
        var depth = 0, level = 0
        var ring: [Point7] = [], rings: [[Point7]] = []
        var positions = 0   // positions of the current ring as written, with the closing one
        var first = Point7(lat: 0, lon: 0), last = first
        var expectValue = true, justOpened = false
        while true {
            let b = try peek()
            if b == UInt8(ascii: "[") {
                guard expectValue else { throw error("expected ',' or ']', found '['") }
                pos += 1
                level += 1
                guard depth == 0 || level <= depth else {
                    // An array where a number belongs: the nesting is deeper than the first position's.
                    throw error("coordinates nested deeper than the first position")
                }
                justOpened = true
                continue
            }
            if b == UInt8(ascii: "]") {
                guard !expectValue || justOpened else { throw error("expected a value, found ']'") }
                pos += 1
                if justOpened && level > 1 { throw error("an empty coordinate array") }
                if depth > 0 {
                    if level == depth - 1 {
                        try closeRing(&ring, positions: positions, first: first, last: last, rings: &rings, feature: &feature)
                        positions = 0
                    } else if level == depth - 2 {
                        if let outer = rings.first, !outer.isEmpty { feature.polygons.append(rings) }
                        rings = []
                    }
                }
                level -= 1
                if level == 0 { return depth }
                expectValue = false
                justOpened = false
                continue
            }
            if b == UInt8(ascii: ",") {
                guard !expectValue else { throw error("expected a value, found ','") }
                pos += 1
                expectValue = true
                justOpened = false
                continue
            }
            guard expectValue else { throw error("expected ',' or ']', found \(describe(b))") }
            guard justOpened else { throw error("a number where an array belongs") }
            // A position: the innermost array, opened just now.
            if depth == 0 {
                guard level == 3 || level == 4 else {
                    throw error("coordinates nested \(level) deep; polygons need 3 (Polygon) or 4 (MultiPolygon)")
                }
                depth = level
            }
            guard level == depth else { throw error("positions at different depths") }
            let x = try number7(), comma = try more(closing: UInt8(ascii: "]"))
            guard comma else { throw error("a position needs a longitude and a latitude") }
            let y = try number7()
            while try more(closing: UInt8(ascii: "]")) { _ = try number7() }   // altitude and beyond: ignored
            guard let x, let y, abs(x) <= 1_800_000_000, abs(y) <= 900_000_000 else {
                throw error("coordinates out of range in ring \(rings.count) of polygon \(feature.polygons.count): longitude must be within ±180, latitude within ±90")
            }
            let point = Point7(lat: Int32(y), lon: Int32(x))
            if positions == 0 { first = point }
            last = point
            positions += 1
            if ring.last != point { ring.append(point) }
            level -= 1
            expectValue = false
            justOpened = false
        }
    }

    private mutating func closeRing(_ ring: inout [Point7], positions: Int, first: Point7, last: Point7,
                                    rings: inout [[Point7]], feature: inout GeoJSONFeature) throws {
        let which = "ring \(rings.count) of polygon \(feature.polygons.count)"
        guard positions >= 4 else {
            throw error("\(which) has \(positions) position\(positions == 1 ? "" : "s"); a ring needs at least 4, the last repeating the first")
        }
        guard first == last else { throw error("\(which) is not closed: its last position differs from its first") }
        ring.removeLast()   // the closing position (merged duplicates leave its first occurrence)
        while ring.count > 1 && ring.last == ring.first { ring.removeLast() }
        if ring.count < 3 {
            feature.degenerateRings += 1
            // A degenerate outer ring stays as an empty marker: the polygon is dropped when it closes.
            if !rings.isEmpty { ring = []; return }
            ring = []
        }
        rings.append(ring)
        ring = []
    }
}
