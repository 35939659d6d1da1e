// The packed R*Tree is written only into a table whose nodes have the size it was packed for.
import GeoDB
@testable import GeoDBImport
import GeoDBSQLite
import Testing

@Suite struct RTreeBulkLoaderTests {
    @Test func treePackedForAnotherNodeSizeIsRefused() throws {
        // The import packs for the output's tables and writes into the scratch database's: a size that
        // differed would make every node unreadable, so the write refuses before touching the table.
        let db = try Connection(path: ":memory:", mode: .create)
        try Schema.createScratchTables(in: db)
        let entries = RTreeEntries()
        entries.append(id: 7, BoundingBox(Coordinate(lat: 60.17, lon: 24.94)))
        let size = try RTreeBulkLoader.nodeSize(of: "place_rtree", db: db)
        let error = #expect(throws: GeoDBError.self) {
            try RTreeBulkLoader.write(RTreeBulkLoader.pack(entries, nodeSize: size - 24), into: "place_rtree", db: db)
        }
        #expect(error?.description.contains("place_rtree") == true)
        #expect(try db.scalarInt("SELECT count(*) FROM place_rtree_node") == 1)   // still the empty root

        try RTreeBulkLoader.write(RTreeBulkLoader.pack(entries, nodeSize: size), into: "place_rtree", db: db)
        #expect(try db.scalarInt("SELECT id FROM place_rtree WHERE min_lat <= 60.17 AND max_lat >= 60.17") == 7)
        #expect(try db.scalarText("SELECT rtreecheck('place_rtree')") == "ok")
    }
}
