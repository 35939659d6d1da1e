// Writing the hierarchy: the area sets places are given (`area_set`, `area_set_member`), which place has
// which (`place_area_set`) and the words of the places the sets name (`area_name_fts`).
import Foundation
import GeoDB
import GeoDBSQLite

/// Numbers the area sets as places are given them and writes them and the places' rows.
final class AreaSetWriter {
    /// The areas around one place, as `area_set` stores them.
    struct AreaSetKey: Hashable {
        var ids: [Int64?]   // neighbourhood, suburb, city, county, state, country (place ids)
        var postcode: String?
        var countryCode: String?
        var fromNodes: String?
    }

    private let db: Connection
    private var sets: [AreaSetKey: Int64] = [:]
    private var nextSetID: Int64
    private let placeSets: PlaceAreaSetWriter

    init(db: Connection) throws {
        self.db = db
        nextSetID = (try db.scalarInt("SELECT max(id) FROM area_set") ?? 0) + 1
        placeSets = try PlaceAreaSetWriter(db: db)
    }

    /// The id of the set `key`, numbered in the order sets are first asked for.
    func setID(_ key: AreaSetKey) -> Int64 {
        if let id = sets[key] { return id }
        let id = nextSetID
        nextSetID += 1
        sets[key] = id
        return id
    }

    /// Gives `place` the set `set`.
    func add(place: Int64, set: Int64) throws { try placeSets.add(place: place, set: set) }

    /// Writes what is left of `place_area_set`, the sets and the words of the places they name.
    func finish() throws {
        try placeSets.finish()
        try writeSets()
        try indexAreaNames()
    }

    private func writeSets() throws {
        let insertSet = try db.prepare("""
            INSERT INTO area_set(id, neighbourhood_id, suburb_id, city_id, county_id, state_id, country_id, postcode,
                                 country_code, from_nodes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // A place can be two levels of one set (a city-state is its country and its city): one member row.
        let insertMember = try db.prepare("INSERT OR IGNORE INTO area_set_member(place_id, area_set_id) VALUES (?, ?)")
        for (key, id) in sets.sorted(by: { $0.value < $1.value }) {
            try insertSet.run([.integer(id)] + key.ids.map { $0.map { .integer($0) } ?? .null }
                              + [key.postcode.map { .text($0) } ?? .null, key.countryCode.map { .text($0) } ?? .null,
                                 key.fromNodes.map { .text($0) } ?? .null])
            for place in key.ids.compactMap({ $0 }) { try insertMember.run([.integer(place), .integer(id)]) }
        }
    }

    /// Indexes the words of every place the new sets name (not yet indexed by an earlier import): every
    /// name but old names and postcodes, in every language, folded as queries fold theirs, each word once.
    /// Per place, not per set: a city's hundred names are written once, not once per set of the city.
    private func indexAreaNames() throws {
        var ids = Set(sets.keys.flatMap { $0.ids.compactMap { $0 } })
        guard !ids.isEmpty else { return }
        let idList: SQLiteValue = .text(JSONText.array(ids))
        ids.subtract(try db.prepare("SELECT id FROM area_name_fts_docsize WHERE id IN (SELECT value FROM json_each(?1))")
            .rows([idList]) { $0.int(0) })
        var names: [Int64: [String]] = [:]
        let rows = try db.prepare("""
            SELECT place_id, name FROM place_name
            WHERE place_id IN (SELECT value FROM json_each(?1)) AND type NOT IN ('old_name', 'postcode') ORDER BY rowid
            """)
        try rows.bind([.text(JSONText.array(ids))])
        while try rows.step() { names[rows.int(0), default: []].append(rows.text(1) ?? "") }
        let insert = try db.prepare("INSERT INTO area_name_fts(rowid, words) VALUES (?, ?)")
        for (id, names) in names.sorted(by: { $0.key < $1.key }) {
            var seen = Set<String>()
            let words = names.flatMap { name in
                let words = TextNormalizer.tokens(name)
                return words + TextNormalizer.indexAlternatives(name, words: words)
            }.filter { seen.insert($0).inserted }
            try insert.run([.integer(id), .text(words.joined(separator: " "))])
        }
    }
}

/// Writes `place_area_set` rows many per statement: one statement per row cost as much again in
/// statement overhead (callgrind, Liechtenstein: 58 → 36 M instructions).
private final class PlaceAreaSetWriter {
    private static let batch = 128
    private let insertBatch: Statement
    private let insertOne: Statement
    private var pending: [(place: Int64, set: Int64)] = []

    init(db: Connection) throws {
        insertBatch = try db.prepare("INSERT INTO place_area_set(place_id, area_set_id) VALUES "
                                     + Array(repeating: "(?, ?)", count: Self.batch).joined(separator: ", "))
        insertOne = try db.prepare("INSERT INTO place_area_set(place_id, area_set_id) VALUES (?, ?)")
        pending.reserveCapacity(Self.batch)
    }

    func add(place: Int64, set: Int64) throws {
        pending.append((place, set))
        guard pending.count == Self.batch else { return }
        for (i, row) in pending.enumerated() {
            try insertBatch.bind(Int32(2 * i + 1), row.place)
            try insertBatch.bind(Int32(2 * i + 2), row.set)
        }
        try insertBatch.step()
        insertBatch.reset()
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the rows of a last, partial batch.
    func finish() throws {
        for row in pending {
            try insertOne.bind(1, row.place)
            try insertOne.bind(2, row.set)
            try insertOne.step()
            insertOne.reset()
        }
        pending.removeAll()
    }
}
