// Geometry blobs (the documented byte layout) and the polygon arithmetic places depend on.
import GeoDB
import Testing

@Suite struct GeometryTests {
    let square = [Point7(lat: 0, lon: 0), Point7(lat: 0, lon: 100), Point7(lat: 100, lon: 100), Point7(lat: 100, lon: 0)]
    let hole = [Point7(lat: 40, lon: 40), Point7(lat: 40, lon: 60), Point7(lat: 60, lon: 60), Point7(lat: 60, lon: 40)]

    @Test func lineStringBytesAreAsDocumented() {
        // type 1, 1 line, 2 points: (lon 10, lat 20) then (lon 11, lat 18) as zigzag deltas.
        let geometry = Geometry.lineStrings([[Point7(lat: 20, lon: 10), Point7(lat: 18, lon: 11)]])
        #expect(geometry.encoded() == [1, 1, 2, 20, 40, 2, 3])
    }

    @Test func polygonsRoundTrip() {
        let geometry = Geometry.polygons([[square, hole], [[Point7(lat: -900_000_000, lon: 1_800_000_000),
                                                           Point7(lat: 900_000_000, lon: -1_800_000_000),
                                                           Point7(lat: 0, lon: 0)]]])
        #expect(Geometry(encoded: geometry.encoded()) == geometry)
    }

    @Test(arguments: [[UInt8](), [9], [1], [1, 5], [1, 1, 2, 20], [2, 1, 1, 3, 0, 0, 2, 2], [1, 0, 7],
                      [1, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1]])
    func corruptBlobsDecodeToNil(bytes: [UInt8]) {
        #expect(Geometry(encoded: bytes) == nil)
    }

    /// Nominatim's polygon_text, polygon_svg and polygon_kml: rings closed and wound as GeoJSON's, SVG's y down.
    @Test func geometryTextFormats() {
        let degree: Int32 = 10_000_000
        // Drawn clockwise from its north-west corner: written counterclockwise, as RFC 7946 turns an outer
        // ring, from its least point (the south-west corner), where Nominatim's rings start.
        let clockwise = [Point7(lat: degree, lon: 0), Point7(lat: degree, lon: degree), Point7(lat: 0, lon: degree), Point7(lat: 0, lon: 0)]
        let polygon = Geometry.polygons([[clockwise]])
        #expect(GeometryText.wkt(polygon, point: Coordinate(lat: 0, lon: 0)) == "POLYGON((0 0,1 0,1 1,0 1,0 0))")
        #expect(GeometryText.svg(polygon, point: Coordinate(lat: 0, lon: 0)) == "M 0 0 L 1 0 1 -1 0 -1 Z")
        #expect(GeometryText.kml(polygon, point: Coordinate(lat: 0, lon: 0))
                == "<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>")
        let lines = Geometry.lineStrings([[Point7(lat: 471_000_000, lon: 95_000_000), Point7(lat: 471_500_000, lon: 95_250_000)],
                                          [Point7(lat: 0, lon: 0), Point7(lat: 1, lon: -1)]])
        #expect(GeometryText.wkt(lines, point: Coordinate(lat: 0, lon: 0)) == "MULTILINESTRING((9.5 47.1,9.525 47.15),(0 0,-0.0000001 0.0000001))")
        #expect(GeometryText.svg(lines, point: Coordinate(lat: 0, lon: 0)) == "M 9.5 -47.1 L 9.525 -47.15 M 0 0 L -0.0000001 -0.0000001")
        #expect(GeometryText.kml(lines, point: Coordinate(lat: 0, lon: 0)).hasPrefix("<MultiGeometry><LineString><coordinates>9.5,47.1 9.525,47.15</coordinates>"))
        // A place without a geometry is its point.
        #expect(GeometryText.wkt(nil, point: Coordinate(lat: 47.1, lon: -9.5)) == "POINT(-9.5 47.1)")
        #expect(GeometryText.svg(nil, point: Coordinate(lat: 47.1, lon: -9.5)) == "cx=\"-9.5\" cy=\"-47.1\"")
        #expect(GeometryText.kml(nil, point: Coordinate(lat: 47.1, lon: -9.5)) == "<Point><coordinates>-9.5,47.1</coordinates></Point>")
    }

    @Test func containmentHonoursHoles() {
        #expect(PolygonMath.polygonContains([square, hole], lat: 10, lon: 10))
        #expect(!PolygonMath.polygonContains([square, hole], lat: 50, lon: 50))
        #expect(!PolygonMath.polygonContains([square, hole], lat: 150, lon: 50))
    }

    @Test func interiorPointOfSquareWithHoleAvoidsTheHole() throws {
        // The centroid (50, 50) lies in the hole: the widest inside stretch on that latitude is used.
        let point = try #require(PolygonMath.interiorPoint([[square, hole]]))
        #expect(PolygonMath.polygonContains([square, hole], lat: point.lat, lon: point.lon))
        #expect(point == Point7(lat: 50, lon: 20))
    }

    @Test func interiorPointOfConvexPolygonIsItsCentroid() {
        #expect(PolygonMath.interiorPoint([[square]]) == Point7(lat: 50, lon: 50))
    }

    /// Every writer's rings: outer counterclockwise, holes clockwise, each from its least point (longitude,
    /// then latitude) whichever node the source drew first, as libosmium (and so Nominatim) writes them.
    @Test func ringsStartAtTheirLeastPoint() {
        let drawnFromEveryCorner = (0..<4).map { Array(square[$0...] + square[..<$0]) }
        for ring in drawnFromEveryCorner + drawnFromEveryCorner.map { $0.reversed() } {
            #expect(PolygonMath.outputRing(ring, outer: true) == square)
            #expect(PolygonMath.outputRing(ring, outer: false) == [square[0], square[3], square[2], square[1]])
        }
        let wound = GeoJSONGeometry(.polygons([[Array(square.reversed()), hole]]))
        guard case .polygon(let rings) = wound.coordinates else { Issue.record("not a polygon"); return }
        #expect(rings == [square + [square[0]], [hole[0], hole[3], hole[2], hole[1], hole[0]]])
    }

    /// polygon_threshold: Douglas–Peucker in degrees from the ring's first point, as PostGIS simplifies
    /// Nominatim's outlines; a ring never falls below a closed triangle, a line keeps its ends.
    @Test func douglasPeuckerKeepsRingsClosedAndValid() throws {
        // A square with a notch 0.2 units deep in its south side (units of 1e-7°).
        let notched = [Point7(lat: 0, lon: 0), Point7(lat: 0, lon: 40), Point7(lat: 2, lon: 50), Point7(lat: 0, lon: 60),
                       Point7(lat: 0, lon: 100), Point7(lat: 100, lon: 100), Point7(lat: 100, lon: 0)]
        #expect(Geometry.polygons([[notched]]).douglasPeucker(tolerance: 1e-7) == .polygons([[notched]]))
        #expect(Geometry.polygons([[notched]]).douglasPeucker(tolerance: 3e-7) == .polygons([[square]]))
        #expect(Geometry.polygons([[notched]]).douglasPeucker(tolerance: 0) == .polygons([[notched]]))
        guard case .polygons(let polygons) = Geometry.polygons([[notched, hole]]).douglasPeucker(tolerance: 1) else {
            Issue.record("not polygons"); return
        }
        // Nothing is within a degree's distance to keep, yet each ring stays a triangle from its first point.
        #expect(polygons[0].map(\.count) == [3, 3])
        #expect(polygons[0][0].first == Point7(lat: 0, lon: 0) && PolygonMath.doubleSignedArea(polygons[0][0]) > 0)
        #expect(PolygonMath.doubleSignedArea(polygons[0][1]) < 0)
        let line = [Point7(lat: 0, lon: 0), Point7(lat: 1, lon: 50), Point7(lat: 0, lon: 100)]
        #expect(Geometry.lineStrings([line]).douglasPeucker(tolerance: 2e-7) == .lineStrings([[line[0], line[2]]]))
    }

    /// An area's point is PostGIS's ST_PointOnSurface, as Nominatim answers it: Vaduz's Landesmuseum (way
    /// 243055643 in Nominatim's test data) at 9.5227108 47.1381805 there, not its centroid (9.5227104).
    @Test func interiorPointIsWherePostGISPutsIt() {
        let museum = [Point7(lat: 471_382_437, lon: 95_228_513), Point7(lat: 471_382_710, lon: 95_225_902),
                      Point7(lat: 471_381_172, lon: 95_225_621), Point7(lat: 471_380_963, lon: 95_228_435)]
        #expect(PolygonMath.interiorPoint([[museum]]) == Point7(lat: 471_381_805, lon: 95_227_108))
    }

    /// Nominatim answers a street at its point nearest the reverse query, measured in plain degrees as PostGIS
    /// does (Bergstrasse, Vaduz, in its test data).
    @Test func closestPointOnALine() throws {
        let street = [[Point7(lat: 471_339_293, lon: 95_293_926)],
                      [Point7(lat: 471_337_099, lon: 95_294_273), Point7(lat: 471_334_300, lon: 95_294_693)]]
        let point = try #require(LineMath.closestPoint(on: street, to: Coordinate(lat: 47.13368, lon: 9.52942)))
        #expect(point == Point7(lat: 471_336_817, lon: 95_294_315))
        #expect(LineMath.closestPoint(on: street, to: Coordinate(lat: 47.2, lon: 9.5)) == street[0][0])
    }

    @Test func pointAlongLine() {
        let line = [Point7(lat: 0, lon: 0), Point7(lat: 0, lon: 100), Point7(lat: 0, lon: 300)]
        #expect(LineMath.point(along: line, fraction: 0.5) == Point7(lat: 0, lon: 150))
        #expect(LineMath.point(along: line, fraction: 1) == Point7(lat: 0, lon: 300))
    }

    @Test func haversineDistance() {
        // Helsinki Central Station to Senate Square: 662.2 m (computed independently in Python).
        let a = Coordinate(lat: 60.1713198, lon: 24.9414566), b = Coordinate(lat: 60.1695187, lon: 24.9528682)
        #expect(abs(a.distance(to: b) - 662.197) < 0.01)
        // A degree of latitude on the mean sphere.
        #expect(abs(Coordinate(lat: 0, lon: 0).distance(to: Coordinate(lat: 1, lon: 0)) - 111_195) < 1)
    }

    @Test func boxesAcrossTheAntimeridianContainBothSides() {
        let box = BoundingBox(minLat: -20, minLon: 170, maxLat: -10, maxLon: -170)
        #expect(box.contains(Coordinate(lat: -15, lon: 179.5)) && box.contains(Coordinate(lat: -15, lon: -179.5)))
        #expect(box.contains(Coordinate(lat: -15, lon: 180)) && box.contains(Coordinate(lat: -10, lon: -170)))
        #expect(!box.contains(Coordinate(lat: -15, lon: 0)) && !box.contains(Coordinate(lat: -25, lon: 179.5)))
        #expect(!BoundingBox(minLat: 0, minLon: 10, maxLat: 1, maxLon: 11).contains(Coordinate(lat: 0.5, lon: 12)))
    }
}
