// Reads places by id into the results every query returns: one SELECT for all of them, the source id
// qualified, the address built, tags decoded; and a place's geometry and localized name.
import Foundation
import GeoDBSQLite

/// Builds `PlaceResult`s from the `place` rows of a database. Shared by every query engine of a session.
final class PlaceReader {
    private let db: DatabaseReader
    /// The areas around places, filling their addresses.
    let areaSets: AreaSets

    init(_ db: DatabaseReader) {
        self.db = db
        areaSets = AreaSets(db)
    }

    /// The columns `placeResult(_:)` reads, in order (with `joins`).
    static let columns = """
        p.id, p.source_ref, p.kind, p.category, pc.category_id, p.name, p.lat, p.lon,
        p.housenumber, p.street, p.postcode, p.city, p.country_code, p.tags, p.state, p.country, p.timezone, p.population,
        pas.area_set_id, p.source_id, p.derived, p.admin_level, p.importance
        """
    static let columnCount = 23
    /// One place's row of `columns`, by id (?1).
    private static let placeByID = "SELECT \(columns) FROM place p \(joins) WHERE p.id = ?1"
    /// The tables `columns` read besides `place p`.
    static let joins = """
        LEFT JOIN place_category pc ON pc.place_id = p.id LEFT JOIN place_area_set pas ON pas.place_id = p.id
        """
    /// Full results for place ids, in the order given (unknown ids left out); `distances` fills `distanceM`.
    func results(ids: [Int64], distances: [Int64: Double] = [:]) throws -> [PlaceResult] {
        // A key lookup each, in the order asked: an `IN` list of them through json_each cost more (its virtual
        // table and the temporary index SQLite builds of it), and the results had to be put back in order.
        return try ids.compactMap { id in
            try db.first("read a place", Self.placeByID, [.integer(id)]) { row in
                var result = try placeResult(row)
                result.distanceM = distances[result.id]
                return result
            }
        }
    }

    /// The place of a row whose first columns are `columns`: its own address parts, then those of the
    /// areas around it.
    func placeResult(_ row: Statement) throws -> PlaceResult {
        let id = row.int(0)
        let kind = try Self.kind(row.text(2), place: id, in: db.path)
        var address = Address(housenumber: row.text(8), street: row.text(9), postcode: row.text(10), city: row.text(11),
                              countryCode: row.text(12), state: row.text(14), country: row.text(15))
        // Split as bytes: splitting the String by Characters cost 5,000 instructions a place.
        if let derived = row.text(20) {
            address.derived = derived.utf8.split(separator: UInt8(ascii: ",")).compactMap { Address.Part(rawValue: String(decoding: $0, as: UTF8.self)) }
        }
        let areaSetID = row.isNull(18) ? nil : row.int(18)
        try areaSets.fill(&address, from: areaSetID)
        let tags = Self.decodeTags(row.text(13))
        // An area's own code, at its own level (it lies in no area of that level).
        if let level = kind.addressLevel, address.subdivisionCodes[level] == nil,
           let code = SubdivisionCode(adminLevel: row.isNull(21) ? nil : Int(row.int(21)), tags: tags) {
            address.subdivisionCodes[level] = code
        }
        let name = row.text(5)
        let at = try row.coordinate(6, 7, place: id, in: db.path)
        let source = row.isNull(19) ? nil : try sourceFile(row.int(19))
        return PlaceResult(id: id, sourceRef: Self.sourceReference(record: row.text(1) ?? "", format: source?.format, file: source?.name),
                           kind: kind, category: row.text(3).map(SourceCategory.init),
                           categoryID: row.text(4), name: name, lat: at.lat, lon: at.lon, address: address, tags: tags,
                           timezone: row.text(16), population: row.isNull(17) ? nil : row.int(17), importance: row.double(22),
                           areaSetID: areaSetID)
    }

    /// The format and file name of the source (`source`) of id `id`; nil for an id the file has no source of.
    /// Remembered per session (a file has a source per input it was imported from): a join of `source` for each
    /// place read was a tenth of reading it (3,300 instructions of about 32,000).
    private func sourceFile(_ id: Int64) throws -> (format: String?, name: String?)? {
        if let known = sources[id] { return known }
        let read = try db.first("a source", "SELECT format, name FROM source WHERE id = ?1", [.integer(id)]) { ($0.text(0), $0.text(1)) }
        // A file made with many sources (not by geodb) keeps no more than this many remembered.
        if sources.count >= 1_024 { sources.removeAll() }
        sources[id] = .some(read)
        return read
    }
    private var sources: [Int64: (format: String?, name: String?)?] = [:]

    /// The source record `record` (`place.source_ref`, `place_link.source_ref`) of a file of `format` and name
    /// `file` (`source.format`, `source.name`). A format other than GeoNames' and CSV's is one of OSM's, or
    /// TIGER's, whose lines are shown as the OSM way of their street, as Nominatim shows them.
    static func sourceReference(record: String, format: String?, file: String?) -> SourceReference {
        switch format {
        case "geonames": return SourceReference(format: .geonames, record: record)
        case "csv": return SourceReference(format: .csv, file: file ?? "", record: record)
        default: return SourceReference(format: .osm, record: record)
        }
    }

    /// The kind stored for a place; throws for one this geodb does not know (the file was not written by
    /// geodb, or was changed since).
    static func kind(_ text: String?, place id: Int64, in path: String) throws -> PlaceKind {
        guard let text, let kind = PlaceKind(rawValue: text), kind != .coordinate else {
            throw GeoDBError(.notAGeoDatabase, "\(path): place \(id) has kind '\(text ?? "NULL")', which geodb does not write")
        }
        return kind
    }

    /// The `tags` column: geodb writes a flat object of strings; anything else another writer put there
    /// is read with Foundation's parser (values that are not strings are dropped).
    static func decodeTags(_ json: String?) -> [String: String] {
        guard let json else { return [:] }
        if let object = JSONText.stringObject(json) { return object }
        let any = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        return any.compactMapValues { $0 as? String }
    }

    /// The line or polygon geometry of a place, when it has one.
    func geometry(of id: Int64) throws -> Geometry? {
        try db.first("read a geometry", "SELECT geometry FROM place_geometry WHERE place_id = ?1", [.integer(id)]) {
            $0.blob(0).flatMap(Geometry.init(encoded:))
        } ?? nil
    }

    /// The geometries of the places of `ids` that have one, in one statement.
    func geometries(of ids: [Int64]) throws -> [Int64: Geometry] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.rows("read geometries", """
            SELECT place_id, geometry FROM place_geometry WHERE place_id IN (SELECT value FROM json_each(?1))
            """, [.text(JSONText.array(ids))]) { row in (row.int(0), row.blob(1).flatMap(Geometry.init(encoded:))) }
        return Dictionary(rows.compactMap { id, geometry in geometry.map { (id, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// `results` with each name shown in the first of the languages of `language` (`LanguagePreference`:
    /// "de", "de-CH,de;q=0.9,en") the place has a name in (`name:xx`), else as it is; so too the areas of
    /// its address (its suburb, city, county, state: Helsingfors for sv where its set's city is Helsinki,
    /// unless its own addr:city says another name), and its country (`localizeCountry`).
    func localized(_ results: [PlaceResult], language: String?) throws -> [PlaceResult] {
        let languages = LanguagePreference.ordered(language)
        guard !languages.isEmpty else { return results }
        var sets: [Int64: AreaSets.Entry] = [:]
        for result in results {
            if let entry = try areaSets.entry(result.areaSetID) { sets[result.id] = entry }
        }
        let names = try localizedNames(of: results.map(\.id) + sets.values.flatMap { $0.ids.values }, languages: languages)
        var out = results
        for index in out.indices {
            let place = out[index]
            var address = place.address
            if let entry = sets[place.id] {
                for (level, area) in entry.ids where address[level: level] != nil && address[level: level] == entry.names[level] {
                    if let name = names[area] { address[level: level] = name }
                }
            }
            Self.localizeCountry(&address, language: language)
            // A country without a name of its own in the language: CLDR's, as its address has.
            let name = names[place.id] ?? (place.kind == .country ? address.country : nil) ?? place.name
            guard name != place.name || address != place.address else { continue }
            out[index].name = name
            out[index].address = address
        }
        return out
    }

    /// The name of each place of `ids` in the first of `languages` it has one in; places with none are left out.
    func localizedNames(of ids: [Int64], languages: [String]) throws -> [Int64: String] {
        guard !ids.isEmpty, !languages.isEmpty else { return [:] }
        let rows = try db.rows("read localized names", """
            SELECT place_id, lower(lang), name FROM place_name
            WHERE place_id IN (SELECT value FROM json_each(?1)) AND type = 'name' AND lower(lang) IN (SELECT value FROM json_each(?2))
            """, [.text(JSONText.array(ids)), .text(JSONText.array(languages))]) { ($0.int(0), $0.text(1) ?? "", $0.text(2)) }
        var best: [Int64: (rank: Int, name: String)] = [:]
        for (id, language, name) in rows {
            guard let name, let rank = languages.firstIndex(of: language), rank < best[id]?.rank ?? .max else { continue }
            best[id] = (rank, name)
        }
        return best.mapValues(\.name)
    }

    /// The address's country in the first of the languages of `language` that CLDR has (`CountryCode.name`),
    /// when it has a country code.
    static func localizeCountry(_ address: inout Address, language: String?) {
        guard let code = address.countryCode,
              let name = LanguagePreference.ordered(language).lazy.compactMap({ CountryCode.name(code, language: $0) }).first else { return }
        address.country = name
    }
}
