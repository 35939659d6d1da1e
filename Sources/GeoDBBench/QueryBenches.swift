// The query sets: built from the database itself (names, addresses, points), with hit rates next to times.
import Foundation
import GeoDB
import GeoDBSQLite

enum SearchBench {
    /// Full search for names of places (sampled across kinds) and autocomplete on their first letters;
    /// a hit is the sampled place among the results (top 1 and top 10).
    static func run(path: String, queries: Int, random: inout SplitMix) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        let raw = try Connection(path: path, mode: .readOnly())
        let sample = try raw.prepare("""
            SELECT id, name, kind FROM place WHERE name IS NOT NULL AND length(name) BETWEEN 4 AND 40 ORDER BY id
            """).rows { ($0.int(0), $0.text(1) ?? "", $0.text(2) ?? "") }
        guard !sample.isEmpty else { return ["error": "no named places"] }
        let picked = (0..<queries).map { _ in sample[Int.random(in: 0..<sample.count, using: &random)] }
        var full = SearchOptions()
        full.limit = 10
        let fullStats = try Measure.latencies(picked, label: \.1) { _ = try db.search($0.1, options: full) }
        var hits1 = 0, hits10 = 0
        for item in picked {
            let results = try db.search(item.1, options: full)
            // Several places can share a name: the first result having it counts as a top-1 hit.
            if results.first?.id == item.0 || results.first?.name == item.1 { hits1 += 1 }
            if results.contains(where: { $0.id == item.0 }) { hits10 += 1 }
        }
        var auto = SearchOptions()
        auto.autocomplete = true
        var autoHits = 0
        let prefixes = picked.map { item -> (Int64, String) in
            let words = item.1.split(separator: " ")
            let last = words.last.map { String($0.prefix(max(3, $0.count / 2))) } ?? item.1
            return (item.0, (words.dropLast().map(String.init) + [last]).joined(separator: " "))
        }
        let autoStats = try Measure.latencies(prefixes, label: \.1) { _ = try db.search($0.1, options: auto) }
        for item in prefixes where try db.search(item.1, options: auto).contains(where: { $0.id == item.0 }) { autoHits += 1 }
        // SQLite alone: the bare FTS5 lookup of the same names (geodb's overhead is the difference).
        let fts = try raw.prepare("SELECT rowid FROM place_fts WHERE place_fts MATCH ?1 LIMIT 10")
        let ftsStats = try Measure.latencies(picked) { item in
            let words = FTSQuery.groups(TextNormalizer.tokens(item.1).map { [$0] }) ?? "\"x\""
            _ = try fts.rows([.text(words)]) { $0.int(0) }
        }
        let n = Double(picked.count)
        return ["places": sample.count, "full": fullStats, "autocomplete": autoStats, "sqlite_fts_only": ftsStats,
                "hit_rate_top1": Double(hits1) / n, "hit_rate_top10": Double(hits10) / n,
                "autocomplete_hit_rate_top10": Double(autoHits) / n,
                "generated": try generated(db: db, raw: raw, count: min(queries, 200), random: &random)]
    }

    /// Top-1 hit rates of query sets made from the database by the rules the tests use, at most `count`
    /// queries each (n = 0 when the data has none: a gazetteer has no streets). A hit is a first result with
    /// the expected name: tiled and gazetteer data have many places of a name, and which one is not asked.
    /// - typo: a town or street name of one word of 5–8 letters with two inner neighbours swapped;
    /// - prefix: the first 2–6 letters of a town's name, as typed (autocomplete); expected: the most
    ///   important town (city, town, village) whose name begins so;
    /// - street_town: "Street, Town" for a street and the town its area set names; expected: a street so named;
    /// - name_town: "Name, Town" for a named POI and its town.
    static func generated(db: GeoDatabase, raw: Connection, count: Int, random: inout SplitMix) throws -> [String: Any] {
        func pick<T>(_ items: [T]) -> [T] {
            items.isEmpty ? [] : (0..<count).map { _ in items[Int.random(in: 0..<items.count, using: &random)] }
        }
        func rate(_ queries: [(text: String, autocomplete: Bool, expected: Set<String>, street: Bool)]) throws -> [String: Any] {
            var hits = 0
            for query in queries {
                var options = SearchOptions()
                options.autocomplete = query.autocomplete
                let first = try db.search(query.text, options: options).first
                if let name = first?.name, query.expected.contains(name), !query.street || first?.kind == .street { hits += 1 }
            }
            return ["n": queries.count, "top1": queries.isEmpty ? 0 : Double(hits) / Double(queries.count)]
        }
        let towns = try raw.prepare("""
            SELECT name, importance FROM place WHERE kind IN ('city', 'town', 'village') AND \(KindIndex.condition()) AND name IS NOT NULL
            ORDER BY importance DESC, id
            """).rows { (name: $0.text(0) ?? "", importance: $0.double(1)) }
        let words = try raw.prepare("""
            SELECT DISTINCT name FROM place WHERE kind IN ('city', 'town', 'village', 'street') AND \(KindIndex.condition()) AND length(name) BETWEEN 5 AND 8
            ORDER BY name
            """).rows { $0.text(0) ?? "" }.filter { $0.allSatisfy(\.isLetter) }
        let known = Set(words.map { $0.lowercased() })
        let typos = pick(words).compactMap { name -> (String, Bool, Set<String>, Bool)? in
            var letters = Array(name)
            let i = Int.random(in: 1..<(letters.count - 2), using: &random)
            guard letters[i] != letters[i + 1] else { return nil }
            letters.swapAt(i, i + 1)
            let typed = String(letters)
            return known.contains(typed.lowercased()) ? nil : (typed, false, [name], false)
        }
        let folded = towns.map { TextNormalizer.fold($0.name) }
        let prefixes = pick(Array(towns.indices)).compactMap { i -> (String, Bool, Set<String>, Bool)? in
            let name = towns[i].name
            guard name.count >= 3 else { return nil }
            let typed = String(name.prefix(Int.random(in: 2...min(6, name.count - 1), using: &random)))
            let start = TextNormalizer.fold(typed)
            // Towns are in importance order: the first to begin so, and any as important.
            guard let best = folded.firstIndex(where: { $0.hasPrefix(start) }) else { return nil }
            let expected = towns.indices.filter { towns[$0].importance == towns[best].importance && folded[$0].hasPrefix(start) }
            return (typed, true, Set(expected.map { towns[$0].name }), false)
        }
        func placedIn(kind: String) throws -> [(String, String)] {
            try raw.prepare("""
                SELECT s.name, c.name FROM place s JOIN place_area_set pas ON pas.place_id = s.id
                JOIN area_set a ON a.id = pas.area_set_id JOIN place c ON c.id = a.city_id
                WHERE s.kind = ?1 AND s.name IS NOT NULL AND c.name IS NOT NULL AND s.name != c.name ORDER BY s.id
                """).rows([.text(kind)]) { ($0.text(0) ?? "", $0.text(1) ?? "") }
        }
        let streets = pick(try placedIn(kind: "street")).map { ("\($0.0), \($0.1)", false, Set([$0.0]), true) }
        let named = pick(try placedIn(kind: "poi")).map { ("\($0.0), \($0.1)", false, Set([$0.0]), false) }
        return ["typo": try rate(typos), "prefix": try rate(prefixes), "street_town": try rate(streets), "name_town": try rate(named)]
    }
}

extension SearchBench {
    /// One search text run `times` times: its latency alone, and a loop to point a profiler at.
    static func repeated(path: String, text: String, autocomplete: Bool, times: Int, limit: Int) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        var options = SearchOptions()
        options.limit = limit
        options.autocomplete = autocomplete
        var report = try Measure.latencies(Array(repeating: text, count: times)) { _ = try db.search($0, options: options) }
        report["results"] = try db.search(text, options: options).map(\.displayName)
        return report
    }
}

enum ReverseBench {
    /// Reverse at random points in the data's extent (latency), and at address points (hit rate: the
    /// answer is that address or one at distance 0 with the same number).
    static func run(path: String, queries: Int, random: inout SplitMix) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        let raw = try Connection(path: path, mode: .readOnly())
        let box = try raw.scalarText("SELECT value FROM meta WHERE key = 'bbox'")?.split(separator: ",").compactMap { Double($0) } ?? []
        guard box.count == 4 else { return ["error": "no bbox"] }
        let points = (0..<queries).map { _ in
            Coordinate(lat: Double.random(in: box[1]...box[3], using: &random), lon: Double.random(in: box[0]...box[2], using: &random))
        }
        let street = try Measure.latencies(points) { _ = try db.reverse(at: $0) }
        var streetLevel = ReverseOptions()
        streetLevel.level = .street
        let streetOnly = try Measure.latencies(points) { _ = try db.reverse(at: $0, options: streetLevel) }
        let addresses = try raw.prepare("SELECT lat, lon, housenumber FROM place WHERE kind = 'address' AND housenumber IS NOT NULL")
            .rows { (Coordinate(lat: $0.double(0), lon: $0.double(1)), $0.text(2) ?? "") }
        let sample = addresses.isEmpty ? [] : (0..<min(queries, addresses.count)).map { _ in addresses[Int.random(in: 0..<addresses.count, using: &random)] }
        let atAddresses = try Measure.latencies(sample) { _ = try db.reverse(at: $0.0) }
        var hits = 0
        for item in sample where try db.reverse(at: item.0).first?.place.address.housenumber == item.1 { hits += 1 }
        return ["random_points": street, "street_level": streetOnly, "at_addresses": atAddresses,
                "address_hit_rate": sample.isEmpty ? 0 : Double(hits) / Double(sample.count)]
    }
}

enum NearbyBench {
    /// 500 m and 2 km searches around random points for a common and a rare category, checked against a
    /// brute-force scan for the first queries (hit rate = identical answers).
    static func run(path: String, queries: Int, random: inout SplitMix) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        let raw = try Connection(path: path, mode: .readOnly())
        let counts = try raw.prepare("SELECT id, place_count FROM category WHERE place_count > 0 ORDER BY place_count DESC, id")
            .rows { ($0.text(0) ?? "", $0.int(1)) }
        guard let common = counts.first?.0, let rare = counts.last(where: { $0.1 >= 3 })?.0 ?? counts.last?.0 else {
            return ["error": "no categories"]
        }
        let centers = try raw.prepare("SELECT lat, lon FROM place ORDER BY id").rows { Coordinate(lat: $0.double(0), lon: $0.double(1)) }
        let points = (0..<queries).map { _ in centers[Int.random(in: 0..<centers.count, using: &random)] }
        let all = try raw.prepare("SELECT p.id, p.lat, p.lon, pc.category_id FROM place p JOIN place_category pc ON pc.place_id = p.id")
            .rows { (id: $0.int(0), at: Coordinate(lat: $0.double(1), lon: $0.double(2)), category: $0.text(3) ?? "") }
        var report: [String: Any] = ["common_category": common, "rare_category": rare]
        var checked = 0, agreed = 0
        for (category, label) in [(common, "common"), (rare, "rare")] {
            for radius in [500.0, 2000.0] {
                let filter = CategoryFilter.categories([category])
                report["\(label)_\(Int(radius))m"] = try Measure.latencies(points) {
                    _ = try db.places(near: $0, radius: radius, filter: filter, limit: 10)
                }
                for point in points.prefix(50) {
                    let page = try db.places(near: point, radius: radius, filter: filter, limit: 10)
                    let expected = all.filter { $0.category == category }.map { ($0.id, point.distance(to: $0.at)) }
                        .filter { $0.1 <= radius }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(10).map(\.0)
                    checked += 1
                    if page.places.map(\.id) == Array(expected) { agreed += 1 }
                }
            }
        }
        // SQLite alone: the bare R*Tree box query for the same 500 m circles (geodb's overhead is the difference).
        let rtree = try raw.prepare("""
            SELECT id FROM place_rtree WHERE min_lon <= ?3 AND max_lon >= ?1 AND min_lat <= ?4 AND max_lat >= ?2
            """)
        report["sqlite_rtree_only_500m"] = try Measure.latencies(points) { point in
            let dLat = 500 / 111_195.0, dLon = dLat / cos(point.lat * .pi / 180)
            _ = try rtree.rows([.real(point.lon - dLon), .real(point.lat - dLat), .real(point.lon + dLon), .real(point.lat + dLat)]) { $0.int(0) }
        }
        report["brute_force_agreement"] = Double(agreed) / Double(max(checked, 1))
        report["brute_force_checked"] = checked
        return report
    }
}

enum NearestBench {
    /// The nearest populated place (reverse at city level) for every point of a `lat<TAB>lon` file, one by
    /// one; `answers` gets the found place's position per line, for the accuracy check against brute force.
    static func run(path: String, pointsPath: String, answersPath: String?) throws -> [String: Any] {
        let db = try GeoDatabase(path: path)
        let points = try String(contentsOfFile: pointsPath, encoding: .utf8).split(separator: "\n").compactMap { line -> Coordinate? in
            let parts = line.split(separator: "\t").compactMap { Double($0) }
            return parts.count == 2 ? Coordinate(lat: parts[0], lon: parts[1]) : nil
        }
        var options = ReverseOptions()
        options.level = .city
        options.radius = 20_000_000
        let stats = try Measure.latencies(points) { _ = try db.reverse(at: $0, options: options) }
        // The same on a file opened immutable (no file locking: what an app shipping the file can do).
        let shipped = try GeoDatabase(path: path, immutable: true)
        let immutableStats = try Measure.latencies(points) { _ = try shipped.reverse(at: $0, options: options) }
        if let answersPath {
            let lines = try points.map { point -> String in
                guard let place = try db.reverse(at: point, options: options).first?.place else { return "" }
                return "\(place.lat)\t\(place.lon)"
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: answersPath, atomically: true, encoding: .utf8)
        }
        return ["single": stats, "single_immutable": immutableStats, "points": points.count]
    }
}
