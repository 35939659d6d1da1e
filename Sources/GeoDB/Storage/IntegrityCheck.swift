// `geodb inspect --check`: SQLite, FTS5 and R*Tree integrity plus geodb's own cross-table invariants.
import Foundation
import GeoDBSQLite

/// One check and its outcome.
///
/// ```swift
/// for r in try db.check() where !r.ok { print(r.name, r.detail) }
/// ```
public struct CheckResult: Codable, Sendable {
    /// What was checked, e.g. "fts5 integrity-check".
    public var name: String
    /// Whether it passed.
    public var ok: Bool
    /// What was found: "ok" or the problem.
    public var detail: String
}

/// The checks of `geodb inspect --check`.
///
/// ```swift
/// let failed = try IntegrityCheck.run(path: "helsinki.sqlite").filter { !$0.ok }
/// ```
public enum IntegrityCheck {
    /// The full-text indexes, each checked by FTS5's own integrity check.
    static let fullTextTables = ["place_fts", "place_name_key", "search_token", "area_name_fts"]

    /// Runs every check on the database at `path`, which is opened read-only. FTS5's integrity check is an
    /// INSERT command, which a read-only connection cannot run: it runs on copies of the full-text indexes'
    /// storage in a scratch file in the temporary directory (removed after).
    ///
    /// ```swift
    /// let ok = try IntegrityCheck.run(path: "helsinki.sqlite").allSatisfy(\.ok)
    /// ```
    public static func run(path: String) throws -> [CheckResult] {
        _ = try QuerySession(path: path)   // exists, is geodb, right version, geodb's own schema
        let db: Connection
        do {
            db = try Connection(path: path, mode: .readOnly())
        } catch let error as SQLiteError {
            throw GeoDBError.database(path: path, purpose: "open for checking", error)
        }
        var results: [CheckResult] = []
        func check(_ name: String, _ body: () throws -> String?) {
            do {
                let problem = try body()
                results.append(CheckResult(name: name, ok: problem == nil, detail: problem ?? "ok"))
            } catch let error as SQLiteError {
                results.append(CheckResult(name: name, ok: false, detail: error.message))
            } catch {
                results.append(CheckResult(name: name, ok: false, detail: "\(error)"))
            }
        }
        func count(_ sql: String) throws -> Int64 { try db.scalarInt(sql) ?? 0 }

        check("sqlite integrity_check") {
            let lines = try db.prepare("PRAGMA integrity_check").rows { $0.text(0) ?? "" }
            return lines == ["ok"] ? nil : lines.prefix(5).joined(separator: "; ")
        }
        check("foreign keys") {
            let n = try db.prepare("PRAGMA foreign_key_check").rows { _ in 1 }.count
            return n == 0 ? nil : "\(n) rows point at missing places or sources"
        }
        // FTS5's check of the index structure (SQLite 3.40 does not compare an external-content index
        // with its content table), on copies.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("geodb-check-\(getpid())-\(UUID().uuidString).sqlite").path
        defer { unlink(scratch); unlink(scratch + "-journal") }
        let copies = Result(catching: { try copyFullTextIndexes(of: path, to: scratch) })
        for table in fullTextTables {
            check("fts5 integrity-check(\(table))") {
                let copy = try copies.get()
                try copy.execute("INSERT INTO \(table)(\(table)) VALUES ('integrity-check')")
                return nil
            }
        }
        for table in ["place_rtree", "area_rtree"] {
            check("rtreecheck(\(table))") {
                let text = try db.scalarText("SELECT rtreecheck('\(table)')") ?? ""
                return text == "ok" ? nil : text
            }
        }
        // place_fts keeps no column sizes (columnsize = 0), so its rows are listed from its index: the rows
        // each word is in (fts5vocab 'instance'). A row without words leaves no trace there, nor anywhere.
        let ftsRows = Result<Void, Error>(catching: {
            try db.execute("""
                CREATE VIRTUAL TABLE temp.place_fts_instance USING fts5vocab(main, place_fts, 'instance');
                CREATE TEMP TABLE place_fts_row (id INTEGER PRIMARY KEY);
                INSERT OR IGNORE INTO temp.place_fts_row SELECT doc FROM temp.place_fts_instance;
                """)
        })
        /// Whether the name in `column` holds an ASCII letter or digit, which is a word of the index whatever
        /// else it holds (a name of other letters may be all separators to the tokenizer: "–").
        func worded(_ column: String) -> String { "\(column) GLOB '*[0-9A-Za-z]*'" }
        check("place = place_rtree; every named place has a place_fts row") {
            try ftsRows.get()
            let places = try count("SELECT count(*) FROM place")
            let boxes = try count("SELECT count(*) FROM place_rtree")
            let orphans = try count("SELECT count(*) FROM place_rtree r WHERE NOT EXISTS (SELECT 1 FROM place p WHERE p.id = r.id)")
            let unindexed = try count("""
                SELECT count(*) FROM place p WHERE \(worded("p.name")) AND NOT EXISTS (SELECT 1 FROM temp.place_fts_row f
                  WHERE f.id = (\(SearchRowID.stepSQL(importance: "p.importance", kind: "p.kind", alternate: "0")) << \(SearchRowID.stepShift)) | p.id)
                """)
            guard places == boxes, orphans == 0, unindexed == 0 else {
                return "place \(places), place_rtree \(boxes) (\(orphans) without a place), \(unindexed) named places without a place_fts row"
            }
            return nil
        }
        check("place_fts rowids follow place rank") {
            try ftsRows.get()
            // SearchRowID.of in SQL: a row elsewhere would rank its place as if it were more or less important.
            let misplaced = try count("""
                SELECT count(*) FROM temp.place_fts_row d LEFT JOIN place p ON p.id = \(SearchRowID.placeIDSQL("d.id"))
                WHERE p.id IS NULL OR (d.id >> \(SearchRowID.stepShift))
                      != \(SearchRowID.stepSQL(importance: "p.importance", kind: "p.kind", alternate: SearchRowID.isAlternateSQL("d.id")))
                """)
            return misplaced == 0 ? nil : "\(misplaced) rows are not at their place's rowid (docs/SCHEMA.md, place_fts)"
        }
        check("place_fts alternate names' rows = places with alternate names") {
            try ftsRows.get()
            // An alternate name that is also an own name is in the own names' row only.
            let alternates = JSONText.array(PlaceName.alternateTypes)
            let rows = try count("SELECT count(*) FROM temp.place_fts_row WHERE \(SearchRowID.isAlternateSQL("id")) = 1")
            // All of them, and those with an alternate name that is sure to hold a word: the rows lie between.
            let places = try db.prepare("""
                SELECT count(DISTINCT a.place_id), count(DISTINCT CASE WHEN \(worded("a.name")) THEN a.place_id END) FROM place_name a
                WHERE a.type IN (SELECT value FROM json_each(?1)) AND NOT EXISTS (
                    SELECT 1 FROM place_name o WHERE o.place_id = a.place_id AND o.name = a.name AND o.type NOT IN (SELECT value FROM json_each(?1)))
                """).rows([.text(alternates)]) { (all: $0.int(0), worded: $0.int(1)) }.first ?? (0, 0)
            return rows >= places.worded && rows <= places.all ? nil
                : "\(rows) rows of alternate names for \(places.all) places with alternate names (\(places.worded) with a word)"
        }
        check("search_word = the words of place_fts's names") {
            // Search reads no stream of a word's rows that the vocabulary says has none. Each word counted looked up
            // by the token's index (set operations sorted both lists: 3.4 s on cities500's 759,074 words, this 1.6 s).
            try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.place_fts_column USING fts5vocab(main, place_fts, 'col')")
            let (counted, differing, matched, stored) = try db.prepare("""
                SELECT count(*), coalesce(sum(w.token IS NULL OR w.places IS NOT c.places OR w.language_places IS NOT c.language_places
                                              OR w.address_places IS NOT c.address_places), 0),
                       count(w.token), (SELECT count(*) FROM search_word)
                FROM (\(SearchVocabulary.rows(countedIn: "temp.place_fts_column"))) c LEFT JOIN search_word w ON w.token = c.term
                """).rows { ($0.int(0), $0.int(1), $0.int(2), $0.int(3)) }.first ?? (0, 0, 0, 0)
            let wrong = differing + stored - matched
            return wrong == 0 ? nil
                : "\(wrong) words counted otherwise than place_fts holds them (search_word \(stored) rows, place_fts \(counted) words)"
        }
        check("meta place_count") {
            let stored = try db.scalarText("SELECT value FROM meta WHERE key = 'place_count'")
            let actual = try count("SELECT count(*) FROM place")
            return stored == String(actual) ? nil : "meta says \(stored ?? "nothing"), place has \(actual)"
        }
        check("source place counts add up") {
            let counted = try count("SELECT coalesce(sum(place_count), 0) FROM source")
            let actual = try count("SELECT count(*) FROM place")
            let linked = try count("SELECT coalesce(sum(linked_count), 0) FROM source")
            let links = try count("SELECT count(*) FROM place_link")
            guard counted == actual, linked == links else {
                return "sources say \(counted) places and \(linked) links; place has \(actual), place_link \(links)"
            }
            return nil
        }
        check("coordinates valid and inside their boxes") {
            let bad = try count("""
                SELECT count(*) FROM place p JOIN place_rtree r ON r.id = p.id
                WHERE p.lat NOT BETWEEN -90 AND 90 OR p.lon NOT BETWEEN -180 AND 180
                   OR p.lat NOT BETWEEN r.min_lat - 1e-5 AND r.max_lat + 1e-5
                   OR p.lon NOT BETWEEN r.min_lon - 1e-5 AND r.max_lon + 1e-5
                """)
            return bad == 0 ? nil : "\(bad) places outside ±90/±180 or outside their R*Tree box"
        }
        check("area = area_rtree rows, each area a polygon") {
            let areas = try count("SELECT count(*) FROM area")
            let boxes = try count("SELECT count(*) FROM area_rtree")
            let bad = try count("""
                SELECT count(*) FROM area_rtree r LEFT JOIN area a ON a.id = r.id
                LEFT JOIN place_geometry g ON g.place_id = a.place_id
                WHERE g.geometry IS NULL OR substr(g.geometry, 1, 1) <> x'02'
                """)
            guard areas == boxes, bad == 0 else {
                return "area \(areas), area_rtree \(boxes) (\(bad) without an area polygon)"
            }
            return nil
        }
        // (place_area_set and area_set point at existing rows: "foreign keys" checks that.)
        check("area_set_member = the places of the area_set level columns") {
            // Search finds the sets naming a place through it: a missing row hides places from "…, Town".
            let levels = AddressLevel.nested.map { "SELECT \($0.rawValue)_id, id FROM area_set WHERE \($0.rawValue)_id IS NOT NULL" }
                .joined(separator: " UNION ")
            let missing = try count("SELECT count(*) FROM (\(levels) EXCEPT SELECT place_id, area_set_id FROM area_set_member)")
            let extra = try count("SELECT count(*) FROM (SELECT place_id, area_set_id FROM area_set_member EXCEPT SELECT * FROM (\(levels)))")
            return missing == 0 && extra == 0 ? nil : "\(missing) level places have no member row, \(extra) member rows no level place"
        }
        check("places named by area sets = area_name_fts rows") {
            let named = try count("""
                SELECT count(*) FROM (\(AddressLevel.nested.map { "SELECT \($0.rawValue)_id AS id FROM area_set" }.joined(separator: " UNION ")))
                WHERE id IS NOT NULL
                """)
            let indexed = try count("SELECT count(*) FROM area_name_fts_docsize")
            return named == indexed ? nil : "area sets name \(named) places, area_name_fts has \(indexed)"
        }
        check("geometry blobs decode") {
            let rows = try db.prepare("SELECT place_id, geometry FROM place_geometry")
            var bad: [Int64] = []
            while try rows.step() {
                if Geometry(encoded: rows.blob(1) ?? []) == nil { bad.append(rows.int(0)) }
            }
            return bad.isEmpty ? nil : "\(bad.count) undecodable (place \(bad.prefix(5).map(String.init).joined(separator: ", ")))"
        }
        check("category place counts") {
            // The import adds up what its writer counted: the rows must agree.
            let wrong = try count("""
                SELECT count(*) FROM category c
                WHERE place_count != (SELECT count(*) FROM place_category pc WHERE pc.category_id = c.id)
                """)
            return wrong == 0 ? nil : "\(wrong) categories whose place_count differs from their place_category rows"
        }
        check("place_category repeats its place's position and importance") {
            // Category search reads them from its indexes alone: a stale copy puts a place in the wrong box or order.
            let stale = try count("""
                SELECT count(*) FROM place_category pc JOIN place p ON p.id = pc.place_id
                WHERE pc.lat IS NOT p.lat OR pc.lon IS NOT p.lon OR pc.importance IS NOT p.importance
                """)
            return stale == 0 ? nil : "\(stale) rows differ from their place"
        }
        for (name, body) in timeZoneChecks(db) { check(name, body) }
        return results
    }

    /// Copies the storage tables of the full-text indexes of the database at `path` into a new database at
    /// `scratch`, and returns a connection opened on it afterwards (FTS5 caches an index's structure per
    /// connection: a fresh one reads what was copied).
    private static func copyFullTextIndexes(of path: String, to scratch: String) throws -> Connection {
        do {
            let db = try Connection(path: scratch, mode: .create)
            try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.attachReadOnly(path, as: "checked")
            // The tables as the checked file defines them (`Schema.check` found them to be geodb's).
            let definitions = try db.prepare("SELECT sql FROM checked.sqlite_schema WHERE name = ?")
            for table in ["search_word"] + fullTextTables {
                guard let sql = try definitions.rows([.text(table)], { $0.text(0) }).first ?? nil else {
                    throw GeoDBError(.notAGeoDatabase, "\(path) has no table \(table)")
                }
                try db.execute(sql)
            }
            try db.execute("BEGIN")
            for table in try Schema.storageTables(of: fullTextTables, schema: "checked", in: db) {
                try db.execute("DELETE FROM main.\(table); INSERT INTO main.\(table) SELECT * FROM checked.\(table)")
            }
            try db.execute("COMMIT")
        }
        return try Connection(path: scratch, mode: .create)
    }
}
