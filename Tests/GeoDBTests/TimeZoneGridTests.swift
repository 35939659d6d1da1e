// The timezone grid's cell numbering (documented in docs/SCHEMA.md for other languages), ISO 8601 text,
// and reading abbreviations from TZif data.
import Foundation
@testable import GeoDB
import Testing

@Suite struct TimeZoneGridTests {
    /// The worked example in docs/SCHEMA.md: Helsinki (60.1699, 24.9384).
    @Test func documentedExample() {
        let position = TimeZoneGrid.Position(Point7(Coordinate(lat: 60.1699, lon: 24.9384)))
        #expect(position.x == 2_049_384_000 && position.y == 1_501_699_000)
        #expect(position.base == 150 * 360 + 204)
        let ids = (0...TimeZoneGrid.maxLevel).map { TimeZoneGrid.Cell(position, level: $0).id }
        #expect(ids == [1_776_156_673, 1_776_156_677, 1_776_156_693, 1_776_156_759, 1_776_157_021,
                        1_776_158_070, 1_776_162_264, 1_776_179_042])
    }

    @Test func idsRoundTripAndNest() {
        var state: UInt64 = 99
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let level = Int(state >> 60) % (TimeZoneGrid.maxLevel + 1)
            let column = Int((state >> 20) % UInt64(360 << level)), row = Int((state >> 40) % UInt64(180 << level))
            let cell = TimeZoneGrid.Cell(level: level, column: column, row: row)
            #expect(TimeZoneGrid.Cell(id: cell.id) == cell)
            // A cell and all its descendants lie in its 1° cell's id range.
            let base = cell.id / TimeZoneGrid.idsPerBase
            for child in cell.children where level < TimeZoneGrid.maxLevel {
                #expect(child.id / TimeZoneGrid.idsPerBase == base)
                #expect(child.minX >= cell.minX && child.minY >= cell.minY)
            }
        }
        #expect(TimeZoneGrid.Cell(id: 0) == nil && TimeZoneGrid.Cell(id: -5) == nil)
        #expect(TimeZoneGrid.Cell(id: 64_800 * 32_768) == nil)
        #expect(TimeZoneGrid.Cell(id: 2) == nil)   // local id 2: no level
    }

    @Test func edgesOfTheWorld() {
        let east = TimeZoneGrid.Position(Point7(lat: 0, lon: 1_800_000_000))
        #expect(east.point.lon == -1_800_000_000 && east.base == 90 * 360)
        let pole = TimeZoneGrid.Position(Point7(lat: 900_000_000, lon: 0))
        #expect(pole.point.lat == 899_999_999 && pole.base == 179 * 360 + 180)
        #expect(TimeZoneGrid.Position(Point7(lat: -900_000_000, lon: -1_800_000_000)).base == 0)
    }

    @Test func isoText() {
        #expect(ISO8601Text.local(1_782_907_200, offset: 10800) == "2026-07-01T15:00:00+03:00")
        #expect(ISO8601Text.local(1_782_907_200, offset: -34200) == "2026-07-01T02:30:00-09:30")
        #expect(ISO8601Text.local(-1, offset: 0) == "1969-12-31T23:59:59+00:00")
        #expect(ISO8601Text.local(951_825_600, offset: 0) == "2000-02-29T12:00:00+00:00")
        #expect(ISO8601Text.offset(5 * 3600 + 53 * 60 + 28) == "+05:53:28")
        #expect(ISO8601Text.utc(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test func tzStringNames() {
        #expect(TZif.names(inTZString: "EET-2EEST,M3.5.0/3,M10.5.0/4")! == ("EET", "EEST"))
        #expect(TZif.names(inTZString: "<+0545>-5:45")! == ("+0545", nil))
        #expect(TZif.names(inTZString: "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45")! == ("+1245", "+1345"))
        #expect(TZif.names(inTZString: "IST-5:30")! == ("IST", nil))
        #expect(TZif.names(inTZString: "") == nil)
    }

    @Test func tzifAbbreviations() throws {
        guard let helsinki = TZif(tzid: "Europe/Helsinki") else { return }   // no system tz database here
        #expect(helsinki.abbreviation(at: 1_782_907_200, isDST: true, utcOffset: 10800) == "EEST")
        #expect(helsinki.abbreviation(at: 1_768_478_400, isDST: false, utcOffset: 7200) == "EET")
        #expect(helsinki.abbreviation(at: 0, isDST: false, utcOffset: 7200) == "EET")
        // Disagreeing with Foundation's offset: no abbreviation from the file.
        #expect(helsinki.abbreviation(at: 0, isDST: false, utcOffset: 0) == nil)
        #expect(TZif(tzid: "../../etc/passwd") == nil && TZif(tzid: "Nowhere/Nothing") == nil)
        #expect(TZif(bytes: Array("TZif2 not really".utf8)) == nil)
    }
}
