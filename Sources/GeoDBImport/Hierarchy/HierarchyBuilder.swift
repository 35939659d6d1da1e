// Where every place of an import lies: the administrative and postal areas containing it (from the
// boundaries, which an OSM file has last) and, for levels no boundary gives, the nearest place node of
// that level. Writes `area`, `area_set`, `place_area_set` and the words of the places the sets name
// (`area_name_fts`, what "…, Town" in a search matches), and makes postcode places from addresses.
// Runs the phases in order; each job is its own type: `AreaIndex`, `LevelNodes`, `AreaSetAssigner`,
// `PostcodeCollector`, `AreaSetWriter`.
import Foundation
import GeoDB
import GeoDBSQLite

/// The address hierarchy of the places of one import (docs/SCHEMA.md, "Address hierarchy").
final class HierarchyBuilder {
    /// A place of this import, as the hierarchy needs it.
    private struct NewPlace {
        var id: Int64
        var sourceID: Int64
        var kind: PlaceKind
        var category: String?
        var point: Coordinate
        /// Its own addr:* parts.
        var postcode: String?, city: String?, countryCode: String?
    }

    private let writer: PlaceWriter
    /// The OSM sources of this import: their addresses make postcode places, and their place nodes stand
    /// in for levels no boundary gives (a gazetteer's places carry their state and country themselves, and a
    /// CSV file's rows are what its user listed, no more).
    private let osmSources: Set<Int64>
    private var usesPlaceNodes: Bool { !osmSources.isEmpty }

    init(writer: PlaceWriter, osmSources: Set<Int64>) {
        self.writer = writer
        self.osmSources = osmSources
    }

    /// Assigns the places of this import their areas. `extraLevels`: places that are areas of a second
    /// level too (a city-state, from `PlaceMerger`).
    func run(extraLevels: [Int64: [AddressLevel]]) throws {
        try writer.flushNames()
        let areas = try AreaIndex(writer: writer, extraLevels: extraLevels, addingBoundaries: usesPlaceNodes)
        let nodes = usesPlaceNodes ? try LevelNodes(writer: writer, areas: areas) : nil
        let zones = try writer.db.scalarInt("SELECT count(*) FROM timezone") ?? 0 > 0 ? try TimeZoneLookup(connection: writer.db) : nil
        // Nothing can lie in anything: no area, no place nodes or addresses to use, and no time zones to name a
        // country (a gazetteer alone).
        guard !areas.isEmpty || usesPlaceNodes || zones != nil else { return }
        let sets = try AreaSetWriter(db: writer.db)
        let fileCountry = areas.knowsCountries ? nil : try taggedCountry()
        let assigner = AreaSetAssigner(areas: areas, nodes: nodes, sets: sets, fileCountry: fileCountry,
                                       zoneCountry: zones.map { lookup in { TimeZoneCountry.code(ofZone: try lookup.tzid(at: $0)) } },
                                       countryPlaces: try countryPlaces(besides: areas))
        let postcodes = PostcodeCollector()
        // One pass over the places, in id order, writing as it goes: memory holds the areas and caches, not
        // the places.
        let extents = try writer.db.prepare("SELECT geometry FROM place_geometry WHERE place_id = ?1")
        // With only the time zones to go by, only a place without a country of its own can lie in anything.
        try forEachNewPlace(withoutCountryOnly: areas.isEmpty && !usesPlaceNodes) { place in
            // A natural feature lies where all of it lies, not where its point does.
            let extent = ReverseLayer.feature(kind: place.kind, category: place.category) == .natural
                ? try vertices(of: place.id, from: extents) : []
            let set = extent.isEmpty
                ? try assigner.areaSet(of: place.id, kind: place.kind, at: place.point, ownCountry: place.countryCode)
                : try assigner.areaSet(of: place.id, kind: place.kind, at: place.point, extent: extent, ownCountry: place.countryCode)
            if let code = place.postcode, osmSources.contains(place.sourceID) {
                postcodes.collect(code, at: place.point, city: place.city, country: set?.countryCode ?? place.countryCode)
            }
            if let set { try sets.add(place: place.id, set: set.id) }
        }
        for place in try postcodes.addPostcodePlaces(writer: writer, osmSources: osmSources, areas: areas) {
            if let set = try assigner.areaSet(of: place.id, kind: .postcode, at: place.point, ownCountry: place.countryCode) {
                try sets.add(place: place.id, set: set.id)
            }
        }
        try sets.finish()
    }

    /// The country of an OSM extract no area of which names one (a city's extract cuts its country's
    /// boundary): the addr:country its places carry, when at least 10 do and 95 % of them agree (Helsinki's:
    /// 1,304 FI, no other). Nil for a file of several countries, or too few tagged places to tell.
    private func taggedCountry() throws -> String? {
        guard usesPlaceNodes else { return nil }
        let rows = try writer.db.prepare("""
            SELECT country_code, count(*) FROM place
            WHERE id >= ?1 AND country_code IS NOT NULL AND source_id IN (SELECT value FROM json_each(?2))
            GROUP BY country_code ORDER BY count(*) DESC, country_code
            """)
        try rows.bind([.integer(writer.firstID), .text(JSONText.array(osmSources.sorted()))])
        var counts: [(code: String, count: Int64)] = []
        while try rows.step() { counts.append((rows.text(0) ?? "", rows.int(1))) }
        let total = counts.reduce(0) { $0 + $1.count }
        guard let top = counts.first, total >= 10, top.count * 100 >= total * 95 else { return nil }
        return CountryCode.parse(top.code)
    }

    /// The country places that are no area (points: `ZoneCountryPlaces`, GeoNames' country table), by code,
    /// the first of a code by id.
    private func countryPlaces(besides areas: AreaIndex) throws -> [String: Int64] {
        var places: [String: Int64] = [:]
        let rows = try writer.db.prepare("SELECT id, country_code FROM place WHERE \(KindIndex.equals(.country)) AND country_code IS NOT NULL ORDER BY id")
        while try rows.step() {
            guard !areas.isArea(rows.int(0)), let code = rows.text(1).flatMap(CountryCode.parse), places[code] == nil else { continue }
            places[code] = rows.int(0)
        }
        return places
    }

    /// The vertices of a place's lines, or of its polygons' outer rings; none for a point.
    private func vertices(of place: Int64, from select: Statement) throws -> [Point7] {
        try select.bind([.integer(place)])
        defer { select.reset() }
        guard try select.step(), let geometry = select.blob(0).flatMap(Geometry.init(encoded:)) else { return [] }
        switch geometry {
        case .lineStrings(let lines): return lines.flatMap { $0 }
        case .polygons(let parts): return parts.flatMap { $0.first ?? [] }
        }
    }

    /// Calls `body` with each place of this import (`withoutCountryOnly`: those without a country code), in id order.
    private func forEachNewPlace(withoutCountryOnly: Bool, _ body: (NewPlace) throws -> Void) throws {
        let rows = try writer.db.prepare("""
            SELECT id, source_id, kind, lat, lon, postcode, city, country_code, category FROM place
            WHERE id >= ?1 \(withoutCountryOnly ? "AND country_code IS NULL" : "") ORDER BY id
            """)
        try rows.bind([.integer(writer.firstID)])
        while try rows.step() {
            guard let kind = PlaceKind(rawValue: rows.text(2) ?? "") else { continue }
            try body(NewPlace(id: rows.int(0), sourceID: rows.int(1), kind: kind, category: rows.text(8),
                              point: try rows.coordinate(3, 4, place: rows.int(0), in: writer.db.path),
                              postcode: rows.text(5), city: rows.text(6), countryCode: rows.text(7)))
        }
    }
}
