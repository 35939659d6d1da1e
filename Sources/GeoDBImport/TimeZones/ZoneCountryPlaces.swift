// The countries a database's time zones know and none of its places is: a place each, so that a file of one
// region still finds "France" and reverse far from every place answers the country. Nominatim's country grid
// and country names do both for it; geodb has the zones (tzdata's zone.tab gives each its country) and CLDR's
// names (`CountryCode.ownNames`).
import Foundation
import GeoDB
import GeoDBSQLite

/// Adds a country place for each country of the time zones that no place of the database is.
enum ZoneCountryPlaces {
    /// Adds the places; returns how many. Each is named in English (as geodb names a country it knows from
    /// CLDR only) and in the country's own languages, at the point of its largest zone polygon farthest from
    /// the edges (`PolygonMath.labelPoint`; for a coastal country it can lie in its waters, which its zone
    /// holds). It is that point alone: the box of its zones would put it in every R*Tree search of half the
    /// world. It belongs to the time zones' source and leaves the file's extent alone (no data there). None
    /// without time zones or without other places (a file of time zones alone), and none for a country a
    /// place already is (a boundary, GeoNames' countryInfo, an earlier import's zones).
    static func add(writer: PlaceWriter) throws -> Int {
        let db = writer.db
        // A file of time zones alone stays a lookup table: served beside region files, its countries would be
        // searched with every query (the server's popular mix lost a quarter of its requests/s).
        guard let source = try db.scalarInt("SELECT source_id FROM timezone ORDER BY id LIMIT 1"),
              try db.scalarInt("SELECT EXISTS (SELECT 1 FROM place)") == 1 else { return 0 }
        let known = Set(try db.prepare("SELECT DISTINCT upper(country_code) FROM place WHERE \(KindIndex.equals(.country)) AND country_code IS NOT NULL")
            .rows { $0.text(0) ?? "" })
        var countries: [String: ZoneCountry] = [:]
        let polygons = try db.prepare("""
            SELECT t.tzid, p.geometry FROM timezone_polygon p JOIN timezone t ON t.id = p.timezone_id ORDER BY p.id
            """)
        while try polygons.step() {
            guard let code = TimeZoneCountry.code(ofZone: polygons.text(0) ?? ""), !known.contains(code),
                  case .polygons(let parts)? = polygons.blob(1).flatMap(Geometry.init(encoded:)) else { continue }
            for rings in parts { countries[code, default: ZoneCountry()].add(rings) }
        }
        var added = 0
        for code in countries.keys.sorted() {
            let names = CountryCode.ownNames(code)
            guard let country = countries[code], let english = names.first?.name, let point = country.point else { continue }
            _ = try writer.insert(PlaceRecord(
                sourceRef: "country:" + code, kind: .country, category: "place=country", name: english,
                names: [PlaceName(name: english, type: "name")] + names.map { PlaceName(name: $0.name, type: "name", lang: $0.language) },
                coordinate: point, address: Address(countryCode: code)), sourceID: source, widensExtent: false)
            added += 1
        }
        try SourceRow.countPlaces(added, ofSource: source, in: db)
        return added
    }

    /// A country's largest zone polygon, by area on the ground: where its place's point is.
    private struct ZoneCountry {
        var largest: (rings: [[Point7]], km2: Double)?

        mutating func add(_ rings: [[Point7]]) {
            guard let outer = rings.first, outer.count >= 3 else { return }
            let (minLat, maxLat) = (Double(outer.map(\.lat).min()!) / 1e7, Double(outer.map(\.lat).max()!) / 1e7)
            // (1e-7°)² to km², longitude shortened by the cosine of the middle latitude: Alaska's zone is not
            // larger than the central zone of the United States for lying nearer the pole.
            let degreeKm = 111.32
            let km2 = abs(PolygonMath.doubleSignedArea(outer)) / 2 / 1e14 * degreeKm * degreeKm * cos((minLat + maxLat) / 2 * .pi / 180)
            if km2 > largest?.km2 ?? 0 { largest = (rings, km2) }
        }

        var point: Coordinate? {
            largest.flatMap { PolygonMath.labelPoint([$0.rings], precision: 1_000) }?.coordinate
        }
    }
}
