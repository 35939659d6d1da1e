// The import of a TIGER input (Nominatim's preprocessed US Census address ranges): after the OSM files,
// whose streets its lines are parented to.
import Foundation
import GeoDB
import GeoDBSQLite

/// Imports a TIGER input: its lines' cells read first, the streets near them loaded, then its rows read
/// into places parented to those streets.
struct TigerImport: SourceImport {
    func read(_ input: ImportPlan.Input, into context: ImportContext) throws -> ImportedSource {
        let source = try SourceRow.insert(context.db, path: input.path, format: input.format)
        let files = TigerFiles(path: input.path)
        let reader = TigerReader(files: files, strict: context.options.strict)
        let size = files.sizeBytes
        // The first of the two passes: where the lines are, so that only the streets near them are loaded.
        let locating = ProgressThrottle.reporting(to: context.progress) { (bytes: Int) in
            ImportProgress(phase: "locating", file: source.name, bytesRead: bytes, bytesTotal: size, objectsRead: 0, placesWritten: 0)
        }
        let streets = try TigerStreets(db: context.db, wanted: reader.cellsAround(progress: locating))
        let (stats, places, linked) = try context.writePlaces(of: source, linking: input.linking) { pipeline in
            reader.onProgress = ProgressThrottle.reporting(to: context.progress) { (stats: RecordStats) in
                ImportProgress(phase: "reading", file: source.name, bytesRead: stats.bytesRead, bytesTotal: size,
                               objectsRead: stats.rows, placesWritten: pipeline.sent)
            }
            try reader.read(parentingWith: streets, into: pipeline)
            return reader.stats
        }
        try source.record(SourceRow.Outcome(places: places, linked: linked), in: context.db)
        return ImportedSource(id: source.id, name: source.name, format: input.format, sizeBytes: size, places: places,
                              read: OSMReadStats(), build: OSMBuildStats(), header: OSMHeader(), records: stats, linked: linked)
    }
}
