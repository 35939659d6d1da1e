// idx_place_kind leaves out addresses (KindIndex): the queries of other kinds read it, those of addresses the
// rows, and the answers are the same as from a full scan.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct KindIndexTests {
    /// The index's condition is the one KindIndex adds to queries (a query that does not repeat it word for
    /// word scans every place).
    @Test func theSchemaWritesTheConditionQueriesRepeat() throws {
        let sql = try #require(SchemaFiles.all.first { $0.name == "900_indexes.sql" }?.sql)
        #expect(sql.contains("CREATE INDEX IF NOT EXISTS idx_place_kind ON place(kind) WHERE \(KindIndex.condition());"))
        #expect(KindIndex.equals(.country) == "kind = 'country' AND kind <> 'address'")
        #expect(KindIndex.equals(.address) == "kind = 'address'")
    }

    /// Queries of a kind the index holds read it; counting by kind needs no scan and gives every kind's
    /// places, addresses included, as grouping the whole table does.
    @Test func kindsAreReadFromTheIndexAndCountedWhole() throws {
        let path = try TestDatabases.liechtenstein()
        let db = try Connection(path: path, mode: .readOnly())
        let plan = try db.prepare("EXPLAIN QUERY PLAN SELECT id FROM place WHERE \(KindIndex.equals(.country))").rows([]) { $0.text(3) ?? "" }
        #expect(plan.joined().contains("USING COVERING INDEX idx_place_kind (kind=?)"), "\(plan)")
        let scanned = try db.prepare("SELECT kind, count(*) FROM place NOT INDEXED GROUP BY kind").rows([]) { ($0.text(0) ?? "", $0.int(1)) }
        let info = try GeoDatabase(path: path).info()
        #expect(Dictionary(uniqueKeysWithValues: info.kinds.map { ($0.name, $0.count) }) == Dictionary(uniqueKeysWithValues: scanned))
        #expect(info.kinds.first?.name == "address" && info.kinds.map(\.count) == info.kinds.map(\.count).sorted(by: >))
    }

    /// Search's kind filter reads the index for kinds it holds and the rows for addresses: each gives places
    /// of the kinds asked for, the first of them as the unfiltered search ranks them.
    @Test func searchFiltersByEveryKind() throws {
        let db = try GeoDatabase(path: try TestDatabases.liechtenstein())
        var all = SearchOptions()
        all.limit = 50
        let unfiltered = try db.search("Landstrasse", options: all)
        for kinds in [[PlaceKind.street], [.address], [.address, .street]] {
            var options = all
            options.kinds = kinds
            let filtered = try db.search("Landstrasse", options: options)
            #expect(Set(filtered.map(\.kind)) == Set(kinds), "\(kinds)")
            let expected = unfiltered.filter { kinds.contains($0.kind) }.map(\.id)
            #expect(Array(filtered.map(\.id).prefix(expected.count)) == expected, "\(kinds)")
        }
    }
}
