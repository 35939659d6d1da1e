// The import of gazetteer files (GeoNames dumps, CSV) and of what is given beside them: the lookup tables
// (GeoNames country and admin1 names) and the GeoNames alternate names files, loaded before any source.
import Foundation
import GeoDB
import GeoDBSQLite

/// Imports GeoNames dumps and CSV files, their codes named by the lookup tables and the dumps' places
/// named by the alternate names files.
struct GazetteerImport: SourceImport {
    let lookups: GazetteerLookups
    let alternateNames: AlternateNameStore?

    /// Loads the plan's country and admin1 tables.
    static func loadLookups(of plan: ImportPlan) throws -> GazetteerLookups {
        var lookups = GazetteerLookups()
        for table in plan.lookupTables {
            if table.format == .countryTable { try lookups.loadCountries(path: table.path) } else { try lookups.loadAdmin1(path: table.path) }
        }
        return lookups
    }

    /// Reads the plan's alternate names files for the places of its GeoNames dumps into a scratch database
    /// at `scratchPath`; nil without such files.
    static func loadAlternateNames(of plan: ImportPlan, scratchPath: String, options: ImportOptions,
                                   progress: ((ImportProgress) -> Void)?) throws -> AlternateNameStore? {
        guard !plan.alternateNames.isEmpty else { return nil }
        return try AlternateNameStore(files: plan.alternateNames.map(\.path), dumps: plan.sources.filter { $0.format == .geonames }.map(\.path),
                                      path: scratchPath, cacheMiB: options.cacheMiB, strict: options.strict,
                                      progress: ProgressThrottle.reporting(to: progress) { stats in
            ImportProgress(phase: "reading", file: stats.name, bytesRead: stats.records.bytesRead, bytesTotal: stats.sizeBytes,
                           objectsRead: stats.records.rows, placesWritten: 0)
        })
    }

    func read(_ input: ImportPlan.Input, into context: ImportContext) throws -> ImportedSource {
        let source = try SourceRow.insert(context.db, path: input.path, format: input.format)
        let (stats, places, linked) = try context.writePlaces(of: source, linking: input.linking) { pipeline in
            let report = ProgressThrottle.reporting(to: context.progress) { (stats: RecordStats) in
                ImportProgress(phase: "reading", file: source.name, bytesRead: stats.bytesRead, bytesTotal: source.sizeBytes,
                               objectsRead: stats.rows, placesWritten: pipeline.sent)
            }
            if input.format == .geonames {
                let reader = GeoNamesReader(path: input.path, lookups: lookups, strict: context.options.strict)
                reader.alternateNames = alternateNames
                reader.onProgress = report
                try reader.read(into: pipeline)
                return reader.stats
            } else {
                let reader = CSVReader(path: input.path, options: context.options.csv, lookups: lookups, strict: context.options.strict)
                reader.onProgress = report
                try reader.read(into: pipeline)
                return reader.stats
            }
        }
        try source.record(SourceRow.Outcome(places: places, linked: linked, dataTimestamp: stats.newestModification), in: context.db)
        return ImportedSource(id: source.id, name: source.name, format: input.format, sizeBytes: source.sizeBytes, places: places,
                              read: OSMReadStats(), build: OSMBuildStats(), header: OSMHeader(), records: stats, linked: linked)
    }
}
