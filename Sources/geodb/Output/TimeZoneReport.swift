// A timezone answer for the terminal (`geodb timezone`).
import Foundation
import GeoDB

/// A timezone answer for the terminal (`--json` prints `ResultJSON.timeZone`, /v1/timezone's object).
enum TimeZoneReport {
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
