// Everything about one place, found by its id or the source id results carry (`geodb lookup`).
import GeoDBSQLite

/// The administrative boundary merged into a place: the OSM relation its place node labels, and the
/// boundary's `admin_level`. What Nominatim answers in the node's stead (`class` boundary).
public struct MergedBoundary: Sendable, Equatable {
    public var relation: Int64
    public var adminLevel: Int
}

/// Everything about one place (`geodb lookup`).
///
/// ```swift
/// let details = try db.lookup("w122595241")
/// print(details.names.map(\.name), details.geometry ?? "point")
/// ```
public struct PlaceDetails: Codable, Sendable {
    /// One name of the place (`place_name`).
    ///
    /// ```swift
    /// let swedish = details.names.first { $0.lang == "sv" }?.name
    /// ```
    public struct Name: Codable, Sendable {
        /// The name as written.
        public var name: String
        /// `name`, `alt_name`, `old_name`, `official_name`, …
        public var type: String
        /// Language of the name (`name:sv` → "sv"), when it has one.
        public var lang: String?
    }
    /// An area the place lies in, as the import assigned it (`area_set`).
    public struct Area: Codable, Sendable {
        /// The level it names in the place's address.
        public var level: AddressLevel
        public var place: PlaceResult
        /// OSM `admin_level` of the area, when it is an administrative one.
        public var adminLevel: Int?
        /// Whether it is the nearest place node of its level, not an area containing the place.
        public var isNearestPlace: Bool
    }
    /// The place, as queries return it.
    public var place: PlaceResult
    /// Every name, own names first.
    public var names: [Name]
    /// The file the place came from.
    public var source: String
    /// How important the place is, 0…1 (`place.importance`): what search ranks by after how well the text
    /// matched (docs/RANKING.md, Importance).
    public var importance: Double
    /// A summary of its geometry ("3 lines, 41 points"), when it has one.
    public var geometry: String?
    /// OSM `admin_level` of an administrative area (2 for a country).
    public var adminLevel: Int?
    /// The place's own address (its `addr:*` tags, a gazetteer's columns): `place.address` without the
    /// parts the areas around it filled in or the import derived (`Address.derived`).
    public var ownAddress: Address
    /// The areas it lies in, from the smallest level to the country (a settlement among them may be the
    /// place itself).
    public var areas: [Area]
    /// The records merged into it (`place_link`): the boundary a place node labels, a GeoNames or CSV
    /// record of the same place.
    public var linkedRecords: [SourceReference]
    /// For a street or river known by one of its ways: the other ways it is made of (`place_link` rows of
    /// its own source), whose ids find it too. Parts of it, not other places; a waterway relation's member
    /// ways are its linked places instead, as Nominatim links them.
    public var otherWays: [SourceReference] = []
    /// Its entrances, by node id: the entrance nodes of the way it was made of (none for other places, and in
    /// files written before geodb kept entrances).
    public var entrances: [PlaceEntrance] = []

    /// The line of one of the ways a street or river is made of: its lines are stored in the order of its
    /// ways, its own (`place.sourceRef`) first, then `otherWays`. nil for a reference that is none of its
    /// ways, or a geometry whose lines are not one per way.
    ///
    /// ```swift
    /// let details = try session.lookup("w43327921")   // one way of a street of several
    /// if let way = SourceReference("w43327921"), let geometry = try session.geometry(ofPlace: details.place.id) {
    ///     print(details.line(ofWay: way, in: geometry)?.count ?? 0, "points")
    /// }
    /// ```
    public func line(ofWay way: SourceReference, in geometry: Geometry) -> [Point7]? {
        guard case .lineStrings(let lines) = geometry, !otherWays.isEmpty, let own = place.sourceRef,
              lines.count == otherWays.count + 1 else { return nil }
        return ([own] + otherWays).firstIndex { $0.record == way.record }.map { lines[$0] }
    }
}

/// Lookups by id for one session.
final class PlaceLookup {
    private let db: DatabaseReader
    private let places: PlaceReader
    /// Whether the file has `place_entrance` (files of version 10 written before it do not); read once.
    private var keepsEntrances: Bool?

    init(db: DatabaseReader, places: PlaceReader) {
        self.db = db
        self.places = places
    }

    /// Everything about the place with this id (`42`) or source id (`n123`).
    func lookup(_ reference: String) throws -> PlaceDetails {
        let id: Int64?
        if let number = Int64(reference) {
            id = number
        } else {
            // A source id as results give it: "n123", "geonames:658225", "csv:stores.csv:17"; any other text is
            // tried as a record of any source.
            let parsed = SourceReference(reference)
            let ref = parsed?.record ?? reference, file = parsed?.file
            // OSM records are kept under the file's format (osm.pbf, osm.xml, …): matched by the record alone. A
            // TIGER line shows its street's way (`TigerReader`), which names the street, as in Nominatim.
            let format = parsed.flatMap { $0.format == .osm ? nil : $0.format.rawValue }
            // A record merged into another place (a boundary into its town's node, a GeoNames record into an
            // OSM place) is found through place_link.
            let values: [SQLiteValue] = [.text(ref), format.map(SQLiteValue.text) ?? .null, file.map(SQLiteValue.text) ?? .null]
            id = try db.first("find a place by its source id", """
                SELECT p.id FROM place p JOIN source s ON s.id = p.source_id
                WHERE p.source_ref = ?1 AND (?2 IS NULL AND s.format != 'tiger' OR s.format = ?2) AND (?3 IS NULL OR s.name = ?3)
                ORDER BY p.id LIMIT 1
                """, values) { $0.int(0) } ?? db.first("find a merged record by its source id", """
                SELECT l.place_id FROM place_link l JOIN source s ON s.id = l.source_id
                WHERE l.source_ref = ?1 AND (?2 IS NULL OR s.format = ?2) AND (?3 IS NULL OR s.name = ?3) ORDER BY l.place_id LIMIT 1
                """, values) { $0.int(0) }
        }
        guard let id, let place = try places.results(ids: [id]).first else {
            throw GeoDBError(.invalidArgument, "no place '\(reference.prefix(200))' in \(db.path)",
                             remedy: "give a place id or a source id such as n123, geonames:658225 or csv:stores.csv:17")
        }
        let names = try self.names(of: [id])[id] ?? []
        let source = try db.first("source of a place", "SELECT s.name FROM place p JOIN source s ON s.id = p.source_id WHERE p.id = ?1",
                                  [.integer(id)]) { $0.text(0) ?? "" } ?? ""
        let summary = try places.geometry(of: id).map { geometry -> String in
            switch geometry {
            case .lineStrings(let lines): return "\(lines.count) line\(lines.count == 1 ? "" : "s"), \(geometry.points.count) points"
            case .polygons(let polygons):
                return "\(polygons.count) polygon\(polygons.count == 1 ? "" : "s") (\(polygons.reduce(0) { $0 + $1.count - 1 }) holes), \(geometry.points.count) points"
            }
        }
        let entry = try places.areaSets.entry(place.areaSetID)
        let levels = AddressLevel.nested.filter { entry?.ids[$0] != nil }
        let areaPlaces = Dictionary(try places.results(ids: levels.compactMap { entry?.ids[$0] }).map { ($0.id, $0) },
                                    uniquingKeysWith: { a, _ in a })
        let adminLevels = try self.adminLevels(of: [id] + areaPlaces.keys)
        let areas = levels.compactMap { level -> PlaceDetails.Area? in
            guard let area = entry?.ids[level].flatMap({ areaPlaces[$0] }) else { return nil }
            return PlaceDetails.Area(level: level, place: area, adminLevel: adminLevels[area.id],
                                     isNearestPlace: entry?.fromNodes.contains(level) == true)
        }
        // Its own parts only: a street or postcode derived at import (`place.derived`) is in the same columns.
        let (ownAddress, importance) = try db.first("own address and importance of a place", """
            SELECT housenumber, street, postcode, city, country_code, state, country, importance, ',' || coalesce(derived, '') || ','
            FROM place WHERE id = ?1
            """, [.integer(id)]) { row in
            let derived = row.text(8) ?? ""
            return (Address(housenumber: row.text(0), street: derived.contains(",street,") ? nil : row.text(1),
                            postcode: derived.contains(",postcode,") ? nil : row.text(2), city: row.text(3), countryCode: row.text(4),
                            state: row.text(5), country: row.text(6)), row.double(7))
        } ?? (Address(), 0)
        let links = try db.rows("records merged into a place", """
            SELECT l.source_ref, s.format, s.name, l.source_id = p.source_id AND p.kind IN ('street', 'water') AND p.source_ref LIKE 'w%'
            FROM place_link l JOIN source s ON s.id = l.source_id JOIN place p ON p.id = l.place_id WHERE l.place_id = ?1 ORDER BY l.rowid
            """, [.integer(id)]) { (PlaceReader.sourceReference(record: $0.text(0) ?? "", format: $0.text(1), file: $0.text(2)), $0.int(3) != 0) }
        var details = PlaceDetails(place: place, names: names, source: source, importance: importance, geometry: summary,
                                   adminLevel: adminLevels[id], ownAddress: ownAddress, areas: areas,
                                   linkedRecords: links.filter { !$0.1 }.map(\.0))
        details.otherWays = links.filter(\.1).map(\.0)
        details.entrances = try entrances(of: [id])[id] ?? []
        return details
    }

    /// The houses and POIs whose address names `place` as their street (`addr:street`, or `addr:place` for a
    /// hamlet, or the street derived at import): Nominatim's "parented places", which `/details?hierarchy=1`
    /// lists. Looked for within `PlaceReach.streetOfAHouse` of the place's extent, in the same town (a long
    /// Landstrasse passes several villages, each with houses on its own Landstrasse); at most `limit`, in
    /// house-number order.
    func placesAddressed(by place: PlaceResult, limit: Int) throws -> [PlaceResult] {
        guard let name = place.name, limit > 0 else { return [] }
        var box = try places.geometry(of: place.id)?.boundingBox ?? BoundingBox(minLat: place.lat, minLon: place.lon,
                                                                               maxLat: place.lat, maxLon: place.lon)
        for corner in [Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)] {
            for grown in BoundingBox.covering(radius: PlaceReach.streetOfAHouse, around: corner) { box.extend(grown) }
        }
        let ids = try db.rows("places addressed by a street", """
            SELECT p.id FROM place_rtree r JOIN place p ON p.id = r.id
            WHERE r.min_lon <= ?3 AND r.max_lon >= ?1 AND r.min_lat <= ?4 AND r.max_lat >= ?2
              AND p.street = ?5 AND p.kind IN ('address', 'interpolation', 'poi') AND p.id <> ?6
            LIMIT ?7
            """, box.sqlValues + [.text(name), .integer(place.id), .integer(Int64(limit) * 4)]) { $0.int(0) }
        return try places.results(ids: ids)
            .filter { $0.address.city == place.address.city }
            .sorted { a, b in
                let (x, y) = (a.address.housenumber ?? "", b.address.housenumber ?? "")
                return x != y ? StructuredSearch.numberOrder(x, y) : a.id < b.id
            }
            .prefix(limit).map { $0 }
    }

    /// The administrative boundaries merged into the places of `ids` (a town's node labels its municipality's
    /// relation), by place id: the relation and its admin level. Places without one are left out.
    func mergedBoundaries(of ids: [Int64]) throws -> [Int64: MergedBoundary] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.rows("administrative boundaries merged into places", """
            SELECT l.place_id, l.source_ref, p.admin_level FROM place_link l JOIN place p ON p.id = l.place_id
            WHERE l.place_id IN (SELECT value FROM json_each(?1)) AND l.source_id = p.source_id AND l.source_ref LIKE 'r%'
              AND p.admin_level IS NOT NULL AND p.source_ref NOT LIKE 'r%'
            """, [.text(JSONText.array(ids))]) { (row: Statement) -> (Int64, MergedBoundary)? in
            guard let relation = (row.text(1)?.dropFirst()).flatMap({ Int64($0) }), relation > 0 else { return nil }
            return (row.int(0), MergedBoundary(relation: relation, adminLevel: Int(row.int(2))))
        }
        return Dictionary(rows.compactMap { $0 }, uniquingKeysWith: { a, _ in a })
    }

    /// The OSM admin levels of the places of `ids` that have one.
    private func adminLevels(of ids: [Int64]) throws -> [Int64: Int] {
        let rows = try db.rows("admin levels of places", """
            SELECT id, admin_level FROM place WHERE id IN (SELECT value FROM json_each(?1)) AND admin_level IS NOT NULL
            """, [.text(JSONText.array(ids))]) { (row: Statement) in (row.int(0), Int(row.int(1))) }
        return Dictionary(rows, uniquingKeysWith: { a, _ in a })
    }

    /// The entrances of the places of `ids` in one statement, by id, each place's by node id; places without
    /// any are left out.
    func entrances(of ids: [Int64]) throws -> [Int64: [PlaceEntrance]] {
        guard !ids.isEmpty else { return [:] }
        if keepsEntrances == nil { keepsEntrances = try db.reading("find the entrances table") { try Schema.hasEntrances(db.connection) } }
        guard keepsEntrances == true else { return [:] }
        let rows = try db.rows("entrances of places", """
            SELECT place_id, osm_id, type, lat, lon, tags FROM place_entrance WHERE place_id IN (SELECT value FROM json_each(?1))
            ORDER BY place_id, osm_id
            """, [.text(JSONText.array(ids))]) { row in
            (row.int(0), PlaceEntrance(osmID: row.int(1), type: row.text(2) ?? "", coordinate: try row.coordinate(3, 4, place: row.int(0), in: db.path),
                                       tags: PlaceReader.decodeTags(row.text(5))))
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    /// The OSM objects each of the places of `ids` is made of, in one statement, by id: its own record and
    /// those merged into it (a street's other ways, the boundary its place node labels; `place_link`), as
    /// `SourceReference.record` writes them (`w45`); records of other sources left out.
    func osmRecords(of ids: [Int64]) throws -> [Int64: Set<String>] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.rows("OSM records of places", """
            SELECT p.id, p.source_ref, s.format, s.name FROM place p JOIN source s ON s.id = p.source_id
            WHERE p.id IN (SELECT value FROM json_each(?1))
            UNION ALL
            SELECT l.place_id, l.source_ref, s.format, s.name FROM place_link l JOIN source s ON s.id = l.source_id
            WHERE l.place_id IN (SELECT value FROM json_each(?1))
            """, [.text(JSONText.array(ids))]) { row in
            (row.int(0), PlaceReader.sourceReference(record: row.text(1) ?? "", format: row.text(2), file: row.text(3)))
        }
        return Dictionary(grouping: rows.filter { $0.1.format == .osm }, by: \.0).mapValues { Set($0.map(\.1.record)) }
    }

    /// Every name of the places of `ids` in one statement, by id, each place's in `place_name` order (its
    /// own names first).
    func names(of ids: [Int64]) throws -> [Int64: [PlaceDetails.Name]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.rows("names of places", """
            SELECT place_id, name, type, lang FROM place_name WHERE place_id IN (SELECT value FROM json_each(?1)) ORDER BY place_id, rowid
            """, [.text(JSONText.array(ids))]) { row in
            (row.int(0), PlaceDetails.Name(name: row.text(1) ?? "", type: row.text(2) ?? "", lang: row.text(3)))
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }
}
