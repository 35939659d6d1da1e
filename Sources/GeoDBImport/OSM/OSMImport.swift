// The import of one OSM file (PBF, or XML plain or compressed): its reader feeding `OSMPlaceBuilder`, whose
// places the writer writes on a thread of its own.
import Foundation
import GeoDB
import GeoDBSQLite

/// Imports OSM files.
struct OSMImport: SourceImport {
    func read(_ input: ImportPlan.Input, into context: ImportContext) throws -> ImportedSource {
        let source = try SourceRow.insert(context.db, path: input.path, format: input.format)
        let scratch = (context.temporary.path as NSString).deletingLastPathComponent
        let ((read, builder), places, linked) = try context.writePlaces(of: source, linking: input.linking, completesAddresses: true) { pipeline in
            let builder = try OSMPlaceBuilder(sink: pipeline, fileName: input.path, scratchDirectory: scratch,
                                              memoryBudget: context.options.nodeStoreBudget)
            let report = ProgressThrottle.reporting(to: context.progress) { (stats: OSMReadStats) in
                ImportProgress(phase: "reading", file: source.name, bytesRead: stats.bytesRead, bytesTotal: source.sizeBytes,
                               objectsRead: stats.nodes + stats.ways + stats.relations, placesWritten: pipeline.sent,
                               spilledBytes: builder.spilledBytes)
            }
            let read = try Self.read(input, into: builder, report: report)
            context.progress?(ImportProgress(phase: "streets", file: source.name, bytesRead: source.sizeBytes, bytesTotal: source.sizeBytes,
                                             objectsRead: read.nodes + read.ways + read.relations, placesWritten: pipeline.sent,
                                             spilledBytes: builder.spilledBytes))
            try builder.finish()
            return (read, builder)
        }
        let header = builder.fileHeader
        try source.record(SourceRow.Outcome(
            places: places, linked: linked,
            dataTimestamp: (header.replicationTimestamp ?? read.newestTimestamp).map(ISO8601.string),
            replicationSequence: header.replicationSequence, replicationURL: header.replicationURL,
            writingProgram: header.writingProgram), in: context.db)
        // `linked` stays 0: an OSM file's links are its streets' other ways, not records merged into another file's places.
        return ImportedSource(id: source.id, name: source.name, format: input.format, sizeBytes: source.sizeBytes, places: places,
                              read: read, build: builder.stats, header: header)
    }

    private static func read(_ input: ImportPlan.Input, into builder: OSMPlaceBuilder,
                             report: @escaping (OSMReadStats) -> Void) throws -> OSMReadStats {
        switch input.format {
        case .osmPBF:
            let reader = PBFReader(path: input.path)
            reader.onProgress = report
            try reader.read(into: builder)
            return reader.stats
        case .osmXML, .osmXMLGzip, .osmXMLBzip2:
            let reader = OSMXMLReader(path: input.path, format: input.format)
            reader.onProgress = report
            try reader.read(into: builder)
            return reader.stats
        case .geonames, .csv, .countryTable, .admin1Table, .alternateNames, .timezoneGeoJSON, .tiger:
            throw GeoDBError(.invalidArgument, "\(input.path) is not an OSM file")
        }
    }
}
