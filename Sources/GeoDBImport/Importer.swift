// Builds a geodb database from input files: to a temporary file beside the output, renamed into place
// only when complete, so a failed or interrupted import never damages an existing database.
import Foundation
import GeoDB
import GeoDBSQLite

/// Options for one import.
public struct ImportOptions: Sendable {
    /// Replace an existing output file.
    public var force = false
    public var rtreeBuild = RTreeBuild.packed
    /// Page cache for the build, in MiB; large enough for the indexes being built, and a constant.
    public var cacheMiB = 16

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
}

/// One imported input file, as recorded in the `source` table.
public struct ImportedSource: Sendable {
    public var name: String
    public var format: InputFormat
    public var sizeBytes: Int
    public var places: Int
    public var read: OSMReadStats
    public var build: OSMBuildStats
    public var header: OSMHeader
}

/// What an import did.
public struct ImportSummary: Sendable {
    public var output: String
    public var sources: [ImportedSource] = []
    public var countsByKind: [PlaceKind: Int] = [:]
    public var places = 0
    public var seconds = 0.0
    public var outputBytes = 0
    /// The timezone boundary file, when one was imported.
    public var timeZones: TimeZoneImportStats?
    /// Seconds per phase, in order (read, finish, index, optimize, …).
    public var phases: [(name: String, seconds: Double)] = []
}

public enum Importer {
    /// Imports `inputs` into a new database at `output`.
    public static func run(inputs: [String], output: String, options: ImportOptions = ImportOptions(),
                           progress: ((ImportProgress) -> Void)? = nil) throws -> ImportSummary {
        let start = Date()
        guard !inputs.isEmpty else { throw GeoDBError(.invalidArgument, "no input files given") }
        let formats = try inputs.map { try InputFormat.detect(path: $0) }
        if FileManager.default.fileExists(atPath: output) && !options.force {
            throw GeoDBError(.fileExists, "\(output) already exists", remedy: "use --force to replace it")
        }
        let temporary = TemporaryOutput(for: output)
        defer { temporary.discard() }

        var summary = ImportSummary(output: output)
        var clock = PhaseClock()
        // The connection, its statements and the writer live in this scope only: the file is closed
        // when it ends, before the rename.
        do {
            let db = try Connection(path: temporary.path, mode: .create)
            try db.execute("""
                PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -\(options.cacheMiB * 1024);
                """)
            try Schema.createTables(in: db)
            try db.execute("BEGIN")
            let writer = try PlaceWriter(db: db, rtreeBuild: options.rtreeBuild)
            for (input, format) in zip(inputs, formats) {
                if format == .timezoneGeoJSON {
                    summary.timeZones = try TimeZoneImporter.run(input, db: db, progress: progress)
                    continue
                }
                summary.sources.append(try importOSM(input, format: format, db: db, writer: writer,
                                                     temporary: temporary, progress: progress))
            }
            clock.lap("read")
            progress?(ImportProgress(phase: "indexing", file: "", bytesRead: 0, bytesTotal: 0, objectsRead: 0,
                                     placesWritten: writer.written))
            try writer.finish()
            clock.lap("rtree")
            try db.execute("COMMIT")
            try Schema.createIndexes(in: db)
            clock.lap("indexes")
            try writeMeta(db: db, writer: writer)
            progress?(ImportProgress(phase: "optimizing", file: "", bytesRead: 0, bytesTotal: 0, objectsRead: 0,
                                     placesWritten: writer.written))
            try db.execute("INSERT INTO place_fts(place_fts) VALUES ('optimize'); ANALYZE;")
            clock.lap("optimize")
            // A fresh build has no free pages except those FTS optimize released; VACUUM only when they matter.
            let pages = try db.scalarInt("PRAGMA page_count") ?? 0
            let free = try db.scalarInt("PRAGMA freelist_count") ?? 0
            if free * 20 > pages { try db.execute("VACUUM") }
            clock.lap("vacuum")
            try db.execute("PRAGMA journal_mode = DELETE")
            summary.countsByKind = writer.countsByKind
            summary.places = writer.written
        }
        try temporary.commit()

        summary.seconds = Date().timeIntervalSince(start)
        summary.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        summary.phases = clock.laps
        return summary
    }

    private static func importOSM(_ input: String, format: InputFormat, db: Connection, writer: PlaceWriter,
                                  temporary: TemporaryOutput, progress: ((ImportProgress) -> Void)?) throws -> ImportedSource {
        let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        let placesBefore = writer.written
        let name = (input as NSString).lastPathComponent
        let sourceID = try insertSource(db: db, name: name, format: format, size: size)
        writer.sourceID = sourceID
        let scratch = (temporary.path as NSString).deletingLastPathComponent
        let pipeline = PipelinedPlaceSink(target: writer)
        let builder: OSMPlaceBuilder
        do {
            builder = try OSMPlaceBuilder(sink: pipeline, scratchDirectory: scratch)
        } catch {
            try? pipeline.drain()
            throw error
        }
        var throttle = ProgressThrottle()
        let report = { (stats: OSMReadStats) in
            guard let progress, throttle.due() else { return }
            progress(ImportProgress(phase: "reading", file: name, bytesRead: stats.bytesRead, bytesTotal: size,
                                    objectsRead: stats.nodes + stats.ways + stats.relations, placesWritten: pipeline.sent))
        }
        let read: OSMReadStats
        do {
            read = try readOSM(input, format: format, into: builder, temporary: temporary, report: report)
            progress?(ImportProgress(phase: "streets", file: name, bytesRead: size, bytesTotal: size,
                                     objectsRead: read.nodes + read.ways + read.relations, placesWritten: pipeline.sent))
            try builder.finish()
        } catch {
            try? pipeline.drain()   // stop the writer thread before the database goes away
            throw error
        }
        try pipeline.drain()
        let places = writer.written - placesBefore
        let header = builder.fileHeader
        try db.prepare("""
            UPDATE source SET place_count = ?, data_timestamp = ?, replication_sequence = ?, replication_url = ?,
                              writing_program = ? WHERE id = ?
            """).run([.integer(Int64(places)), (header.replicationTimestamp ?? read.newestTimestamp).map { .text(ISO8601.string($0)) } ?? .null,
                      header.replicationSequence.map { .integer($0) } ?? .null,
                      header.replicationURL.map { .text($0) } ?? .null,
                      header.writingProgram.map { .text($0) } ?? .null, .integer(sourceID)])
        return ImportedSource(name: name, format: format, sizeBytes: size, places: places, read: read,
                              build: builder.stats, header: header)
    }

    private static func readOSM(_ input: String, format: InputFormat, into builder: OSMPlaceBuilder,
                                temporary: TemporaryOutput, report: @escaping (OSMReadStats) -> Void) throws -> OSMReadStats {
        switch format {
        case .osmPBF:
            let reader = PBFReader(path: input)
            reader.onProgress = report
            try reader.read(into: builder)
            return reader.stats
        case .osmXML, .osmXMLGzip:
            var path = input
            if format == .osmXMLGzip {
                path = temporary.path + ".xml"
                try Gunzip.decompress(input, to: path)
            }
            defer { if path != input { try? FileManager.default.removeItem(atPath: path) } }
            let reader = OSMXMLReader(path: path, displayName: input)
            reader.onProgress = report
            try reader.read(into: builder)
            return reader.stats
        case .timezoneGeoJSON:
            throw GeoDBError(.unsupportedInput, "\(input): timezone boundaries are not OSM data")
        }
    }

    private static func insertSource(db: Connection, name: String, format: InputFormat, size: Int) throws -> Int64 {
        try db.prepare("INSERT INTO source(name, format, size_bytes, imported_at) VALUES (?, ?, ?, ?)")
            .run([.text(name), .text(format.rawValue), .integer(Int64(size)), .text(ISO8601.now())])
        return db.lastInsertRowID
    }

    private static func writeMeta(db: Connection, writer: PlaceWriter) throws {
        var meta: [(String, String)] = [
            ("generator", "geodb \(GeoDBVersion.string)"),
            ("created_at", ISO8601.now()),
            ("place_count", String(writer.written)),
            ("sqlite_version", Connection.libraryVersion),
        ]
        if let box = writer.boundingBox {
            meta.append(("bbox", [box.minLon, box.minLat, box.maxLon, box.maxLat].map { String(format: "%.7f", $0) }
                .joined(separator: ",")))
        }
        let statement = try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
        for (key, value) in meta { try statement.run([.text(key), .text(value)]) }
    }
}

/// The temporary file an import writes, beside its output so the final rename stays on one file system.
final class TemporaryOutput {
    let path: String
    let output: String
    private var committed = false

    init(for output: String) {
        self.output = output
        let url = URL(fileURLWithPath: output)
        path = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
        InterruptCleanup.register(path)
    }

    /// Flushes the closed database to disk and renames it into place (atomically replacing any old output).
    func commit() throws {
        let fd = open(path, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(path, output) == 0 else {
            throw GeoDBError(.io, "cannot move \(path) to \(output): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    /// Removes the temporary file (and any side files) unless it was committed.
    func discard() {
        InterruptCleanup.unregister()
        guard !committed else { return }
        for suffix in ["", "-journal", "-wal", "-shm", ".xml"] { unlink(path + suffix) }
    }
}

/// Measures the phases of an import.
struct PhaseClock {
    private var last = Date()
    private(set) var laps: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = Date()
        laps.append((name, now.timeIntervalSince(last)))
        last = now
    }
}

/// Lets progress through at most every 0.2 s.
struct ProgressThrottle {
    private var last = Date.distantPast

    mutating func due() -> Bool {
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.2 else { return false }
        last = now
        return true
    }
}
