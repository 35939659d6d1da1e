// The country of a time zone, from tzdata's zone.tab (Schema/zone_countries.tsv, compiled in): where a file
// has no boundary naming a place's country (an extract cut at a border, a country's file beyond its own
// boundary), the time zones imported beside it do, as Nominatim's country grid does for it.
import Foundation

/// The country each IANA time zone is in.
///
/// ```swift
/// TimeZoneCountry.code(ofZone: "Europe/Vaduz")   // "LI"
/// ```
public enum TimeZoneCountry {
    /// Zone id → ISO 3166 code.
    private static let codes: [String: String] = {
        var codes: [String: String] = [:]
        for line in SchemaFiles.zoneCountriesTSV.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            if fields.count == 2 { codes[String(fields[1])] = String(fields[0]) }
        }
        return codes
    }()

    /// The country of zone `tzid`; nil for a zone of no country (the ocean's `Etc/GMT±N`, `Etc/UTC`) or one
    /// zone.tab does not list.
    public static func code(ofZone tzid: String) -> String? { codes[tzid] }
}
