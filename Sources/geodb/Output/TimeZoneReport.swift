// A timezone answer for the terminal and as JSON (`geodb timezone`).
import Foundation
import GeoDB

/// A timezone answer as JSON.
struct TimeZoneReport: Encodable {
    var lat: Double
    var lon: Double
    var tzid: String
    var source: String
    var distanceM: Double?
    var candidates: [String]
    var at: String
    var knownToSystem: Bool
    var utcOffsetSeconds: Int?
    var utcOffset: String?
    var dst: Bool?
    var abbreviation: String?
    var localTime: String?
    var nextTransition: String?
    var nextUtcOffsetSeconds: Int?

    init(coordinate: Coordinate, answer a: TimeZoneAnswer) {
        lat = coordinate.lat
        lon = coordinate.lon
        tzid = a.tzid
        source = a.source.rawValue
        distanceM = a.distanceMeters.map { ($0 * 10).rounded() / 10 }
        candidates = a.candidates
        at = ISO8601Text.utc(a.date)
        knownToSystem = a.knownToSystem
        utcOffsetSeconds = a.utcOffsetSeconds
        utcOffset = a.utcOffsetSeconds.map(ISO8601Text.offset)
        dst = a.isDST
        abbreviation = a.abbreviation
        localTime = a.localTime
        nextTransition = a.nextTransition.map(ISO8601Text.utc)
        nextUtcOffsetSeconds = a.nextUTCOffsetSeconds
    }

    /// The answer as text for the terminal: the zone, then its clock and how it was found.
static func describe(_ a: TimeZoneAnswer, all: Bool) -> String {
        var rows: [[String]] = []
        if let offset = a.utcOffsetSeconds, let dst = a.isDST {
            rows.append(["UTC offset", ISO8601Text.offset(offset) + (dst ? ", daylight saving time" : ", standard time")])
            if let abbreviation = a.abbreviation { rows.append(["abbreviation", abbreviation]) }
            if let local = a.localTime { rows.append(["local time", local]) }
            if let next = a.nextTransition {
                rows.append(["next transition", ISO8601Text.utc(next) + (a.nextUTCOffsetSeconds.map { " (to \(ISO8601Text.offset($0)))" } ?? "")])
            }
        } else {
            rows.append(["clock", "unknown: \(a.tzid) is not in this system's tz database"])
        }
        switch a.source {
        case .polygon: rows.append(["found by", "polygon"])
        case .nearest:
            let km = String(format: "%.1f km", (a.distanceMeters ?? 0) / 1000)
            rows.append(["found by", "nearest zone, \(km) away (no polygon contains the point)"])
        case .ocean:
            rows.append(["found by", "longitude: nautical zone (no zone within \(Int(TimeZoneLookup.nearestRadius / 1000)) km)"])
        }
        if all {
            rows.append(["candidates", a.candidates.isEmpty ? "none" : a.candidates.joined(separator: ", ")])
        } else if a.candidates.count > 1 {
            rows.append(["overlap", "\(a.candidates.count) zones contain the point (--all lists them)"])
        }
        return a.tzid + "\n" + Format.table(rows)
    }
}
