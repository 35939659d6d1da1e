// Which OSM admin_level is which level of an address, per country: Schema/admin_levels.tsv, compiled in.

/// The address level of each OSM `admin_level`, with per-country exceptions to a default.
///
/// ```swift
/// AdminLevels.standard.level(adminLevel: 8, country: "LI")   // .city
/// ```
package struct AdminLevels: Sendable {
    /// The table of Schema/admin_levels.tsv.
    package static let standard = AdminLevels(tsv: SchemaFiles.adminLevelsTSV)

    private var defaults: [Int: AddressLevel] = [:]
    /// Per country code: its admin levels, nil for those that are no address level there (`-`).
    private var countries: [String: [Int: AddressLevel?]] = [:]

    /// Rows `country<TAB>admin_level<TAB>level`, `*` for the default; `#` starts a comment.
    init(tsv: String) {
        // Bytes, not Characters: splitting the table by Characters cost 12 M instructions per import.
        for line in tsv.utf8.split(separator: UInt8(ascii: "\n")) {
            let fields = line.prefix { $0 != UInt8(ascii: "#") }.split(separator: UInt8(ascii: "\t"))
                .map { String(decoding: $0, as: UTF8.self).filter { $0 != " " } }
            guard fields.count >= 3, let adminLevel = Int(fields[1]) else { continue }
            let level = AddressLevel(rawValue: fields[2])
            if fields[0] == "*" {
                if let level { defaults[adminLevel] = level }
            } else {
                countries[fields[0].uppercased(), default: [:]][adminLevel] = .some(level)
            }
        }
    }

    /// The admin_level an address level usually has in `country`: of the admin levels that are this address
    /// level there, the finest (counties are 6 more often than 5, cities 8 more often than 7). GeocodeJSON's
    /// `admin.levelN` keys by it; the answer holds the area's name, not which admin_level it was tagged with.
    ///
    /// ```swift
    /// AdminLevels.standard.adminLevel(of: .city, country: "LI")   // 8
    /// ```
    package func adminLevel(of level: AddressLevel, country: String?) -> Int? {
        (1...12).reversed().first { self.level(adminLevel: $0, country: country) == level }
    }

    /// The address level of `adminLevel` in `country` (nil when it is none there, or unknown).
    package func level(adminLevel: Int, country: String?) -> AddressLevel? {
        if let country, let levels = countries[country], let level = levels[adminLevel] { return level }
        return defaults[adminLevel]
    }
}
