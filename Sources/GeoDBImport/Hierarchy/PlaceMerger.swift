// One real place written twice by OSM becomes one place: a boundary and the place node it labels (Vaduz
// the municipality and Vaduz the town), a place area and its node, a city-state's country and its city.
// Runs after the OSM files are read, before gazetteer records link to places and before the hierarchy.
import Foundation
import GeoDB
import GeoDBSQLite

/// Finds the places of this import that are the same real place and merges each pair into one: the
/// node's point (where people expect the town), the boundary's polygon (for containment and size), the
/// names of both, and a `place_link` row so that `lookup` finds it by either id.
final class PlaceMerger {
    /// A settlement or administrative place of this import, as merging needs it.
    private struct Candidate {
        var id: Int64
        var sourceID: Int64
        var sourceRef: String
        var kind: PlaceKind
        var category: String?
        var point: Coordinate
        var adminLevel: Int?
        var population: Int64?
        var famous: Bool
        /// As `place.importance` has it (and its search row's rowid).
        var importance: Double
        var countryCode: String?
        /// `place.tags`, as written (JSON).
        var tags: String?
        /// Its own address parts, as its search row holds them.
        var address: Address
        var polygons: [[[Point7]]]? {
            didSet { bounds = polygons.map(Self.bounds) }
        }
        /// The bounds of the polygons' outer rings: most containment tests end there.
        private(set) var bounds: (min: Point7, max: Point7)?
        var names: [PlaceName] = []
        /// Its names without a language, folded, for comparing.
        var keys: Set<String> = []

        var level: AddressLevel? { kind.addressLevel }

        init(id: Int64, sourceID: Int64, sourceRef: String, kind: PlaceKind, category: String?, point: Coordinate,
             adminLevel: Int?, population: Int64?, famous: Bool, importance: Double, countryCode: String?, address: Address,
             polygons: [[[Point7]]]?) {
            (self.id, self.sourceID, self.sourceRef, self.kind, self.category, self.point) = (id, sourceID, sourceRef, kind, category, point)
            (self.adminLevel, self.population, self.famous, self.countryCode, self.address) = (adminLevel, population, famous, countryCode, address)
            self.importance = importance
            self.polygons = polygons
            bounds = polygons.map(Self.bounds)
        }

        func contains(_ point: Coordinate) -> Bool {
            guard let polygons, let bounds else { return false }
            let p = Point7(point)
            guard p.lat >= bounds.min.lat, p.lat <= bounds.max.lat, p.lon >= bounds.min.lon, p.lon <= bounds.max.lon else { return false }
            return polygons.contains { PolygonMath.polygonContains($0, lat: p.lat, lon: p.lon) }
        }

        private static func bounds(_ polygons: [[[Point7]]]) -> (min: Point7, max: Point7) {
            let outer = polygons.lazy.compactMap(\.first).joined()
            return (Point7(lat: outer.map(\.lat).min() ?? 0, lon: outer.map(\.lon).min() ?? 0),
                    Point7(lat: outer.map(\.lat).max() ?? 0, lon: outer.map(\.lon).max() ?? 0))
        }
    }

    /// The statements of a merge, prepared once.
    private struct Statements {
        let moveGeometry, deleteGeometry, updatePlace, addTags, moveLinks, insertLink, countLink: Statement

        init(db: Connection) throws {
            moveGeometry = try db.prepare("UPDATE place_geometry SET place_id = ?1 WHERE place_id = ?2")
            deleteGeometry = try db.prepare("DELETE FROM place_geometry WHERE place_id = ?1")
            updatePlace = try db.prepare("""
                UPDATE place SET admin_level = ?2, population = ?3, country_code = ?4, importance = ?5 WHERE id = ?1
                """)
            // ?2's tags that ?1 lacks, without its subdivision code when ?3 (NULL for none left: as written).
            addTags = try db.prepare("""
                UPDATE place SET tags = nullif(json_patch(CASE WHEN ?3 THEN json_remove(?2, '$."\(SubdivisionCode.tag)"') ELSE ?2 END,
                                                          coalesce(tags, '{}')), '{}') WHERE id = ?1
                """)
            moveLinks = try db.prepare("UPDATE place_link SET place_id = ?1 WHERE place_id = ?2")
            insertLink = try db.prepare("INSERT INTO place_link(place_id, source_id, source_ref, distance_m) VALUES (?, ?, ?, ?)")
            countLink = try SourceRow.linkOnePlace(db)
        }
    }

    private let writer: PlaceWriter
    private var statements: Statements?
    private var candidates: [Candidate] = []
    private var indexOfID: [Int64: Int] = [:]
    /// Places merged into another (by index), and the places they went into.
    private var absorbedInto: [Int: Int] = [:]

    /// Kinds that can be one real place with a place of another object.
    static let kinds: [PlaceKind] = [.country, .state, .county, .city, .town, .village, .hamlet, .suburb, .neighbourhood,
                                     .locality, .island]

    init(writer: PlaceWriter) { self.writer = writer }

    /// Merges the duplicates among the places written so far; returns, for places that are now also an
    /// area of a second level (a city-state is its country and its city), those levels.
    func run() throws -> [Int64: [AddressLevel]] {
        try writer.flushNames()
        // Each merge moves the absorbed place's links by place id: without this index each scanned all of
        // place_link (a street's other ways are rows of it), Liechtenstein ×1400 over 20 minutes.
        try Schema.createIndex(named: "idx_place_link_place_id", in: writer.db)
        try loadCandidates()
        var extraLevels: [Int64: [AddressLevel]] = [:]
        for (node, area) in nodeMatches() { try merge(area, into: node) }
        for (smaller, larger) in cityStateMatches() {
            if let level = candidates[smaller].level { extraLevels[candidates[larger].id, default: []].append(level) }
            try merge(smaller, into: larger)
        }
        try deleteAbsorbed()
        return extraLevels
    }

    // MARK: reading

    private func loadCandidates() throws {
        let db = writer.db
        let rows = try db.prepare("""
            SELECT p.id, p.source_id, p.source_ref, p.kind, p.category, p.lat, p.lon, p.admin_level, p.population,
                   p.country_code, instr(coalesce(p.tags, ''), '"wikidata"') > 0,
                   CASE WHEN substr(g.geometry, 1, 1) = x'02' THEN g.geometry END,
                   p.housenumber, p.street, p.postcode, p.city, p.state, p.country, p.importance, p.tags
            FROM place p LEFT JOIN place_geometry g ON g.place_id = p.id
            WHERE p.id IN (SELECT value FROM json_each(?1)) AND p.kind IN (SELECT value FROM json_each(?2))
            """)
        try rows.bind([.text(JSONText.array(writer.areaLikeIDs)), .text(JSONText.array(Self.kinds.map(\.rawValue)))])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(3) ?? "") else { continue }
            var polygons: [[[Point7]]]?
            if let blob = rows.blob(11), case .polygons(let p)? = Geometry(encoded: blob) { polygons = p }
            indexOfID[rows.int(0)] = candidates.count
            var candidate = Candidate(
                id: rows.int(0), sourceID: rows.int(1), sourceRef: rows.text(2) ?? "", kind: kind, category: rows.text(4),
                point: try rows.coordinate(5, 6, place: rows.int(0), in: db.path),
                adminLevel: rows.isNull(7) ? nil : Int(rows.int(7)), population: rows.isNull(8) ? nil : rows.int(8),
                famous: rows.int(10) != 0, importance: rows.double(18), countryCode: rows.text(9),
                address: Address(housenumber: rows.text(12), street: rows.text(13), postcode: rows.text(14), city: rows.text(15),
                                 countryCode: rows.text(9), state: rows.text(16), country: rows.text(17)),
                polygons: polygons)
            candidate.tags = rows.text(19)
            candidates.append(candidate)
        }
        guard !candidates.isEmpty else { return }
        let names = try db.prepare("""
            SELECT place_id, name, type, lang FROM place_name WHERE place_id IN (SELECT value FROM json_each(?1)) ORDER BY rowid
            """)
        try names.bind([.text(JSONText.array(candidates.map(\.id)))])
        while try names.step() {
            guard let index = indexOfID[names.int(0)], let name = names.text(1) else { continue }
            candidates[index].names.append(PlaceName(name: name, type: names.text(2) ?? "name", lang: names.text(3)))
            // Names in a language are not compared: a country has hundreds, and a node shares its own name with
            // the boundary it is (folding Monaco's names cost more than the rest of the merge).
            if names.isNull(3) { candidates[index].keys.insert(Self.key(name)) }
        }
    }

    /// A name as compared: folded words ("Monte-Carlo" and "Monte Carlo" are one).
    static func key(_ name: String) -> String { TextNormalizer.tokens(name).joined(separator: " ") }

    // MARK: finding pairs

    /// (node, area) pairs: a point place and the polygon that is the same place — the boundary's label
    /// node, or a node of the same level and name inside it. Each node goes to one area, the smallest.
    private func nodeMatches() -> [(node: Int, area: Int)] {
        var nodesByKey: [String: [Int]] = [:]
        var nodeOfRef: [String: Int] = [:]
        for (i, c) in candidates.enumerated() where c.polygons == nil {
            for key in c.keys { nodesByKey[key, default: []].append(i) }
            nodeOfRef[c.sourceRef] = i
        }
        var best: [Int: (area: Int, label: Bool, size: Double)] = [:]   // node → area
        for (a, area) in candidates.enumerated() {
            guard let polygons = area.polygons else { continue }
            let size = PolygonMath.areaKm2(polygons)
            let roles = writer.boundaryNodes[area.id]
            var found: (node: Int, label: Bool)?
            if let label = roles?.label, let node = nodeOfRef[label] {
                found = (node, true)
            } else {
                // Same name and level, inside: the admin centre first, then the node nearest the area's point.
                let named = Set(area.keys.flatMap { nodesByKey[$0] ?? [] })
                let inside = named.sorted().filter { n in
                    candidates[n].level != nil && candidates[n].level == area.level && area.contains(candidates[n].point)
                }
                let centre = roles?.adminCentre.flatMap { nodeOfRef[$0] }
                let chosen = inside.first { $0 == centre }
                    ?? inside.min { (candidates[$0].point.distance(to: area.point), $0) < (candidates[$1].point.distance(to: area.point), $1) }
                found = chosen.map { ($0, false) }
            }
            guard let (node, label) = found else { continue }
            if let current = best[node], current.label && !label || (current.label == label && current.size <= size) { continue }
            best[node] = (a, label, size)
        }
        return best.map { (node: $0.key, area: $0.value.area) }.sorted { $0.node < $1.node }
    }

    /// (city, country-or-state) pairs of a city-state: areas of the same name, the city's point inside the
    /// larger one and the two of nearly the same size (Monaco; Berlin, Vienna as states).
    private func cityStateMatches() -> [(smaller: Int, larger: Int)] {
        var byKey: [String: [Int]] = [:]
        for (i, c) in candidates.enumerated() where c.polygons != nil && absorbedInto[i] == nil {
            if let key = c.names.first.map({ Self.key($0.name) }) { byKey[key, default: []].append(i) }
        }
        var pairs: [(smaller: Int, larger: Int)] = []
        var used = Set<Int>()
        for group in byKey.values where group.count > 1 {
            for s in group where candidates[s].level == .city && !used.contains(s) {
                let small = candidates[s]
                let smallSize = PolygonMath.areaKm2(small.polygons ?? [])
                let larger = group.first { l in
                    let large = candidates[l]
                    guard l != s, !used.contains(l), large.level == .country || large.level == .state,
                          let polygons = large.polygons, large.contains(small.point) else { return false }
                    let largeSize = PolygonMath.areaKm2(polygons)
                    return largeSize > 0 && smallSize / largeSize >= 0.8 && smallSize / largeSize <= 1.25
                }
                if let larger {
                    pairs.append((s, larger))
                    used.formUnion([s, larger])
                }
            }
        }
        return pairs
    }

    // MARK: merging

    /// Merges candidate `absorbed` into candidate `survivor`: polygon, names, admin level, population,
    /// country; the absorbed place is deleted (at the end, in one pass) and linked to the survivor.
    private func merge(_ absorbed: Int, into survivor: Int) throws {
        let gone = candidates[absorbed]
        var kept = candidates[survivor]
        let statements = try self.statements ?? Statements(db: writer.db)
        self.statements = statements
        if kept.polygons == nil, let polygons = gone.polygons {
            try statements.moveGeometry.run([.integer(kept.id), .integer(gone.id)])
            kept.polygons = polygons
            if let box = Geometry.polygons(polygons).boundingBox { try writer.setBox(of: kept.id, box) }
        } else {
            try statements.deleteGeometry.run([.integer(gone.id)])
        }
        // The survivor keeps its names and order; the other's it lacks are added (a second main name as alt_name).
        let oldNames = SearchNames(kept.names)
        let known = Set(kept.names.map(\.name))
        let added = PlaceRecord.distinct(gone.names.filter { !known.contains($0.name) })
            .map { PlaceName(name: $0.name, type: $0.type == "name" && $0.lang == nil ? "alt_name" : $0.type, lang: $0.lang) }
        try writer.insertNames(Array(added), of: kept.id)
        kept.names += added
        kept.keys.formUnion(gone.keys)
        // The tags of both, the survivor's first: a boundary's code (`SubdivisionCode`), its website. But not a
        // code of another admin level than the survivor's own (a city-state's city on its country): Nominatim
        // keys a code by its area's level, and the survivor keeps its own.
        if let tags = gone.tags {
            let otherLevel = kept.adminLevel != nil && kept.adminLevel != gone.adminLevel
            try statements.addTags.run([.integer(kept.id), .text(tags), .integer(otherLevel ? 1 : 0)])
            if tags.contains("\"wikidata\"") || tags.contains("\"wikipedia\"") { writer.wikimediaTagged?.tagged(kept.id) }
        }
        kept.adminLevel = kept.adminLevel ?? gone.adminLevel
        kept.population = kept.population ?? gone.population
        kept.countryCode = kept.countryCode ?? gone.countryCode
        kept.famous = kept.famous || gone.famous
        let oldImportance = kept.importance
        kept.importance = Importance.of(kind: kept.kind, population: kept.population, famous: kept.famous,
                                        areaKm2: kept.polygons.map(PolygonMath.areaKm2))
        try statements.updatePlace.run([.integer(kept.id), kept.adminLevel.map { .integer(Int64($0)) } ?? .null,
                                        kept.population.map { .integer($0) } ?? .null,
                                        kept.countryCode.map { .text($0) } ?? .null, .real(kept.importance)])
        // Links to the absorbed place (of an earlier merge: a city-state's city) move to the survivor.
        try statements.moveLinks.run([.integer(kept.id), .integer(gone.id)])
        try statements.insertLink.run([.integer(kept.id), .integer(gone.sourceID), .text(gone.sourceRef),
                                       .real(kept.point.distance(to: gone.point))])
        try statements.countLink.run([.integer(gone.sourceID)])
        try writer.forget(gone.id, kind: gone.kind, category: gone.category, importance: gone.importance,
                          names: SearchNames(gone.names), address: gone.address)
        try writer.renamed(kept.id, kind: kept.kind, from: (oldNames, oldImportance), to: SearchNames(kept.names),
                           importance: kept.importance, address: kept.address)
        candidates[survivor] = kept
        absorbedInto[absorbed] = survivor
    }

    /// Deletes the rows of the absorbed places (names and categories in one pass each: no index on
    /// place_id exists during the bulk load).
    private func deleteAbsorbed() throws {
        guard !absorbedInto.isEmpty else { return }
        let ids: SQLiteValue = .text(JSONText.array(absorbedInto.keys.map { candidates[$0].id }))
        for sql in ["DELETE FROM place_name WHERE place_id IN (SELECT value FROM json_each(?1))",
                    "DELETE FROM place_category WHERE place_id IN (SELECT value FROM json_each(?1))",
                    // A settlement drawn as a way may have had entrance nodes: they go with it.
                    "DELETE FROM place_entrance WHERE place_id IN (SELECT value FROM json_each(?1))",
                    "DELETE FROM place WHERE id IN (SELECT value FROM json_each(?1))"] {
            try writer.db.prepare(sql).run([ids])
        }
    }
}
