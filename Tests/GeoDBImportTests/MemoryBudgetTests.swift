// `geodb import --memory`: an OSM file whose node locations and way index go to scratch files past a tiny
// budget gives the database an import in memory gives, row for row.
import Foundation
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct MemoryBudgetTests {
    /// Every row of every table but `meta` and `source` (which date the import), in rowid order: R*Tree nodes
    /// included, so a way that lost a node or an area a polygon shows. An FTS5 index by what it holds, each word's
    /// every occurrence (`fts5vocab` 'instance'), not by its segments: the search rows of places held back for the
    /// addresses phase are made once, within an eighth of the budget, and beyond it made, then rewritten; FTS5
    /// lays the same contents out differently then.
    static func rows(_ path: String) throws -> [String: [[SQLiteValue]]] {
        let db = try Connection(path: path, mode: .readOnly())
        let indexes = try db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5(%'")
            .rows { $0.text(0) ?? "" }
        let tables = try db.prepare("""
            SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT IN ('meta', 'source')
            """).rows { $0.text(0) ?? "" }
        var rows: [String: [[SQLiteValue]]] = [:]
        for table in tables where !indexes.contains(where: { table == $0 + "_data" || table == $0 + "_idx" }) {
            rows[table] = try db.prepare("SELECT * FROM \"\(table)\"").rows { row in (0..<row.columnCount).map { row.value($0) } }
        }
        for index in indexes {
            try db.execute("CREATE VIRTUAL TABLE temp.\"\(index)_words\" USING fts5vocab(main, \"\(index)\", 'instance')")
            rows[index + " words"] = try db.prepare("SELECT * FROM temp.\"\(index)_words\"").rows { row in
                (0..<row.columnCount).map { row.value($0) }
            }
        }
        return rows
    }

    /// Liechtenstein with a budget of 64 KiB: the group heads alone pass it, so every byte of node
    /// locations and of the way index is read back from disk, by the reading thread and the writer's; and the
    /// addresses phase finds the streets of houses in many passes over the streets (their segments near those
    /// houses are about 1.7 MB), making the search rows of 16 places held back for it and rewriting those of the
    /// others it completes, 128 at a time. In memory, the nearest streets are found beside the hierarchy from the
    /// lines read beforehand; at 64 KiB the lines pass a quarter of the budget, so the addresses phase reads
    /// them in passes itself: the two paths must find the same streets.
    @Test func aSpilledImportWritesWhatAnImportInMemoryWrites() throws {
        let scratch = try ScratchDirectory()
        let input = TestPaths.sampleData("liechtenstein.osm.pbf")
        let inMemory = scratch.path("memory.sqlite"), spilled = scratch.path("spilled.sqlite")
        let memorySummary = try Importer.run(inputs: [input], output: inMemory)
        var options = ImportOptions()
        options.memoryBudget = 64 << 10
        let spilledSummary = try Importer.run(inputs: [input], output: spilled, options: options)
        #expect(memorySummary.sources[0].build.spilledBytes == 0)
        // About 6 bytes of each of the 318,592 nodes.
        #expect(spilledSummary.sources[0].build.spilledBytes > 1_500_000, "\(spilledSummary.sources[0].build)")
        #expect(spilledSummary.sources[0].build.nodeStoreBytes < 1_000_000)
        #expect(spilledSummary.memoryBudget == 64 << 10)
        #expect(memorySummary.derived.streets > 1_000 && spilledSummary.derived == memorySummary.derived)
        let expected = try Self.rows(inMemory), found = try Self.rows(spilled)
        #expect(expected["place"]?.count == 15_955 && (expected["place_geometry"]?.count ?? 0) > 1_000)
        #expect(Set(found.keys) == Set(expected.keys))
        for (table, rows) in expected { #expect(found[table] == rows, "\(table)") }
        // The scratch files were unlinked when made: nothing is left beside the outputs.
        #expect(scratch.contents().sorted() == ["memory.sqlite", "spilled.sqlite"])
    }
}
