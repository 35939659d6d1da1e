// The import of gazetteer files (GeoNames dumps, CSV) and the lookup tables given beside them:
// which input is what, in which order sources are imported, and one source's import.
import Foundation
import GeoDB
import GeoDBSQLite

/// The inputs of one import, sorted: lookup tables apart, then the sources in import order.
struct ImportPlan {
    struct Input {
        var path: String
        var format: InputFormat
    }

    /// OSM files first, then GeoNames dumps, then CSV files (each group in the order given), so that
    /// records of gazetteers link to OSM places whatever order the files were named in.
    let sources: [Input]
    let lookupTables: [Input]
    /// GeoNames alternate names files: names for the places of the GeoNames dumps among the sources, read
    /// before them (`AlternateNameStore`).
    let alternateNames: [Input]

    init(inputs: [String], formats: [InputFormat]) throws {
        let all = zip(inputs, formats).map { Input(path: $0, format: $1) }
        lookupTables = all.filter { $0.format.isLookupTable }
        alternateNames = all.filter { $0.format == .alternateNames }
        let rank = { (format: InputFormat) in format.isOSM ? 0 : format == .geonames ? 1 : 2 }
        sources = all.filter { !$0.format.isLookupTable && $0.format != .alternateNames }.enumerated()
            .sorted { (rank($0.element.format), $0.offset) < (rank($1.element.format), $1.offset) }.map(\.element)
        if let table = lookupTables.first, !sources.contains(where: { $0.format.isGazetteer }) {
            throw GeoDBError(.invalidArgument,
                             "\(table.path) is a lookup table (\(table.format == .countryTable ? "country" : "admin1") names), not a source of places",
                             remedy: "give it beside a GeoNames dump or CSV file whose codes it names")
        }
        if let names = alternateNames.first, !sources.contains(where: { $0.format == .geonames }) {
            throw GeoDBError(.invalidArgument, "\(names.path) is a GeoNames alternate names file, not a source of places",
                             remedy: "give it beside the GeoNames dump whose places it names (cities500.txt, allCountries.txt, …)")
        }
    }

    func loadLookups() throws -> GazetteerLookups {
        var lookups = GazetteerLookups()
        for table in lookupTables {
            if table.format == .countryTable { try lookups.loadCountries(path: table.path) } else { try lookups.loadAdmin1(path: table.path) }
        }
        return lookups
    }

    /// Reads the alternate names files for the places of the GeoNames dumps into a scratch database at
    /// `scratchPath`; nil without such files.
    func loadAlternateNames(scratchPath: String, options: ImportOptions,
                            progress: ((ImportProgress) -> Void)?) throws -> AlternateNameStore? {
        guard !alternateNames.isEmpty else { return nil }
        var throttle = ProgressThrottle()
        return try AlternateNameStore(files: alternateNames.map(\.path), dumps: sources.filter { $0.format == .geonames }.map(\.path),
                                      path: scratchPath, cacheMiB: options.cacheMiB, strict: options.strict) { stats in
            guard let progress, throttle.due() else { return }
            progress(ImportProgress(phase: "reading", file: stats.name, bytesRead: stats.records.bytesRead, bytesTotal: stats.sizeBytes,
                                    objectsRead: stats.records.rows, placesWritten: 0))
        }
    }
}

extension Importer {
    static func importGazetteer(_ input: String, format: InputFormat, db: Connection, writer: PlaceWriter,
                                lookups: GazetteerLookups, alternateNames: AlternateNameStore?, options: ImportOptions,
                                progress: ((ImportProgress) -> Void)?) throws -> ImportedSource {
        let source = try SourceRow.insert(db, path: input, format: format)
        let (name, size) = (source.name, source.sizeBytes)
        let placesBefore = writer.written, linkedBefore = writer.linked
        writer.sourceID = source.id
        let pipeline = PipelinedPlaceSink(target: writer)
        var throttle = ProgressThrottle()
        let report = { (stats: RecordStats) in
            guard let progress, throttle.due() else { return }
            progress(ImportProgress(phase: "reading", file: name, bytesRead: stats.bytesRead, bytesTotal: size,
                                    objectsRead: stats.rows, placesWritten: pipeline.sent))
        }
        let stats: RecordStats
        do {
            if format == .geonames {
                let reader = GeoNamesReader(path: input, lookups: lookups, strict: options.strict)
                reader.alternateNames = alternateNames
                reader.onProgress = report
                try reader.read(into: pipeline)
                stats = reader.stats
            } else {
                let reader = CSVReader(path: input, options: options.csv, lookups: lookups, strict: options.strict)
                reader.onProgress = report
                try reader.read(into: pipeline)
                stats = reader.stats
            }
        } catch {
            try? pipeline.drain()   // stop the writer thread before the database goes away
            throw error
        }
        try pipeline.drain()
        let places = writer.written - placesBefore, linked = writer.linked - linkedBefore
        try source.record(SourceRow.Outcome(places: places, linked: linked, dataTimestamp: stats.newestModification), in: db)
        return ImportedSource(id: source.id, name: name, format: format, sizeBytes: size, places: places, read: OSMReadStats(),
                              build: OSMBuildStats(), header: OSMHeader(), records: stats, linked: linked)
    }
}
