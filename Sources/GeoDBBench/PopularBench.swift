// The queries people type most, made from the database by rule: the most important towns, the
// commonest street names, alone and with a house number, the commonest name words, the category words, and
// the first letters of towns and streets as typed, and those towns and streets mistyped. The random-name sets measure
// rare names; these read the most candidates.
import Foundation
import GeoDB
import GeoDBSQLite

enum PopularBench {
    /// A popular query: its text and whether it is typed (autocomplete).
    struct Query: Hashable {
        var text: String
        var typing: Bool
    }

    /// The sets, by name, each in a fixed order (the rules read the database; no randomness).
    static func sets(_ raw: Connection) throws -> [(name: String, queries: [Query])] {
        func texts(_ sql: String) throws -> [String] { try raw.prepare(sql).rows([]) { $0.text(0) ?? "" }.filter { !$0.isEmpty } }
        let towns = try texts("""
            SELECT name FROM place WHERE kind IN ('city', 'town', 'village', 'hamlet', 'suburb') AND \(KindIndex.condition()) AND name IS NOT NULL
            GROUP BY name ORDER BY max(importance) DESC, name LIMIT 20
            """)
        let streets = try texts("""
            SELECT name FROM place WHERE \(KindIndex.equals(.street)) AND name IS NOT NULL GROUP BY name ORDER BY count(*) DESC, name LIMIT 20
            """)
        // The main street with a number: each of those streets with the lowest house number of its addresses
        // ("Landstrasse 1"), a number most towns along a street of a common name have too. One pass over the
        // places: `street` has no index.
        let lowest = Dictionary(try raw.prepare("""
            SELECT street, min(CAST(housenumber AS INTEGER)) FROM place
            WHERE street IN (SELECT value FROM json_each(?1)) AND housenumber GLOB '[1-9]*' AND housenumber NOT GLOB '*[^0-9]*'
            GROUP BY street
            """).rows([.text(JSONText.array(streets))]) { ($0.text(0) ?? "", $0.int(1)) }, uniquingKeysWith: min)
        let addresses = streets.compactMap { street in lowest[street].map { "\(street) \($0)" } }
        let words = try texts("SELECT token FROM search_word WHERE token NOT GLOB '*[0-9]*' ORDER BY places DESC, token LIMIT 20")
        let categories = Taxonomy.standard.categories.map(\.label)
        var seen = Set<Query>()
        let typed = (towns + streets).flatMap { name in (1...4).map { Query(text: String(name.prefix($0)), typing: true) } }
            .filter { seen.insert($0).inserted }
        func whole(_ texts: [String]) -> [Query] { texts.map { Query(text: $0, typing: false) } }
        let typos = (towns + streets).enumerated().compactMap { mistyped($1, slip: $0) }
        return [("towns", whole(towns)), ("streets", whole(streets)), ("addresses", whole(addresses)), ("words", whole(words)),
                ("categories", whole(categories)), ("as_you_type", typed), ("typos", whole(Array(Set(typos)).sorted()))]
    }

    /// `name` with one slip in the middle of its longest word (of 5 letters or more; nil without one), the
    /// `slip`-th kind in turn: two letters swapped, one left out, one doubled, one replaced by the letter after
    /// it ("Helsinki" → "Helsniki", "Helsnki", "Helsiinki", "Helstnki"). A mistyped popular name is the search
    /// that reads the most: the typo's near words are the common ones.
    static func mistyped(_ name: String, slip: Int) -> String? {
        var words = name.split(separator: " ").map { Array($0) }
        guard let longest = words.indices.max(by: { words[$0].count < words[$1].count }), words[longest].count >= 5 else { return nil }
        var word = words[longest]
        let middle = word.count / 2
        switch slip % 4 {
        case 0 where word[middle - 1] != word[middle]: word.swapAt(middle - 1, middle)
        case 0, 1: word.remove(at: middle)
        case 2: word.insert(word[middle], at: middle)
        default:
            let next = word[middle].unicodeScalars.first.flatMap { Unicode.Scalar($0.value + 1) }
            word[middle] = next.map(Character.init).flatMap { $0.isLetter ? $0 : nil } ?? "a"
        }
        words[longest] = word
        return words.map { String($0) }.joined(separator: " ")
    }

    /// The sets' queries without timing them (`--list`), for tools that send the same queries elsewhere
    /// (Tools/bench/bench_server.py's popular mix through `geodb serve`): per set, its queries in order.
    static func list(path: String) throws -> [String: Any] {
        let raw = try Connection(path: path, mode: .readOnly())
        return Dictionary(uniqueKeysWithValues: try sets(raw).map { name, queries in
            (name, queries.map { ["text": $0.text, "typing": $0.typing] as [String: Any] })
        })
    }

    /// Each query of each set `rounds` times (rounds interleaved, so that a busy moment of a shared
    /// machine spreads over all queries): per set, the percentiles of all its timings, the median of its
    /// queries' medians, its slowest queries by median, and how many queries have a median over 1 ms or a
    /// p99 over 5 ms (issue 37's bounds on every query).
    /// `cpuTime`: time the thread's CPU instead of the wall clock, for comparing two builds on a machine
    /// busy with other work (waiting for a core is not counted). `language`: asked for, as a server passes
    /// Accept-Language (a search asking for one reads a place's names in it as own names).
    static func run(path: String, rounds: Int, cpuTime: Bool, language: String? = nil) throws -> [String: Any] {
        func now() -> Double {
            guard cpuTime else { return Double(DispatchTime.now().uptimeNanoseconds) / 1000 }
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1000
        }
        let db = try GeoDatabase(path: path)
        let raw = try Connection(path: path, mode: .readOnly())
        var report: [String: Any] = ["clock": cpuTime ? "thread CPU" : "wall"]
        for (name, queries) in try sets(raw) where !queries.isEmpty {
            var times = Array(repeating: [Double](), count: queries.count)
            for round in 0...rounds {
                for (i, query) in queries.enumerated() {
                    var options = SearchOptions()
                    options.limit = 10
                    options.autocomplete = query.typing
                    options.language = language
                    let t0 = now()
                    _ = try db.search(query.text, options: options)
                    // Round 0 warms up.
                    if round > 0 { times[i].append(now() - t0) }
                }
            }
            func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            let medians = times.map { percentile($0.sorted(), 0.5) }
            let p99s = times.map { percentile($0.sorted(), 0.99) }
            let all = times.joined().sorted()
            let slowest = medians.indices.sorted { medians[$0] > medians[$1] }.prefix(3).map {
                ["query": queries[$0].text + (queries[$0].typing ? " (typing)" : ""), "p50_us": Int(medians[$0]),
                 "p99_us": Int(p99s[$0])]
            }
            report[name] = ["queries": queries.count, "p50_us": percentile(all, 0.5), "p95_us": percentile(all, 0.95),
                            "p99_us": percentile(all, 0.99), "median_of_query_p50_us": percentile(medians.sorted(), 0.5),
                            "over_1ms_p50": medians.filter { $0 > 1000 }.count, "slowest": slowest,
                            // The other bound is on each query's own p99 (with up to 100 rounds, its slowest run).
                            "over_5ms_p99": p99s.filter { $0 > 5000 }.count, "max_query_p99_us": p99s.max() ?? 0] as [String: Any]
        }
        return report
    }
}
