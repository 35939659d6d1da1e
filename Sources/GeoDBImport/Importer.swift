// Builds a geodb database from input files: to a temporary file beside the output, renamed into place
// only when complete, so a failed or interrupted import never damages an existing database. `Importer`
// coordinates: it plans the sources, has each read by the importer of its kind, then runs the phases.
import Foundation
import GeoDB
import GeoDBFileOutput
import GeoDBSQLite

/// Options for one import.
public struct ImportOptions: Sendable {
    /// Replace an existing output file.
    public var force = false
    public var rtreeBuild = RTreeBuild.packed
    /// Page cache for the build, in MiB; large enough for the indexes being built, and a constant.
    public var cacheMiB = 64
    /// Add to the existing database at the output (copied to the temporary file, renamed back when done).
    public var append = false
    /// Columns and delimiter of CSV inputs.
    public var csv = CSVOptions()
    /// Make the first bad row of a GeoNames or CSV file fatal instead of skipping it.
    public var strict = false
    /// Merge GeoNames/CSV records into the matching place of another source (`place_link`).
    public var linkDuplicates = true
    /// Also write every place's geometry as standard WKB (`place_wkb`; docs/SCHEMA.md, "Standard geometry").
    /// Appending to a file that has it keeps it up to date without this.
    public var standardGeometry = false
    /// An importance file in Nominatim's format (`wikimedia-importance.csv.gz`, gzip or plain): the places of
    /// this import whose Wikidata id or Wikipedia article it lists get at least its importance for them.
    public var importanceFile: String?
    /// Bytes the lookup tables of an OSM file (node locations, the index of way node lists) may hold in
    /// memory; beyond it they go to scratch files beside the output, and lookups read them back
    /// (docs/CLI.md, "Memory"). The search rows held back for the addresses phase (`addressHoldBudget`), and
    /// that phase's street segments and rewritten places, keep within it too (`AddressCompleter`). By default
    /// a quarter of the machine's memory.
    public var memoryBudget = ImportOptions.defaultMemoryBudget

    /// What of `memoryBudget` holds back the search rows of the places the addresses phase may complete
    /// (`FullTextBuilder`): an eighth. The node locations and way index have the rest (`nodeStoreBudget`).
    var addressHoldBudget: Int { memoryBudget / 8 }
    var nodeStoreBudget: Int { memoryBudget - addressHoldBudget }

    /// A quarter of the physical memory: room for the import's other memory (SQLite's caches, the hierarchy
    /// phase's areas), the page cache that makes scratch files cheap, and whatever else the machine runs.
    public static var defaultMemoryBudget: Int { Int(ProcessInfo.processInfo.physicalMemory / 4) }

    public init() {}
}

/// How far an import has come, for progress displays.
public struct ImportProgress: Sendable {
    public var phase: String
    public var file: String
    public var bytesRead: Int
    public var bytesTotal: Int
    public var objectsRead: Int
    public var placesWritten: Int
    /// Bytes of the OSM file's lookup tables on disk because the memory budget was spent (0: none).
    public var spilledBytes = 0
}

/// One imported input file, as recorded in the `source` table.
public struct ImportedSource: Sendable {
    /// `source.id`.
    public var id: Int64
    public var name: String
    public var format: InputFormat
    public var sizeBytes: Int
    public var places: Int
    public var read: OSMReadStats
    public var build: OSMBuildStats
    public var header: OSMHeader
    /// Rows read and skipped (GeoNames and CSV files); nil for OSM files.
    public var records: RecordStats? = nil
    /// Records merged into a place of another source instead of becoming places (`place_link`).
    public var linked = 0
}

/// What an import did.
public struct ImportSummary: Sendable {
    public var output: String
    public var sources: [ImportedSource] = []
    public var countsByKind: [PlaceKind: Int] = [:]
    public var places = 0
    /// Records merged into places of other sources.
    public var linked = 0
    /// Addresses completed at import: a street from the nearest named street, a postcode from the
    /// addresses around (`place.derived`).
    public var derived = DerivedAddressCounts()
    /// How many of the file's addresses have a street and a postcode, tagged or derived.
    public var addresses = AddressCompleteness()
    /// Lookup tables used (country and admin1 names), by file name.
    public var lookupTables: [String] = []
    /// What GeoNames alternate names files gave, when there were any.
    public var alternateNames: AlternateNamesSummary?
    /// What the importance file gave, when there was one.
    public var importanceFile: ImportanceFileStats?
    public var appended = false
    /// `ImportOptions.memoryBudget`; what went beyond it is each OSM source's `build.spilledBytes`.
    public var memoryBudget = 0
    public var seconds = 0.0
    public var outputBytes = 0
    /// The timezone boundary file, when one was imported.
    public var timeZones: TimeZoneImportStats?
    /// Seconds per phase, in order (read, categories, commit, indexes, search tables, …).
    public var phases: [(name: String, seconds: Double)] = []
    /// Files that earlier imports of this output left behind when their process died, removed first.
    public var leftoversRemoved: [String] = []
}

public enum Importer {
    /// The files an import may leave beside its temporary file, by suffix: SQLite's journals, the scratch
    /// database of the search tables. Removed with it on failure and on Ctrl-C.
    static let sideFiles = ["-journal", "-wal", "-shm", FullTextBuilder.scratchSuffix, FullTextBuilder.scratchSuffix + "-journal",
                            AlternateNameStore.scratchSuffix]

    /// Imports `inputs` into a new database at `output` (or adds them to it, with `options.append`).
    /// Throws `GeoDBError` only: a failing SQLite call names the output and SQLite's message.
    public static func run(inputs: [String], output: String, options: ImportOptions = ImportOptions(),
                           progress: ((ImportProgress) -> Void)? = nil) throws -> ImportSummary {
        do {
            return try build(inputs: inputs, output: output, options: options, progress: progress)
        } catch let error as SQLiteError {
            throw GeoDBError.database(path: output, purpose: "import", error)
        }
    }

    private static func build(inputs: [String], output: String, options: ImportOptions,
                              progress: ((ImportProgress) -> Void)?) throws -> ImportSummary {
        let start = Date()
        guard !inputs.isEmpty else { throw GeoDBError(.invalidArgument, "no input files given") }
        // Before any input is read: `force` replaces a file, never a directory.
        try GeoDBError.refuseDirectory(asOutput: output)
        let plan = try ImportPlan(inputs: inputs, formats: try inputs.map { try InputFormat.detect(path: $0) },
                                  linkDuplicates: options.linkDuplicates)
        try checkOutput(output, options: options)
        let lookups = try GazetteerImport.loadLookups(of: plan)
        // Its header now: a file of another kind fails the import before its long part.
        let importanceFile = try options.importanceFile.map { try ImportanceFileReader(path: $0, strict: options.strict) }
        let leftovers = TemporaryOutput.removeLeftovers(for: output)
        let temporary = TemporaryOutput(for: output, sideFiles: Self.sideFiles)
        defer { temporary.discard() }
        if options.append { try temporary.copy(from: output) }

        var summary = ImportSummary(output: output)
        summary.leftoversRemoved = leftovers
        summary.lookupTables = plan.lookupTables.map { ($0.path as NSString).lastPathComponent }
        summary.appended = options.append
        summary.memoryBudget = options.memoryBudget
        var clock = PhaseClock()
        // Before any source: a file that is not what it seemed fails the import before its long part.
        let alternateNames = try GazetteerImport.loadAlternateNames(of: plan, scratchPath: temporary.path + AlternateNameStore.scratchSuffix,
                                                                    options: options, progress: progress)
        defer { alternateNames?.discard() }
        if alternateNames != nil { clock.lap("alternate names") }
        // The connection, its statements and the writer live in this scope only: the file is closed
        // when it ends, before the rename.
        do {
            let db = try openBuild(temporary.path, options: options)
            let fullText = try FullTextBuilder(output: db, scratchPath: temporary.path + FullTextBuilder.scratchSuffix,
                                               cacheMiB: options.cacheMiB, addressHoldBudget: options.addressHoldBudget)
            defer { fullText.discard() }   // now, on failure: not whenever a writer thread lets go of it
            try db.execute("BEGIN")
            let writer = try PlaceWriter(db: db, fullText: fullText, rtreeBuild: options.rtreeBuild,
                                         wikimediaTagged: importanceFile == nil ? nil : WikimediaTaggedPlaces())
            // Appending, records may merge into the places already in the file too.
            if options.append && plan.sources.contains(where: \.linking.mergesIntoEarlier) { try writer.loadLinkCandidates() }
            let context = ImportContext(db: db, writer: writer, options: options, temporary: temporary, progress: progress,
                                        clock: clock, summary: summary)
            let extraAreaLevels = try readSources(of: plan, gazetteers: GazetteerImport(lookups: lookups, alternateNames: alternateNames),
                                                  into: context)
            context.summary.alternateNames = alternateNames?.summary
            alternateNames?.discard()
            context.clock.lap("read")
            FreedMemory.release()
            if let importanceFile { try raiseImportance(from: importanceFile, in: context) }
            try buildHierarchy(extraAreaLevels: extraAreaLevels, in: context)
            try finishTables(in: context, firstWords: fullText.firstWords)
            summary = context.summary
            clock = context.clock
        }
        try temporary.commit()

        summary.seconds = Date().timeIntervalSince(start)
        summary.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        summary.phases = clock.laps
        return summary
    }

    /// Refuses an output that `options` do not let the import write: a missing or damaged file to append
    /// to, an existing one without `force`.
    private static func checkOutput(_ output: String, options: ImportOptions) throws {
        let exists = FileManager.default.fileExists(atPath: output)
        if options.append {
            guard exists else {
                throw GeoDBError(.fileNotFound, "\(output): no such database to append to", remedy: "import into it without `append` first",
                                 option: "append")
            }
            // Its own checks first (`inspect --check`): an append copies every row it keeps, damage included.
            if let failed = try IntegrityCheck.run(path: output).first(where: { !$0.ok }) {
                throw GeoDBError.damagedDatabase(path: output, "fails its check '\(failed.name)' (\(failed.detail)); "
                                                 + "geodb adds nothing to a damaged database")
            }
        } else if exists && !options.force {
            throw GeoDBError(.fileExists, "\(output) already exists", remedy: "set `force` to replace it, or `append` to add to it")
        }
    }

    /// Opens the temporary file for the build, its tables made (or, appending, brought up to date).
    private static func openBuild(_ path: String, options: ImportOptions) throws -> Connection {
        let db = try Connection(path: path, mode: options.append ? .readWrite : .create)
        // Appending, the connection is defensive (the file came from elsewhere), and defensive mode
        // refuses journal_mode OFF: this private copy is thrown away on any failure, so it needs no journal.
        try db.withDefensiveModeOff {
            try db.execute("""
                PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -\(options.cacheMiB * 1024);
                """)
        }
        if !options.append {
            try Schema.createTables(in: db)
        } else if try !Schema.hasEntrances(db) {
            try Schema.createEntrances(in: db)   // a file written before geodb kept entrances
        }
        return db
    }

    /// Has each source read by the importer of its kind, in the plan's order, and merges the places of the
    /// OSM files after the last of them. Returns the merge's places that are areas of a second level too.
    private static func readSources(of plan: ImportPlan, gazetteers: GazetteerImport,
                                    into context: ImportContext) throws -> [Int64: [AddressLevel]] {
        var extraAreaLevels: [Int64: [AddressLevel]] = [:]
        for (i, source) in plan.sources.enumerated() {
            if source.format == .timezoneGeoJSON {
                context.summary.timeZones = try TimeZoneImport().read(source, into: context)
            } else if source.format.isOSM {
                context.summary.sources.append(try OSMImport().read(source, into: context))
                // After the last OSM file, before gazetteer records link to its places: one place per real place.
                if !plan.hasOSMSource(after: i) {
                    extraAreaLevels = try context.clock.attribute(to: "hierarchy") { try PlaceMerger(writer: context.writer).run() }
                }
            } else if source.format == .tiger {
                context.summary.sources.append(try TigerImport().read(source, into: context))
            } else {
                context.summary.sources.append(try gazetteers.read(source, into: context))
            }
        }
        return extraAreaLevels
    }

    /// The importance file's places raised (`ImportanceFileUpdater`).
    private static func raiseImportance(from file: ImportanceFileReader, in context: ImportContext) throws {
        guard let tagged = context.writer.wikimediaTagged else { return }
        let writer = context.writer
        file.onProgress = ProgressThrottle.reporting(to: context.progress) { stats in
            ImportProgress(phase: "importance", file: stats.name, bytesRead: stats.records.bytesRead,
                           bytesTotal: stats.sizeBytes, objectsRead: stats.records.rows, placesWritten: writer.written)
        }
        context.summary.importanceFile = try ImportanceFileUpdater.run(file, writer: writer, tagged: tagged)
        context.clock.lap("importance")
    }

    /// The areas every place lies in (`HierarchyBuilder`; `extraAreaLevels` from the merge of places), then
    /// the streets and postcodes addresses lack (`AddressCompleter`).
    private static func buildHierarchy(extraAreaLevels: [Int64: [AddressLevel]], in context: ImportContext) throws {
        context.announce(phase: "hierarchy")
        let osmSources = Set(context.summary.sources.filter { $0.format.isOSM }.map(\.id))
        // Before the areas: they are places like any other, in the country they name.
        let countries = try ZoneCountryPlaces.add(writer: context.writer)
        context.summary.timeZones?.countryPlaces = countries
        // Beside the hierarchy, on a thread of its own: the nearest streets need no area.
        let streetsFound = try AddressCompleter.startFindingStreets(writer: context.writer, memoryBudget: context.options.memoryBudget)
        // And the search rows made so far: the hierarchy changes none.
        try context.writer.indexSearchRows()
        try HierarchyBuilder(writer: context.writer, osmSources: osmSources).run(extraLevels: extraAreaLevels)
        // Merges change the sources' place counts.
        for (i, source) in context.summary.sources.enumerated() {
            context.summary.sources[i].places = Int(try context.db.scalarInt("SELECT place_count FROM source WHERE id = ?",
                                                                             [.integer(source.id)]) ?? 0)
        }
        FreedMemory.release()
        context.clock.lap("hierarchy")
        // After the area sets: a postcode is derived only where no postal area gives one.
        context.announce(phase: "addresses")
        (context.summary.derived, context.summary.addresses) = try AddressCompleter(writer: context.writer, osmSources: osmSources,
                                                                                    memoryBudget: context.options.memoryBudget,
                                                                                    streetsFound: streetsFound).run()
        FreedMemory.release()
        context.clock.lap("addresses")
    }

    /// The phases after the last place: categories, commit, indexes, standard geometry, `meta`, the search
    /// tables and R*Trees put in, ANALYZE and VACUUM; the summary's place counts.
    private static func finishTables(in context: ImportContext, firstWords: FirstWordTokens) throws {
        let (db, writer, options) = (context.db, context.writer, context.options)
        context.announce(phase: "indexing")
        try writer.finish()
        try CategoryAssigner.finish(in: db, added: writer.categoryCounts)
        context.clock.lap("categories")
        try db.execute("COMMIT")
        context.temporary.startWriteback()
        context.clock.lap("commit")
        try Schema.createIndexes(in: db)
        context.clock.lap("indexes")
        if try options.standardGeometry || Schema.hasStandardGeometry(db) {
            try StandardGeometryWriter.write(in: db)
            context.clock.lap("wkb")
        }
        try writeMeta(db: db, writer: writer, appending: options.append, firstWords: firstWords)
        context.announce(phase: "optimizing")
        try writer.installFullText()
        context.temporary.startWriteback()
        context.clock.lap("search tables")
        try db.execute("ANALYZE")
        context.clock.lap("analyze")
        // A fresh build has no free pages; an append has those of the search tables it replaced.
        // VACUUM only when they matter.
        let pages = try db.scalarInt("PRAGMA page_count") ?? 0
        let free = try db.scalarInt("PRAGMA freelist_count") ?? 0
        if free * 20 > pages { try db.execute("VACUUM") }
        context.clock.lap("vacuum")
        try db.execute("PRAGMA journal_mode = DELETE")
        context.summary.countsByKind = writer.countsByKind
        context.summary.places = writer.written
        context.summary.linked = writer.linked
    }

    private static func writeMeta(db: Connection, writer: PlaceWriter, appending: Bool, firstWords: FirstWordTokens) throws {
        var meta: [(String, String)] = [
            ("generator", "geodb \(GeoDBVersion.string)"),
            (NameKey.firstWordsMetaKey, String(firstWords.rawValue)),
            (appending ? "updated_at" : "created_at", ISO8601.now()),
            ("place_count", String(try db.scalarInt("SELECT count(*) FROM place") ?? 0)),
            ("sqlite_version", Connection.libraryVersion),
        ]
        var box = writer.boundingBox
        if appending, let old = try db.scalarText("SELECT value FROM meta WHERE key = 'bbox'") {
            let v = old.split(separator: ",").compactMap { Double($0) }
            if v.count == 4 {
                let oldBox = BoundingBox(minLat: v[1], minLon: v[0], maxLat: v[3], maxLon: v[2])
                box?.extend(oldBox)
                box = box ?? oldBox
            }
        }
        if let box {
            meta.append(("bbox", [box.minLon, box.minLat, box.maxLon, box.maxLat].map { String(format: "%.7f", $0) }
                .joined(separator: ",")))
        }
        let statement = try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
        for (key, value) in meta { try statement.run([.text(key), .text(value)]) }
    }
}
