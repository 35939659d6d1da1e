// The query commands as a user runs them, with --json on SampleData: search (free text, as-you-type,
// structured, hierarchical), reverse, lookup and nearby (paged), and their errors in the CLI's words.
import Foundation
import Testing
import TestSupport

@Suite struct QueryCLITests {
    static let helsinki = Result { try TestDatabases.helsinki() }

    /// Runs geodb with `arguments` (after the command and database) and decodes its JSON output.
    static func json(_ command: String, _ arguments: [String]) throws -> Any {
        let run = try runGeodb([command, try helsinki.get()] + arguments + ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// The `results` of a search's JSON (the envelope /v1/search answers too).
    static func results(_ arguments: [String]) throws -> [[String: Any]] {
        try #require((try json("search", arguments) as? [String: Any])?["results"] as? [[String: Any]])
    }

    /// Two files as one: search, reverse, nearby, lookup and timezone take several databases before their
    /// text or point, and show ids across the files (the file's index in the bits above 2^40).
    @Test func severalDatabasesAnswerAsOne() throws {
        let country = try TestDatabases.liechtenstein(), world = try TestDatabases.cities()
        func json(_ arguments: [String]) throws -> Any {
            let run = try runGeodb(arguments + ["--json"])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        }
        let vaduz = try #require((try json(["search", country, world, "Vaduz", "--limit", "20"]) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(vaduz.first?["source_id"] as? String == "n1932181216")
        #expect(!vaduz.contains { $0["source_id"] as? String == "geonames:3042030" })   // the same town, once
        let zurich = try #require(((try json(["search", country, world, "Zürich", "--limit", "1"]) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        let zurichID = try #require(zurich["id"] as? Int)
        #expect(zurichID >> 40 == 1)
        let looked = try #require(try json(["lookup", country, world, String(zurichID)]) as? [String: Any])
        #expect((looked["place"] as? [String: Any])?["source_id"] as? String == "geonames:2657896")
        let tokyo = try #require(((try json(["reverse", country, world, "35.6895", "139.6917"]) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        #expect((tokyo["place"] as? [String: Any])?["source_id"] as? String == "geonames:1850147")
        let cafes = try #require((try json(["nearby", country, world, "47.14", "9.52", "--category", "cafe"]) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(!cafes.isEmpty && cafes.allSatisfy { ($0["id"] as? Int ?? -1) >> 40 == 0 })
        // docs/CLI.md's example, as printed.
        let doc = try String(contentsOfFile: TestPaths.root.appendingPathComponent("docs/CLI.md").path, encoding: .utf8)
        for (arguments, shown) in [(["search", country, world, "Zürich", "--limit", "2"], "$ geodb search liechtenstein.sqlite cities15000.sqlite Zürich --limit 2\n"),
                                   (["reverse", country, world, "35.6895", "139.6917"], "$ geodb reverse liechtenstein.sqlite cities15000.sqlite 35.6895 139.6917\n")] {
            let run = try runGeodb(arguments)
            #expect(doc.contains(shown + run.stdout), "\(run.stdout)")
        }
        // What one file's paging cursor cannot do across files is refused, naming what to do instead.
        let paged = try runGeodb(["search", country, world, "Vaduz", "--after", "x"])
        #expect(paged.status == 64 && paged.stderr.contains("--after pages a search of one database; with several, raise --limit"))
    }

    /// `--explain` shows the readings tried and why each result ranks: "Austrasse, Triesen" is won by its
    /// "what, where" reading (the street in Triesen), its name points and its place's shown apart.
    @Test func explainShowsTheWinningReading() throws {
        let country = try TestDatabases.liechtenstein()
        let run = try runGeodb(["search", country, "Austrasse, Triesen", "--explain", "--limit", "3", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let why = try #require((output["explain"] as? [[String: Any]])?.first)
        let attempts = try #require(why["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["reading"] as? String } == ["name", "what_where"])
        let first = try #require((why["results"] as? [[String: Any]])?.first)
        #expect(first["reading"] as? String == "what_where" && first["name"] as? String == "Austrasse")
        let (score, name, place) = (first["score"] as? Double ?? 0, first["name_score"] as? Double ?? 0, first["place_score"] as? Double ?? 0)
        #expect(name > 0 && place > 0 && abs(score - name - place) < 0.002)
        let places = try #require(output["results"] as? [[String: Any]])
        #expect((places.first?["address"] as? [String: String])?["city"] == "Triesen")
        // As a table, the same, for a person.
        let table = try runGeodb(["search", country, "Austrasse, Triesen", "--explain", "--limit", "3"])
        #expect(table.stdout.contains("readings tried:") && table.stdout.range(of: #"1  Austrasse +what_where +exact +36\.500 +31\.500 +5\.000"#, options: .regularExpression) != nil)
        // docs/RANKING.md's example shows these lines as printed.
        let doc = try String(contentsOfFile: TestPaths.root.appendingPathComponent("docs/RANKING.md").path, encoding: .utf8)
        let example = try runGeodb(["search", country, "Austrasse, Triesen", "--explain", "--limit", "2"])
        let explained = try #require(example.stdout.range(of: "readings tried:")).lowerBound
        #expect(doc.contains(String(example.stdout[explained...])), "\(example.stdout)")
        // A coordinate is its own reading.
        let point = try runGeodb(["search", country, "47.14, 9.52", "--explain", "--json"])
        #expect(point.stdout.contains("\"coordinates\""))
    }

    @Test func freeTextAndAutocomplete() throws {
        let address = try Self.results(["Aleksanterinkatu 52", "--limit", "3"])
        #expect(address.count == 3)
        #expect(address.first?["source_id"] as? String == "n319515045")
        #expect(address.first?["kind"] as? String == "address" && address.first?["match"] as? String == "exact")
        #expect((address.first?["address"] as? [String: String])?["suburb"] == "Kluuvi")   // the CLI fills the hierarchy

        let typing = try Self.results(["mannerh", "--autocomplete", "--limit", "3"])
        #expect(typing.first?["source_id"] as? String == "w22906934" && typing.first?["match"] as? String == "prefix")

        let typo = try Self.results(["Pohjoisesplandi", "--limit", "2"])
        #expect(typo.first?["name"] as? String == "Pohjoisesplanadi" && typo.first?["match"] as? String == "fuzzy")
    }

    @Test func structuredAndHierarchical() throws {
        let structured = try Self.results(["--street", "Mannerheimintie", "--housenumber", "1", "--city", "Helsinki"])
        #expect(!structured.isEmpty && structured.allSatisfy { ($0["address"] as? [String: String])?["housenumber"] == "1" })
        let streets = try Self.results(["--town", "Helsinki", "--street", "Manner", "--limit", "5"])
        #expect(!streets.isEmpty && streets.allSatisfy { $0["kind"] as? String == "street" })
        let town = try Self.results(["--town", "Helsin"])
        #expect(town.first?["source_id"] as? String == "n1372477580")
    }

    @Test func reverseAndLookup() throws {
        let answers = try #require((try Self.json("reverse", ["60.16952", "24.93545"]) as? [String: Any])?["results"] as? [[String: Any]])
        let place = try #require(answers.first?["place"] as? [String: Any])
        #expect(place["name"] as? String == "Kampin kappeli" && place["kind"] as? String == "poi")
        #expect(answers.first?["hierarchy_source"] as? String == "nearest_place")

        let details = try #require(try Self.json("lookup", ["w122595241"]) as? [String: Any])
        #expect((details["place"] as? [String: Any])?["name"] as? String == "Stockmann")
        #expect(details["source"] as? String == "helsinki.osm.pbf")
        #expect((details["names"] as? [[String: Any]])?.isEmpty == false)
        #expect((details["geometry"] as? [String: Any])?["type"] as? String == "Polygon")   // GeoJSON, as /v1/place
    }

    /// Two pages of cafes: nearest first, every one a cafe, the second starting where the first ended.
    @Test func nearbyPages() throws {
        let arguments = ["60.1699", "24.9384", "--category", "cafe", "--radius", "500", "--limit", "5"]
        let first = try #require(try Self.json("nearby", arguments) as? [String: Any])
        let places = try #require(first["results"] as? [[String: Any]])
        let cursor = try #require(first["next"] as? String)
        let second = try #require(try Self.json("nearby", arguments + ["--after", cursor]) as? [String: Any])
        let more = try #require(second["results"] as? [[String: Any]])
        let distances = (places + more).compactMap { $0["distance_m"] as? Double }
        #expect(places.count == 5 && more.count == 5 && distances.count == 10)
        #expect(distances == distances.sorted())
        #expect((places + more).allSatisfy { $0["category_id"] as? String == "cafe" })
        #expect(Set((places + more).compactMap { $0["id"] as? Int }).count == 10)
    }

    /// Free-text search pages: the JSON's `next` is the cursor (the table prints it after the rows); pages
    /// joined are one deeper search; a cursor goes only with its own query.
    @Test func searchPages() throws {
        let db = try Self.helsinki.get()
        let arguments = ["search", db, "Mannerheimintie", "--limit", "4", "--json"]
        var pages: [[[String: Any]]] = []
        var cursor: String?
        repeat {
            let run = try runGeodb(arguments + (cursor.map { ["--after", $0] } ?? []))
            #expect(run.status == 0, "\(run.stderr)")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            pages.append(try #require(page["results"] as? [[String: Any]]))
            cursor = page["next"] as? String
        } while cursor != nil && pages.count < 3
        let deep = try Self.results(["Mannerheimintie", "--limit", "12"])
        #expect(pages.count == 3 && pages.allSatisfy { $0.count == 4 })
        #expect(pages.flatMap { $0 }.compactMap { $0["id"] as? Int } == deep.compactMap { $0["id"] as? Int })
        let foreign = try runGeodb(["search", db, "Kamppi", "--after", try #require(cursor)])
        #expect(foreign.status == 64 && foreign.stderr.hasPrefix("Error: --after '\(cursor!)' is not a cursor from a previous page of this query"))
        let table = try runGeodb(["search", db, "Mannerheimintie", "--limit", "4"])
        #expect(table.stdout.contains("more: --after 4."))
    }

    /// A negative value after an option is its value, not another option.
    @Test func negativeOptionValues() throws {
        let far = try Self.results(["Stockmann", "--near", "-33.8,151.2", "--limit", "1"])
        #expect(far.first?["name"] as? String == "Stockmann")
        let box = try runGeodb(["nearby", try Self.helsinki.get(), "--bbox", "-1,-1,1,1"])
        #expect(box.status == 0 && box.stdout.contains("nothing in the box"))
    }

    /// Library errors in the CLI's words: its flags, one wording per rule, exit status 64 for a bad value
    /// (whether the CLI or the library checks it; 1 for a place not there), never a crash — including the
    /// paths that trapped (--town/--street with a negative --limit).
    @Test(arguments: [
        (["search", "DB", "--town", "Helsinki", "--limit=-1"], 64, "Error: --limit -1 is out of range (1…100)"),
        (["search", "DB", "--street", "Aleksanterinkatu", "--housenumber", "52", "--limit", "-1"], 64, "Error: --limit -1 is out of range (1…100)"),
        (["search", "DB", "Kamppi", "--limit", "0"], 64, "Error: --limit 0 is out of range (1…100)"),
        (["search", "DB", "Kamppi", "--near", "95,0"], 64, "Error: --near 95, 0 is out of range (latitude -90…90, longitude -180…180)"),
        (["search", "DB", "Kamppi", "--country", "FIN"], 64, "Error: --country 'FIN' is not a two-letter ISO 3166-1 country code"),
        (["search", "DB", "Kamppi", "--kind", "strasse"], 64, "Error: --kind: unknown kind 'strasse'"),
        (["reverse", "DB", "91", "0"], 64, "Error: LAT LON 91, 0 is out of range (latitude -90…90, longitude -180…180)"),
        (["reverse", "DB", "60.17", "24.94", "--radius", "-5"], 64, "Error: --radius -5 m is out of range (1…20000000 m)"),
        (["nearby", "DB", "60.17", "24.94", "--radius", "0.5"], 64, "Error: --radius 0.5 m is out of range (1…100000 m)"),
        (["nearby", "DB", "60.17", "24.94", "--after", "zz"], 64, "Error: --after 'zz' is not a cursor from a previous page of this query"),
        (["nearby", "DB", "--bbox", "24.9,60.2,24.95,60.1"], 64, "Error: --bbox 24.9,60.2,24.95,60.1 has its minimum latitude above its maximum"),
        (["lookup", "DB", "n0"], 1, "Error: no place 'n0' in"),
    ] as [([String], Int32, String)])
    func errorsNameTheFlags(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let db = try Self.helsinki.get()
        let run = try runGeodb(arguments.map { $0 == "DB" ? db : $0 })
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }
}
