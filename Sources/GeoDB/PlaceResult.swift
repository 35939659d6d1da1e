// What every query returns for a place: the fields a client shows or keeps, the same for all queries.
import Foundation
import GeoDBSQLite

/// A place in a query answer.
///
/// ```swift
/// let first = try db.search("Stockmann").first
/// print(first?.displayName ?? "", first?.sourceRef ?? "")   // "Stockmann, Aleksanterinkatu 52, 00100 Helsinki" w122595241
/// ```
public struct PlaceResult: Codable, Sendable, Equatable {
    /// `place.id` in this database.
    public var id: Int64
    /// The id in its source, qualified so it names one record across sources: OSM `n123`/`w45`/`r6`,
    /// GeoNames `geonames:658225`, CSV `csv:<file name>:<id or line>`. `lookup` takes it back.
    public var sourceRef: String
    /// `city`, `street`, `address`, `poi`, … (see `PlaceKind`).
    public var kind: String
    /// Raw source category, e.g. `amenity=cafe`.
    public var category: String?
    /// Taxonomy category, e.g. `cafe`.
    public var categoryID: String?
    /// Display name; nil for most addresses.
    public var name: String?
    /// Name and address as one line: "Café Engel, Aleksanterinkatu 26, 00170 Helsinki".
    public var displayName: String
    /// Latitude, degrees (exact to 1e-7).
    public var lat: Double
    /// Longitude, degrees (exact to 1e-7).
    public var lon: Double
    /// Metres from the query point, when the query has one.
    public var distanceM: Double?
    /// housenumber, street, postcode, city, state, country, country_code — those the place has
    /// (reverse answers add neighbourhood, suburb, county from the hierarchy).
    public var address: [String: String]
    /// Display tags: opening_hours, website, phone, cuisine, wheelchair, …
    public var tags: [String: String]
    /// The place's IANA time zone, when its source gives one (GeoNames does).
    public var timezone: String?
    /// Population, when the source gives one.
    public var population: Int64?
    /// Search only: the ranking score, higher first.
    public var score: Double?
    /// Search only: how the text matched: exact, prefix, fuzzy, interpolated, fallback or coordinate.
    public var match: String?

    enum CodingKeys: String, CodingKey {
        case id, sourceRef = "sourceId", kind, category, categoryID = "categoryId", name, displayName, lat, lon, distanceM,
             address, tags, timezone, population, score, match
    }

    /// The position as a `Coordinate`.
    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}

extension QuerySession {
    /// The columns `placeResults(ids:)` reads, in order (with `resultJoins`).
    static let resultColumns = """
        p.id, \(qualifiedSourceRef), p.kind, p.category, pc.category_id, p.name, p.lat, p.lon,
        p.housenumber, p.street, p.postcode, p.city, p.country_code, p.tags, p.state, p.country, p.timezone, p.population
        """
    static let resultColumnCount = 18
    /// The tables `resultColumns` read besides `place p`.
    static let resultJoins = "LEFT JOIN place_category pc ON pc.place_id = p.id LEFT JOIN source s ON s.id = p.source_id"
    /// `PlaceResult.sourceRef` from `place.source_ref` and the source's format and file name.
    static let qualifiedSourceRef = """
        CASE s.format WHEN 'geonames' THEN 'geonames:' || p.source_ref WHEN 'csv' THEN 'csv:' || s.name || ':' || p.source_ref \
        ELSE p.source_ref END
        """

    /// Full results for place ids, in the order given; `distances` fills `distanceM`.
    func placeResults(ids: [Int64], distances: [Int64: Double] = [:]) throws -> [PlaceResult] {
        guard !ids.isEmpty else { return [] }
        // One place (the usual reverse answer): a plain key lookup, without json_each's virtual table.
        let single = ids.count == 1
        let statement = try cachedStatement("""
            SELECT \(Self.resultColumns) FROM place p \(Self.resultJoins)
            WHERE \(single ? "p.id = ?1" : "p.id IN (SELECT value FROM json_each(?1))")
            """)
        let key: SQLiteValue = single ? .integer(ids[0]) : .text("[" + ids.map(String.init).joined(separator: ",") + "]")
        let rows = try statement.rows([key]) { row -> PlaceResult in
            var result = Self.placeResult(row)
            result.distanceM = distances[result.id]
            return result
        }
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byID[$0] }
    }

    /// The place of a row whose first columns are `resultColumns`.
    static func placeResult(_ row: Statement) -> PlaceResult {
        var address: [String: String] = [:]
        for (index, key) in [(8, "housenumber"), (9, "street"), (10, "postcode"), (11, "city"), (12, "country_code"),
                             (14, "state"), (15, "country")] {
            if let value = row.text(Int32(index)) { address[key] = value }
        }
        let name = row.text(5)
        return PlaceResult(id: row.int(0), sourceRef: row.text(1) ?? "", kind: row.text(2) ?? "", category: row.text(3),
                           categoryID: row.text(4), name: name, displayName: Self.displayName(name: name, address: address),
                           lat: row.double(6), lon: row.double(7), address: address, tags: Self.decodeTags(row.text(13)),
                           timezone: row.text(16), population: row.isNull(17) ? nil : row.int(17))
    }

    static func displayName(name: String?, address: [String: String]) -> String {
        var parts: [String] = []
        if let name { parts.append(name) }
        let street = [address["street"], address["housenumber"]].compactMap { $0 }.joined(separator: " ")
        if !street.isEmpty && street != name { parts.append(street) }
        let city = [address["postcode"], address["city"]].compactMap { $0 }.joined(separator: " ")
        if !city.isEmpty { parts.append(city) }
        return parts.joined(separator: ", ")
    }

    /// The `tags` column: geodb writes a flat object of strings; anything else another writer put there
    /// is read with Foundation's parser (values that are not strings are dropped).
    static func decodeTags(_ json: String?) -> [String: String] {
        guard let json else { return [:] }
        if let object = JSONText.stringObject(json) { return object }
        let any = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        return any.compactMapValues { $0 as? String }
    }
}
