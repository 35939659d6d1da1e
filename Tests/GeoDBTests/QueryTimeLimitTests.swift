// A query on a file made to be slow is stopped after the reader's time limit, with an error saying so.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct QueryTimeLimitTests {
    @Test func aLongQueryIsStoppedWithAClearError() throws {
        let reader = try DatabaseReader(path: try TestDatabases.fixture("grid.osm"), immutable: false)
        reader.timeLimit = 0.05
        let slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) SELECT count(*) FROM c"
        let start = Date()
        let error = #expect(throws: GeoDBError.self) { _ = try reader.rows("count far", slow) { $0.int(0) } }
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(error?.message.hasSuffix(": count far: stopped after 0.05 s") == true, "\(error?.message ?? "")")
        // The next call has its own time.
        #expect(try reader.rows("count", "SELECT count(*) FROM place") { $0.int(0) } == [12])
    }
}
