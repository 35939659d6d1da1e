// A session's timezone lookup, opened on first use and then kept (it caches grid cells, polygons and
// clocks): reverse answers and `timeZone(at:)` share it.

/// The timezone lookup of one session.
final class TimeZoneLoader {
    private let db: DatabaseReader
    /// Nil until first used, then `.some(nil)` when the database has no timezones.
    private var loaded: TimeZoneLookup??

    init(_ db: DatabaseReader) { self.db = db }

    /// Whether the database holds timezone boundaries.
    var hasTimeZones: Bool {
        let table = try? db.first("find the timezone table", "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'timezone'") { _ in true }
        guard table == true else { return false }
        return (try? db.first("find timezones", "SELECT 1 FROM timezone LIMIT 1") { _ in true }) == true
    }

    /// The lookup, or nil when the database has no timezones.
    func lookup() throws -> TimeZoneLookup? {
        if let loaded { return loaded }
        let lookup = hasTimeZones ? try TimeZoneLookup(reader: db) : nil
        loaded = .some(lookup)
        return lookup
    }

    /// The lookup, or an error saying how to add timezones when the database has none.
    func required() throws -> TimeZoneLookup {
        guard let lookup = try lookup() else { throw TimeZoneLookup.noTimeZones(in: db.path) }
        return lookup
    }
}
