// The search tables' scratch database: what happens when copying them into the output fails part-way.
import Foundation
import GeoDB
import GeoDBSQLite
@testable import GeoDBImport
import Testing
import TestSupport

@Suite struct FullTextBuilderTests {
    /// The output fills up in the middle of the copy (SQLITE_FULL, here from `max_page_count`): the error
    /// reaches the caller, and the connection is left out of its transaction with the scratch file
    /// detached, so the import can fail cleanly, and the scratch file goes when the builder does.
    @Test func aCopyFailingPartWayLeavesTheConnectionUsable() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.path("out.sqlite"), mode: .create)
        try db.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try Schema.createTables(in: db)
        let scratchPath = scratch.path("out.sqlite-fulltext")
        var builder: FullTextBuilder? = try FullTextBuilder(output: db, scratchPath: scratchPath, cacheMiB: 2)
        for id in 1...20_000 {
            try builder?.insert(id: Int64(id), importance: 0.5, kind: .poi, names: SearchNames([PlaceName(name: "Paikka \(id) Kauppa\(id % 977) Katu\(id % 131)", type: "name")]), named: true, address: Address(street: "Tie \(id % 50)"))
        }
        try builder?.complete()
        let pages = try #require(try db.scalarInt("PRAGMA page_count"))
        try db.execute("PRAGMA max_page_count = \(pages + 8)")   // room for a few of the pages to copy

        let error = try #require(throws: SQLiteError.self) { try builder?.install(into: db) }
        #expect(error.primaryCode == 13)   // SQLITE_FULL
        #expect(db.isAutocommit)
        #expect(try db.prepare("SELECT name FROM pragma_database_list").rows { $0.text(0) ?? "" } == ["main"])
        try db.execute("BEGIN; INSERT INTO meta(key, value) VALUES ('after', 'failure'); COMMIT")
        #expect(FileManager.default.fileExists(atPath: scratchPath))
        builder = nil
        #expect(!FileManager.default.fileExists(atPath: scratchPath))
    }
}
