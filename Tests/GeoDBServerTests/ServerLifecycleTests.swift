// What makes `geodb serve` a real server: several files served as one, a time limit that interrupts the
// query, SIGTERM finishing the requests in flight, a database replaced by a new import picked up with no
// failed request.
import Foundation
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct ServerLifecycleTests {
    /// Two gazetteer files naming one city "Hèlsingfors" and "HELSINGFORS" 3 km apart: one place, as the
    /// importer links them (`SamePlace`: one fold of names, the smaller kind's reach); a village 6 km
    /// away is beyond a village's reach, so another place. (The server compared lower-cased names within
    /// 20 km: two places, and the village one.)
    @Test func filesServedTogetherShowAPlaceOnceByTheImportersRule() throws {
        let scratch = try ScratchDirectory()
        func database(_ name: String, _ rows: String) throws -> String {
            let csv = scratch.path("\(name).csv"), db = scratch.path("\(name).sqlite")
            try ("name,lat,lon,kind\n" + rows).write(toFile: csv, atomically: false, encoding: .utf8)
            #expect(try runGeodb(["import", csv, "-o", db]).status == 0)
            return db
        }
        let server = try ServerProcess([try database("a", "Hèlsingfors,60.17,24.94,city\nKylä,60.30,25.00,village\n"),
                                        try database("b", "HELSINGFORS,60.19,24.98,city\nKylä,60.35,25.02,village\n")])
        defer { server.stop() }
        let helsingfors = try #require(try server.get("/v1/search", [("q", "Helsingfors")]).object()["results"] as? [[String: Any]])
        #expect(helsingfors.count == 1, "\(helsingfors)")
        let kyla = try #require(try server.get("/v1/search", [("q", "Kylä")]).object()["results"] as? [[String: Any]])
        #expect(kyla.count == 2, "\(kyla)")
    }

    /// Helsinki (with timezones) and Liechtenstein served as one.
    @Test func twoFilesServedAsOne() throws {
        let server = try ServerProcess([try TestDatabases.helsinkiWithTimeZones(), try TestDatabases.liechtenstein()])
        defer { server.stop() }
        // Search asks both: each town from its own file, the ids telling the files apart.
        let vaduz = try #require(try server.get("/v1/search", [("q", "Vaduz"), ("limit", "1")]).object()["results"] as? [[String: Any]])
        let helsinki = try #require(try server.get("/v1/search", [("q", "Mannerheimintie"), ("limit", "1")]).object()["results"] as? [[String: Any]])
        #expect(vaduz.first?["name"] as? String == "Vaduz" && helsinki.first?["name"] as? String == "Mannerheimintie")
        let vaduzID = try #require(vaduz.first?["id"] as? Int), helsinkiID = try #require(helsinki.first?["id"] as? Int)
        #expect(vaduzID >> 40 == 1 && helsinkiID >> 40 == 0)
        // Ids and source ids lead back to the right file.
        let looked = try server.get("/v1/place", [("ref", "\(vaduzID)")]).object()
        #expect((looked["place"] as? [String: Any])?["name"] as? String == "Vaduz")
        let nominatim = try server.get("/lookup", [("osm_ids", "N1932181216,W22906934"), ("format", "json")]).array()
        #expect(nominatim.count == 2)
        // Reverse and nearby ask the file that covers the point.
        let there = try server.get("/reverse", [("lat", "47.13168"), ("lon", "9.52287"), ("format", "json"), ("addressdetails", "1")]).object()
        #expect((there["address"] as? [String: String])?["country_code"] == "li")
        let here = try server.get("/reverse", [("lat", "60.16952"), ("lon", "24.93545"), ("format", "json"), ("addressdetails", "1")]).object()
        #expect((here["address"] as? [String: String])?["city"] == "Helsinki")
        let cafes = try #require(try server.get("/v1/nearby", [("lat", "47.14"), ("lon", "9.52"), ("category", "cafe")]).object()["results"] as? [[String: Any]])
        #expect(!cafes.isEmpty && cafes.allSatisfy { ($0["id"] as? Int ?? 0) >> 40 == 1 })
        // Timezones come from the file that has them.
        let zone = try server.get("/v1/timezone", [("lat", "60.17"), ("lon", "24.94"), ("at", "2026-07-01T12:00:00Z")]).object()
        #expect(zone["tzid"] as? String == "Europe/Helsinki" && zone["source"] as? String == "polygon")
        #expect(zone["utc_offset_seconds"] as? Int == 10800 && zone["is_dst"] as? Bool == true)
        // Categories count the places of both files.
        let categories = try #require(try server.get("/v1/categories").object()["categories"] as? [[String: Any]])
        let both = categories.first { $0["id"] as? String == "cafe" }?["places"] as? Int ?? 0
        let one = try ServerProcess([try TestDatabases.liechtenstein()])
        defer { one.stop() }
        let alone = (try one.get("/v1/categories").object()["categories"] as? [[String: Any]])?.first { $0["id"] as? String == "cafe" }?["places"] as? Int ?? 0
        #expect(both > alone && alone > 0)
        let status = try #require(try server.get("/status", [("format", "json")]).object()["databases"] as? [[String: Any]])
        #expect(status.count == 2 && status.allSatisfy { $0["extent"] != nil && ($0["sources"] as? [Any])?.isEmpty == false })
    }

    /// Files that overlap (a world gazetteer and a country extract) show a place they share once: the OSM
    /// one, which has the address and the OSM id.
    @Test func aPlaceInTwoFilesIsShownOnce() throws {
        let server = try ServerProcess([try TestDatabases.cities(), try TestDatabases.liechtenstein()])
        defer { server.stop() }
        let results = try #require(try server.get("/v1/search", [("q", "Vaduz"), ("limit", "10")]).object()["results"] as? [[String: Any]])
        let towns = results.filter { $0["name"] as? String == "Vaduz" && ["city", "town"].contains($0["kind"] as? String ?? "") }
        #expect(towns.count == 1 && towns.first?["source_id"] as? String == "n1932181216", "\(results.map { $0["source_id"] ?? "" })")
        let photon = try #require(try server.get("/api", [("q", "vadu"), ("limit", "5")]).object()["features"] as? [[String: Any]])
        #expect(photon.filter { ($0["properties"] as? [String: Any])?["name"] as? String == "Vaduz" }.count == 1)
    }

    /// A query longer than the time limit answers 503 (that it is interrupted, not left running, is
    /// QueryTimeLimitTests' part).
    @Test func theTimeLimitAnswers503() throws {
        let server = try ServerProcess([try TestDatabases.cities()], options: ["--time-limit", "0.001"])
        defer { server.stop() }
        let reply = try server.get("/v1/map", [("bbox", "-180,-85,180,85"), ("limit", "10000")])
        #expect(reply.status == 503 && reply.error?["code"] as? Int == 503, "\(reply.status): \(reply.text.prefix(200))")
        // The session it ran in answers the next request.
        #expect(try server.get("/status").status == 200)
    }

    /// SIGTERM while requests run: every one is answered, then the server exits 0.
    @Test func sigtermFinishesTheRequestsInFlight() throws {
        let server = try ServerProcess([try TestDatabases.cities()])
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        for i in 0..<8 {
            DispatchQueue.global().async(group: group) {
                // Maps of the world: ~0.1 s each, 8 on 2 cores, so they are still running at the signal.
                let status = (try? server.get("/v1/map", [("bbox", "-180,-85,180,85"), ("limit", "\(9000 + i)")]))?.status ?? -1
                statuses.withLock { $0.append(status) }
            }
        }
        // The signal once the server has them all (its metrics count requests as they finish, so wait
        // for the first answer and a little longer).
        while statuses.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.005) }
        server.signal(SIGTERM)
        group.wait()
        #expect(server.stop() == 0)
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 8), "\(statuses.withLock { $0 })")
    }

    /// A new import renamed over a served file is picked up (here on SIGHUP), and no request fails meanwhile;
    /// files mapped (`--immutable`) too, which renaming over is safe for.
    @Test(arguments: [[], ["--immutable"]]) func aReplacedDatabaseIsPickedUp(options: [String]) throws {
        let (scratch, served) = try Self.copy(try TestDatabases.liechtenstein())
        let server = try ServerProcess([served], options: ["--watch", "0"] + options)
        defer { server.stop() }
        func sourceName() throws -> String? {
            let status = try server.get("/status", [("format", "json")]).object()
            return (((status["databases"] as? [[String: Any]])?.first?["sources"] as? [[String: Any]])?.first?["name"] as? String)
        }
        #expect(try sourceName() == "liechtenstein.osm.pbf")
        // Mapped with --immutable, read with pread without it: the file is in the process's mappings or not.
        let maps = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/maps", encoding: .utf8)
        #expect(maps.contains(served) == options.contains("--immutable"), "\(options)")

        let failures = Mutex<[String]>([]), stop = Mutex(false)
        let load = Thread {
            while !stop.withLock({ $0 }) {
                do {
                    let reply = try server.get("/v1/search", [("q", "Monaco Vaduz"), ("limit", "3")])
                    if reply.status != 200 { failures.withLock { $0.append("\(reply.status) \(reply.text.prefix(100))") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        load.start()
        // As an import does it: written beside, renamed over.
        try FileManager.default.copyItem(atPath: try TestDatabases.monaco(), toPath: scratch.path("served.sqlite.new"))
        #expect(rename(scratch.path("served.sqlite.new"), served) == 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try sourceName() == "liechtenstein.osm.pbf")   // --watch 0: only a signal reloads
        server.signal(SIGHUP)
        var reloaded = false
        for _ in 0..<50 where !reloaded {
            Thread.sleep(forTimeInterval: 0.1)
            reloaded = try sourceName() == "monaco.osm.pbf"
        }
        stop.withLock { $0 = true }
        while load.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        #expect(reloaded)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
        let monaco = try #require(try server.get("/v1/search", [("q", "Monte-Carlo"), ("limit", "1")]).object()["results"] as? [[String: Any]])
        #expect(monaco.first?["name"] as? String == "Monte-Carlo")
        #expect(try server.get("/metrics").text.contains("geodb_database_reloads_total 1"))
    }

    /// A file copied over the served one in place (`cp`, same inode) and then truncated, while requests
    /// run: the server stays up, every answer is 200 or a JSON 5xx, and after the copy it answers from the
    /// new file. (Memory-mapped reads died with SIGBUS on the page past the new end.)
    @Test func aFileOverwrittenInPlaceIsPickedUp() throws {
        let (scratch, served) = try Self.copy(try TestDatabases.liechtenstein())
        let server = try ServerProcess([served], options: ["--watch", "0.05"])
        defer { server.stop() }
        let unexpected = Mutex<[String]>([]), answered = Mutex(0), stop = Mutex(false)
        let load = Thread {
            // Until stopped, not a fixed count: on a fast machine 400 requests were over before the file was
            // truncated, and the count the test waits for never grew.
            var i = 0
            while !stop.withLock({ $0 }) {
                defer { i += 1 }
                let reply = i % 2 == 0 ? try? server.get("/v1/search", [("q", "Vaduz Monte-Carlo"), ("limit", "3")])
                    : try? server.get("/v1/reverse", [("lat", "47.14"), ("lon", "9.52")])
                answered.withLock { $0 += 1 }
                guard let reply else {
                    unexpected.withLock { $0.append("no reply") }
                    continue
                }
                let isJSONError = reply.status >= 500 && reply.error?["code"] as? Int == reply.status
                if reply.status != 200 && !isJSONError || reply.text.contains(scratch.url.path) {
                    unexpected.withLock { $0.append("\(reply.status) \(reply.text.prefix(200))") }
                }
            }
        }
        load.start()
        func source() throws -> String? {
            let status = try server.get("/v1/status").object()
            return ((status["databases"] as? [[String: Any]])?.first?["sources"] as? [[String: Any]])?.first?["name"] as? String
        }
        func waitFor(_ done: () throws -> Bool) rethrows -> Bool {   // generous: tests run side by side
            for _ in 0..<300 {
                if try done() { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        #expect(waitFor { answered.withLock { $0 } > 5 })
        #expect(try runProgram("/bin/cp", [try TestDatabases.monaco(), served]).status == 0)
        #expect(try waitFor { try source() == "monaco.osm.pbf" })
        let monaco = try #require(try server.get("/v1/search", [("q", "Monte-Carlo"), ("limit", "1")]).object()["results"] as? [[String: Any]])
        #expect(monaco.first?["name"] as? String == "Monte-Carlo")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: served)[.size] as? Int)
        #expect(truncate(served, off_t(size / 2)) == 0)
        let before = answered.withLock { $0 }
        #expect(waitFor { answered.withLock { $0 } > before + 10 })
        stop.withLock { $0 = true }
        while load.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.process.isRunning)
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0 }.prefix(3))")
        #expect(try server.get("/status").status == 200)
    }

    /// A replacement that does not open leaves the old file in service and is logged once, not at every
    /// look of the watch; /status names the file without its directory.
    @Test func aBadReplacementIsLoggedOnce() throws {
        let (scratch, served) = try Self.copy(try TestDatabases.monaco())
        let server = try ServerProcess([served], options: ["--watch", "0.02"])
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: scratch.path("served.sqlite.new")))
        #expect(rename(scratch.path("served.sqlite.new"), served) == 0)
        Thread.sleep(forTimeInterval: 0.5)   // many looks of the watch
        server.signal(SIGHUP)                // and one more
        Thread.sleep(forTimeInterval: 0.1)
        for path in ["/status?format=json", "/v1/status"] {
            let reply = try server.get(path)
            #expect(reply.status == 200 && reply.text.contains("monaco.osm.pbf"), "\(reply.text.prefix(300))")
            #expect(reply.text.contains("\"served.sqlite\"") && !reply.text.contains(scratch.url.path), "\(reply.text.prefix(300))")
        }
        server.stop()
        let logged = server.standardError().components(separatedBy: "does not open").count - 1
        #expect(logged == 1, "\(server.standardError().suffix(500))")
    }

    /// A place whose name is tens of MB, served with a response limit of 1 MB: its request gets the limit's
    /// error instead of hundreds of MB, and a cheap request from another client is answered meanwhile.
    @Test func anAnswerOverTheResponseLimitIsAnError() throws {
        let (scratch, served) = try Self.copy(try TestDatabases.monaco())
        defer { scratch.remove() }   // not before the server is done with the file
        do {
            let connection = try Connection(path: served, mode: .readWrite)
            // NUL characters: 6 bytes each in JSON (\u0000).
            try connection.execute("UPDATE place SET name = CAST(zeroblob(30000000) AS TEXT) WHERE id = 1")
        }
        let server = try ServerProcess([served], options: ["--max-response-bytes", "1000000", "--time-limit", "5"])
        defer { server.stop() }
        let replies = Mutex<[ServerProcess.Reply?]>([]), group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                let reply = try? server.get("/v1/place", [("ref", "1")])
                replies.withLock { $0.append(reply) }
            }
        }
        let cheap = try server.get("/v1/reverse", [("lat", "43.7384"), ("lon", "7.4246")])
        #expect(cheap.status == 200)
        group.wait()
        for reply in replies.withLock({ $0 }) {
            let reply = try #require(reply)
            #expect(reply.status == 500 && reply.body.count < 1_000, "\(reply.status) \(reply.body.count) bytes")
            #expect((reply.error?["message"] as? String)?.contains("1000000 bytes") == true, "\(reply.text.prefix(300))")
        }
    }

    /// A copy of `database` named served.sqlite in a directory of its own, for a test to replace or change.
    private static func copy(_ database: String) throws -> (scratch: ScratchDirectory, path: String) {
        let scratch = try ScratchDirectory()
        try FileManager.default.copyItem(atPath: database, toPath: scratch.path("served.sqlite"))
        return (scratch, scratch.path("served.sqlite"))
    }

    /// `--wait`: started before its file exists, the server answers 503 and Nominatim's /status says the
    /// database is missing, as Nominatim does; once an import renames the file into place, it answers.
    @Test func waitingForADatabaseThatIsNotThereYet() throws {
        let scratch = try ScratchDirectory()
        let served = scratch.path("served.sqlite")
        let server = try ServerProcess([served], options: ["--wait", "--watch", "0.05"])
        defer { server.stop() }
        let text = try server.get("/status")
        #expect(text.status == 500 && text.text == "ERROR: Database connection failed")
        let json = try server.get("/status", [("format", "json")]).object()
        #expect(json["status"] as? Int == 700 && json["message"] as? String == "Database connection failed" && json["data_updated"] == nil)
        for path in ["/v1/status", "/v1/search?q=Vaduz", "/search?q=Vaduz", "/api?q=Vaduz"] {
            let reply = try server.get(path)
            #expect(reply.status == 503 && reply.text.contains("Database connection failed"), "\(path): \(reply.status) \(reply.text.prefix(200))")
        }
        try FileManager.default.copyItem(atPath: try TestDatabases.liechtenstein(), toPath: scratch.path("served.sqlite.new"))
        #expect(rename(scratch.path("served.sqlite.new"), served) == 0)
        var ready = false
        for _ in 0..<100 where !ready {
            Thread.sleep(forTimeInterval: 0.05)
            ready = try server.get("/status").text == "OK"
        }
        #expect(ready)
        let vaduz = try #require(try server.get("/v1/search", [("q", "Vaduz"), ("limit", "1")]).object()["results"] as? [[String: Any]])
        #expect(vaduz.first?["name"] as? String == "Vaduz")
    }

    /// A file that is missing or not a database stops the server before it listens, with one line.
    @Test func aBadDatabaseIsAOneLineError() throws {
        let run = try runGeodb(["serve", "/nonexistent/x.sqlite", "--port", "0"])
        #expect(run.status != 0 && run.stderr.contains("/nonexistent/x.sqlite") && run.stderr.split(separator: "\n").count == 1)
    }
}

/// A lock around a value, for the threads of a test.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
