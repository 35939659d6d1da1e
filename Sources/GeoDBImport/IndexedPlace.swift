// A place as its search rows were made, read back from its rows: what rewriting those rows needs, since
// contentless FTS5 forgets a row only when told the exact text it indexed.
import GeoDB
import GeoDBSQLite

/// The values a place's `place_fts` rows are made of (`FullTextBuilder.rows`), as its rows hold them now.
struct IndexedPlace {
    var kind: PlaceKind
    var importance: Double
    var names: SearchNames
    /// `place.name` is set (the street then goes to the address column, not the street column).
    var named: Bool
    /// Its own address parts.
    var address: Address

    /// What one takes in memory, about (names, address and the dictionary entry holding it; Liechtenstein ×200:
    /// 639,010 places, 341 MB): what the places held back or read back for `AddressCompleter` count against
    /// the memory budget.
    static let approximateBytes = 512

    /// Gives it the street and postcode `AddressCompleter` derived, where it has none of its own; the parts
    /// given, as `place.derived` lists them.
    mutating func complete(street: String?, postcode: String?) -> [Address.Part] {
        var parts: [Address.Part] = []
        if address.street == nil, let street {
            address.street = street
            parts.append(.street)
        }
        if address.postcode == nil, let postcode {
            address.postcode = postcode
            parts.append(.postcode)
        }
        return parts
    }

    /// The places `ids` of `writer`'s database, as their search rows were last written; a place whose row
    /// is gone (merged away) is left out. Names are read in one pass over `place_name` from the lowest id:
    /// it has no index on `place_id` until the end of the import.
    static func read(_ ids: Set<Int64>, from writer: PlaceWriter) throws -> [Int64: IndexedPlace] {
        guard let first = ids.min() else { return [:] }
        try writer.flushNames()
        var names: [Int64: [PlaceName]] = [:]
        let readNames = try writer.db.prepare("SELECT place_id, name, type, lang FROM place_name WHERE place_id >= ?1 ORDER BY rowid")
        try readNames.bind(1, first)
        while try readNames.step() {
            guard ids.contains(readNames.int(0)) else { continue }
            names[readNames.int(0), default: []].append(PlaceName(name: readNames.text(1) ?? "", type: readNames.text(2) ?? "",
                                                                  lang: readNames.text(3)))
        }
        let read = try writer.db.prepare("""
            SELECT kind, importance, housenumber, street, postcode, city, state, country, name IS NOT NULL FROM place WHERE id = ?1
            """)
        var places: [Int64: IndexedPlace] = [:]
        places.reserveCapacity(ids.count)
        // In id order, as the rows lie in the table: a random order (the Set's) read each page of it many times.
        for id in ids.sorted() {
            try read.bind(1, id)
            defer { read.reset() }
            guard try read.step(), let kind = PlaceKind(rawValue: read.text(0) ?? "") else { continue }
            places[id] = IndexedPlace(kind: kind, importance: read.double(1), names: SearchNames(names[id] ?? []), named: read.int(8) != 0,
                                      address: Address(housenumber: read.text(2), street: read.text(3), postcode: read.text(4),
                                                       city: read.text(5), state: read.text(6), country: read.text(7)))
        }
        return places
    }
}
