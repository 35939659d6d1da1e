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

    /// `cancel()` from another thread stops the statement running now (it would run for a minute) and the
    /// ones after it, until `resume()`.
    @Test func aCancelledReaderStopsItsRunningQuery() throws {
        let reader = try DatabaseReader(path: try TestDatabases.fixture("grid.osm"), immutable: false)
        let slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) SELECT count(*) FROM c"
        nonisolated(unsafe) let unsafeReader = reader
        // A thread of its own: Dispatch's pool may be busy with the other tests for seconds.
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            unsafeReader.cancel()
        }.start()
        let start = Date()
        let error = #expect(throws: GeoDBError.self) { _ = try reader.rows("count far", slow) { $0.int(0) } }
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(error?.code == .interrupted && error?.message.hasSuffix(": count far: cancelled") == true, "\(error?.message ?? "")")
        // Cancelled stays cancelled, even for a statement too short for SQLite's check, until resumed.
        #expect(throws: GeoDBError.self) { _ = try reader.rows("count", "SELECT count(*) FROM place") { $0.int(0) } }
        reader.resume()
        #expect(try reader.rows("count", "SELECT count(*) FROM place") { $0.int(0) } == [12])
    }

    /// Cancelling the task of an async call stops its query (as Apple's `cancelGeocode`), and the session
    /// it ran in goes back to the pool usable.
    @Test func cancellingTheTaskStopsAnAsyncQuery() async throws {
        let db = try GeoDatabase(path: try TestDatabases.cities())
        let world = BoundingBox(minLat: -85, minLon: -180, maxLat: 85, maxLon: 180)
        let task = Task { try await db.read { try $0.mapFeatures(in: world, limit: 10_000) } }
        task.cancel()
        let error = await #expect(throws: GeoDBError.self) { _ = try await task.value }
        #expect(error?.code == .interrupted)
        #expect(try await db.read { try $0.mapFeatures(in: world, limit: 10) }.count == 10)
    }
}
