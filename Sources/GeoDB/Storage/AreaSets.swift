// The areas around places, as the import assigned them (`area_set`): read once per set and kept, since
// all places of a neighbourhood share one. Results take their suburb, city, county, state and country
// from here where their own addr:* tags say nothing.
import GeoDBSQLite

/// The area sets of one session.
final class AreaSets {
    /// One set: the place id and name of each level's area, the postal area's code, the country code. A class:
    /// every candidate of a search reads its set's words, and copying the struct's nine collections out of the
    /// cache for each cost 5,000 instructions a candidate on Liechtenstein ×20. Filled once, when read.
    final class Entry {
        var ids: [AddressLevel: Int64] = [:]
        var names: [AddressLevel: String] = [:]
        /// What each level's area is (a town, a village of the municipality, …).
        var kinds: [AddressLevel: PlaceKind] = [:]
        /// The ISO 3166-2 code of each level's area that has one.
        var codes: [AddressLevel: SubdivisionCode] = [:]
        var postcode: String?
        var countryCode: String?
        /// Levels given by the nearest place node of their kind rather than a containing boundary.
        var fromNodes: Set<AddressLevel> = []
        /// The folded words of the names and the postcode: query words naming them are context, not name.
        var words: Set<String> = []
        /// `kinds` and `codes` of the levels that have a name: what a place naming no other area gets (`fill`).
        var namedKinds: [AddressLevel: PlaceKind] = [:]
        var namedCodes: [AddressLevel: SubdivisionCode] = [:]

        init(postcode: String?, countryCode: String?) {
            self.postcode = postcode
            self.countryCode = countryCode
        }

        /// Where the import found these areas: boundaries containing the place, else nearest place nodes.
        var source: HierarchySource? {
            guard !ids.isEmpty else { return nil }
            return ids.keys.contains { !fromNodes.contains($0) } ? .polygons : .nearestPlace
        }
    }

    private let db: DatabaseReader
    private var entries: [Int64: Entry] = [:]

    init(_ db: DatabaseReader) { self.db = db }

    /// The set with this id (nil for none).
    func entry(_ id: Int64?) throws -> Entry? {
        guard let id else { return nil }
        if let entry = entries[id] { return entry }
        let aliases = ["n", "sb", "c", "co", "st", "cn"]
        let entry = try db.first("read an area set", """
            SELECT s.postcode, s.country_code, s.from_nodes, s.neighbourhood_id, s.suburb_id, s.city_id, s.county_id, s.state_id,
                   s.country_id, n.name, sb.name, c.name, co.name, st.name, cn.name,
                   n.kind, sb.kind, c.kind, co.kind, st.kind, cn.kind,
                   \(aliases.map(SubdivisionCode.columns(of:)).joined(separator: ", "))
            FROM area_set s
            LEFT JOIN place n ON n.id = s.neighbourhood_id LEFT JOIN place sb ON sb.id = s.suburb_id
            LEFT JOIN place c ON c.id = s.city_id LEFT JOIN place co ON co.id = s.county_id
            LEFT JOIN place st ON st.id = s.state_id LEFT JOIN place cn ON cn.id = s.country_id
            WHERE s.id = ?1
            """, [.integer(id)]) { row -> Entry in
            let entry = Entry(postcode: row.text(0), countryCode: row.text(1))
            entry.fromNodes = Set((row.text(2) ?? "").split(separator: ",").compactMap { AddressLevel(rawValue: String($0)) })
            for (offset, level) in AddressLevel.nested.enumerated() {
                if !row.isNull(Int32(3 + offset)) { entry.ids[level] = row.int(Int32(3 + offset)) }
                if let name = row.text(Int32(9 + offset)) { entry.names[level] = name }
                if let kind = row.text(Int32(15 + offset)).flatMap(PlaceKind.init(rawValue:)) { entry.kinds[level] = kind }
                let codeColumn = Int32(21 + 2 * offset)
                entry.codes[level] = SubdivisionCode(adminLevel: row.isNull(codeColumn + 1) ? nil : Int(row.int(codeColumn + 1)),
                                                     code: row.text(codeColumn))
            }
            entry.words = Set(TextNormalizer.tokens((Array(entry.names.values) + [entry.postcode].compactMap { $0 }).joined(separator: " ")))
            entry.namedKinds = entry.kinds.filter { entry.names[$0.key] != nil }
            entry.namedCodes = entry.codes.filter { entry.names[$0.key] != nil }
            return entry
        }
        if let entry { entries[id] = entry }
        return entry
    }

    /// `address` with the levels of set `id` added where the place's own tags left them empty, and the set's
    /// country code.
    func fill(_ address: inout Address, from id: Int64?) throws {
        guard let entry = try entry(id) else { return }
        // Each area is what the set's is, with its code; a name the place's own tags give is that area when the
        // names agree.
        let namesOnlyTheSetsAreas = address.areaKinds.isEmpty && address.subdivisionCodes.isEmpty
            && AddressLevel.nested.allSatisfy { address[level: $0] == nil || address[level: $0] == entry.names[$0] }
        for (level, name) in entry.names where address[level: level] == nil { address[level: level] = name }
        if namesOnlyTheSetsAreas {
            // Most places: every area is the set's, and its kinds and codes are shared, not rebuilt a level at a
            // time (9,000 instructions a place read).
            address.areaKinds = entry.namedKinds
            address.subdivisionCodes = entry.namedCodes
        } else {
            for level in AddressLevel.nested where address[level: level] != nil && address[level: level] == entry.names[level] {
                address.areaKinds[level] = entry.kinds[level]
                address.subdivisionCodes[level] = entry.codes[level]
            }
        }
        if address.postcode == nil, let postcode = entry.postcode { address.postcode = postcode }
        // The country around it over its own addr:country (see AreaSetAssigner).
        if let code = entry.countryCode { address.countryCode = code }
    }
}
