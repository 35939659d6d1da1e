// Every named feature is a place (SampleData/liechtenstein.osm.pbf): a river split into many ways is one
// place found by its name, and reverse answers with the nearest feature of a layer (natural, railway,
// manmade), measured to its line.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct NamedFeatureTests {
    static let liechtenstein = Result { try GeoDatabase(path: try TestDatabases.liechtenstein()) }

    static func reverse(_ db: GeoDatabase, _ lat: Double, _ lon: Double, layers: Set<ReverseLayer>,
                        maxRank: Int = 30) throws -> PlaceResult? {
        var options = ReverseOptions()
        options.layers = layers
        options.maxRank = maxRank
        return try db.reverse(at: Coordinate(lat: lat, lon: lon), options: options).first?.place
    }

    /// The Esche flows through Liechtenstein in 9 ways: one place, its line their lines; the Samina (one way
    /// here) is found by its name before the bus stops named after it.
    @Test func aNamedRiverIsOnePlace() throws {
        let db = try Self.liechtenstein.get()
        var options = SearchOptions()
        options.limit = 20
        let esche = try db.search("Esche", options: options).filter { $0.kind == .water }
        #expect(esche.count == 1, "\(esche.map(\.sourceRef?.description))")
        #expect(esche.first?.category?.text == "waterway=stream" && esche.first?.categoryID == "stream")
        let rows = try Connection(path: try TestDatabases.liechtenstein(), mode: .readOnly()).prepare("""
            SELECT g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id WHERE p.name = 'Esche' AND p.kind = 'water'
            """).rows { $0.blob(0) }
        guard case .lineStrings(let lines)? = rows.first.flatMap({ $0 }).flatMap(Geometry.init(encoded:)) else {
            Issue.record("no line for the Esche")
            return
        }
        #expect(lines.count == 9)
        let samina = try #require(try db.search("Samina", options: options).first)
        #expect(samina.kind == .water && samina.category?.text == "waterway=river" && samina.sourceRef?.description == "w29453885")
    }

    /// A natural feature is named by the areas that hold most of it, not by the one its point lies in: the
    /// Esche flows through five municipalities and is in its county and country only; the Sass-Seelein lies
    /// across the boundary of Triesenberg and Schaan; the Dorfbach runs within Triesen and keeps it.
    @Test func aFeatureAcrossTownsIsInNoneOfThem() throws {
        let db = try Self.liechtenstein.get()
        func feature(_ name: String) throws -> PlaceResult {
            var options = SearchOptions()
            options.kinds = [.water]
            return try #require(try db.search(name, options: options).first { $0.name == name })
        }
        let esche = try feature("Esche").address
        #expect(esche.city == nil && esche.suburb == nil && esche.county == "Unterland" && esche.countryCode == "LI")
        let lake = try feature("Sass-Seelein").address
        #expect(lake.city == nil && lake.county == "Oberland")
        #expect(try feature("Dorfbach").address.city == "Triesen")
    }

    /// Below the Kuhgrat: the peak is the nearest natural feature; with Nominatim's zoom 12 (rank 18) only
    /// peaks and coarser answer.
    @Test func aPeakAnswersTheNaturalLayer() throws {
        let db = try Self.liechtenstein.get()
        for maxRank in [30, 18] {
            let peak = try #require(try Self.reverse(db, 47.1660, 9.5600, layers: [.natural], maxRank: maxRank))
            #expect(peak.name == "Kuhgrat" && peak.category?.text == "natural=peak", "\(maxRank)")
            #expect((90...110).contains(peak.distanceM ?? 0))
        }
        // A stream is measured to its line (25 m), not to its point (35 m away).
        let stream = try #require(try Self.reverse(db, 47.2170, 9.5580, layers: [.natural]))
        #expect(stream.name == "Esche" && (20...30).contains(stream.distanceM ?? 0))
    }

    /// In Schaan, 420 m from its halt: the railway layer answers the halt, the POI layer something nearer.
    @Test func aStationAnswersTheRailwayLayer() throws {
        let db = try Self.liechtenstein.get()
        let station = try #require(try Self.reverse(db, 47.1650, 9.5100, layers: [.railway]))
        #expect(station.name == "Schaan-Vaduz" && station.category?.text == "railway=halt")
        let poi = try #require(try Self.reverse(db, 47.1650, 9.5100, layers: [.poi, .railway]))
        #expect(poi.id != station.id && (poi.distanceM ?? .infinity) < 420)
        // The CLI's --kind and /v1's level name the layers too.
        var options = ReverseOptions()
        try options.setKind("railway")
        #expect(options.layers == [.railway] && options.level == .address)
        #expect(throws: GeoDBError.self) { try options.setKind("rivers") }
    }

    /// Which layer a place is in, by kind and category: the one rule every front end goes through.
    @Test func layersOfPlaces() {
        let cases: [(PlaceKind, String?, ReverseLayer?)] = [
            (.water, "waterway=river", .natural), (.water, "water=lake", .natural), (.poi, "natural=peak", .natural),
            (.poi, "railway=station", .railway), (.poi, "leisure=park", .manmade), (.poi, "man_made=tower", .manmade),
            (.poi, "landuse=forest", .manmade), (.boundary, "boundary=protected_area", .manmade),
            (.poi, "amenity=cafe", nil), (.poi, "leisure=pitch", nil), (.street, "highway=residential", nil),
            (.city, "boundary=administrative", nil),
        ]
        for (kind, category, layer) in cases {
            #expect(ReverseLayer.feature(kind: kind, category: category) == layer, "\(kind) \(category ?? "")")
        }
        #expect(ReverseLayer.rank(kind: .water, category: "waterway=river") == 19)
        #expect(ReverseLayer.rank(kind: .poi, category: "amenity=cafe") == 30)
    }
}
