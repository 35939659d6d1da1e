// The Swift API apps link: one GeoDatabase shared by many threads and tasks answers exactly what one
// thread does, async variants agree with the sync ones, and a database replaced on disk keeps serving
// the file that was opened.
import Foundation
import GeoDB
import GeoDBImport
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct SwiftAPITests {
    static let database = Result { try TestDatabases.helsinkiWithTimeZones() }

    /// One answer per query kind, as comparable text.
    static func mixedAnswers(_ db: GeoDatabase, round: Int) throws -> [String] {
        let point = Coordinate(lat: 60.1699 + Double(round % 7) * 0.001, lon: 24.9384 + Double(round % 5) * 0.001)
        var autocomplete = SearchOptions()
        autocomplete.autocomplete = true
        return [
            try db.search(["mannerheimintie", "aleksanterinkatu 52", "stockmann", "cafe engel"][round % 4]).map(\.id).description,
            try db.search("mannerh", options: autocomplete).map(\.id).description,
            try db.reverse(at: point).map(\.place.id).description,
            try db.places(near: point, radius: 500, filter: try .resolve(["cafe"]), limit: 20).places.map(\.id).description,
            try db.timeZone(at: point).tzid,
            try db.withSession { try $0.hierarchical(town: "Helsinki", street: "Aleksanterinkatu") }.map(\.id).description,
        ]
    }

    static func mixedAnswers(_ db: GeoDatabase, round: Int) async throws -> [String] {
        let point = Coordinate(lat: 60.1699 + Double(round % 7) * 0.001, lon: 24.9384 + Double(round % 5) * 0.001)
        var autocomplete = SearchOptions()
        autocomplete.autocomplete = true
        return [
            try await db.search(["mannerheimintie", "aleksanterinkatu 52", "stockmann", "cafe engel"][round % 4]).map(\.id).description,
            try await db.search("mannerh", options: autocomplete).map(\.id).description,
            try await db.reverse(at: point).map(\.place.id).description,
            try await db.places(near: point, radius: 500, filter: try .resolve(["cafe"]), limit: 20).places.map(\.id).description,
            try await db.timeZone(at: point).tzid,
            try await db.read { try $0.hierarchical(town: "Helsinki", street: "Aleksanterinkatu") }.map(\.id).description,
        ]
    }

    @Test func manyThreadsAnswerWhatOneThreadDoes() throws {
        let db = try GeoDatabase(path: try Self.database.get())
        let rounds = 35
        let expected = try (0..<rounds).map { try Self.mixedAnswers(db, round: $0) }
        #expect(expected[0][0] != "[]" && expected[0][4] == "Europe/Helsinki")
        let results = LockedArray<[String]?>(count: rounds * 4, value: nil)
        let failures = LockedArray<String?>(count: 1, value: nil)
        DispatchQueue.concurrentPerform(iterations: rounds * 4) { index in
            do { results[index] = try Self.mixedAnswers(db, round: index % rounds) } catch { failures[0] = "\(error)" }
        }
        #expect(failures[0] == nil)
        for index in 0..<rounds * 4 {
            #expect(results[index] == expected[index % rounds], "round \(index)")
        }
    }

    @Test func asyncVariantsAgreeWithSyncOnes() async throws {
        let db = try GeoDatabase(path: try Self.database.get())
        let expected = try (0..<12).map { try Self.mixedAnswers(db, round: $0) }
        let answers = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for round in 0..<48 { group.addTask { (round, try await Self.mixedAnswers(db, round: round % 12)) } }
            var answers: [Int: [String]] = [:]
            for try await (round, answer) in group { answers[round] = answer }
            return answers
        }
        for round in 0..<48 { #expect(answers[round] == expected[round % 12], "round \(round)") }
        let info = try await db.info()
        #expect(info.placeCount == 2529 + 6)   // Helsinki and the six countries of the zones
        let details = try await db.lookup("1")
        #expect(details.place.id == 1)
    }

    @Test func replacedDatabaseKeepsServingTheOpenedFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("live.sqlite")
        _ = try Importer.run(inputs: [TestPaths.sampleData("helsinki.osm.pbf")], output: path)
        let db = try GeoDatabase(path: path)
        let before = try db.search("mannerheimintie").map(\.id)
        var force = ImportOptions()
        force.force = true
        _ = try Importer.run(inputs: [TestPaths.fixture("grid.osm")], output: path, options: force)
        #expect(try GeoDatabase(path: path).info().placeCount != 2529)   // the new file is different
        // Many callers at once, more than the sessions opened before: all are served from the old file.
        let counts = LockedArray<Int64?>(count: 16, value: nil)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            counts[index] = try? db.info().placeCount
            if index == 0 { #expect((try? db.search("mannerheimintie").map(\.id)) == before) }
        }
        #expect((0..<16).allSatisfy { counts[$0] == 2529 })
    }

    @Test func queriesNeverWriteTheFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: try Self.database.get(), toPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = try GeoDatabase(path: path)
        for round in 0..<20 { _ = try Self.mixedAnswers(db, round: round) }
        _ = try db.info()
        #expect(try db.check().allSatisfy(\.ok))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(scratch.contents() == ["copy.sqlite"])   // no journal or WAL files either
    }

    /// Sessions keep their shared lock while open: other readers share the file, a program writing it in
    /// place waits until the readers are gone (geodb itself never does: imports are renamed into place).
    @Test func sessionsKeepTheirSharedLock() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("locked.sqlite")
        try FileManager.default.copyItem(atPath: try Self.database.get(), toPath: path)
        let update = "UPDATE meta SET value = value WHERE key = 'generator'"
        do {
            let db = try GeoDatabase(path: path), other = try GeoDatabase(path: path)
            #expect(try db.search("Stockmann").first?.name == "Stockmann")
            #expect(try other.search("Stockmann").first?.name == "Stockmann")
            let writer = try Connection(path: path, mode: .readWrite)
            #expect(throws: SQLiteError.self) { try writer.execute(update) }
            withExtendedLifetime((db, other)) {}
        }
        try Connection(path: path, mode: .readWrite).execute(update)
    }

    @Test func immutableOpenAnswersTheSame() throws {
        let path = try Self.database.get()
        let immutable = try GeoDatabase(path: path, immutable: true)
        let plain = try GeoDatabase(path: path)
        #expect(try Self.mixedAnswers(immutable, round: 3) == Self.mixedAnswers(plain, round: 3))
    }

    @Test func errorsAreTypedWithRemedies() throws {
        let missing = #expect(throws: GeoDBError.self) { _ = try GeoDatabase(path: "/nonexistent/x.sqlite") }
        #expect(missing?.code == .fileNotFound)
        let db = try GeoDatabase(path: try TestDatabases.helsinki())
        let noZones = #expect(throws: GeoDBError.self) { _ = try db.timeZone(at: Coordinate(lat: 60, lon: 25)) }
        #expect(noZones?.code == .invalidArgument && noZones?.remedy != nil)
        let badLimit = #expect(throws: GeoDBError.self) {
            var options = SearchOptions()
            options.limit = 0
            _ = try db.search("x", options: options)
        }
        #expect(badLimit?.code == .invalidArgument)
        // A failed call leaves its session clean for the next (no transaction left open).
        #expect(try db.search("Stockmann").first?.name == "Stockmann")
        #expect(try db.withSession { session in try session.inReadTransaction { try session.search("Stockmann").count } } > 0)
    }
}

/// A fixed-size array that threads write to under a lock.
final class LockedArray<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element]

    init(count: Int, value: Element) { elements = Array(repeating: value, count: count) }

    subscript(index: Int) -> Element {
        get { lock.withLock { elements[index] } }
        set { lock.withLock { elements[index] = newValue } }
    }
}
