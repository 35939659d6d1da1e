// What the search tables give the search engines: places whose index entry matches an FTS5 query, with
// the options' filters applied in SQL; their names, folded for comparison; and the indexed words a few
// edits from a word (typos).
import GeoDBSQLite

/// Reads `place_fts`, `place_name` and the typo vocabulary `search_token`.
final class SearchIndex {
    private let db: DatabaseReader
    private let areaSets: AreaSets

    init(_ db: DatabaseReader, areaSets: AreaSets) {
        self.db = db
        self.areaSets = areaSets
    }

    /// What ranking reads of a candidate place.
    struct Candidate {
        var id: Int64
        /// The rowid of the place_fts row that matched (`SearchRowID`): rank (importance, streets lifted; an
        /// alternate names' row lower), then id.
        var rowid: Int64
        /// It matched through the row of its alternate names: its own names do not hold the words.
        var throughAlternates: Bool { SearchRowID.isAlternate(rowid) }
        /// Where it ranks among equal scores: the rowid of its own names' row (rank, then id), whichever of
        /// its rows was read first (several streams may give its alternates' row first).
        var order: Int64 { throughAlternates ? SearchRowID.of(place: id, importance: importance, kind: kind) : rowid }
        var importance: Double
        var kind: PlaceKind
        var housenumber: String?
        var postcode: String?
        var coordinate: Coordinate
        /// The place's name, or for an address without one its street: the name most matches are through.
        var mainName: String?
        /// The area set it lies in.
        var areaSetID: Int64?
        /// Where the place is: a query word naming it says where, not what ("Marc Cain, Vaduz" is exactly
        /// Marc Cain).
        var context: PlaceContext
        /// Its row's names in no language (its main name among them) hold no query word, its names in a language
        /// do (`NamesHolding.inLanguagesOnly`), when the index was asked (`candidateRows`' `namePhrases`, or the
        /// listing of the matches).
        var namesInLanguagesOnly = false
    }

    /// Where a place is: its own city and postcode, the names of its areas.
    struct PlaceContext {
        /// Its city and postcode, folded only when asked (most candidates read are never scored), and not joined
        /// into one text for each candidate read.
        var city: String?
        var postcode: String?
        /// The area set's folded words, shared with `AreaSets`' cached entry (not copied per candidate).
        var areas: Set<String>

        /// Whether the folded `word` is a word of where the place is.
        func contains(_ word: String) -> Bool {
            areas.contains(word) || city.map { TextNormalizer.tokens($0).contains(word) } ?? false
                || postcode.map { TextNormalizer.tokens($0).contains(word) } ?? false
        }
    }

    /// Places whose index rows match, highest rank first (ties by id), each once (through the first row of
    /// it that matched), with the options' filters in SQL; with `inSets`, only places lying in those area
    /// sets (`AreaSetList`). At most `limit`.
    func candidates(match: String, options: SearchOptions, inSets: AreaSetList? = nil, limit: Int = 200) throws -> [Candidate] {
        var seen = Set<Int64>()
        return Array(try candidateRows(match: match, options: options, inSets: inSets, limit: limit).filter { seen.insert($0.id).inserted }
            .prefix(limit))
    }

    /// The index rows that match, highest rank first (ties by id), as candidates, with the options' filters
    /// in SQL; with `inSets`, only places lying in those area sets (`AreaSetList`); with `after`, only rows
    /// after that rowid. A place can come twice: through its own names' row, then its alternates'.
    /// Up to `limit` rows.
    /// FTS5 yields its matches in rowid order, which is this order (`SearchRowID`): the query stops after
    /// `limit` rows, however many places match.
    /// With `keys`, only the rows that hold (or, `holding` false, do not hold) one of these whole-name keys
    /// (`NameKey`, an FTS5 expression over `place_name_key`). With `namePhrases`, each candidate says whether only
    /// its names in a language hold one of the expression's first `namePhrases` phrases (`rowidsNaming`; not
    /// with sets kept by their members). With `alternates`, only rows of alternate names (true) or of own names
    /// (false; not with sets kept by their members either).
    func candidateRows(match: String, options: SearchOptions, inSets: AreaSetList? = nil, after: Int64? = nil, upTo lastRow: Int64? = nil,
                       keys: (match: String, holding: Bool)? = nil, alternates: Bool? = nil, namePhrases: Int? = nil,
                       limit: Int = 200) throws -> [Candidate] {
        let placeID = SearchRowID.placeIDSQL("f.rowid")
        // Few rows hold a key: SQLite lists them once per statement, then checks each match against the list.
        // `+f.rowid`: offered the IN as a rowid constraint, FTS5 took it and gave up its rowid order, and
        // SQLite sorted every match before the limit ("Landstrasse": all 483, 8.6 ms).
        func keyed(_ parameter: Int) -> String {
            keys.map { " AND +f.rowid \($0.holding ? "" : "NOT ")IN (SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?\(parameter))" } ?? ""
        }
        if let inSets, inSets.json == nil {
            // Which matches lie in the sets, from their rows and sets alone, then the places of as many of
            // those as are needed: most lie elsewhere ("Scandic Haka" on tiled ×400 read 1,300 matches,
            // place rows and all, to keep 20). Pages doubling.
            var kept: [Candidate] = []
            var from = after
            var page = 4 * limit
            while kept.count < limit {
                let rows = try db.rows("search rows and their area sets", """
                    SELECT f.rowid, pas.area_set_id FROM place_fts f JOIN place_area_set pas ON pas.place_id = \(placeID)
                    WHERE place_fts MATCH ?1 AND f.rowid > ?2 AND f.rowid <= ?3\(keyed(4)) ORDER BY f.rowid LIMIT \(page)
                    """, [.text(match), .integer(from ?? Int64.min), .integer(lastRow ?? Int64.max)] + (keys.map { [.text($0.match)] } ?? [])) {
                    (rowid: $0.int(0), set: $0.int(1))
                }
                let inside = rows.filter { inSets.contains($0.set) }.map(\.rowid)
                let taken = inside.prefix(limit - kept.count)
                kept += try candidates(rowids: Array(taken), options: options)
                if taken.count < inside.count {
                    from = taken.last   // the rest of this page again, should the options' filters drop some taken
                    continue
                }
                guard rows.count == page else { break }
                from = rows.last?.rowid
                page = min(2 * page, 4_000)
            }
            return kept
        }
        var (filter, values) = Self.filter(match: match, options: options, placeID: placeID)
        if let after {
            values.append(.integer(after))
            filter += " AND f.rowid > ?\(values.count)"
        }
        if let lastRow {
            values.append(.integer(lastRow))
            filter += " AND f.rowid <= ?\(values.count)"
        }
        if let json = inSets?.json {
            values.append(.text(json))
            filter += " AND pas.area_set_id IN (SELECT value FROM json_each(?\(values.count)))"
        }
        if let keys {
            values.append(.text(keys.match))
            filter += keyed(values.count)
        }
        if let alternates {
            filter += " AND (f.rowid & \(SearchRowID.alternateBit)) \(alternates ? "<>" : "=") 0"
        }
        // With sets to lie in, a match's set is checked before its place is read: most lie elsewhere.
        let setsBefore = inSets == nil ? "" : "JOIN place_area_set pas ON pas.place_id = \(placeID)"
        let setsAfter = inSets == nil ? "LEFT JOIN place_area_set pas ON pas.place_id = p.id" : ""
        return try db.rows("search candidates", """
            SELECT \(Self.candidateColumns), f.rowid\(namePhrases == nil ? "" : ", geodb_phrase_columns(f.place_fts)")
            FROM place_fts f \(setsBefore) JOIN place p ON p.id = \(placeID) \(setsAfter) \(Self.areasJoin(options))
            WHERE place_fts MATCH ?1\(filter) ORDER BY f.rowid LIMIT \(limit)
            """, values) { row in
            var candidate = try candidate(row, rowid: row.int(10))
            if let namePhrases { candidate.namesInLanguagesOnly = Self.namesHolding(row.blob(11) ?? [], namePhrases) == .inLanguagesOnly }
            return candidate
        }
    }

    /// The index rows that hold one of the whole-name keys `keys` (`NameKey`, an FTS5 expression over
    /// `place_name_key`), in rowid order, up to `limit`: for a text of one word, whose key says a row matches it.
    func rowids(named keys: String, limit: Int) throws -> [Int64] {
        try db.rows("rows named so", "SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?1 ORDER BY rowid LIMIT \(limit)",
                    [.text(keys)]) { $0.int(0) }
    }

    /// The first-word tokens the file's place_name_key rows hold (`FirstWordTokens`): files imported before
    /// they did have none, and their rows cannot say a name does not begin with a word.
    func firstWordTokens() throws -> FirstWordTokens {
        if let known = firstWordsKnown { return known }
        let known = FirstWordTokens(metaValue: try db.first("which first-word tokens name keys hold",
                                                            "SELECT value FROM meta WHERE key = '\(NameKey.firstWordsMetaKey)'") { $0.text(0) } ?? nil)
        firstWordsKnown = known
        return known
    }
    private var firstWordsKnown: FirstWordTokens?

    /// Of the country places' rows of own names, those one of whose names is exactly `words` (`NameKey`), in rank
    /// order: the rows holding the words' key up to the last country's, which ranks among the first (a
    /// country's importance is high). Not through the rows whose names hold the words: a street's name is a
    /// word of thousands ("Landstrasse 1" on ×20 went through the 11,160 rows of "landstrasse" to learn that no
    /// country is named so: 4.2 M of its 36 M instructions). Nor each country's row looked up: FTS5 starts the
    /// expression again for each (3 µs; a planet's 250 countries for every query with a number).
    func countryRows(named words: [String]) throws -> [Int64] {
        guard let key = NameKey.of(words: words), let match = FTSQuery.groups([[key, NameKey.inLanguage(key)]]) else { return [] }
        if countryRowsKnown == nil {
            let rows = Set(try db.rows("country places", "SELECT id, importance FROM place WHERE \(KindIndex.equals(.country))") {
                SearchRowID.of(place: $0.int(0), importance: $0.double(1), kind: .country)
            })
            countryRowsKnown = (rows, rows.max())
        }
        guard let (countries, last) = countryRowsKnown, let last else { return [] }
        return try rowids(named: match, after: nil, upTo: last).filter(countries.contains)
    }
    /// The country places' rows of own names and the last of them, listed once per session.
    private var countryRowsKnown: (rows: Set<Int64>, last: Int64?)?

    /// The first row of alternate names (in rowid order) that holds one of the whole-name keys `keys`; nil when
    /// none does, and a search needs no stream of exact alternate names (reading it would read every exact own
    /// row too, ahead of need). The stream's rows begin there: bound from its rank, not the highest.
    func firstAlternateRow(holding keys: String) throws -> Int64? {
        try db.first("the first alternate name that is the text", """
            SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?1 AND (rowid & \(SearchRowID.alternateBit)) != 0
            ORDER BY rowid LIMIT 1
            """, [.text(keys)]) { $0.int(0) }
    }

    /// The candidates of `rowids` (index rows known to match, in rowid order) after `after`, with the options'
    /// filters, at least one unless none is left, up to about `limit`; `last`: none is left.
    func candidates(of rowids: [Int64], after: Int64?, options: SearchOptions, limit: Int) throws -> (candidates: [Candidate], last: Bool) {
        var rest = rowids.drop { $0 <= after ?? .min }
        var kept: [Candidate] = []
        while kept.isEmpty && !rest.isEmpty {
            kept = try candidates(rowids: Array(rest.prefix(limit)), options: options)
            rest = rest.dropFirst(limit)
        }
        return (kept, rest.isEmpty)
    }

    /// The index rows that match `match` (filters aside), in rowid order, up to `limit`: from the index alone,
    /// without the places' rows.
    func rowids(matching match: String, limit: Int) throws -> [Int64] {
        try db.rows("rows that match", "SELECT rowid FROM place_fts WHERE place_fts MATCH ?1 ORDER BY rowid LIMIT \(limit)",
                    [.text(match)]) { $0.int(0) }
    }

    /// Which of a row's names hold a query word (`FTSQuery`'s column filters).
    enum NamesHolding {
        /// None: it matched through its address alone.
        case none
        /// Its main name, a name in no language or the street of an unnamed address (`FTSQuery.namesInNoLanguage`).
        case inNoLanguage
        /// Only its names in a language (`FTSQuery.namesInLanguages`).
        case inLanguagesOnly
    }

    /// The index rows that match `match` (filters aside), in rowid order, up to `limit`, each with which of its
    /// name columns hold one of the expression's first `namePhrases` phrases: the rows of `(match) AND
    /// {name street}: (those phrases)` and of `(match) AND {lang_name}: (…) NOT {name street}: (…)`, learnt
    /// while listing the matches, from the index alone.
    /// Nil when FTS5 numbered the phrases otherwise than the expression's `phrases` (`FTSQuery.phraseCount`).
    /// After `after` and up to `upTo` when given.
    func rowidsNaming(matching match: String, after: Int64? = nil, upTo lastRow: Int64? = nil, phrases: Int, namePhrases: Int,
                      limit: Int) throws -> [(rowid: Int64, names: NamesHolding)]? {
        var numbered = true
        let rows = try db.rows("rows that match, with their name columns", """
            SELECT rowid, geodb_phrase_columns(place_fts) FROM place_fts WHERE place_fts MATCH ?1 AND rowid > ?2 AND rowid <= ?3
            ORDER BY rowid LIMIT \(limit)
            """, [.text(match), .integer(after ?? .min), .integer(lastRow ?? .max)]) { row -> (rowid: Int64, names: NamesHolding) in
            let columns = row.blob(1) ?? []
            numbered = numbered && columns.count == phrases
            return (row.int(0), Self.namesHolding(columns, namePhrases))
        }
        return numbered ? rows : nil
    }

    /// Which names of a row hold one of the first `namePhrases` phrases, from `geodb_phrase_columns`' bytes.
    private static func namesHolding(_ columns: [UInt8], _ namePhrases: Int) -> NamesHolding {
        let named = columns.prefix(namePhrases).reduce(UInt8(0)) { $0 | $1 }
        return named & FTSQuery.inNoLanguageColumnBits != 0 ? .inNoLanguage : named & FTSQuery.inLanguagesColumnBits != 0 ? .inLanguagesOnly : .none
    }

    /// The rows holding one of the whole-name keys `keys` after rowid `after` up to rowid `last`, in rowid order.
    func rowids(named keys: String, after: Int64?, upTo last: Int64) throws -> [Int64] {
        try db.rows("rows named so up to a row", """
            SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?1 AND rowid > ?2 AND rowid <= ?3 ORDER BY rowid
            """, [.text(keys), .integer(after ?? .min), .integer(last)]) { $0.int(0) }
    }

    /// Whether more than `count` index rows hold one of `keys` (`NameKey`s, an FTS5 expression over
    /// `place_name_key`), reading at most `count` + 1 of them.
    func keysHeldByMore(than count: Int, keys: String) throws -> Bool {
        try rowsMore(than: count, in: "place_name_key", match: keys)
    }

    /// Of the whole-name keys `keys` (`NameKey`), those held by at most `most` index rows, and whether any is
    /// held by more: all counted at once first, which settles it for most texts, else each. When one is held
    /// by more, the keys no row holds are left out too: the rows of the first are read with the rest as rows
    /// that may be exact, and a stream of the others would go through every match to find none
    /// ("Landstrasse 1" on ×20: the key of a street named "Landstr", 0.6 ms).
    func keysHeldByFew(_ keys: [String], most: Int) throws -> (few: [String], someHeldByMore: Bool) {
        guard let all = FTSQuery.groups([keys]), try keysHeldByMore(than: most, keys: all) else { return (keys, false) }
        var few: [String] = [], someHeldByMore = false
        for key in keys {
            let rows = try FTSQuery.groups([[key]]).map { try rowCount(in: "place_name_key", match: $0, upTo: most + 1) } ?? most + 1
            if rows > most { someHeldByMore = true } else if rows > 0 { few.append(key) }
        }
        return (few, someHeldByMore)
    }

    private func rowsMore(than count: Int, in table: String, match: String) throws -> Bool {
        try rowCount(in: table, match: match, upTo: count + 1) > count
    }

    /// How many rows of `table` match, counting no further than `limit`.
    private func rowCount(in table: String, match: String, upTo limit: Int) throws -> Int {
        Int(try db.rows("whether many rows match", "SELECT count(*) FROM (SELECT rowid FROM \(table) WHERE \(table) MATCH ?1 LIMIT \(limit))",
                        [.text(match)]) { $0.int(0) }.first ?? 0)
    }

    /// The candidates of index rows known to match, in rowid order, with the options' filters in SQL.
    private func candidates(rowids: [Int64], options: SearchOptions) throws -> [Candidate] {
        guard !rowids.isEmpty else { return [] }
        let rowidOf = Dictionary(rowids.map { (SearchRowID.place($0), $0) }, uniquingKeysWith: min)
        var (filter, values) = Self.filter(match: "", options: options, placeID: "p.id")
        values.append(.text(JSONText.array(Array(rowidOf.keys))))
        // ?1 is the (unused) match: the filters' placeholders count from 2.
        return try db.rows("search candidates by rowid", """
            SELECT \(Self.candidateColumns) FROM place p LEFT JOIN place_area_set pas ON pas.place_id = p.id \(Self.areasJoin(options))
            WHERE ?1 = ?1 AND p.id IN (SELECT value FROM json_each(?\(values.count)))\(filter)
            """, values) { try candidate($0, rowid: rowidOf[$0.int(0)] ?? 0) }
            .sorted { $0.rowid < $1.rowid }
    }

    /// What a candidate query selects (`candidate(_:rowid:)` reads it), of `place p` and `place_area_set pas`.
    private static let candidateColumns = """
        p.id, p.importance, p.kind, p.housenumber, p.postcode, p.city, p.lat, p.lon, pas.area_set_id, coalesce(p.name, p.street)
        """

    /// The country of a place is its own code, else that of its areas: the areas are joined only to filter.
    private static func areasJoin(_ options: SearchOptions) -> String {
        options.countryCode == nil ? "" : "LEFT JOIN area_set a ON a.id = pas.area_set_id"
    }

    private func candidate(_ row: Statement, rowid: Int64) throws -> Candidate {
        let context = PlaceContext(city: row.text(5), postcode: row.text(4),
                                   areas: row.isNull(8) ? [] : try areaSets.entry(row.int(8))?.words ?? [])
        return Candidate(id: row.int(0), rowid: rowid, importance: row.double(1), kind: try PlaceReader.kind(row.text(2), place: row.int(0), in: db.path),
                         housenumber: row.text(3), postcode: row.text(4),
                         coordinate: try row.coordinate(6, 7, place: row.int(0), in: db.path), mainName: row.text(9),
                         areaSetID: row.isNull(8) ? nil : row.int(8), context: context)
    }

    /// The most important places of a category (with the options' country and kind filters), ties by id.
    /// Taxonomy categories are read in that order from `idx_place_category_category_id_importance`, which
    /// stops at the limit however many places the category has.
    func mostImportant(of filter: CategoryFilter, options: SearchOptions, limit: Int) throws -> [Int64] {
        var unfiltered = options
        unfiltered.bbox = nil
        let areas = options.countryCode == nil ? "" : "LEFT JOIN place_area_set pas ON pas.place_id = p.id LEFT JOIN area_set a ON a.id = pas.area_set_id"
        guard case .categories(let ids) = filter else {
            unfiltered.categories = filter
            let (conditions, values) = Self.filter(match: "", options: unfiltered, placeID: "p.id")
            // ?1 is the (unused) match: the filters' placeholders count from 2.
            return try db.rows("most important places of a tag", """
                SELECT p.id FROM place p \(areas) WHERE ?1 = ?1\(conditions) ORDER BY p.importance DESC, p.id LIMIT \(limit)
                """, values) { $0.int(0) }
        }
        unfiltered.categories = nil
        let (conditions, values) = Self.filter(match: "", options: unfiltered, placeID: "p.id")
        // Each category in the index's order (an IN list of them would sort all their places), merged.
        var found: [(id: Int64, importance: Double)] = []
        for id in Set(ids) {
            found += try db.rows("most important places of a category", """
                SELECT pc.place_id, pc.importance FROM place_category pc INDEXED BY idx_place_category_category_id_importance
                JOIN place p ON p.id = pc.place_id \(areas)
                WHERE ?1 = ?1 AND pc.category_id = ?\(values.count + 1)\(conditions)
                ORDER BY pc.importance DESC, pc.place_id LIMIT \(limit)
                """, values + [.text(id)]) { ($0.int(0), $0.double(1)) }
        }
        return found.sorted { ($0.importance, -$0.id) > ($1.importance, -$1.id) }.prefix(limit).map(\.id)
    }

    /// The SQL conditions of the options' filters (after `AND`) and the values they bind, the match first.
    /// `placeID` is the SQL of the id of the place filtered.
    private static func filter(match: String, options: SearchOptions, placeID: String) -> (String, [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = [.text(match)]
        if let box = options.bbox {
            values += [.real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)]
            conditions.append("p.lon BETWEEN ?2 AND ?3 AND p.lat BETWEEN ?4 AND ?5")
        }
        if let country = options.countryCode {
            values.append(.text(country.uppercased()))
            conditions.append("coalesce(a.country_code, p.country_code) = ?\(values.count)")
        }
        if !options.kinds.isEmpty {
            values.append(.text(JSONText.array(options.kinds.map(\.rawValue))))
            // In the index of kinds, before the place's row is read: most matches of a word are not of the
            // kinds asked for ("Studio" as a street: 2,400 matches on tiled ×400 for none, 4.6 ms through the
            // place rows, 1.3 ms through the index, whose entries are a few bytes). Addresses are not in it:
            // a filter asking for them reads the rows, where the matches of an address's words mostly are.
            conditions.append(KindIndex.holds(options.kinds) ? """
                EXISTS (SELECT 1 FROM place k INDEXED BY idx_place_kind WHERE k.kind IN (SELECT value FROM json_each(?\(values.count))) \
                AND \(KindIndex.condition(on: "k.kind")) AND k.id = \(placeID))
                """ : "p.kind IN (SELECT value FROM json_each(?\(values.count)))")
        }
        switch options.categories {
        case .categories(let ids)?:
            values.append(.text(JSONText.array(ids)))
            conditions.append("p.id IN (SELECT place_id FROM place_category WHERE category_id IN (SELECT value FROM json_each(?\(values.count))))")
        case .rawTag(let tag)?:
            values.append(.text(tag))
            conditions.append(RawTagIndex.equals("?\(values.count)", tag: tag))
        case .anyNamedPOI?:
            conditions.append("p.kind = 'poi' AND p.name IS NOT NULL")
        case nil:
            break
        }
        return (conditions.map { " AND " + $0 }.joined(), values)
    }

    /// The area sets naming, for every word group (alternatives, `*` for a prefix), a place whose names
    /// hold it: where "…, Vaduz" or "…, Triesenberg, Liechtenstein" says a place is.
    func areaSets(naming groups: [[String]]) throws -> AreaSetList {
        var named: [[Int64]] = []
        for group in groups {
            guard let match = FTSQuery.groups([group]) else { return AreaSetList([]) }
            let ids = try db.rows("places named like an area", "SELECT rowid FROM area_name_fts WHERE area_name_fts MATCH ?1 LIMIT 5000",
                                  [.text(match)]) { $0.int(0) }
            guard !ids.isEmpty else { return AreaSetList([]) }
            named.append(ids)
        }
        // The sets naming the group of fewest places (a town rather than its country: "Triesenberg,
        // Liechtenstein" reads Triesenberg's sets, not every set of the country) …
        guard let fewest = named.indices.min(by: { named[$0].count < named[$1].count }) else { return AreaSetList([]) }
        // Repeats removed here, not by SQL's DISTINCT, which sorted the 3,700 sets naming "Kaisaniemi" on tiled
        // ×400 in a temporary index (0.6 of 1.6 ms).
        var seen = Set<Int64>()
        let sets = try db.rows("area sets naming places", """
            SELECT area_set_id FROM area_set_member WHERE place_id IN (SELECT value FROM json_each(?1)) LIMIT 5000
            """, [.text(JSONText.array(named[fewest]))]) { $0.int(0) }.filter { seen.insert($0).inserted }
        let others = named.indices.filter { $0 != fewest }
        guard !others.isEmpty, !sets.isEmpty else { return AreaSetList(sets) }
        // … that also name, at some level, a place of each other group.
        let conditions = others.indices.map { k in
            "(" + AddressLevel.nested.map { "\($0.rawValue)_id IN (SELECT value FROM json_each(?\(k + 2)))" }.joined(separator: " OR ") + ")"
        }
        return AreaSetList(try db.rows("area sets naming places of every group", """
            SELECT id FROM area_set WHERE id IN (SELECT value FROM json_each(?1)) AND \(conditions.joined(separator: " AND "))
            """, [.text(JSONText.array(sets))] + others.map { .text(JSONText.array(named[$0])) }) { $0.int(0) })
    }

    /// The places of `kinds` that area sets name and whose names hold all of `words`, most important first
    /// (ties by id): the towns a "…, Town" may mean. Through `area_name_fts`, which holds only such places:
    /// looked up among the names of all places, the "a" of "Metro Rautatientori A" (still being typed) read
    /// thousands of places on tiled ×400, twice per keystroke.
    func areaPlaces(naming words: [String], kinds: [PlaceKind], limit: Int) throws -> [Int64] {
        guard let match = FTSQuery.groups(words.map { [$0] }) else { return [] }
        return try db.rows("areas named so", """
            SELECT p.id FROM area_name_fts a JOIN place p ON p.id = a.rowid
            WHERE area_name_fts MATCH ?1 AND p.kind IN (SELECT value FROM json_each(?2)) ORDER BY p.importance DESC, p.id LIMIT \(limit)
            """, [.text(match), .text(JSONText.array(kinds.map(\.rawValue)))]) { $0.int(0) }
    }

    /// Area sets a search keeps to, made once per search for the several statements that read candidates
    /// in them. Up to `mostInSQL` sets SQL filters by them, before a place is read; more, and candidates are
    /// filtered once read: SQLite would build its list of 5,000 sets again for every statement, which cost
    /// more than reading the places lying elsewhere (tiled ×400: "P-Kluuvi" 13.7 → 6.2 ms, "Casino Hels"
    /// 17.5 → 11.6 ms; writing out the ids for every statement was half of "Lost In Helsinki" before).
    struct AreaSetList {
        static let mostInSQL = 256

        /// How many sets.
        let count: Int
        /// The sets as a JSON array for SQL, when there are at most `mostInSQL`.
        let json: String?
        /// The sets, when there are more.
        private let members: Set<Int64>

        /// `mostInSQL`: other than the standard only in tests, to compare the two ways on small data.
        init(_ ids: [Int64], mostInSQL: Int = Self.mostInSQL) {
            count = ids.count
            json = ids.count > mostInSQL ? nil : JSONText.array(ids)
            members = ids.count > mostInSQL ? Set(ids) : []
        }

        var isEmpty: Bool { count == 0 }

        /// Whether `set` is one of many sets (always false for a list SQL filters by).
        func contains(_ set: Int64) -> Bool { members.contains(set) }
    }

    /// Which names of a place `names(of:)` reads: the tiers of `SearchRanking.NameTier`, the few that count
    /// most first (a capital has a handful of own names, a hundred in other languages and as many alternates).
    enum NameRows {
        /// Its own names in the language asked for or in none (name, official and local names), or the street
        /// of an unnamed address.
        case own
        /// Its own names in other languages than the one asked for (`name:xx`).
        case otherLanguages
        /// Both.
        case ownInAnyLanguage
        /// Its alternate names.
        case alternates
    }

    /// The names `rows` of each place (names in another `language` than the one asked for count less),
    /// folded (`SearchRanking.CandidateName`): `PlaceNames.names` of what `names(of:words:fuzzy:language:)` reads.
    func names(of ids: [Int64], _ rows: NameRows, words: [String], fuzzy: Bool,
               language: String?) throws -> [Int64: [SearchRanking.CandidateName]] {
        try names(of: ids, words: words, fuzzy: fuzzy, language: language).compactMapValues { names in
            let tier = names.names(rows)
            return tier.isEmpty ? nil : tier
        }
    }

    /// Every name of each place that may hold the query `words`, each marked with its tier (`NameRows`), not
    /// yet folded: one statement for all tiers. A place whose best name is not its main one is read tier after
    /// tier, and each tier read apart went through all of its names again (`place_name` is indexed by place
    /// alone: a capital's 90 rows scanned for each of its tiers, "Si" typed on tiled ×400 three times over
    /// 200 Helsinkis).
    /// Places of a gazetteer have dozens of names (a capital 150), and folding is the cost here, so names
    /// that cannot hold the query words are not kept at all: alternate names whose first word cannot
    /// begin like a query word, and (but for typos, `fuzzy`, which may change a first letter) own names
    /// with no word that can.
    func names(of ids: [Int64], words: [String], fuzzy: Bool, language: String?) throws -> [Int64: PlaceNames] {
        guard !ids.isEmpty else { return [:] }
        let firsts = words.compactMap(\.utf8.first)
        let checkFirsts = firsts.allSatisfy { $0 < 0x80 }
        let asked = LanguagePreference.ordered(language)
        let askedSet = Set(asked)
        // The 4th column: the type of name, NULL for the street of an unnamed address (one of its own names, in
        // no language); whether it is an alternate is told from its bytes (`type IN (…)` in SQL cost a third of
        // the statement).
        let sql = """
            SELECT place_id, name, lang, type FROM place_name \
            WHERE place_id IN (SELECT value FROM json_each(?1)) \
            UNION ALL SELECT id, street, NULL, NULL FROM place WHERE id IN (SELECT value FROM json_each(?1)) \
            AND name IS NULL AND street IS NOT NULL
            """
        var names: [Int64: PlaceNames] = [:]
        for id in ids { names[id] = PlaceNames() }
        // Tested on SQLite's bytes: most names are left out, and making Strings of them cost more than the test.
        // Those kept are kept as bytes: a String is made of a name only when its tier is asked for (a place's
        // 90 names in other languages made Strings for "helsingfors" on tiled ×400 cost 2 ms more than the
        // tier statements did).
        _ = try db.rows("names of search candidates", sql, [.text(JSONText.array(ids))]) { row in
            let alternate = row.textBytes(3).map { type in Self.alternateTypeBytes.contains { $0.elementsEqual(type) } } ?? false
            if checkFirsts {
                let bytes = row.textBytes(1) ?? UnsafeBufferPointer(start: nil, count: 0)
                if alternate ? !TextNormalizer.mayFold(bytes: bytes, toWordStartingWithOneOf: firsts)
                             : !fuzzy && !TextNormalizer.mayHoldWord(bytes: bytes, startingWithOneOf: firsts) { return }
            }
            let lang = row.text(2)
            // Which tier: as SQL's `lower(lang) IN (…)` would say (ASCII case only); how much it counts: as
            // `CandidateName` always has.
            let tier: PlaceNames.Tier = alternate ? .alternate
                : lang.map { askedSet.contains(Self.asciiLowercased($0)) } ?? true ? .asked : .otherLanguage
            names[row.int(0), default: PlaceNames()].append(row, tier: tier, otherLanguage: lang.map { !askedSet.contains($0.lowercased()) } ?? false)
        }
        return names
    }

    /// The names of a place `names(of:words:fuzzy:language:)` keeps, in the order read, each in its tier: their
    /// bytes one after another.
    struct PlaceNames {
        enum Tier { case asked, otherLanguage, alternate }
        private var bytes: [UInt8] = []
        private var rows: [(end: Int, tier: Tier, otherLanguage: Bool)] = []

        /// Adds the name in column 1 of `row` (NULL: an empty name).
        fileprivate mutating func append(_ row: Statement, tier: Tier, otherLanguage: Bool) {
            _ = row.appendText(1, to: &bytes)
            rows.append((bytes.count, tier, otherLanguage))
        }

        /// The names of `tiers`, folded, in the order read (the street of an unnamed address last, as own).
        func names(_ tiers: NameRows) -> [SearchRanking.CandidateName] {
            var start = 0
            var found: [SearchRanking.CandidateName] = []
            for row in rows {
                defer { start = row.end }
                let wanted = switch tiers {
                case .own: row.tier == .asked
                case .otherLanguages: row.tier == .otherLanguage
                case .ownInAnyLanguage: row.tier != .alternate
                case .alternates: row.tier == .alternate
                }
                if wanted {
                    found.append(SearchRanking.CandidateName(String(decoding: bytes[start..<row.end], as: UTF8.self), own: row.tier != .alternate,
                                                             otherLanguage: row.otherLanguage))
                }
            }
            return found
        }
    }

    /// `text` with its ASCII letters lower-cased, as SQLite's `lower()` does.
    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `PlaceName.alternateTypes` as UTF-8.
    private static let alternateTypeBytes = PlaceName.alternateTypes.map { Array($0.utf8) }

    /// Prefix lengths (in Unicode scalars, as FTS5 counts) with an index of their own in place_fts.
    static let indexedPrefixLengths = 1...4
    /// At most this many words stand for a longer prefix.
    static let completionLimit = 64

    /// FTS5 terms for a word still being typed: `word*` when place_fts has a prefix index of its length
    /// (up to 4 letters: the most used 64 words of a letter would leave out too much, "Ciudad G" → Guayana);
    /// else the name words beginning with it, the most used first (at most `completionLimit`: "stockh"
    /// → stockholm, stockhausen, …), each whole. FTS5 reads the places of a prefix without an index all at
    /// once (every house on every "Hauptstrasse"), those of whole words only as far as a search needs.
    /// The word itself is one of the terms, whole, in case only addresses have it; `word*` when no name word
    /// begins so.
    func prefixTerms(_ word: String) throws -> [String] {
        guard word.unicodeScalars.count > Self.indexedPrefixLengths.upperBound else { return [word + "*"] }
        let words = try db.rows("words beginning with a typed word", """
            SELECT token FROM search_word WHERE token >= ?1 AND token < ?1 || char(1114111)
            ORDER BY places DESC, token LIMIT \(Self.completionLimit)
            """, [.text(word)]) { $0.text(0) ?? "" }
        return words.isEmpty ? [word + "*"] : words.contains(word) ? words : [word] + words
    }

    /// How many index rows hold a word (or words, summed), from the vocabulary (`search_word`): in their names
    /// (a row counted once per name column), in their names in a language (`lang_name`), in their address.
    struct WordRows {
        var naming = 0
        var namingInLanguages = 0
        var inAddress = 0
    }

    /// The rows holding the words `terms` (`WordRows`, summed over them); nil when one of them is not in the
    /// vocabulary (under 4 letters, a prefix, or in no name).
    func rows(holding terms: [String]) throws -> WordRows? {
        var rows = WordRows()
        for term in Set(terms) {
            guard let word = try wordRows(term) else { return nil }
            rows.naming += word.naming
            rows.namingInLanguages += word.namingInLanguages
            rows.inAddress += word.inAddress
        }
        return rows
    }

    /// One word's `WordRows`, nil when the vocabulary does not hold it; remembered for the session (up to
    /// `wordRowsRemembered` words): every search of a word asks, and the statement cost 1 % of a town's.
    private func wordRows(_ term: String) throws -> WordRows? {
        // By bytes, as SQLite compares tokens: two Strings Swift finds equal (canonically) can be two words of the index.
        let key = Array(term.utf8)
        if let known = wordRowsKnown[key] { return known }
        // A word at a time, by the token's index: through json_each the statement cost 3 % of a popular word's search.
        let word = try db.first("how many rows hold a word", """
            SELECT places, language_places, address_places FROM search_word WHERE token = ?1
            """, [.text(term)], { WordRows(naming: Int($0.int(0)), namingInLanguages: Int($0.int(1)), inAddress: Int($0.int(2))) })
        if wordRowsKnown.count >= Self.wordRowsRemembered { wordRowsKnown.removeAll(keepingCapacity: true) }
        wordRowsKnown[key] = .some(word)
        return word
    }
    private var wordRowsKnown: [[UInt8]: WordRows?] = [:]
    private static let wordRowsRemembered = 4_096

    /// Indexed words within 1 edit (words of 4–7 letters) or 2 edits (8 and more) of `word` (with `typing`,
    /// words beginning so: "stcokh" → stockholm), nearest first, then most used; those 2 edits away only
    /// when none is 1 away. A mistyped word is mostly one slip from the word meant ("Helsinkki"), and its
    /// search for 1 edit reads a few hundred vocabulary words; that for 2 reads thousands and ranks the
    /// places of every near word found, 30 times the right spelling's cost.
    func similarWords(to word: String, typing: Bool = false) throws -> [String] {
        Array(try wordsNear(word, typing: typing).prefix(Self.similarWordsMatched))
    }

    /// How many of the words near a typed word (`wordsNear`) search matches: the nearest, most used eight.
    static let similarWordsMatched = 8

    /// Every indexed word the typo search finds near `word`, in `similarWords`' order, of which it gives the first
    /// eight: the names a typo reading may take as the whole words are those of all of them
    /// (`CandidateRanker.Typos`). Remembered for the session (up to `nearWordsRemembered` words): a typo
    /// reading asks for each word again for each reading and split it runs.
    func wordsNear(_ word: String, typing: Bool) throws -> [String] {
        let key = (typing ? "t" : "c") + word
        if let known = nearWordsKnown[key] { return known }
        var near: [String] = []
        // The vocabulary holds words of 4 to 32 letters.
        if (4...32).contains(word.count), !word.allSatisfy(\.isNumber) {
            for edits in 1...EditDistance.allowed(for: word) {
                near = try words(within: edits, of: word, typing: typing)
                if !near.isEmpty { break }
            }
        }
        if nearWordsKnown.count >= Self.nearWordsRemembered { nearWordsKnown.removeAll(keepingCapacity: true) }
        nearWordsKnown[key] = near
        return near
    }
    private var nearWordsKnown: [String: [String]] = [:]
    private static let nearWordsRemembered = 256

    /// The indexed words at most `edits` from `word` (or, `typing`, from a beginning of them), nearest first,
    /// then most used. Found through the trigram index on `search_token` (`typoMatches`), each set of trigrams
    /// asked in a query of its own, with its own limit: a common one ("chi") must not crowd out the words of a
    /// rare one.
    private func words(within edits: Int, of word: String, typing: Bool) throws -> [String] {
        let matches = Self.typoMatches(Array(word.unicodeScalars), edits: edits)
        var candidates: [String: Int64] = [:]
        for match in matches {
            for (token, places) in try db.rows("typo candidates", "SELECT token, places FROM search_token WHERE search_token MATCH ?1 LIMIT 2000",
                                               [.text(match)], { ($0.text(0) ?? "", $0.int(1)) }) {
                candidates[token] = places
            }
        }
        let near = candidates.compactMap { token, places -> (token: String, distance: Int, places: Int64)? in
            guard token != word, !(typing && token.hasPrefix(word)) else { return nil }
            let distance = typing ? EditDistance.toPrefix(of: token, word, limit: edits) : EditDistance.between(token, word, limit: edits)
            return distance <= edits ? (token, distance, places) : nil
        }
        return near.sorted { ($0.distance, -$0.places, $0.token) < ($1.distance, -$1.places, $1.token) }.map(\.token)
    }

    /// The FTS5 expressions of `search_token` whose words hold every word at most `edits` from `letters` (in
    /// Unicode scalars, as FTS5's trigram tokenizer counts: a piece of three Characters can be more scalars, as in
    /// Devanagari, which FTS5 would take as a phrase and refuse), each a set of its trigrams, all required (the
    /// index keeps no positions, so no phrases): supersets, narrowed by the edit distance after.
    /// One edit at a letter breaks the trigrams holding it, and leaves the others (a letter put in between two
    /// breaks fewer): per letter, the trigrams it leaves, less any set that holds another (its words are the
    /// other's). "karbchi" → "bch chi", "kar chi", "kar arb": from seven letters, every set has two trigrams or
    /// more, and few words. Then the word with each adjacent pair swapped, whole (a swap is one edit that breaks
    /// four trigrams). A letter in the middle of a word of 4 or 5 breaks all its trigrams: not found.
    /// Two edits: k + 1 = 3 pieces of the word, one of which survives intact, each a set ("hel", "sin", "kki":
    /// common, so each query's limit leaves words unread).
    static func typoMatches(_ letters: [Unicode.Scalar], edits: Int) -> [String] {
        guard letters.count >= 3 else { return [] }
        func trigramsOf(_ letters: [Unicode.Scalar]) -> [String] {
            (0...(letters.count - 3)).map { String(String.UnicodeScalarView(letters[$0..<($0 + 3)])) }
        }
        func all(_ trigrams: [String]) -> String { Set(trigrams).sorted().map(FTSQuery.quoted).joined(separator: " AND ") }
        let trigrams = trigramsOf(letters)
        guard edits == 1 else {
            let pieceLength = max(3, letters.count / (edits + 1))
            var pieces: Set<String> = []
            var start = 0
            while start < letters.count {
                // A short last piece is widened to a trigram back into the one before.
                let first = max(0, min(start, letters.count - 3))
                let last = max(min(letters.count, start + pieceLength), first + 3) - 3
                pieces.insert(all(Array(trigrams[first...last])))
                start += pieceLength
            }
            return pieces.sorted()
        }
        let left = letters.indices.map { edited in Set(trigrams.indices.filter { $0 > edited || $0 + 2 < edited }) }.filter { !$0.isEmpty }
        let needed = left.filter { set in !left.contains { $0.isStrictSubset(of: set) } }
        let sets = Set(needed.map { set in all(set.map { trigrams[$0] }) }).sorted()
        let swapped = (0..<(letters.count - 1)).filter { letters[$0] != letters[$0 + 1] }.map { i in
            var variant = letters
            variant.swapAt(i, i + 1)
            return "(" + all(trigramsOf(variant)) + ")"
        }
        return swapped.isEmpty ? sets : sets + [swapped.joined(separator: " OR ")]
    }
}
