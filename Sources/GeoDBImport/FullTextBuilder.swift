// Builds the search tables (place_fts and the typo vocabulary search_word/search_token) and the packed
// place R*Trees in a scratch database on a thread of their own, then copies them into the output in one pass.
import Foundation
import GeoDB
import GeoDBSQLite

/// FTS5's tokenizing and index merging is most of a gazetteer import's SQLite work (cities500: 1.2 M
/// names). A second database file lets it run beside the writing of places, since one SQLite file takes
/// one writer at a time. The finished tables are plain b-trees (FTS5's shadow tables) that
/// `INSERT INTO … SELECT *` copies record by record without decoding (SQLite's transfer optimization):
/// cities500's 33 MB of index in well under a second.
///
/// The packed R*Trees are written here too, after the search tables: at the end of an import the output's
/// connection is busy building indexes, and this thread is free (x50: 0.07 s of inserts off that path).
///
/// Changes are applied in the order sent. Nothing reads the search tables or R*Trees of the output until
/// `install(into:)` has replaced them.
final class FullTextBuilder {
    fileprivate enum Change {
        /// Place `id`'s rows (`rows(id:…)`), made on the worker's thread: their texts (the names' extra forms and
        /// keys, the address columns) were a fifth of the writer thread's work, the thread every place waits for.
        /// `awaitsAddress`: held back until `completeAddress` or `complete` instead.
        case insert(id: Int64, place: IndexedPlace, awaitsAddress: Bool)
        /// Contentless FTS5 forgets a row only when told the exact rowid and text it indexed: the rows `insert`
        /// made of these values.
        case delete(id: Int64, place: IndexedPlace)
        /// Place `id`, held back, has these parts where it had none (`IndexedPlace.complete`): its rows are made.
        case completeAddress(id: Int64, street: String?, postcode: String?)
        /// Index the rows held now, not when a batch's worth is held (`indexHeldRows`).
        case indexHeld
        /// Make the rows of the places still held back, optimize place_fts and derive the vocabulary from it.
        case complete
        /// Write these packed trees (once packed) into the scratch database's tables of their names.
        case rtrees(BackgroundResult<[(table: String, tree: PackedRTree)]>)
    }

    /// Appended to the temporary output's path for the scratch database.
    static let scratchSuffix = "-fulltext"
    let scratchPath: String
    private var worker: BackgroundWorker<Change>?
    /// The R*Trees sent with `writeRTrees`, which `install` copies with the search tables.
    private var rtreeTables: [String] = []
    /// Set by `discard`: the scratch path is removed once, by whoever discards first. (A failed import's
    /// builder can be released late, by a writer thread; unlinking then would remove the scratch file of
    /// the next import of the same output in this process, which has the same path.)
    private var discarded = false

    /// The first-word tokens the place_name_key rows it writes hold: a new file's (`FirstWordTokens.current`),
    /// or those of the file appended to.
    private(set) var firstWords = FirstWordTokens.current

    /// The places whose rows the worker holds back for the addresses phase, at most `addressHoldLimit`. A
    /// derived street or postcode then makes their rows once: rewriting rows already made meant reading the
    /// place back (contentless FTS5 forgets a row only when told its text) and deleting the old rows, which
    /// FTS5 re-tokenizes and the final optimize merges away (Liechtenstein ×20: 23,000 streets and addresses;
    /// the addresses phase's writing 0.28 → 0.16 s, and the worker's deletions gone).
    private var awaitingAddress: Set<Int64> = []
    private let addressHoldLimit: Int

    /// Starts a scratch database at `scratchPath` (replacing any file there) with a page cache of
    /// `cacheMiB`, carrying over the place_fts rows `output` already has (appending). `output` must not be
    /// in a transaction (ATTACH). `addressHoldBudget`: the bytes the places held back for the addresses phase
    /// may take (`ImportOptions.addressHoldBudget`); beyond it a place's rows are made at once.
    init(output: Connection, scratchPath: String, cacheMiB: Int, addressHoldBudget: Int = 0) throws {
        self.scratchPath = scratchPath
        addressHoldLimit = addressHoldBudget / IndexedPlace.approximateBytes
        unlink(scratchPath)
        do {
            let setup = try Connection(path: scratchPath, mode: .create)
            try setup.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF")
            try Schema.createScratchTables(in: setup)
        }
        // Through the output's connection, before the scratch connection below opens (and caches anything).
        if try output.scalarInt("SELECT EXISTS (SELECT 1 FROM place)") == 1 {
            try Self.copy(["place_fts", "place_name_key"], from: "main", to: "fulltext", db: output, attaching: scratchPath)
            // Rows are deleted by their texts (contentless FTS5): a file written with other first-word tokens gets
            // rows as its own are, or deleting one would corrupt the index.
            firstWords = FirstWordTokens(metaValue: try output.scalarText(
                "SELECT value FROM meta WHERE key = '\(NameKey.firstWordsMetaKey)'"))
        }
        let index = try ScratchIndex(path: scratchPath, cacheMiB: cacheMiB, firstWords: firstWords)
        // 64 batches in flight, not 8: the writer (and, rewriting completed addresses, the main thread) went on
        // waiting for a full queue whenever FTS5 wrote out a segment; 32,768 places' values are a few MB.
        worker = BackgroundWorker(name: "geodb-fulltext", batchSize: 512, queueLimit: 64) { try index.apply($0) }
    }

    deinit { discard() }

    /// The texts of a place_fts row, one per column, and of its place_name_key row.
    struct RowText {
        var name: String
        /// Own names in a language that are not among `name`'s (`SearchNames.inLanguages`).
        var langName: String
        var street: String
        var address: String
        /// `NameKey.text` of the row's names (and of the street of a place without a name).
        var keys: String
    }

    /// Indexes place `id`: a row of its own names and address, and one of its alternate names and address
    /// when it has any (`rows(id:…)`, made by the worker's thread; `named` when `place.name` is set); their
    /// places in the index's order follow `importance` (as `place.importance` has it) and `kind` (`SearchRowID`).
    /// `awaitsAddress`: the addresses phase may complete its address (`AddressCompleter.mayComplete`), so its
    /// rows wait for `completeAddress` (or `complete`), within the hold's limit.
    func insert(id: Int64, importance: Double, kind: PlaceKind, names: SearchNames, named: Bool, address: Address,
                awaitsAddress: Bool = false) throws {
        let holds = awaitsAddress && awaitingAddress.count < addressHoldLimit
        if holds { awaitingAddress.insert(id) }
        try worker?.send(.insert(id: id, place: IndexedPlace(kind: kind, importance: importance, names: names, named: named,
                                                             address: address), awaitsAddress: holds))
    }

    /// Forgets the rows `insert` made with these values (or holds back).
    func delete(id: Int64, importance: Double, kind: PlaceKind, names: SearchNames, named: Bool, address: Address) throws {
        awaitingAddress.remove(id)
        try worker?.send(.delete(id: id, place: IndexedPlace(kind: kind, importance: importance, names: names, named: named,
                                                             address: address)))
    }

    /// Makes the rows of place `id`, held back, with `street` and `postcode` where it has none. False when it is
    /// not held back (its rows are made: rewrite them with `delete` and `insert`).
    func completeAddress(of id: Int64, street: String?, postcode: String?) throws -> Bool {
        guard awaitingAddress.remove(id) != nil else { return false }
        try worker?.send(.completeAddress(id: id, street: street, postcode: postcode))
        return true
    }

    /// The rowids and texts of a place's rows: a row of its own names and address, and one of its alternate
    /// names and address when it has any (`SearchNames.texts`; the address columns `Address.searchColumns`; the
    /// names' keys, `NameKey`).
    /// `streets`: the texts of streets met before, kept and reused (made with the same `firstWords`).
    static func rows(id: Int64, importance: Double, kind: PlaceKind, names: SearchNames, named: Bool,
                     address: Address, firstWords: FirstWordTokens, streets: StreetTexts? = nil) -> [(rowid: Int64, text: RowText)] {
        let street = address.street.flatMap { streets?.texts(of: $0) }
        let columns = address.searchColumns(named: named, streetForms: street?.forms)
        let texts = names.texts
        // Each name is keyed with the house number too (`NameKey.numbered`): the keys of "Street 5".
        let number = NameKey.numberToken(of: address.housenumber)
        // The own row of a place with names in a language holds its alternate names' first-word prefixes too
        // (`NameKey.text`'s `leadingAlso`): search, finding its names in no language without a query word, bounds it
        // by its names in a language (`Candidate.namesInLanguagesOnly`), which rank below an alternate name that
        // begins with the word, so only both kinds' keys can say it has no name that does. Rows of alternate
        // names hold their whole first words alone: their prefixes were 4 % of cities500's file (hundreds of
        // alternates a city, none in a language) for candidates whose bound they would lower by 1.5 points.
        let leadingAlso = texts.inLanguages.isEmpty ? [] : names.alternate
        // A place without a name or names of its own (an address) is keyed by its street alone.
        let ownKeys = names.own.isEmpty && !named && street != nil
            ? [street!.keys, number.flatMap { NameKey.numbered(address.street!, number: $0) } ?? "",
               NameKey.text(of: [String](), firstWords: firstWords, leadingAlso: leadingAlso)].filter { !$0.isEmpty }.joined(separator: " ")
            : NameKey.text(of: names.own + (named ? [] : address.street.map { [$0] } ?? []), inLanguages: names.inLanguages,
                           number: number, firstWords: firstWords, leadingAlso: leadingAlso)
        let own = (SearchRowID.of(place: id, importance: importance, kind: kind),
                   RowText(name: texts.own, langName: texts.inLanguages, street: columns.street, address: columns.address, keys: ownKeys))
        guard !texts.alternate.isEmpty else { return [own] }
        return [own, (SearchRowID.of(place: id, importance: importance, kind: kind, alternate: true),
                      RowText(name: texts.alternate, langName: "", street: columns.street, address: columns.address,
                              keys: NameKey.text(of: names.alternate, number: number, firstWords: firstWords.ofAlternates)))]
    }

    /// Has the worker index the rows it holds now rather than at `complete`: call when the import's thread
    /// starts long work that changes no search rows (the hierarchy). A file smaller than a batch (1 MiB of
    /// text) is otherwise indexed whole after the addresses phase, on the import's critical path, while this
    /// thread sat idle through the hierarchy (Liechtenstein: 16,000 rows; the search-tables phase 86 → 36 ms).
    func indexHeldRows() throws {
        try worker?.send(.indexHeld)
        try worker?.flush()
    }

    /// Makes the rows still held back, starts the final optimize and the vocabulary in the background; only
    /// `writeRTrees` may follow.
    func complete() throws {
        awaitingAddress = []
        try worker?.send(.complete)
        try worker?.flush()
    }

    /// Writes the R*Trees being packed by `trees` into the scratch database, after the search tables;
    /// `install` puts them into the output with those. Each must be packed for the node size of its table
    /// (`RTreeBulkLoader.write` refuses another).
    func writeRTrees(_ trees: BackgroundResult<[(table: String, tree: PackedRTree)]>, tables: [String]) throws {
        rtreeTables = tables
        try worker?.send(.rtrees(trees))
        try worker?.flush()
    }

    /// Waits for the scratch database to be complete, then replaces the output's search tables (and
    /// R*Trees, when sent) with its. `output` must not be in a transaction (ATTACH).
    func install(into output: Connection) throws {
        let worker = self.worker
        self.worker = nil   // the scratch connection closes with the worker
        try worker?.drain()
        try Self.copy(["place_fts", "place_name_key", "search_token"] + rtreeTables, from: "fulltext", to: "main", db: output,
                      attaching: scratchPath)
        discard()
    }

    /// Stops the worker and removes the scratch file; later calls do nothing.
    func discard() {
        guard !discarded else { return }
        discarded = true
        try? worker?.drain()
        worker = nil
        unlink(scratchPath)
        unlink(scratchPath + "-journal")
    }

    /// Replaces the storage of `ftsTables` in schema `to` with that in `from`, `path` attached as "fulltext".
    private static func copy(_ ftsTables: [String], from: String, to: String, db: Connection, attaching path: String) throws {
        try db.prepare("ATTACH DATABASE ? AS fulltext").run([.text(path)])
        defer { try? db.execute("DETACH DATABASE fulltext") }
        let tables = try Schema.storageTables(of: ftsTables, schema: from, in: db)
        // Shadow tables: an appending connection is defensive, which forbids writing them directly.
        try db.withDefensiveModeOff {
            try db.execute("BEGIN")
            do {
                for table in tables {
                    try db.execute("DELETE FROM \(to).\(table); INSERT INTO \(to).\(table) SELECT * FROM \(from).\(table)")
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")   // else the DETACH fails and the connection stays in the transaction
                throw error
            }
        }
    }
}

/// The scratch database's connection and statements; used only on the worker thread.
/// Rows are held back and go into place_fts in batches sorted by rowid: FTS5 writes out its pending
/// terms whenever a rowid is not above the last one, and place_fts rowids follow importance, not the order
/// places are written in (100 k rows: 2.0 s in that order, 0.3 s sorted). A deletion of a row still held
/// is forgetting it; one already indexed is held too, and deleted from place_fts with the text it was
/// indexed with, sorted as well and before the batch's rows (a row deleted and added anew keeps its rowid
/// when its rank does): deletions come in place order too (merges, completed addresses, an importance file),
/// and 90 k places rewritten one by one took 9.8 s.
private final class ScratchIndex {
    private let db: Connection
    private let insert: Statement
    private let delete: Statement
    private let insertKeys: Statement
    private let deleteKeys: Statement
    /// The first-word tokens place_name_key rows hold (`FullTextBuilder.firstWords`).
    private let firstWords: FirstWordTokens
    private let streets: StreetTexts
    /// Places held back for the addresses phase (`FullTextBuilder.awaitingAddress`), by id.
    private var awaitingAddress: [Int64: IndexedPlace] = [:]
    /// Rows not yet indexed, indexed rows not yet deleted, and the bytes of their text.
    private var held: [Int64: FullTextBuilder.RowText] = [:]
    private var heldDeletions: [Int64: FullTextBuilder.RowText] = [:]
    private var heldBytes = 0
    /// Held text that makes a batch: about what FTS5 holds before writing out its pending terms anyway
    /// (1 MiB), so that indexing keeps pace with the import instead of waiting for its end.
    private static let batchBytes = 1 << 20

    init(path: String, cacheMiB: Int, firstWords: FirstWordTokens) throws {
        self.firstWords = firstWords
        streets = StreetTexts(firstWords: firstWords)
        // `.create`: the file is this import's own, made a moment ago, not one to be defensive about (the
        // R*Trees are written straight into its shadow tables).
        db = try Connection(path: path, mode: .create)
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(cacheMiB * 1024)")
        try FullTextMerging.defer(in: db)
        insert = try db.prepare("INSERT INTO place_fts(rowid, name, street, address, lang_name) VALUES (?, ?, ?, ?, ?)")
        delete = try db.prepare("INSERT INTO place_fts(place_fts, rowid, name, street, address, lang_name) VALUES ('delete', ?, ?, ?, ?, ?)")
        insertKeys = try db.prepare("INSERT INTO place_name_key(rowid, key) VALUES (?, ?)")
        deleteKeys = try db.prepare("INSERT INTO place_name_key(place_name_key, rowid, key) VALUES ('delete', ?, ?)")
        for statement in [insert, delete, insertKeys, deleteKeys] { statement.copiesBoundValues = true }
        try db.execute("BEGIN")
    }

    func apply(_ change: FullTextBuilder.Change) throws {
        switch change {
        case .insert(let id, let place, let awaitsAddress):
            if awaitsAddress {
                awaitingAddress[id] = place
            } else {
                try hold(id, place)
            }
        case .delete(let id, let place):
            guard awaitingAddress.removeValue(forKey: id) == nil else { return }
            for (rowid, text) in rows(id: id, place) where held.removeValue(forKey: rowid) == nil {
                heldDeletions[rowid] = text
                try hold(text)
            }
        case .completeAddress(let id, let street, let postcode):
            guard var place = awaitingAddress.removeValue(forKey: id) else { return }
            _ = place.complete(street: street, postcode: postcode)
            try hold(id, place)
        case .indexHeld:
            try indexHeld()
        case .complete:
            // In id order, so that the batches, and the index's layout, are the same from one run to the next.
            for (id, place) in awaitingAddress.sorted(by: { $0.key < $1.key }) { try hold(id, place) }
            awaitingAddress = [:]
            try complete()
        case .rtrees(let trees):
            try db.execute("BEGIN")
            for (table, tree) in trees.value() { try RTreeBulkLoader.write(tree, into: table, db: db) }
            try db.execute("COMMIT")
        }
    }

    private func rows(id: Int64, _ place: IndexedPlace) -> [(rowid: Int64, text: FullTextBuilder.RowText)] {
        FullTextBuilder.rows(id: id, importance: place.importance, kind: place.kind, names: place.names, named: place.named,
                             address: place.address, firstWords: firstWords, streets: streets)
    }

    /// Holds the rows of place `id` to be indexed.
    private func hold(_ id: Int64, _ place: IndexedPlace) throws {
        for (rowid, text) in rows(id: id, place) {
            held[rowid] = text
            try hold(text)
        }
    }

    /// Counts `text` as held; a batch's worth is indexed.
    private func hold(_ text: FullTextBuilder.RowText) throws {
        heldBytes += text.name.utf8.count + text.langName.utf8.count + text.street.utf8.count + text.address.utf8.count
            + text.keys.utf8.count
        if heldBytes >= Self.batchBytes { try indexHeld() }
    }

    /// Deletes the rows held for deletion, then indexes the held rows, each in rowid order.
    private func indexHeld() throws {
        // Each row's texts moved out of the dictionary in rowid order, not the dictionary sorted: that copied
        // every row's four strings, a retain and a release each (x20: 0.1 s of the worker's 2 s), where a move
        // costs a hash lookup.
        for rowid in heldDeletions.keys.sorted() { try run(delete, deleteKeys, rowid, heldDeletions.removeValue(forKey: rowid)!) }
        for rowid in held.keys.sorted() { try run(insert, insertKeys, rowid, held.removeValue(forKey: rowid)!) }
        heldBytes = 0
    }

    /// Runs `statement` on the row's place_fts texts and `keys` on its place_name_key text.
    private func run(_ statement: Statement, _ keys: Statement, _ rowid: Int64, _ text: FullTextBuilder.RowText) throws {
        try statement.bind(1, rowid)
        try statement.bind(2, text.name)
        try statement.bind(3, text.street)
        try statement.bind(4, text.address)
        try statement.bind(5, text.langName)
        try statement.step()
        statement.reset()
        try keys.bind(1, rowid)
        try keys.bind(2, text.keys)
        try keys.step()
        keys.reset()
    }

    /// Indexes the rows still held, optimizes place_fts, then fills the vocabulary: the distinct words (4 to 32 letters) of its name
    /// columns with their place counts (a row holding a word in both `name` and `lang_name`, rare, counted twice), those in
    /// `lang_name` and those in `address` apart, read from the optimized index (one segment to walk).
    /// `Tools/bench/sqlite-floor.py` times these statements by themselves: keep it in step with them.
    private func complete() throws {
        try indexHeld()
        try db.execute("""
            INSERT INTO place_fts(place_fts) VALUES ('optimize');
            INSERT INTO place_name_key(place_name_key) VALUES ('optimize');
            CREATE VIRTUAL TABLE temp.place_fts_vocabulary USING fts5vocab(main, place_fts, 'col');
            INSERT INTO search_word(token, places, language_places, address_places)
              \(SearchVocabulary.rows(countedIn: "temp.place_fts_vocabulary"));
            DROP TABLE temp.place_fts_vocabulary;
            INSERT INTO search_token(search_token) VALUES ('rebuild');
            INSERT INTO search_token(search_token) VALUES ('optimize');
            """)
        try FullTextMerging.restore(in: db)
        try db.execute("COMMIT")
    }
}

/// The search texts of the streets places name, made once per street: an import's addresses name the same
/// streets over and over (x20: 240,840 addresses), and a street's extra forms (`TextNormalizer.indexAlternatives`)
/// and key (`NameKey`) were most of making an address's rows. Forgotten at `limit` streets, so that memory holds
/// those of a region, not of a planet.
final class StreetTexts {
    /// By street; with the street as first met, since Strings equal as Swift compares them (canonically) can
    /// differ in their bytes, and so in their texts.
    private var known: [String: (street: String, forms: [String], keys: String)] = [:]
    private let limit = 100_000
    private let firstWords: FirstWordTokens

    /// `firstWords`: the first-word tokens the keys hold (`FullTextBuilder.firstWords`).
    init(firstWords: FirstWordTokens) { self.firstWords = firstWords }

    /// The street's extra forms, and the `NameKey.text` of the street alone.
    func texts(of street: String) -> (forms: [String], keys: String) {
        if let texts = known[street], texts.street.utf8.elementsEqual(street.utf8) { return (texts.forms, texts.keys) }
        let texts = (forms: TextNormalizer.indexAlternatives(street), keys: NameKey.text(of: [street], firstWords: firstWords))
        if known.count >= limit { known.removeAll(keepingCapacity: true) }
        if known[street] == nil { known[street] = (street, texts.forms, texts.keys) }
        return texts
    }
}

/// FTS5 merges index segments as rows arrive (automerge) and in bursts when levels fill (crisismerge):
/// work that the final 'optimize' redoes. During an import both wait; the defaults come back after, for
/// whoever writes the file next. Measured on cities500 (1.2 M names): FTS insert + optimize 3.4 → 2.4 s.
/// (A larger table of pending terms, 'hashsize' 16 MiB instead of 1, saved 0.2 s of optimize but cost
/// more in inserts: 6.2 → 7.3 s for the whole import.)
enum FullTextMerging {
    static let tables = ["place_fts", "place_name_key", "search_token"]

    static func `defer`(in db: Connection) throws {
        try configure(db, automerge: 0, crisismerge: 64)
    }

    static func restore(in db: Connection) throws {
        try configure(db, automerge: 4, crisismerge: 16)
    }

    private static func configure(_ db: Connection, automerge: Int, crisismerge: Int) throws {
        for table in tables {
            try db.execute("""
                INSERT INTO \(table)(\(table), rank) VALUES ('automerge', \(automerge));
                INSERT INTO \(table)(\(table), rank) VALUES ('crisismerge', \(crisismerge))
                """)
        }
    }
}
