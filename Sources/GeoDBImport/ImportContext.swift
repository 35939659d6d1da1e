// What every step of an import works with, handed to each explicitly: the connection, the writer (and its
// statements), the options, progress, the phase clock and the summary being filled in. And the one job of
// the importer of each kind of input file (`SourceImport`).
import Foundation
import GeoDB
import GeoDBFileOutput
import GeoDBSQLite

/// One import in progress, from its connection being opened to its last phase.
final class ImportContext {
    /// The temporary file's connection, inside the transaction `writer` commits in batches until the
    /// indexes are built.
    let db: Connection
    let writer: PlaceWriter
    let options: ImportOptions
    /// The file being built; its directory takes an OSM file's scratch files.
    let temporary: TemporaryOutput
    let progress: ((ImportProgress) -> Void)?
    var clock: PhaseClock
    /// What the import did so far: each source's importer and each phase adds its part.
    var summary: ImportSummary

    init(db: Connection, writer: PlaceWriter, options: ImportOptions, temporary: TemporaryOutput,
         progress: ((ImportProgress) -> Void)?, clock: PhaseClock, summary: ImportSummary) {
        (self.db, self.writer, self.options, self.temporary) = (db, writer, options, temporary)
        (self.progress, self.clock, self.summary) = (progress, clock, summary)
    }

    /// Reports the start of a phase that reads no file.
    func announce(phase: String) {
        progress?(ImportProgress(phase: phase, file: "", bytesRead: 0, bytesTotal: 0, objectsRead: 0, placesWritten: writer.written))
    }

    /// Runs `read` with a sink whose places the writer writes on a thread of its own, as places of `source`
    /// linked as `linking` says (`completesAddresses`: the addresses phase completes them, an OSM file's), and
    /// waits for the last of them. Returns what `read` returned and the places
    /// and links the source added.
    func writePlaces<Result>(of source: SourceRow, linking: SourceLinking, completesAddresses: Bool = false,
                             _ read: (PipelinedPlaceSink) throws -> Result) throws -> (Result, places: Int, linked: Int) {
        let placesBefore = writer.written, linkedBefore = writer.linked
        let pipeline = PipelinedPlaceSink(target: writer.sink(forSource: source.id, linking: linking,
                                                              completesAddresses: completesAddresses))
        let result: Result
        do {
            result = try read(pipeline)
        } catch {
            try? pipeline.drain()   // stop the writer thread before the database goes away
            throw error
        }
        try pipeline.drain()
        return (result, writer.written - placesBefore, writer.linked - linkedBefore)
    }
}

/// The importer of one kind of input file: reads a source into the import and says what it read.
protocol SourceImport {
    associatedtype Outcome
    /// Reads `input` into `context`'s database, in the importer's transaction.
    func read(_ input: ImportPlan.Input, into context: ImportContext) throws -> Outcome
}

/// Measures the phases of an import.
struct PhaseClock {
    private var last = Date()
    private(set) var laps: [(name: String, seconds: Double)] = []
    /// Time of phases that ran inside another (`attribute`), added to their own lap.
    private var carried: [String: Double] = [:]

    mutating func lap(_ name: String) {
        let now = Date()
        laps.append((name, now.timeIntervalSince(last) + (carried.removeValue(forKey: name) ?? 0)))
        last = now
    }

    /// Runs `body` as part of phase `name` (its lap counts it), not of the phase running around it.
    mutating func attribute<T>(to name: String, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer {
            let spent = Date().timeIntervalSince(start)
            carried[name, default: 0] += spent
            last += spent
        }
        return try body()
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

    /// A reader's progress callback: its statistics, as `report` words them, passed to `progress` at most
    /// every 0.2 s (`report` is not called in between).
    static func reporting<Stats>(to progress: ((ImportProgress) -> Void)?,
                                 _ report: @escaping (Stats) -> ImportProgress) -> (Stats) -> Void {
        guard let progress else { return { _ in } }
        var throttle = ProgressThrottle()
        return { stats in
            if throttle.due() { progress(report(stats)) }
        }
    }
}
