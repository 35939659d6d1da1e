// The names of GeoNames alternate names files for the places of the dumps imported with them, held between
// reading the files and reading the dumps.
import Foundation
import GeoDB
import GeoDBSQLite

/// Reads the alternate names files before the dumps, keeping the rows of the dumps' places in a scratch
/// database beside the output; the dump reader then asks it for each place's names and the place is
/// written with them (`attach`), so they reach `place_name` and the search index on the path OSM's
/// `name:xx` take, and no search row has to be rebuilt.
///
/// The files are not ordered by place (alternateNamesV2.txt is by alternateNameId), so a place's names
/// must be gathered before its row is written. A scratch database rather than memory: what is kept grows
/// with the dumps (cities500 with the whole file: a few million names; allCountries: over ten million),
/// while SQLite's page cache keeps memory at `cacheMiB` whatever the size. Rows of places not in the dumps
/// (most of the file, for cities500) are dropped as they are read: their geonameid is looked up in the
/// sorted ids of the dumps, read from their first column beforehand (8 bytes a place).
final class AlternateNameStore {
    /// Appended to the temporary output's path for the scratch database.
    static let scratchSuffix = "-altnames"
    private let path: String
    /// Holds the scratch database's connection open until `discard`.
    private var select: Statement?
    private var discarded = false
    private(set) var files: [AlternateNamesFileStats] = []
    private(set) var counts = AlternateNameCounts()

    /// Reads `files` for the places of the GeoNames dumps `dumps`, into a scratch database at `path`.
    init(files: [String], dumps: [String], path: String, cacheMiB: Int, strict: Bool,
         progress: ((AlternateNamesFileStats) -> Void)?) throws {
        self.path = path
        unlink(path)
        let db = try Connection(path: path, mode: .create)
        // EXCLUSIVE: the lock is taken once, not by each of the dump's lookups (fcntl calls and a check of
        // the file each, a few percent of the import).
        try db.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(cacheMiB * 1024);
            PRAGMA locking_mode = EXCLUSIVE;
            CREATE TABLE alternate_name(geonameid INTEGER NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL, flags INTEGER NOT NULL);
            BEGIN;
            """)
        var ids = try dumps.flatMap { try GeoNamesReader.geonameIDs(path: $0) }
        ids.sort()   // in place: allCountries has 12 M ids (a dump is sorted already, and cheap to sort)
        let insert = try db.prepare("INSERT INTO alternate_name(geonameid, code, name, flags) VALUES (?, ?, ?, ?)")
        insert.copiesBoundValues = true
        for file in files {
            let reader = AlternateNamesReader(path: file, strict: strict)
            reader.onProgress = progress
            try reader.read(wanted: { Self.contains(ids, $0) }) { id, name in
                try insert.bind(1, id)
                try insert.bind(2, name.code)
                try insert.bind(3, name.name)
                try insert.bind(4, name.flags.rawValue)
                try insert.step()
                insert.reset()
            }
            self.files.append(reader.stats)
        }
        // Indexed once filled: one sort instead of an index updated row by row in file order. The index's
        // entries of one place are in rowid order, which is file order: "the first in the file" of the rules.
        try db.execute("COMMIT; CREATE INDEX alternate_name_geonameid ON alternate_name(geonameid)")
        select = try db.prepare("SELECT code, name, flags FROM alternate_name WHERE geonameid = ? ORDER BY rowid")
    }

    deinit { discard() }

    var summary: AlternateNamesSummary { AlternateNamesSummary(files: files, names: counts) }

    /// Gives `place` (the dump's row of `geonameID`) the names the files have for it.
    func attach(to place: inout PlaceRecord, geonameID: Int64) throws {
        guard let select else { return }
        try select.bind(1, geonameID)
        var names: [AlternateName] = []
        while try select.step() {
            names.append(AlternateName(code: select.text(0) ?? "", name: select.text(1) ?? "",
                                       flags: AlternateName.Flags(rawValue: select.int(2))))
        }
        select.reset()
        guard !names.isEmpty else { return }
        AlternateNameSelection.apply(names, to: &place, counts: &counts)
    }

    /// Closes and removes the scratch database; later calls do nothing.
    func discard() {
        guard !discarded else { return }
        discarded = true
        select = nil
        unlink(path)
    }

    /// Whether the sorted `ids` hold `id`.
    private static func contains(_ ids: [Int64], _ id: Int64) -> Bool {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}

/// What the GeoNames alternate names files of an import gave (`ImportSummary.alternateNames`).
public struct AlternateNamesSummary: Sendable {
    /// Per file, in the order given.
    public var files: [AlternateNamesFileStats]
    /// What became of the names, over all files.
    public var names: AlternateNameCounts
}
