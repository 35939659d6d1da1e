// What a zone's clock says at an instant: offset, DST and next transition from Foundation's TimeZone, the
// abbreviation from the system tz database (TZif files), and local time as ISO 8601 text.
import Foundation

/// The clock of one IANA zone, built once per zone and reused. Remembers its last reading: a batch asks
/// every point about the same instant.
final class ZoneClock {
    let tzid: String
    let timeZone: TimeZone?
    let tzif: TZif?
    private var last: (date: Date, reading: Reading?)?

    init(tzid: String) {
        self.tzid = tzid
        timeZone = TimeZone(identifier: tzid)
        tzif = timeZone == nil ? nil : TZif(tzid: tzid)
    }

    struct Reading {
        var utcOffsetSeconds: Int
        var isDST: Bool
        var abbreviation: String?
        var localTime: String
        var nextTransition: Date?
        var nextUTCOffsetSeconds: Int?
    }

    /// The clock at `date`, or nil when the system does not know the zone.
    func reading(at date: Date) -> Reading? {
        if let last, last.date == date { return last.reading }
        let reading = read(at: date)
        last = (date, reading)
        return reading
    }

    private func read(at date: Date) -> Reading? {
        guard let timeZone else { return nil }
        let offset = timeZone.secondsFromGMT(for: date)
        let dst = timeZone.isDaylightSavingTime(for: date)
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let abbreviation = tzif?.abbreviation(at: seconds, isDST: dst, utcOffset: offset)
            ?? timeZone.abbreviation(for: date)
        let next = timeZone.nextDaylightSavingTimeTransition(after: date)
        return Reading(utcOffsetSeconds: offset, isDST: dst, abbreviation: abbreviation,
                       localTime: ISO8601Text.local(seconds, offset: offset), nextTransition: next,
                       nextUTCOffsetSeconds: next.map { timeZone.secondsFromGMT(for: $0) })
    }
}

/// ISO 8601 text without Foundation formatters (they cost microseconds per call).
package enum ISO8601Text {
    /// "2026-07-01T15:00:00+03:00": the local time of `seconds` (Unix time) at `offset`.
    package static func local(_ seconds: Int64, offset: Int) -> String {
        dateTime(seconds + Int64(offset)) + self.offset(offset)
    }

    /// "2026-07-01T12:00:00Z".
    package static func utc(_ date: Date) -> String {
        dateTime(Int64(date.timeIntervalSince1970.rounded(.down))) + "Z"
    }

    /// "+03:00", "-09:30", "+00:00" ("+05:53:28" when there are seconds, as in local mean time).
    package static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+", s = abs(seconds)
        var text = sign + two(s / 3600) + ":" + two(s / 60 % 60)
        if s % 60 != 0 { text += ":" + two(s % 60) }
        return text
    }

    private static func dateTime(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = Int(seconds - days * 86400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let yearText = year >= 0 && year < 10000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return yearText + "-" + two(Int(month)) + "-" + two(Int(day)) + "T" + two(secondOfDay / 3600) + ":"
            + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}

/// A zone's abbreviations from its TZif file in the system tz database (RFC 8536), e.g. "EEST" where
/// Foundation on Linux only knows "GMT+3".
struct TZif {
    private var transitions: [Int64] = []
    private var transitionTypes: [UInt8] = []
    private var types: [(utcOffset: Int32, isDST: Bool, abbreviationIndex: Int)] = []
    private var abbreviationBytes: [UInt8] = []
    /// Standard and daylight names from the footer TZ string, for instants after the last transition.
    private var footerNames: (standard: String, daylight: String?)?

    /// Reads `$TZDIR/<tzid>` (default /usr/share/zoneinfo); nil when missing or not valid TZif.
    init?(tzid: String) {
        guard !tzid.isEmpty, !tzid.contains(".."), !tzid.hasPrefix("/"),
              tzid.utf8.allSatisfy({ $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                  || $0 == UInt8(ascii: "+") || (0x30...0x39).contains($0) || (0x41...0x5a).contains($0)
                  || (0x61...0x7a).contains($0) }) else { return nil }
        let directory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        guard let data = FileManager.default.contents(atPath: directory + "/" + tzid) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    init?(bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let v1 = reader.header() else { return nil }
        var counts = v1
        var timeSize = 4
        if v1.version >= UInt8(ascii: "2") {
            // Skip the 32-bit block; the 64-bit block and footer follow.
            guard reader.skip(v1.blockSize(timeSize: 4)), let v2 = reader.header() else { return nil }
            counts = v2
            timeSize = 8
        }
        for _ in 0..<counts.times {
            guard let t = reader.signed(timeSize) else { return nil }
            transitions.append(t)
        }
        for _ in 0..<counts.times {
            guard let index = reader.byte(), Int(index) < counts.types else { return nil }
            transitionTypes.append(index)
        }
        for _ in 0..<counts.types {
            guard let offset = reader.signed(4), let dst = reader.byte(), let index = reader.byte(),
                  Int(index) < counts.chars else { return nil }
            types.append((Int32(truncatingIfNeeded: offset), dst != 0, Int(index)))
        }
        guard let chars = reader.bytes(counts.chars), !types.isEmpty else { return nil }
        abbreviationBytes = chars
        if timeSize == 8, reader.skip(counts.leaps * 12 + counts.standards + counts.uts),
           reader.byte() == 0x0a, let footer = reader.line() {
            footerNames = Self.names(inTZString: footer)
        }
    }

    /// The abbreviation in effect at `seconds` (Unix time), when the file agrees with Foundation on the offset.
    func abbreviation(at seconds: Int64, isDST: Bool, utcOffset: Int) -> String? {
        if let last = transitions.last, seconds >= last, let footerNames {
            return isDST ? (footerNames.daylight ?? footerNames.standard) : footerNames.standard
        }
        var type = 0
        if let first = transitions.first, seconds >= first {
            var lo = 0, hi = transitions.count   // last transition <= seconds
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if transitions[mid] <= seconds { lo = mid } else { hi = mid }
            }
            type = Int(transitionTypes[lo])
        }
        guard Int(types[type].utcOffset) == utcOffset else { return nil }
        let start = types[type].abbreviationIndex
        let end = abbreviationBytes[start...].firstIndex(of: 0) ?? abbreviationBytes.count
        return String(decoding: abbreviationBytes[start..<end], as: UTF8.self)
    }

    /// The standard and daylight names of a POSIX TZ string: "EET-2EEST,M3.5.0/3,M10.5.0/4" → (EET, EEST);
    /// "<+0545>-5:45" → (+0545, nil).
    static func names(inTZString text: String) -> (standard: String, daylight: String?)? {
        var rest = Substring(text)
        func name() -> String? {
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { return nil }
                defer { rest = rest[rest.index(after: close)...] }
                return String(rest[rest.index(after: rest.startIndex)..<close])
            }
            let letters = rest.prefix { $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
            return String(letters)
        }
        guard let standard = name() else { return nil }
        rest = rest.drop { $0.isNumber || $0 == "+" || $0 == "-" || $0 == ":" }
        return (standard, rest.isEmpty || rest.first == "," ? nil : name())
    }
}

/// Big-endian reading with bounds checks; every read returns nil past the end.
private struct TZifReader {
    let bytes: [UInt8]
    var index = 0

    struct Header {
        var version: UInt8
        var uts: Int, standards: Int, leaps: Int, times: Int, types: Int, chars: Int

        func blockSize(timeSize: Int) -> Int {
            times * timeSize + times + types * 6 + chars + leaps * (timeSize + 4) + standards + uts
        }
    }

    mutating func header() -> Header? {
        guard let magic = bytes(4), magic == Array("TZif".utf8), let version = byte(), skip(15) else { return nil }
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let n = signed(4), n >= 0, n < 1 << 20 else { return nil }
            counts.append(Int(n))
        }
        return Header(version: version, uts: counts[0], standards: counts[1], leaps: counts[2], times: counts[3],
                      types: counts[4], chars: counts[5])
    }

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bytes(_ n: Int) -> [UInt8]? {
        guard n >= 0, index + n <= bytes.count else { return nil }
        defer { index += n }
        return Array(bytes[index..<index + n])
    }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, index + n <= bytes.count else { return false }
        index += n
        return true
    }

    /// A big-endian two's-complement integer of 4 or 8 bytes.
    mutating func signed(_ size: Int) -> Int64? {
        guard let raw = bytes(size) else { return nil }
        let value = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return size == 8 ? Int64(bitPattern: value) : Int64(Int32(bitPattern: UInt32(value)))
    }

    mutating func line() -> String? {
        guard let end = bytes[index...].firstIndex(of: 0x0a) else { return nil }
        defer { index = end + 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }
}
