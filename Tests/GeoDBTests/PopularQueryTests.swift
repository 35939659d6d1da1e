// The queries people type most (the most important towns, the commonest street names and name words,
// a town's first letters) read only as far as their ranking needs: the whole-name keys find exact names,
// matches through an address alone are read last. These tests hold what that must not change.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct PopularQueryTests {
    /// The popular queries of a database as `geodb-bench popular DB --list` makes them (its rules, in one
    /// place): the whole texts of the towns, streets, addresses, words and typos sets, and the first letters typed.
    static func popularQueries(_ path: String) throws -> (whole: [String], typed: [String]) {
        let bench = URL(fileURLWithPath: TestPaths.geodbBinary).deletingLastPathComponent().appendingPathComponent("geodb-bench").path
        let run = try runGeodb(["popular", path, "--list"], binary: bench)
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [[String: Any]]], "\(run.stderr)")
        func texts(_ set: String) -> [String] { (sets[set] ?? []).compactMap { $0["text"] as? String } }
        return (texts("towns") + texts("streets") + texts("addresses") + texts("words") + texts("typos"), texts("as_you_type"))
    }

    /// The statements `geodb search` runs for `text` on `path`, one line each ("µs purpose [values]", the values cut
    /// short): how much a search reads, from a real run of the CLI (`GEODB_TRACE_STATEMENTS`).
    static func tracedStatements(_ path: String, _ text: String, typing: Bool = false) throws -> [Substring] {
        let run = try runProgram("/usr/bin/env", ["GEODB_TRACE_STATEMENTS=1", TestPaths.geodbBinary, "search", path, text]
                                 + (typing ? ["--autocomplete"] : []))
        return run.stderr.split(separator: "\n")
    }

    static func ids(_ db: GeoDatabase, _ text: String, limit: Int, typing: Bool = false) throws -> [Int64] {
        var options = SearchOptions()
        options.limit = limit
        options.autocomplete = typing
        return try db.search(text, options: options).map(\.id)
    }

    /// A popular word's first page is the first page of a deep search for it (which reads ten times as far
    /// into every stream): stopping early loses nothing. On OSM data (Liechtenstein: addresses, streets,
    /// POIs) and a gazetteer (cities15000: alternate names), whole and as typed.
    @Test(arguments: ["liechtenstein", "cities"])
    func firstPageIsTheDeepSearchsFirstPage(_ name: String) throws {
        let path = name == "cities" ? try TestDatabases.cities() : try TestDatabases.liechtenstein()
        let db = try GeoDatabase(path: path)
        let queries = try Self.popularQueries(path)
        #expect(queries.whole.count >= 40 && queries.typed.count >= 40)
        for text in queries.whole {
            #expect(try Self.ids(db, text, limit: 10) == Array(Self.ids(db, text, limit: 100).prefix(10)), "\(text)")
        }
        for typed in queries.typed {
            #expect(try Self.ids(db, typed, limit: 10, typing: true) == Array(Self.ids(db, typed, limit: 100, typing: true).prefix(10)),
                    "\(typed) (typing)")
        }
    }

    /// Every name of a place is in `place_name_key` at its search row (an alternate name that is also an
    /// own name at the own names' row, as `SearchNames` has it), under the key of its folded words (a name in a
    /// language whose key no name in none has, under `NameKey.inLanguage` of it), and an address without a name
    /// is there under its street's (but for a street derived for a POI without a house number, which is shown,
    /// not searched): the exact matches search reads first are all there is.
    @Test func everyNameIsUnderItsKey() throws {
        let path = try TestDatabases.liechtenstein()
        let db = try Connection(path: path, mode: .readOnly())
        let rows = try db.prepare("""
            SELECT p.id, p.importance, p.kind, n.name, n.type, n.lang, p.street
            FROM place p LEFT JOIN place_name n ON n.place_id = p.id
            WHERE n.name IS NOT NULL OR (p.name IS NULL AND p.street IS NOT NULL
                                         AND NOT (p.kind = 'poi' AND p.housenumber IS NULL AND ',' || p.derived || ',' LIKE '%,street,%'))
            ORDER BY p.id, n.rowid
            """).rows { ($0.int(0), $0.double(1), PlaceKind(rawValue: $0.text(2) ?? ""),
                         $0.text(3).map { PlaceName(name: $0, type: "", lang: nil) }, $0.text(4), $0.text(5), $0.text(6)) }
        #expect(rows.count > 10_000)
        let lookup = try db.prepare("SELECT rowid FROM place_name_key WHERE place_name_key MATCH ?1 AND rowid = ?2")
        var missing: [String] = []
        var languageKeys = 0
        for place in Dictionary(grouping: rows, by: \.0).values {
            guard let (id, importance, kind, _, _, _, street) = place.first, let kind else { continue }
            let names = SearchNames(place.compactMap { row in row.3.map { PlaceName(name: $0.name, type: row.4 ?? "", lang: row.5) } })
            let own = SearchRowID.of(place: id, importance: importance, kind: kind)
            let ownKeys = Set(names.own.compactMap { NameKey.of(words: TextNormalizer.tokens($0)) })
            var expected = (names.all.isEmpty ? street.map { [$0] } ?? [] : names.own).map { ($0, own, false) }
            expected += names.inLanguages.map { ($0, own, true) }
            expected += names.alternate.map { ($0, SearchRowID.of(place: id, importance: importance, kind: kind, alternate: true), false) }
            for (name, rowid, inLanguage) in expected {
                let words = TextNormalizer.tokens(name)
                guard let key = NameKey.of(words: words) else { continue }
                let whole = inLanguage && !ownKeys.contains(key) ? NameKey.inLanguage(key) : key
                if whole != key { languageKeys += 1 }
                // Its key, the token of its first word (`NameKey.firstWord`), and those of that word's first one to
                // three letters (`firstWordPrefix`) at its own names' row: for an alternate name, when the place has
                // names in a language.
                let scalars = Array(words[0].unicodeScalars)
                let prefixes = (1...min(3, scalars.count)).map { k in
                    NameKey.firstWordPrefix(String(String.UnicodeScalarView(scalars.prefix(k))))
                }
                let prefixesAtOwn = rowid == own || !names.inLanguages.isEmpty
                for (token, row) in [(whole, rowid), (NameKey.firstWord(words[0]), rowid)] + (prefixesAtOwn ? prefixes.map { ($0, own) } : [])
                where try lookup.rows([.text("\"\(token)\""), .integer(row)], { $0.int(0) }).isEmpty {
                    missing.append("\(id) \(name) \(token)")
                }
            }
        }
        #expect(missing.isEmpty, "\(missing.prefix(5))")
        #expect(languageKeys > 100)
    }

    /// The rows whose names do not begin with a query word are read apart from those that do, bounded 1.5
    /// points lower (`NameKey.firstWord`): "weg" and "strasse" score half the streets they did on the same
    /// file with first-word keys switched off (a copy whose `meta` says it was written before them), and a
    /// search for 10 is still the beginning of one for 100.
    @Test func namesNotBeginningWithTheWordsAreReadApart() throws {
        let path = try TestDatabases.liechtenstein()
        let scratch = try ScratchDirectory()
        let without = scratch.path("without-first-words.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: without)
        try Connection(path: without, mode: .readWrite).execute("UPDATE meta SET value = '0' WHERE key = '\(NameKey.firstWordsMetaKey)'")
        let db = try GeoDatabase(path: path), before = try GeoDatabase(path: without)
        func scored(_ db: GeoDatabase, _ text: String) throws -> Int {
            try db.withSession { try $0.explainSearch(text) }.explanation.attempts.filter { $0.reading == .name }.map(\.candidates).reduce(0, +)
        }
        for text in ["weg", "strasse"] {
            let (now, then) = (try scored(db, text), try scored(before, text))
            #expect(now <= 20 && then >= 2 * now, "\(text): \(now) candidates scored, \(then) without first words")
        }
        for text in try Self.popularQueries(path).whole + ["Alte Landstrasse", "Vaduz Landstrasse", "St. Peter"] {
            #expect(try Self.ids(db, text, limit: 10) == Array(Self.ids(db, text, limit: 100).prefix(10)), "\(text)")
        }
    }

    /// While typing, a row none of whose names (nor its place's alternates, for a row of own names) begins with
    /// a query word is bound without the bonus of one that does (`NameKey.firstWordPrefix`): of 40 equal towns
    /// that "Si" matches only through a name in a language ("Hel'sinki", the FTS5 tokenizer splits it at the
    /// apostrophe), at most a round of 16 is scored, not all; on a copy whose `meta` says
    /// its keys hold whole first words alone, all are. Answers are the same with and without the check, for
    /// those towns and for every typed query of the popular sets of Liechtenstein.
    @Test func typedRowsNotBeginningWithTheWordsAreBoundLower() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 24.9)
        osm.nodes(40, firstID: 1, lat: 60.0, step: 1e-3) { _ in
            [("place", "city"), ("population", "600000"), ("name", "Helsinki"), ("name:et", "Hel&apos;sinki"), ("alt_name", "Stadi")]
        }
        osm.nodes(5, firstID: 101, lat: 61.0, step: 1e-3) { [("place", "village"), ("name", "Sipoo \($0)")] }
        let path = try osm.imported("helsinkis", in: scratch)
        func withWholeFirstWordsOnly(_ path: String) throws -> GeoDatabase {
            let copy = scratch.path(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + "-whole-first-words.sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try Connection(path: copy, mode: .readWrite).execute(
                "UPDATE meta SET value = '\(FirstWordTokens.whole.rawValue)' WHERE key = '\(NameKey.firstWordsMetaKey)'")
            return try GeoDatabase(path: copy)
        }
        func scored(_ db: GeoDatabase, _ text: String) throws -> Int {
            var options = SearchOptions()
            options.autocomplete = true
            return try db.withSession { try $0.explainSearch(text, options: options) }.explanation.attempts.filter { $0.reading == .name }
                .map(\.candidates).reduce(0, +)
        }
        let db = try GeoDatabase(path: path), before = try withWholeFirstWordsOnly(path)
        let (now, then) = (try scored(db, "Si"), try scored(before, "Si"))
        #expect(now <= 20 && then >= 40, "\(now) candidates scored, \(then) with whole first words only")
        #expect(try Self.ids(db, "Si", limit: 10, typing: true) == Self.ids(before, "Si", limit: 10, typing: true))
        #expect(try db.search("Si", options: { var o = SearchOptions(); o.autocomplete = true; return o }()).filter { $0.name == "Helsinki" }.count >= 5)

        let liechtenstein = try TestDatabases.liechtenstein()
        let (file, wholeOnly) = (try GeoDatabase(path: liechtenstein), try withWholeFirstWordsOnly(liechtenstein))
        for typed in try Self.popularQueries(liechtenstein).typed {
            #expect(try Self.ids(file, typed, limit: 10, typing: true) == Self.ids(wholeOnly, typed, limit: 10, typing: true), "\(typed)")
        }
    }

    /// The key of a part of the words held by more rows than the exact streams list (unnamed addresses are
    /// keyed by their street: 1,100 houses on Landstrasse) is left to the stream of the other names, read as
    /// names that may still be the text: the place named just "Landstrasse" in Alte is an exact match of "Alte
    /// Landstrasse" there too, and the first page is still the beginning of a deep search.
    @Test func aCommonPartOfTheWordsIsStillAnExactName() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 9.52)
        for i in 1...1_100 { osm.node(i, 47.0 + Double(i) * 1e-5, [("addr:street", "Landstrasse"), ("addr:housenumber", "\(i)")]) }
        for i in 1...40 { osm.node(2_000 + i, 47.2 + Double(i) * 1e-5, [("addr:street", "Alte Landstrasse"), ("addr:housenumber", "\(i)")]) }
        osm.node(3_001, 47.3, [("highway", "bus_stop"), ("name", "Landstrasse"), ("addr:city", "Alte")])
        osm.node(3_002, 47.21, [])
        osm.node(3_003, 47.22, [])
        osm.xml += "<way id='1'><nd ref='3002'/><nd ref='3003'/><tag k='highway' v='residential'/><tag k='name' v='Alte Landstrasse'/></way>\n"
        let path = try osm.imported("landstrasse", in: scratch)
        let keyRows = try Connection(path: path, mode: .readOnly())
            .prepare("SELECT count(*) FROM place_name_key WHERE place_name_key MATCH ?1").rows([.text("\"\(NameKey.of(words: ["landstrasse"])!)\"")]) { $0.int(0) }
        #expect(keyRows.first ?? 0 > Int64(CandidateRanker.exactKeysListed))
        let db = try GeoDatabase(path: path)
        let found = try db.search("Alte Landstrasse", options: { var o = SearchOptions(); o.limit = 50; return o }())
        #expect(found.first { $0.name == "Landstrasse" }?.match == .exact, "\(found.map { ($0.name, $0.match) })")
        #expect(found.first?.kind == .street)
        #expect(try Self.ids(db, "Alte Landstrasse", limit: 10) == Array(Self.ids(db, "Alte Landstrasse", limit: 100).prefix(10)))
    }

    /// A street and number whose first 201 matches are all shops on the street whose address holds the number
    /// elsewhere ("9, Floor 5"), ranked above the houses: the houses are read after the listed matches, whose
    /// list grows as far as the stream of names needs (`CandidateRanker.mostListed`), and the answer is the
    /// houses numbered so, the deep search's first page; a text of a town matching more than the list can
    /// hold is read from the index after it.
    @Test func matchesBeyondTheFirstListedAreReadToo() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 9.52)
        for i in 1...300 {
            osm.node(i, 47.0 + Double(i) * 1e-4, [("shop", "clothes"), ("name", "Shop \(i)"), ("addr:street", "Teststrasse"),
                                              ("addr:housenumber", "9, Floor 5"), ("addr:city", "Testdorf")])
        }
        for i in 1...2_300 {
            osm.node(1_000 + i, 47.1 + Double(i) * 1e-4, [("addr:street", "Teststrasse"), ("addr:housenumber", "\(i % 400 == 0 ? 5 : 100 + i)"),
                                                       ("addr:city", "Testdorf")])
        }
        let path = try osm.imported("teststrasse", in: scratch)
        let db = try GeoDatabase(path: path)
        let houses = try db.search("Teststrasse 5")
        #expect(houses.prefix(5).allSatisfy { $0.kind == .address && $0.match == .exact } && houses.dropFirst(5).allSatisfy { $0.kind == .poi },
                "\(houses.map { ($0.name, $0.kind) })")
        for text in ["Teststrasse 5", "Testdorf Teststrasse", "Teststrasse Testdorf"] {
            #expect(try Self.ids(db, text, limit: 3) == Array(Self.ids(db, text, limit: 100).prefix(3)), "\(text)")
        }
    }

    /// Sixty towns with a Teststrasse of twenty houses, and a shop on each ranked above its houses whose address
    /// holds the number elsewhere ("13, Floor 5"): "Teststrasse 5" reads the houses numbered 5 from the keys of
    /// their street with the number (`NameKey.numbered`), not by listing the matches (FTS5's walk of the rows of
    /// the word and of the number: no "rows that match" statement); the places whose alternate name is the street
    /// (with that number, or with it as postcode), the one named "Teststrasse 5" and the one named so with that
    /// number are ranked as a deep search ranks them. Each first page, whole and as typed, is the deep search's.
    /// A number of two words ("5 A") or a range gives no key: a query's number does not match it in the index either.
    @Test func aStreetAndNumberIsReadFromItsKeys() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 9.52)
        for town in 1...60 {
            let lat = 47.0 + Double(town) * 0.01
            for house in 1...20 {
                osm.node(town * 100 + house, lat + Double(house) * 1e-4,
                         [("addr:street", "Teststrasse"), ("addr:housenumber", "\(house)"), ("addr:city", "Town \(town)")])
            }
            osm.node(town * 100 + 99, lat, [("shop", "clothes"), ("name", "Shop \(town)"), ("addr:street", "Teststrasse"),
                                            ("addr:housenumber", "13, Floor 5"), ("addr:city", "Town \(town)")])
        }
        osm.node(9_001, 46.9, [("amenity", "cafe"), ("name", "Cafe"), ("alt_name", "Teststrasse"), ("addr:street", "Teststrasse"),
                               ("addr:housenumber", "5")])
        osm.node(9_002, 46.91, [("amenity", "cafe"), ("name", "Bar"), ("alt_name", "Teststrasse"), ("addr:postcode", "5")])
        osm.node(9_003, 46.92, [("tourism", "attraction"), ("name", "Teststrasse 5")])
        osm.node(9_004, 46.93, [("tourism", "museum"), ("name", "Teststrasse 5"), ("addr:street", "Teststrasse"), ("addr:housenumber", "5")])
        osm.node(9_005, 46.94, [("addr:street", "Teststrasse"), ("addr:housenumber", "5 A")])
        let path = try osm.imported("numbered", in: scratch)
        let keys = try Connection(path: path, mode: .readOnly()).prepare("SELECT count(*) FROM place_name_key WHERE place_name_key MATCH ?1")
        func rows(_ words: [String]) throws -> Int64 { try keys.rows([.text("\"\(NameKey.of(words: words)!)\"")]) { $0.int(0) }.first ?? 0 }
        // The sixty houses, the café by its alternate name, the attraction and the museum by their names; the museum
        // by its name with its number too.
        #expect(try rows(["teststrasse", "5"]) == 63 && rows(["teststrasse", "5", "5"]) == 1 && rows(["teststrasse", "5a"]) == 0)
        let db = try GeoDatabase(path: path)
        let lines = try Self.tracedStatements(path, "Teststrasse 5")
        #expect(!lines.contains { $0.contains("rows that match, with their name columns") } && lines.contains { $0.contains("rows named so") },
                "\(lines)")
        #expect(try db.search("Teststrasse 5").allSatisfy { $0.address.housenumber == "5" })
        for limit in [3, 10, 25] {
            #expect(try Self.ids(db, "Teststrasse 5", limit: limit) == Array(Self.ids(db, "Teststrasse 5", limit: 100).prefix(limit)), "\(limit)")
            #expect(try Self.ids(db, "Teststrasse 5", limit: limit, typing: true)
                    == Array(Self.ids(db, "Teststrasse 5", limit: 100, typing: true).prefix(limit)), "\(limit) (typing)")
        }
    }

    /// A street and number that fewer places are named so with than asked for, or more than
    /// `CandidateRanker.numberedRowsRead`, is listed as any other text: its few rows in one statement, and past the
    /// cap, where the other streams would leave out keyed rows not read, a filter may want one of those. Each first
    /// page is the deep search's, and the filtered search finds the last house.
    @Test func aStreetAndNumberOfFewOrVeryManyPlacesIsListed() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 9.52)
        let many = CandidateRanker.numberedRowsRead + 1
        for i in 1...many {
            osm.node(i, 40.0 + Double(i) * 1e-3, [("addr:street", "Teststrasse"), ("addr:housenumber", "5"), ("addr:city", "Town \(i)")])
        }
        for i in 1...3 { osm.node(10_000 + i, 39.0 + Double(i) * 1e-3, [("addr:street", "Feldweg"), ("addr:housenumber", "7")]) }
        let path = try osm.imported("listed", in: scratch)
        let db = try GeoDatabase(path: path)
        for text in ["Teststrasse 5", "Feldweg 7"] {
            #expect(try Self.tracedStatements(path, text).contains { $0.contains("rows that match, with their name columns") }, "\(text)")
            #expect(try Self.ids(db, text, limit: 10) == Array(Self.ids(db, text, limit: 100).prefix(10)), "\(text)")
        }
        #expect(try db.search("Feldweg 7").count == 3)
        var last = SearchOptions()
        last.bbox = BoundingBox(minLat: 40.0 + Double(many) * 1e-3 - 5e-4, minLon: 9.5, maxLat: 46.0, maxLon: 9.6)
        #expect(try db.search("Teststrasse 5", options: last).map(\.address.city) == ["Town \(many)"])
    }

    /// Sixty capitals named Helsinki, Helsingfors in Swedish and "Kapitale …" in German, and thirty villages
    /// "Kirchdorf …": with no language asked for, "Helsingfors" reads the capitals as named so in another
    /// language (their rows apart, `NameKey.inLanguage`), and "K" typed leaves them below the villages unread
    /// (the index says only their names in a language hold the word, `Candidate.namesInLanguagesOnly`). Each
    /// read the names of all sixty before, in four statements (counted in the CLI's traced statements). With
    /// Swedish asked for, Helsingfors is their own name. Each first page is still the deep search's.
    @Test func namesInOtherLanguagesAreReadAsSuch() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 24.9)
        osm.nodes(60, firstID: 1, lat: 60.0, step: 1e-2) { _ in
            [("place", "city"), ("name", "Helsinki"), ("name:sv", "Helsingfors"), ("name:de", "Kapitale Helsinki"), ("population", "600000")]
        }
        osm.nodes(30, firstID: 101, lat: 61.0, step: 1e-2) { [("place", "village"), ("name", "Kirchdorf \($0)")] }
        let path = try osm.imported("capitals", in: scratch)
        let db = try GeoDatabase(path: path)
        func explained(_ text: String, typing: Bool = false, language: String? = nil) throws -> (names: [String?], namesRead: Int) {
            var options = SearchOptions()
            options.autocomplete = typing
            options.language = language
            let namesRead = try Self.tracedStatements(path, text, typing: typing).filter { $0.contains("names of search candidates") }.count
            return (try db.search(text, options: options).map(\.name), namesRead)
        }
        let swedish = try explained("Helsingfors")
        #expect(swedish.names == Array(repeating: "Helsinki", count: 10) && swedish.namesRead <= 2, "\(swedish)")
        let typed = try explained("K", typing: true)
        #expect(typed.names.allSatisfy { $0?.hasPrefix("Kirchdorf") == true } && typed.namesRead == 0, "\(typed)")
        let asked = try explained("Helsingfors", language: "sv")
        #expect(asked.names == Array(repeating: "Helsingfors", count: 10), "\(asked)")
        for text in ["Helsingfors", "Helsinki", "Kapitale"] {
            #expect(try Self.ids(db, text, limit: 10) == Array(Self.ids(db, text, limit: 100).prefix(10)), "\(text)")
        }
        for typed in ["K", "Ka", "Hel"] {
            #expect(try Self.ids(db, typed, limit: 10, typing: true) == Array(Self.ids(db, typed, limit: 100, typing: true).prefix(10)), "\(typed)")
        }
    }

    /// 250 squares named "Asema N" in no language and "Stora Järnvägstorget N" in Swedish: "Järnvägstorget", which
    /// no name in no language holds and no name is or begins with, reads the rows of names in a language apart,
    /// bound as those names rank, and stops after its first 16 places (it read all 200 rows it may, and their
    /// names, in rounds). (Rows whose names begin with the word are read by their first-word keys, which do not tell
    /// names in a language apart.) With Swedish asked for, those names are the places' own. Each first page is
    /// the deep search's.
    @Test func aWordOnlyNamesInALanguageHoldIsReadApart() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 24.9)
        osm.nodes(250, firstID: 1, lat: 60.0, step: 1e-3) { [("place", "square"), ("name", "Asema \($0)"), ("name:sv", "Stora Järnvägstorget \($0)")] }
        let path = try osm.imported("squares", in: scratch)
        let db = try GeoDatabase(path: path)
        let lines = try Self.tracedStatements(path, "Järnvägstorget")
        // The places whose names were read: the ids the traced statements list (a list cut short is a long one).
        let namesRead = lines.filter { $0.contains("names of search candidates") }.map { line in
            line.contains("…") ? 100 : line.split(separator: ",").count
        }.reduce(0, +)
        #expect(namesRead <= 20, "\(lines)")
        #expect(lines.contains { $0.contains("{lang_name}") }, "\(lines)")
        #expect(try db.search("Järnvägstorget").count == 10)
        var swedish = SearchOptions()
        swedish.language = "sv"
        #expect(try db.search("Järnvägstorget", options: swedish).first?.name?.hasPrefix("Stora Järnvägstorget") == true)
        #expect(try Self.ids(db, "Järnvägstorget", limit: 10) == Array(Self.ids(db, "Järnvägstorget", limit: 100).prefix(10)))
        // "Asema", which only names in no language hold (the vocabulary says so), is one stream: a stream apart of the
        // rows whose names in a language hold it, or of those whose address does, would walk its rows to find none.
        let asema = try Self.tracedStatements(path, "Asema")
        #expect(asema.contains { $0.contains("search candidates") }, "\(asema)")
        #expect(!asema.contains { $0.contains("({lang_name}:") || $0.contains("NOT {name street lang_name}:") }, "\(asema)")
        #expect(try Self.ids(db, "Asema", limit: 10) == Array(Self.ids(db, "Asema", limit: 100).prefix(10)))
    }

    /// The matches through an address alone are a stream of their own, read last; a word no address holds (the
    /// vocabulary counts, `search_word.address_places`) has none to read: the 20 commonest such name words of a
    /// gazetteer (cities15000, whose addresses are its places' areas), whose streams walked all their rows to find
    /// none, for 13 of them ("zhen" on cities500: 7,866 rows, 0.4 ms of its 1.5). Each first page is the deep
    /// search's. A word addresses hold keeps its stream ("Vaduz" on Liechtenstein).
    @Test func wordsNoAddressHoldsHaveNoAddressStream() throws {
        let gazetteer = try TestDatabases.cities()
        let raw = try Connection(path: gazetteer, mode: .readOnly())
        let words = try raw.prepare("""
            SELECT token FROM search_word WHERE address_places = 0 AND token NOT GLOB '*[0-9]*' ORDER BY places DESC, token LIMIT 20
            """).rows { $0.text(0) ?? "" }
        #expect(words.count == 20)
        let db = try GeoDatabase(path: gazetteer)
        for word in words {
            let lines = try Self.tracedStatements(gazetteer, word)
            #expect(lines.contains { $0.contains("search candidates") }, "\(word): \(lines)")
            #expect(!lines.contains { $0.contains("NOT {name street lang_name}:") }, "\(word): \(lines)")
            #expect(try Self.ids(db, word, limit: 10) == Array(Self.ids(db, word, limit: 100).prefix(10)), "\(word)")
        }
        let vaduz = try Self.tracedStatements(try TestDatabases.liechtenstein(), "Vaduz")
        #expect(vaduz.contains { $0.contains("NOT {name street lang_name}:") }, "\(vaduz)")
    }

    /// "Vaduz" matches 1,700 places of Liechtenstein, nearly all addresses in Vaduz: the places named
    /// exactly so and those whose names hold the word are scored, the addresses not (it scored 200).
    /// "strasse" scores the streets named "…strasse" only as far as one could still rank in the top 10
    /// (it scored 200, in case one was named just "Strasse"). "Landstrasse" also reads the alternate names of
    /// the streets named "… Landstrasse": a whole alternate name would tie them with its tenth result, a house.
    @Test func popularWordsScoreFewCandidates() throws {
        let db = try GeoDatabase(path: try TestDatabases.liechtenstein())
        for (text, most) in [("Vaduz", 40), ("Schaan", 40), ("strasse", 60), ("Landstrasse", 45)] {
            let (places, explanation) = try db.withSession { try $0.explainSearch(text) }
            let scored = explanation.attempts.filter { $0.reading == .name }.map(\.candidates).reduce(0, +)
            #expect(scored <= most, "\(text): \(scored) candidates scored")
            #expect(places.first?.name.map(TextNormalizer.fold) == TextNormalizer.fold(text) || text == "strasse", "\(text)")
        }
        // The places named exactly "Vaduz" come first, the town before its four signs.
        let vaduz = try GeoDatabase(path: try TestDatabases.liechtenstein()).search("Vaduz")
        #expect(vaduz.prefix(5).map { $0.match } == Array(repeating: .exact, count: 5))
        #expect(vaduz.first?.kind == .town)
    }

    /// A category word is spelt right: where the file has no such places (a gazetteer has no pharmacies),
    /// it is searched as a name, but not as a typo of other words (cities500: "Tourist information" read
    /// 6,000 words a typo or two away, 13.8 ms, to find nothing).
    @Test func categoryWordsAreNoTypos() throws {
        let db = try GeoDatabase(path: try TestDatabases.cities())
        for text in ["Pharmacy", "Tourist information", "restaurant", "Bus stop"] {
            let (places, explanation) = try db.withSession { try $0.explainSearch(text) }
            #expect(!explanation.attempts.contains { $0.reading == .fuzzy }, "\(text)")
            #expect(places.allSatisfy { $0.match != .fuzzy }, "\(text)")
        }
        // A misspelt name is still corrected.
        #expect(try db.search("Helsinkki").first?.name == "Helsinki")
    }

    /// A place named a word near the typo, but not among the eight words the typo search matches, is read through
    /// the keys of the names that may be the near words whole: "Minsa" on cities15000 finds Minna (Nigeria), the
    /// tenth word one edit away, which matching the eight alone never read.
    @Test func aTypoFindsPlacesNamedANearWordNotMatched() throws {
        let path = try TestDatabases.cities()
        let reader = try DatabaseReader(path: path, immutable: false)
        let index = SearchIndex(reader, areaSets: AreaSets(reader))
        #expect(try !index.similarWords(to: "minsa").contains("minna") && index.wordsNear("minsa", typing: false).contains("minna"))
        let places = try GeoDatabase(path: path).search("Minsa")
        #expect(places.first?.name == "Minsk" && places.contains { $0.name == "Minna" }, "\(places.map(\.displayName))")
    }

    /// A mistyped popular name reads about as far as the name spelt right: the rows one of whose names may be the
    /// near words whole, those whose names merely hold one, and those matching through their address, each bound
    /// by the edits every name needs. Read as one stream bound as a name with no edit, "Helsinkki" on Helsinki
    /// + cities500 scored 200 candidates for its ten (105 M instructions; 9 M now), and missed places named
    /// "Helsinki …" beyond them that score more.
    @Test func aMistypedNameReadsAsLittleAsTheName() throws {
        let db = try GeoDatabase(path: try TestDatabases.helsinki())
        for (typo, name) in [("Helsinkki", "Helsinki"), ("Mannerheimintei", "Mannerheimintie"), ("Aleksanterinkattu", "Aleksanterinkatu"),
                             ("Esplanadii", "Esplanadi")] {
            let (places, explanation) = try db.withSession { try $0.explainSearch(typo) }
            let scored = explanation.attempts.filter { $0.reading == .fuzzy }.map(\.candidates).reduce(0, +)
            #expect(scored <= 50, "\(typo): \(scored) candidates scored")
            #expect(places.first?.name == name && places.first?.match == .fuzzy, "\(typo): \(places.map(\.displayName))")
            // The first page is the deep search's.
            var deep = SearchOptions()
            deep.limit = 100
            #expect(places.map(\.id) == Array(try db.search(typo, options: deep).prefix(places.count).map(\.id)), "\(typo)")
        }
    }
}

/// An OSM XML file made node by node (at one longitude), imported into a database of its own.
struct OSMFile {
    let lon: Double
    var xml = "<?xml version='1.0'?>\n<osm version='0.6'>\n"

    mutating func node(_ id: Int, _ lat: Double, _ tags: [(String, String)]) {
        xml += "<node id='\(id)' lat='\(lat)' lon='\(lon)'>" + tags.map { "<tag k='\($0.0)' v='\($0.1)'/>" }.joined() + "</node>\n"
    }

    /// `count` nodes in a column, ids from `firstID`, the i-th (from 1) at `lat` + i × `step` with `tags(i)`: rows
    /// of equal places, the popular words' worst case.
    mutating func nodes(_ count: Int, firstID: Int, lat: Double, step: Double, _ tags: (Int) -> [(String, String)]) {
        for i in 1...count { node(firstID + i - 1, lat + Double(i) * step, tags(i)) }
    }

    /// Written as `name`.osm in `scratch` and imported into `name`.sqlite there: its path.
    func imported(_ name: String, in scratch: ScratchDirectory) throws -> String {
        try (xml + "</osm>\n").write(toFile: scratch.path("\(name).osm"), atomically: false, encoding: .utf8)
        _ = try TestDatabases.importFiles([scratch.path("\(name).osm")], to: scratch.path("\(name).sqlite"))
        return scratch.path("\(name).sqlite")
    }
}
