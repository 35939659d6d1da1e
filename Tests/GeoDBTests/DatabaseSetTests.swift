// Several files as one in the library (GeoDatabaseSet): a country extract and a world gazetteer searched,
// reversed and looked up together, a place both have shown once.
import Foundation
@testable import GeoDB
import Testing
import TestSupport

@Suite struct DatabaseSetTests {
    static func liechtensteinAndCities() throws -> GeoDatabaseSet {
        try GeoDatabaseSet(paths: [try TestDatabases.liechtenstein(), try TestDatabases.cities()])
    }

    /// A map opens where the places are: a small file's extent; the busiest part of the world gazetteer, not
    /// the middle of its extent; the country beside the gazetteer, whose places are denser.
    @Test func theDenseAreaIsWhereThePlacesAre() async throws {
        let liechtenstein = try GeoDatabase(path: try TestDatabases.liechtenstein())
        let extent = try #require(try await liechtenstein.info().boundingBox)
        #expect(try liechtenstein.withSession { try $0.denseArea() } == DenseArea(box: extent, share: 1))
        let cities = try GeoDatabase(path: try TestDatabases.cities())
        let busiest = try #require(try cities.withSession { try $0.denseArea() })
        #expect(busiest.box.maxLat - busiest.box.minLat <= 0.5 && busiest.box.maxLon - busiest.box.minLon <= 0.5)
        #expect(busiest.share >= 0.003 && busiest.share < 0.1, "\(busiest)")   // several of the 2,000 sampled
        let world = try #require(try await cities.info().boundingBox)
        #expect(!busiest.box.contains(world.center))
        let both = try #require(try await Self.liechtensteinAndCities().denseArea())
        #expect(both.contains(Coordinate(lat: 47.141, lon: 9.521)), "\(both)")   // Vaduz
    }

    /// Vaduz is in both files: once, from OSM (it has the address and the geometry).
    @Test func aPlaceBothFilesHaveIsShownOnce() async throws {
        let set = try Self.liechtensteinAndCities()
        let found = try await set.search("Vaduz", options: SearchOptions(), offset: 0, limit: 10).places
        // The town (the extract's place node n1932181216) once; GeoNames' Vaduz (geonameid 3042030) not beside it.
        #expect(found.filter { $0.place.sourceRef?.description == "n1932181216" }.count == 1)
        #expect(!found.contains { $0.place.sourceRef?.description == "geonames:3042030" }, "\(found.map { ($0.place.name ?? "", $0.place.sourceRef?.description) })")
        #expect(found.first?.place.sourceRef?.description == "n1932181216" && found.first?.member.index == 0)
        // The gazetteer alone answers its own Vaduz.
        #expect(try await set.members[1].database.search("Vaduz").first?.sourceRef?.description == "geonames:3042030")
    }

    /// Results of both files in one list, by score, each file's own order kept.
    @Test func searchIsMergedInScoreOrder() async throws {
        let set = try Self.liechtensteinAndCities()
        let found = try await set.search("Schaan", options: SearchOptions(), offset: 0, limit: 10).places
        let scores = found.map { $0.place.score ?? 0 }
        #expect(scores == scores.sorted(by: >))
        // Zürich is only in the gazetteer, Schaan's streets only in the extract: one search finds both files' places.
        let zurich = try await set.search("Zürich", options: SearchOptions(), offset: 0, limit: 3).places
        #expect(zurich.first?.member.index == 1 && zurich.first?.place.name == "Zürich")
        #expect(found.contains { $0.member.index == 0 })
        // A page after the first continues the same list.
        let first = try await set.search("Schaan", options: SearchOptions(), offset: 0, limit: 3)
        let second = try await set.search("Schaan", options: SearchOptions(), offset: 3, limit: 3)
        #expect((first.places + second.places).map(\.globalID) == Array(found.prefix(6)).map(\.globalID))
        #expect(first.more)
    }

    /// Reverse asks the file whose extent holds the point: in Vaduz the extract (streets, addresses), in
    /// Tokyo the gazetteer.
    @Test func reverseAsksTheFileThatCoversThePoint() async throws {
        let set = try Self.liechtensteinAndCities()
        let vaduz = try await set.reverse(at: Coordinate(lat: 47.13168, lon: 9.52287), options: ReverseOptions())
        #expect(vaduz.first?.member.index == 0 && vaduz.first?.result.place.address.countryCode == "LI")
        let tokyo = try await set.reverse(at: Coordinate(lat: 35.6895, lon: 139.6917), options: ReverseOptions())
        #expect(tokyo.first?.member.index == 1 && tokyo.first?.result.place.address.countryCode == "JP")
    }

    /// The geometries and names of a whole answer, read once per file, are each place's own.
    @Test func detailsOfManyPlacesInOneReadPerFile() async throws {
        let set = try Self.liechtensteinAndCities()
        let found = try await set.search("Vaduz", options: SearchOptions(), offset: 0, limit: 10).places
            + (try await set.search("Zürich", options: SearchOptions(), offset: 0, limit: 3).places)
        let details = try await GeoDatabaseSet.details(of: found, geometries: true, names: true, boundaries: true)
        #expect(details.count == found.count && details.contains { $0.geometry != nil })
        // Vaduz's node labels its municipality's relation; a place of GeoNames has none.
        #expect(details.first?.mergedBoundary == MergedBoundary(relation: 1155956, adminLevel: 8), "\(found[0].place.displayName)")
        #expect(zip(found, details).allSatisfy { $0.place.sourceRef?.osmObject != nil || $1.mergedBoundary == nil })
        for (place, read) in zip(found, details) {
            let id = place.place.id
            let geometry = try await place.member.database.read { try $0.geometry(ofPlace: id) }
            #expect(read.geometry == geometry)
            let names = try await place.member.database.lookup(String(place.place.id)).names
            #expect(read.names?.map(\.name) == names.map(\.name) && read.names?.map(\.type) == names.map(\.type))
        }
    }

    /// Ids across the set lead back to their file; a source id is found in the file that has it.
    @Test func lookupByGlobalIDAndSourceID() async throws {
        let set = try Self.liechtensteinAndCities()
        let zurich = try #require(try await set.search("Zürich", options: SearchOptions(), offset: 0, limit: 1).places.first)
        #expect(zurich.globalID >> 40 == 1)
        let byID = try #require(try await set.lookup(String(zurich.globalID)))
        #expect(byID.member.index == 1 && byID.details.place.name == "Zürich")
        let bySource = try #require(try await set.lookup("n1932181216"))
        #expect(bySource.member.index == 0 && bySource.details.place.name == "Vaduz")
        #expect(try await set.lookup("n1") == nil)
    }
}
