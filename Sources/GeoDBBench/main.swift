// geodb-bench: in-process query benchmarks (latency percentiles, queries/s, hit rates), printed as JSON
// for Tools/bench/bench.py. Usage: geodb-bench <search|reverse|nearby> DATABASE [--queries N] [--seed S]
//                           geodb-bench timezone DATABASE POINTS [--rounds N] [--answers FILE]
//                           geodb-bench nearest DATABASE LATLON_FILE [--answers FILE]
//                           geodb-bench throughput DATABASE [--queries N] [--seconds S]
//                           geodb-bench query DATABASE TEXT [--autocomplete] [--queries N] [--limit N]   (one text, N times:
//                                                                        to profile; 10 results unless --limit)
//                           geodb-bench popular DATABASE [--rounds N] [--cpu] [--lang L] [--list]   (the queries people type
//                                                                        most, by rule; --list prints them instead of timing
//                                                                        them; --lang asks for names in L, as Accept-Language)
//                           geodb-bench tile INPUT.osm.pbf --factor N --output OUT.osm.pbf   (N shifted copies of an
//                                                                        extract, as Tools/data/tile-osm.py makes them)
import Foundation
import GeoDB
import GeoDBSQLite

Connection.configureForPrograms()
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: geodb-bench <search|reverse|nearby> DATABASE [--queries N] [--seed S]\n       geodb-bench timezone DATABASE POINTS [--rounds N] [--answers FILE]\n       geodb-bench tile INPUT.osm.pbf --factor N --output OUT.osm.pbf\n".utf8))
    exit(2)
}
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
func option(_ name: String, _ fallback: Int) -> Int { option(name).flatMap(Int.init) ?? fallback }
let queries = option("--queries", 1000)
var random = SplitMix(seed: UInt64(option("--seed", 1)))
do {
    let report: [String: Any]
    switch arguments[1] {
    case "search": report = try SearchBench.run(path: arguments[2], queries: queries, random: &random)
    case "reverse": report = try ReverseBench.run(path: arguments[2], queries: queries, random: &random)
    case "nearby": report = try NearbyBench.run(path: arguments[2], queries: queries, random: &random)
    case "throughput":
        report = try ThroughputBench.run(path: arguments[2], queries: queries,
                                         seconds: option("--seconds").flatMap(Double.init) ?? 2, random: &random)
    case "popular" where arguments.contains("--list"): report = try PopularBench.list(path: arguments[2])
    case "popular":
        report = try PopularBench.run(path: arguments[2], rounds: option("--rounds", 20), cpuTime: arguments.contains("--cpu"),
                                      language: option("--lang"))
    case "query" where arguments.count >= 4:
        report = try SearchBench.repeated(path: arguments[2], text: arguments[3], autocomplete: arguments.contains("--autocomplete"),
                                          times: option("--queries", 100), limit: option("--limit", 10))
    case "tile": report = try TileBench.run(input: arguments[2], factor: option("--factor").flatMap(Int.init), output: option("--output"))
    case "nearest" where arguments.count >= 4:
        report = try NearestBench.run(path: arguments[2], pointsPath: arguments[3], answersPath: option("--answers"))
    case "timezone" where arguments.count >= 4:
        report = try timezoneBenchmark(database: arguments[2], pointsPath: arguments[3], rounds: option("--rounds", 5),
                                       answersPath: option("--answers"))
    default:
        FileHandle.standardError.write(Data("unknown benchmark '\(arguments[1])'\n".utf8))
        exit(2)
    }
    let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("geodb-bench: \(error)\n".utf8))
    exit(1)
}
