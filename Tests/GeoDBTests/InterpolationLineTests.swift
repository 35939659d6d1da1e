// Where an interpolation line puts its house numbers: Nominatim's positions to the last digit.
import Foundation
@testable import GeoDB
import Testing

@Suite struct InterpolationLineTests {
    /// Way 1 of Nominatim's additional API test data: odd numbers 1001…1051 on Grosssteg, Triesenberg.
    let grosssteg = [Point7(lat: 471_185_500, lon: 95_697_463), Point7(lat: 471_185_372, lon: 95_719_698)]

    @Test func numbersStandWhereNominatimPutsThem() throws {
        let line = try #require(InterpolationLine(numbers: "1001-1051", category: SourceCategory("addr:interpolation=odd"), line: grosssteg))
        // Nominatim's reverse at 47.118533, 9.57056562 answers 1019 at 47.1185454, 9.5705467: the inner
        // numbers 1003…1049 are spread over the part of the line between their own ends, rounded to 1e-7°
        // (spread over the whole line, 1019 would be at 9.5705468).
        let house = try #require(line.number(nearest: Coordinate(lat: 47.118533, lon: 9.57056562)))
        #expect(house.number == 1019)
        #expect(house.at == Coordinate(lat: 47.1185454, lon: 9.5705467))
        #expect(line.position(of: 1019) == house.at)
        // The ends are addresses of their own: never answered from the line, but placed at its ends.
        #expect(line.number(nearest: Coordinate(lat: 47.11855, lon: 9.5697)).map(\.number) == 1003)
        #expect(line.position(of: 1001) == Point7(lat: 471_185_500, lon: 95_697_463).coordinate)
    }

    @Test func theSchemeGivesTheStep() throws {
        // Written from the high end, odd numbers from an even one, every number, a numeric step.
        let reversed = try #require(InterpolationLine(numbers: "1051-1001", category: SourceCategory("addr:interpolation=odd"), line: grosssteg.reversed()))
        #expect(reversed.position(of: 1019) == Coordinate(lat: 47.1185454, lon: 9.5705467))
        #expect(try #require(InterpolationLine(numbers: "1000-1050", category: SourceCategory("addr:interpolation=odd"), line: grosssteg))
            .number(nearest: grosssteg[0].coordinate)?.number == 1001)
        #expect(try #require(InterpolationLine(numbers: "2-10", category: SourceCategory("addr:interpolation=all"), line: grosssteg)).step == 1)
        #expect(try #require(InterpolationLine(numbers: "2-20", category: SourceCategory("addr:interpolation=3"), line: grosssteg)).step == 3)
        #expect(try #require(InterpolationLine(numbers: "2-10", category: nil, line: grosssteg)).step == 2)
        // Nothing between the ends, or not a range: no numbers to give.
        #expect(try #require(InterpolationLine(numbers: "1-3", category: SourceCategory("addr:interpolation=odd"), line: grosssteg)).number(nearest: grosssteg[0].coordinate) == nil)
        #expect(InterpolationLine(numbers: "12", category: SourceCategory("addr:interpolation=even"), line: grosssteg) == nil)
        #expect(InterpolationLine(numbers: "1-9223372036854775807", category: SourceCategory("addr:interpolation=odd"), line: grosssteg) == nil)
    }

    /// The import's segment distance with the cosine given is `LineMath.distance(from:to:)`'s to the last bit:
    /// the derived streets must not move with it. Every segment of the Grosssteg line and of a grid around it.
    @Test func segmentDistanceEqualsTheLineDistance() {
        let points = stride(from: -20, through: 20, by: 3).flatMap { dy in
            stride(from: -20, through: 20, by: 7).map { dx in Point7(lat: 471_185_500 + Int32(dy) * 997, lon: 95_697_463 + Int32(dx) * 1_013) }
        }
        for point in [Coordinate(lat: 47.118533, lon: 9.57056562), Coordinate(lat: 47.1, lon: 9.55), Coordinate(lat: 47.13, lon: 9.6)] {
            let scale = cos(point.lat * .pi / 180)
            for (a, b) in zip(points, points.dropFirst()) + [(grosssteg[0], grosssteg[1]), (grosssteg[0], grosssteg[0])] {
                #expect(LineMath.distance(from: point, scale: scale, toSegment: a, b) == LineMath.distance(from: point, to: [a, b]).distance)
            }
        }
    }
}
