// The hand-drawn grid fixture (Tests/Fixtures/grid.osm and its PBF twin): every place it must yield.
import GeoDB
import GeoDBSQLite
@testable import GeoDBImport
import Testing
import TestSupport

/// Collects places instead of writing them (the importer's narrow interface makes this possible).
final class CollectingSink: PlaceSink {
    var places: [PlaceRecord] = []
    func add(_ place: PlaceRecord) throws { places.append(place) }

    func named(_ name: String) -> [PlaceRecord] { places.filter { $0.name == name } }
}

/// Reads a fixture with the reader for its format and returns the places and statistics.
func buildPlaces(_ path: String) throws -> (CollectingSink, OSMBuildStats, OSMReadStats) {
    let sink = CollectingSink()
    let builder = try OSMPlaceBuilder(sink: sink, fileName: path)
    let readStats: OSMReadStats
    switch try InputFormat.detect(path: path) {
    case .osmPBF:
        let reader = PBFReader(path: path)
        try reader.read(into: builder)
        readStats = reader.stats
    default:
        let reader = OSMXMLReader(path: path)
        try reader.read(into: builder)
        readStats = reader.stats
    }
    try builder.finish()
    return (sink, builder.stats, readStats)
}

/// A handler of one's own (the readers' public interface) sees every tag, in file order and by name.
final class TagCollector: OSMHandler {
    var nodeTags: [Int64: [String]] = [:]
    var cafe: (name: String?, amenity: String?, missing: String?)?
    func header(_ header: OSMHeader) {}
    func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) {
        if !tags.isEmpty { nodeTags[id] = tags.pairs.map { "\($0.key)=\($0.value)" } }
        if id == 10 { cafe = (tags["name"], tags["amenity"], tags["shop"]) }
    }
    func way(id: Int64, refs: [Int64], tags: OSMTags) {}
    func relation(id: Int64, members: [OSMMember], tags: OSMTags) {}
}

@Test func ownHandlersSeeTheSameTagsInBothFormats() throws {
    let fromPBF = TagCollector(), fromXML = TagCollector()
    try PBFReader(path: TestPaths.fixture("grid.osm.pbf")).read(into: fromPBF)
    try OSMXMLReader(path: TestPaths.fixture("grid.osm")).read(into: fromXML)
    #expect(fromPBF.nodeTags[10]?.prefix(3) == ["amenity=cafe", "name=Kahvila Testi", "name:sv=Kafé Test"])
    #expect(fromPBF.nodeTags == fromXML.nodeTags)
    #expect(fromPBF.cafe?.name == "Kahvila Testi" && fromPBF.cafe?.amenity == "cafe" && fromPBF.cafe?.missing == nil)
}

/// The importer hands way geometry to the writer's thread (`PipelinedPlaceSink.perform`): its places
/// and counts must be those of one thread doing everything, in the same order.
@Test func writerThreadKeepsTheOrderOfOneThread() throws {
    let (sink, stats, _) = try buildPlaces(TestPaths.sampleData("helsinki.osm.pbf"))
    let dbs = try HelsinkiDatabases.shared.get()
    let db = try Connection(path: dbs.pbf, mode: .readOnly())
    // (Less the postcode places the hierarchy makes from the addresses afterwards.)
    let stored = try db.prepare("SELECT source_ref, kind, lat, lon FROM place WHERE kind <> 'postcode' ORDER BY id").rows {
        "\($0.text(0) ?? "") \($0.text(1) ?? "") \($0.double(2)) \($0.double(3))"
    }
    #expect(stored.count == 2518)
    // (Less the places merged into another: Kluuvi's boundary into its place node. The other links are the
    // ways of streets and rivers after their first, which are no places of their own.)
    let merged = Set(try db.prepare("SELECT source_ref FROM place_link WHERE source_ref NOT LIKE 'w%'").rows { $0.text(0) ?? "" })
    #expect(merged == ["r184713"])
    #expect(stored == sink.places.filter { !merged.contains($0.sourceRef.description) }
        .map { "\($0.sourceRef) \($0.kind.rawValue) \($0.coordinate.lat) \($0.coordinate.lon)" })
    let build = dbs.pbfSummary.sources[0].build
    #expect([build.streetSegments, build.waysWithMissingNodes, build.missingNodeRefs, build.interpolationsSkipped,
             build.relationsAssembled, build.relationsSkipped]
            == [stats.streetSegments, stats.waysWithMissingNodes, stats.missingNodeRefs, stats.interpolationsSkipped,
                stats.relationsAssembled, stats.relationsSkipped])
}

@Suite struct GridFixtureTests {
    static let files = [TestPaths.fixture("grid.osm"), TestPaths.fixture("grid.osm.pbf")]

    @Test(arguments: files) func countsByKind(file: String) throws {
        let (sink, stats, read) = try buildPlaces(file)
        var counts: [PlaceKind: Int] = [:]
        for p in sink.places { counts[p.kind, default: 0] += 1 }
        #expect(counts == [.street: 3, .poi: 1, .address: 4, .interpolation: 1, .city: 1, .suburb: 1])
        #expect(read.nodes == 27 && read.ways == 11 && read.relations == 2)
        #expect(read.invalidCoordinates == 1)           // node 13 at latitude 95
        #expect(stats.relationsSkipped == 1)            // the park whose ring does not close
        #expect(stats.relationsAssembled == 1)
        #expect(stats.waysWithMissingNodes == 1 && stats.missingNodeRefs == 1)   // way 110 → node 999
        #expect(sink.named("Off the map").isEmpty)
    }

    @Test(arguments: files) func connectedSegmentsAreOneStreetAndFarOnesAnother(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let streets = sink.named("Testikatu").sorted { $0.sourceRef < $1.sourceRef }
        #expect(streets.map(\.sourceRef) == ["w100", "w103"])
        let near = streets[0]
        #expect(near.category == "highway=tertiary")      // the most important type of its segments
        #expect(near.names.map(\.name) == ["Testikatu", "Testgatan"])
        guard case .lineStrings(let lines)? = near.geometry else { Issue.record("no line geometry"); return }
        #expect(lines.count == 3)
        #expect(near.boundingBox == BoundingBox(minLat: 60, minLon: 25, maxLat: 60, maxLon: 25.003))
        // Halfway along the longest segment (all are equal: the first, w100).
        #expect(near.coordinate.distance(to: Coordinate(lat: 60, lon: 25.0005)) < 1)
    }

    @Test(arguments: files) func buildingAddressIsAtItsCentroid(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let building = try #require(sink.places.first { $0.sourceRef == "w104" })
        #expect(building.kind == .address)
        #expect(building.category == "building=yes")
        #expect(building.address == Address(housenumber: "7", street: "Testikatu"))
        #expect(building.coordinate.distance(to: Coordinate(lat: 60.0012, lon: 25.0025)) < 0.01)
        guard case .polygons(let polygons)? = building.geometry else { Issue.record("no polygon"); return }
        #expect(polygons.count == 1 && polygons[0].count == 1 && polygons[0][0].count == 4)
    }

    @Test(arguments: files) func poiKeepsNamesCategoryAndDisplayTags(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let cafe = try #require(sink.named("Kahvila Testi").first)
        #expect(cafe.kind == .poi && cafe.category == "amenity=cafe" && cafe.sourceRef == "n10")
        #expect(cafe.names == [PlaceName(name: "Kahvila Testi", type: "name"), PlaceName(name: "Kafé Test", type: "name", lang: "sv")])
        #expect(cafe.tags.map(\.key) == ["opening_hours"])
        #expect(cafe.coordinate == Coordinate(lat: 60.0005, lon: 25.0005))
    }

    @Test(arguments: files) func cityHasPopulationAndAllNames(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let city = try #require(sink.named("Testilä").first)
        #expect(city.kind == .city && city.population == 12345)
        #expect(city.names.map(\.name) == ["Testilä", "Testby", "Testtown"])
        #expect(city.importance > PlaceKind.city.baseImportance)
    }

    @Test(arguments: files) func boundaryRelationIsAPolygonWithItsHole(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let area = try #require(sink.named("Keskusta").first)
        #expect(area.kind == .suburb && area.adminLevel == 10 && area.sourceRef == "r200")
        guard case .polygons(let polygons)? = area.geometry else { Issue.record("no polygon"); return }
        #expect(polygons.count == 1 && polygons[0].count == 2)
        // The centroid lies in the hole; the label point is the point inside farthest from every edge: 167 m
        // from the hole, half-way between it and the south (or the north) edge.
        let poles = [Coordinate(lat: 60.0025, lon: 25.005), Coordinate(lat: 60.0075, lon: 25.005)]
        #expect(poles.contains { area.coordinate.distance(to: $0) < 20 }, "\(area.coordinate)")
    }

    @Test(arguments: files) func interpolationJoinsItsEndNumbers(file: String) throws {
        let (sink, _, _) = try buildPlaces(file)
        let line = try #require(sink.places.first { $0.kind == .interpolation })
        #expect(line.address.housenumber == "2-10" && line.address.street == "Testikatu")
        #expect(line.category == "addr:interpolation=even")
    }
}

@Suite struct UnsortedInputTests {
    /// Nodes out of id order (as hand-edited files have them) are sorted once before ways need them.
    @Test func nodesOutOfOrderGiveTheSamePlaces() throws {
        let text = try String(contentsOfFile: TestPaths.fixture("grid.osm"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.contains("<node id=\"1\" ") })
        let moved = lines.remove(at: first)
        let beforeWays = try #require(lines.firstIndex { $0.contains("<way id=\"100\">") })
        lines.insert(moved, at: beforeWays)
        let scratch = try ScratchDirectory()
        let path = scratch.path("unsorted.osm")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let (sorted, _, _) = try buildPlaces(TestPaths.fixture("grid.osm"))
        let (unsorted, stats, _) = try buildPlaces(path)
        #expect(unsorted.places.map(\.sourceRef) == sorted.places.map(\.sourceRef))
        #expect(unsorted.places.map(\.coordinate) == sorted.places.map(\.coordinate))
        #expect(stats.missingNodeRefs == 1)
    }

    /// Streets are written once the first relation arrives: a way after it would be lost, so it is refused.
    @Test func wayAfterRelationsIsRefused() throws {
        let text = try String(contentsOfFile: TestPaths.fixture("grid.osm"), encoding: .utf8)
        let street = "  <way id=\"100\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"highway\" v=\"residential\"/><tag k=\"name\" v=\"Testikatu\"/><tag k=\"name:sv\" v=\"Testgatan\"/></way>\n"
        #expect(text.contains(street))
        let moved = text.replacingOccurrences(of: street, with: "").replacingOccurrences(of: "</osm>", with: street + "</osm>")
        let scratch = try ScratchDirectory()
        let path = scratch.path("way-last.osm")
        try moved.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try buildPlaces(path)
        } throws: { error in
            let message = (error as? GeoDBError)?.message ?? ""
            return message.contains("way-last.osm") && message.contains("way 100 comes after relations")
                && message.contains("osmium sort")
        }
    }
}

/// Relation members are decoded only for the relations a handler asks for (routes have thousands).
@Test func pbfReaderDecodesOnlyTheMembersAHandlerWants() throws {
    final class MemberCounter: OSMHandler {
        let wantsOnlyAreas: Bool
        var members: [String: Int] = [:]
        init(wantsOnlyAreas: Bool) { self.wantsOnlyAreas = wantsOnlyAreas }
        func header(_ header: OSMHeader) {}
        func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) {}
        func way(id: Int64, refs: [Int64], tags: OSMTags) {}
        func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
            self.members[tags["type"] ?? "", default: 0] += members.count
        }
        func wantsMembers(ofRelationTagged tags: OSMTags) -> Bool {
            !wantsOnlyAreas || tags["type"] == "multipolygon"
        }
    }
    let all = MemberCounter(wantsOnlyAreas: false), areas = MemberCounter(wantsOnlyAreas: true)
    try PBFReader(path: TestPaths.sampleData("helsinki.osm.pbf")).read(into: all)
    try PBFReader(path: TestPaths.sampleData("helsinki.osm.pbf")).read(into: areas)
    #expect(all.members["route", default: 0] > 1000 && areas.members["route"] == 0)
    #expect(areas.members["multipolygon", default: 0] > 0 && areas.members["multipolygon"] == all.members["multipolygon"])
}
