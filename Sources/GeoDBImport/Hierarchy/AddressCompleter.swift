// Completes the addresses of an import as Nominatim does when it finds a place's parent: a house number
// tagged without addr:street (or addr:place, which the reader already takes as the street), and a point of
// interest with or without one, gets the nearest named street; an address, POI or street that neither
// carries a postcode nor lies in a postal area
// gets the postcode of the nearest address on the same street, else of the nearest address around, else
// its town's postcode when the town's addresses all but agree on one (a hamlet far from any tagged house). What
// is derived is marked in `place.derived` (docs/SCHEMA.md), and the place's search row is rewritten so
// that "Im Winkel 8, Triesen" finds it.
import Foundation
import GeoDB
import GeoDBSQLite

/// How many places of an import `AddressCompleter` completed: given the nearest named street, given the
/// postcode of the addresses around (a place can be both). What `place.derived` marks.
public struct DerivedAddressCounts: Sendable, Equatable {
    public var streets = 0
    public var postcodes = 0
}

/// How complete the addresses of a file are once an import has completed them: of its addresses (places
/// of kind `address`), how many have a street and a postcode, tagged or derived; and its interpolation
/// lines, whose numbers reverse and search place along them. What the import summary and the benchmark
/// report per extract; counted by `AddressCompleter` over all the file's places (appending, those it had too).
public struct AddressCompleteness: Sendable, Equatable {
    public var addresses = 0
    public var withStreet = 0
    public var withPostcode = 0
    /// Of those with a street, a postcode: how many have it derived (`place.derived`).
    public var streetDerived = 0
    public var postcodeDerived = 0
    public var interpolationLines = 0

    public init() {}
}

/// Derives the streets and postcodes addresses lack; runs after the area sets are written.
final class AddressCompleter {
    /// How far the nearest address of the same street with a postcode may be: a street's postcode changes
    /// seldom along it, but same-named streets of two towns are often a kilometre or more apart.
    static let sameStreetReach = 500.0
    /// How far the nearest address with a postcode may be when none of the same street is: about a block,
    /// so that a code is not carried across a postcode border into a street whose houses carry none.
    static let nearbyReach = 200.0
    /// A town's addresses name its postcode when at least this many carry one and this share of them agree:
    /// one code for the whole municipality (Triesenberg's 9497), not one of several districts'.
    static let townPostcodeAddresses = 10
    static let townPostcodeShare = 0.95

    /// A cell of a grid of `degrees`.
    private struct Cell: Hashable {
        var row: Int32, column: Int32

        init(row: Int32, column: Int32) {
            self.row = row
            self.column = column
        }

        init(lat: Double, lon: Double, degrees: Double) {
            row = Int32(((lat + 90) / degrees).rounded(.down))
            column = Int32(((lon + 180) / degrees).rounded(.down))
        }
    }

    /// The grid of both passes, 1/256° (434 m north–south, 296 m east–west at 47°, 217 m at 60°): a street
    /// segment is put in every cell its box grown by the reach meets, and addresses with a postcode are
    /// looked for in as many cells around as the reach needs at that latitude.
    private static let cellDegrees = 1.0 / 256

    private let writer: PlaceWriter
    private let osmSources: Set<Int64>
    /// The bytes the street segments near places lacking a street, and the places rewritten at a time, may
    /// take (`ImportOptions.memoryBudget`: the OSM files' node locations are gone by now).
    private let memoryBudget: Int
    /// The nearest streets, when found beside the hierarchy (`startFindingStreets`).
    private let streetsFound: BackgroundResult<[Int64: String]>?

    init(writer: PlaceWriter, osmSources: Set<Int64>, memoryBudget: Int, streetsFound: BackgroundResult<[Int64: String]>? = nil) {
        self.writer = writer
        self.osmSources = osmSources
        self.memoryBudget = memoryBudget
        self.streetsFound = streetsFound
    }

    /// A place of this import's OSM files that may take the nearest named street (`takesStreet`), as the writer
    /// wrote it (`PlaceWriter.streetTakers`): whether it is an address (the summary counts those) and whether it
    /// is a POI without a house number (`Places.shownOnly`).
    struct StreetTaker {
        var id: Int64
        var at: Coordinate
        var isAddress: Bool
        var shownOnly: Bool
    }

    /// Starts finding the nearest named street of each of `writer.streetTakers` on a thread of its own, to run
    /// beside the hierarchy, which neither needs those streets nor changes them or the places (Liechtenstein
    /// ×20: 0.16 s of the addresses phase). The streets' lines are read now. Nil when there is none to find, or
    /// when the lines would take more than a quarter of `memoryBudget`: `run` then finds them itself, reading
    /// the lines in as many passes as the budget needs. The segments near the places take another quarter at
    /// most (in passes over the lines held), so that beside the hierarchy's areas and caches the search holds
    /// half the budget, not all of it (Liechtenstein ×200 with `--memory 256M`: 869 MB peak with the whole
    /// budget for the segments).
    static func startFindingStreets(writer: PlaceWriter, memoryBudget: Int) throws -> BackgroundResult<[Int64: String]>? {
        let takers = writer.streetTakers
        guard !takers.isEmpty else { return nil }
        var lines: [(name: String, geometry: [UInt8])] = [], bytes = 0
        let fits = try forEachStreetLine(in: writer.db) { name, geometry in
            lines.append((name, geometry))
            bytes += MemoryLayout<(String, [UInt8])>.stride + 32 + name.utf8.count + geometry.count
            return bytes <= memoryBudget / 4
        }
        guard fits else { return nil }
        return BackgroundResult(name: "geodb-streets") {
            nearestStreets(of: takers, memoryBudget: memoryBudget / 4) { each in
                for line in lines { _ = each(line.name, line.geometry) }
                return true
            }
        }
    }

    /// Hands `body` each named street's name and encoded geometry, in id order, until it returns false; whether
    /// it never did.
    private static func forEachStreetLine(in db: Connection, _ body: (String, [UInt8]) -> Bool) throws -> Bool {
        let streets = try db.prepare("""
            SELECT p.name, g.geometry FROM place p JOIN place_geometry g ON g.place_id = p.id
            WHERE \(KindIndex.equals(.street, on: "p.kind")) AND p.name IS NOT NULL ORDER BY p.id
            """)
        while try streets.step() {
            guard let name = streets.text(0), let geometry = streets.blob(1) else { continue }
            guard body(name, geometry) else { return false }
        }
        return true
    }

    /// Derives and writes, and counts how complete the file's addresses are then. Memory holds the places that
    /// lack a part (a point each), the addresses with postcodes (a point and three numbers) and the street
    /// segments near places lacking a street (within `memoryBudget`), not the import's places.
    func run() throws -> (derived: DerivedAddressCounts, completeness: AddressCompleteness) {
        let takers = writer.streetTakers
        var places = try readPlaces()
        places.shownOnly.formUnion(takers.lazy.filter(\.shownOnly).map(\.id))
        // Each step's working set given back before the next's (`FreedMemory`): freed, its street segments and
        // the addresses around stayed resident beneath the places read back to be rewritten.
        let db = writer.db
        let streets = try streetsFound?.value()
            ?? Self.nearestStreets(of: takers, memoryBudget: memoryBudget) { each in try Self.forEachStreetLine(in: db, each) }
        FreedMemory.release()
        let postcodes = derivePostcodes(of: &places, streets: streets)
        FreedMemory.release()
        try write(streets: streets, postcodes: postcodes, shownOnly: places.shownOnly)
        var completeness = places.completeness
        let streetsOfAddresses = takers.count(where: { $0.isAddress && streets[$0.id] != nil })
        let postcodesOfAddresses = places.postcodeTakers.count(where: { $0.isAddress && postcodes[$0.id] != nil })
        completeness.withStreet += streetsOfAddresses
        completeness.streetDerived += streetsOfAddresses
        completeness.withPostcode += postcodesOfAddresses
        completeness.postcodeDerived += postcodesOfAddresses
        return (DerivedAddressCounts(streets: streets.count, postcodes: postcodes.count), completeness)
    }

    /// Whether a place of this import's OSM files may take the nearest named street: a house number (of an
    /// address, an interpolation line or a POI) without a street, a POI at a street (`isAtAStreet`) without one.
    static func takesStreet(kind: PlaceKind, numbered: Bool, hasStreet: Bool, category: () -> String?) -> Bool {
        guard !hasStreet else { return false }
        switch kind {
        case .address, .interpolation: return numbered
        case .poi: return numbered || isAtAStreet(category: category())
        default: return false
        }
    }

    /// Whether a place of this import's OSM files may take the postcode of the addresses around, when no postal
    /// area gives it one: a house number, a POI at a street or a named street without a postcode.
    static func takesPostcode(kind: PlaceKind, numbered: Bool, named: Bool, hasPostcode: Bool, category: () -> String?) -> Bool {
        guard !hasPostcode else { return false }
        switch kind {
        case .address, .interpolation: return numbered
        case .poi: return numbered || isAtAStreet(category: category())
        case .street: return named
        default: return false
        }
    }

    /// Whether the search rows of `place`, of an OSM file, may change when this phase completes its address: it
    /// may take a street or a postcode, and is not a POI without a house number (`Places.shownOnly`). Their rows
    /// wait for this phase (`FullTextBuilder.insert(…, awaitsAddress:)`); one that did not wait is rewritten.
    static func mayComplete(_ place: PlaceRecord) -> Bool {
        let numbered = place.address.housenumber != nil
        guard place.kind != .poi || numbered else { return false }
        return takesStreet(kind: place.kind, numbered: numbered, hasStreet: place.address.street != nil, category: { place.category })
            || takesPostcode(kind: place.kind, numbered: numbered, named: place.name != nil, hasPostcode: place.address.postcode != nil,
                             category: { place.category })
    }

    // MARK: Streets

    /// Whether a POI of `category` is at a street, and so takes the nearest as its address when it has a
    /// house number or not: a shop, a bus stop, a monument, as Nominatim's rank-30 places are. Natural
    /// features, waterways, land use and airports are places of their own, parented by a town in
    /// Nominatim; a peak 150 m from a forest track is not on it.
    static func isAtAStreet(category: String?) -> Bool {
        guard let key = category.flatMap({ SourceCategory($0).osmTag?.key }) else { return false }
        return !notAtAStreet.contains(key)
    }
    private static let notAtAStreet: Set<String> = ["natural", "waterway", "landuse", "aeroway", "boundary", "place"]

    /// A place of this import's OSM files that may take the postcode of the addresses around (`takesPostcode`,
    /// and no postal area gives it one): its point, whether it is an address (the summary counts those), its
    /// street (own, derived, or its name for a street), country and town (its area set's city).
    private struct PostcodeTaker {
        var id: Int64
        var at: Coordinate
        var isAddress: Bool
        var street: String?
        var country: String?
        var town: Int64?
    }

    /// An address with a postcode, where those lacking one find theirs: its point and its street (-1: none),
    /// postcode and country as numbers of `Places.texts`.
    private typealias AddressWithPostcode = (at: Point7, street: Int32, postcode: Int32, country: Int32)

    /// What one pass over the places gives the postcodes' derivation and the summary.
    private struct Places {
        /// Each address, interpolation line, POI at a street and named street of this import's OSM files
        /// without a postcode of its own or of a postal area.
        var postcodeTakers: [PostcodeTaker] = []
        /// The POIs without a house number among them and among the street takers. They show the street and
        /// postcode derived but are not found by them: searched for, a street's name would list every shop along
        /// it after the street (as those tagged with addr:street are). Their search rows stay as they are.
        var shownOnly = Set<Int64>()
        /// Every address, POI and TIGER line with a house number and a postcode, of any source; and those without a street
        /// of their own, by index, with their place ids (a derived street is theirs too).
        var withPostcode: [AddressWithPostcode] = []
        var streetless: [(index: Int, id: Int64)] = []
        /// How many of a town's addresses have each postcode, by town and code.
        var codeCounts: [TownCode: Int] = [:]
        /// The streets, postcodes and countries of `withPostcode`, each kept once, by number.
        var texts: [String] = []
        var textNumbers: [String: Int32] = [:]
        /// Per column of the pass, the bytes of the text last numbered and its number: a row's postcode and country
        /// are its predecessor's nearly always, its street about half the time (Liechtenstein ×20: 96 %, 99 %, 45 %),
        /// and comparing bytes costs less than making the String and hashing it.
        private var lastBytes = [[UInt8]](repeating: [], count: 16)
        private var lastNumbers = [Int32](repeating: -1, count: 16)
        /// The file's addresses as they are before this phase.
        var completeness = AddressCompleteness()

        /// The number of the text in column `column` (< 16) of `row` (-1: none).
        mutating func number(column: Int32, of row: Statement) -> Int32 {
            guard let bytes = row.textBytes(column) else { return -1 }
            let c = Int(column)
            // memcmp: Sequence.elementsEqual walks both byte by byte through iterators (16 M instructions on
            // Liechtenstein, a tenth of the pass).
            if lastNumbers[c] >= 0, lastBytes[c].count == bytes.count,
               bytes.isEmpty || lastBytes[c].withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0 {
                return lastNumbers[c]
            }
            lastNumbers[c] = number(row.text(column))
            lastBytes[c].removeAll(keepingCapacity: true)
            lastBytes[c].append(contentsOf: bytes)
            return lastNumbers[c]
        }

        mutating func number(_ text: String?) -> Int32 {
            guard let text else { return -1 }
            if let known = textNumbers[text] { return known }
            texts.append(text)
            textNumbers[text] = Int32(texts.count - 1)
            return Int32(texts.count - 1)
        }
    }

    /// A town (its place id) and a postcode (its number in `Places.texts`).
    private struct TownCode: Hashable {
        var town: Int64
        var code: Int32
    }

    /// One pass over the addresses, POIs, interpolation lines and streets of the file, with their area sets.
    private func readPlaces() throws -> Places {
        var places = Places()
        let select = try writer.db.prepare("""
            SELECT p.id, p.source_id, p.lat, p.lon,
                   CASE p.kind WHEN 'address' THEN 0 WHEN 'poi' THEN 1 WHEN 'interpolation' THEN 2 ELSE 3 END,
                   p.housenumber IS NOT NULL, p.category, p.street, p.postcode, p.name, p.derived,
                   coalesce(s.country_code, p.country_code), s.city_id, s.postcode IS NOT NULL
            FROM place p LEFT JOIN place_area_set pas ON pas.place_id = p.id LEFT JOIN area_set s ON s.id = pas.area_set_id
            WHERE p.kind IN ('address', 'poi', 'interpolation', 'street')
            """)
        let kinds: [PlaceKind] = [.address, .poi, .interpolation, .street]   // the CASE's numbers
        while try select.step() {
            let id = select.int(0), kind = kinds[Int(select.int(4))], numbered = select.int(5) != 0
            let hasStreet = !select.isNull(7), hasPostcode = !select.isNull(8)
            if kind == .address {
                places.completeness.addresses += 1
                if hasStreet { places.completeness.withStreet += 1 }
                if hasPostcode { places.completeness.withPostcode += 1 }
                // Marked by an earlier import of the file (appending).
                if let derived = select.text(10)?.split(separator: ",") {
                    if derived.contains(Substring(Address.Part.street.rawValue)) { places.completeness.streetDerived += 1 }
                    if derived.contains(Substring(Address.Part.postcode.rawValue)) { places.completeness.postcodeDerived += 1 }
                }
            } else if kind == .interpolation {
                places.completeness.interpolationLines += 1
            }
            // A TIGER line's postcode is its addresses' (what names its street's, as the lines around do in Nominatim).
            if hasPostcode && numbered && (kind == .address || kind == .poi || kind == .interpolation && InterpolationLine.isTiger(category: select.text(6))) {
                let at = Point7(try select.coordinate(2, 3, place: id, in: writer.db.path))
                if !hasStreet { places.streetless.append((places.withPostcode.count, id)) }
                places.withPostcode.append((at, places.number(column: 7, of: select), places.number(column: 8, of: select),
                                            places.number(column: 11, of: select)))
                if !select.isNull(12) { places.codeCounts[TownCode(town: select.int(12), code: places.withPostcode.last!.postcode), default: 0] += 1 }
            }
            guard id >= writer.firstID, osmSources.contains(select.int(1)) else { continue }
            // A POI's category is parsed once, and only when it decides.
            var category: String??
            func poiCategory() -> String? {
                if category == nil { category = .some(select.text(6)) }
                return category!
            }
            guard select.int(13) == 0,
                  Self.takesPostcode(kind: kind, numbered: numbered, named: !select.isNull(9), hasPostcode: hasPostcode, category: poiCategory)
            else { continue }
            if kind == .poi && !numbered { places.shownOnly.insert(id) }
            places.postcodeTakers.append(PostcodeTaker(id: id, at: try select.coordinate(2, 3, place: id, in: writer.db.path),
                                                  isAddress: kind == .address, street: kind == .street ? select.text(9) : select.text(7),
                                                  country: select.text(11), town: select.isNull(12) ? nil : select.int(12)))
        }
        return places
    }

    /// The nearest named street of each of `orphans`, among the named streets `lines` hands over (in id order,
    /// as many times as passes need: `forEachStreetLine`).
    private static func nearestStreets(of orphans: [StreetTaker], memoryBudget: Int,
                                       lines: ((String, [UInt8]) -> Bool) throws -> Bool) rethrows -> [Int64: String] {
        guard !orphans.isEmpty else { return [:] }
        var cells = CellNumbering()
        let orphanCells = orphans.map { orphan in
            let cell = Cell(lat: orphan.at.lat, lon: orphan.at.lon, degrees: Self.cellDegrees)
            return cells.insert(row: cell.row, column: cell.column)
        }

        // The segments of named streets near them, by cell number, each with its street's index in `names`: the
        // cells in row-major order, as many at a time as `memoryBudget` holds (one pass over the streets each).
        let order = Self.rowMajorOrder(of: cells)
        var derived: [Int64: String] = [:]
        var first = 0
        while first < cells.count {
            let pass = try streetSegments(near: cells, order: order, from: first, memoryBudget: memoryBudget, lines: lines)
            for (orphan, cell) in zip(orphans, orphanCells) where pass.cells.contains(Int(order.rank[Int(cell)])) {
                if let street = Self.nearestStreet(to: Point7(orphan.at), among: pass.near[Int(cell)], of: pass.segments) {
                    derived[orphan.id] = pass.names[Int(street)]
                }
            }
            first = pass.cells.upperBound
        }
        return derived
    }

    /// A segment of a named street: its street's index in the pass's `names`, its ends. A pass keeps each once,
    /// and per cell the indices of those near it: a segment is near several cells (Liechtenstein ×200: 17.0 M
    /// cell entries), and an index takes 4 bytes where a segment takes 20.
    private typealias Segment = (street: Int32, a: Point7, b: Point7)

    /// The cells of a `CellNumbering` in row-major order: `rank[number]` is a cell's place in it, `numbers[rank]`
    /// the cell there.
    private static func rowMajorOrder(of cells: CellNumbering) -> (rank: [Int32], numbers: [Int32]) {
        let numbers = cells.cells.enumerated().sorted { ($0.element.row, $0.element.column) < ($1.element.row, $1.element.column) }
            .map { Int32($0.offset) }
        var rank = [Int32](repeating: 0, count: numbers.count)
        for (i, number) in numbers.enumerated() { rank[Int(number)] = Int32(i) }
        return (rank, numbers)
    }

    /// One pass over the named streets: the segments near the cells of ranks `first`… (row-major), as many of
    /// them as `memoryBudget` holds. A pass starts with all the cells left and, when its segments pass the
    /// budget, drops the later half of those it still has (at least one stays): a cell kept was kept from the
    /// start, so it has every segment near it, in the order of the streets' ids as with one pass. An import
    /// within its budget makes one pass, as before there were passes.
    private static func streetSegments(near cells: CellNumbering, order: (rank: [Int32], numbers: [Int32]), from first: Int,
                                       memoryBudget: Int, lines streets: ((String, [UInt8]) -> Bool) throws -> Bool) rethrows
        -> (cells: Range<Int>, segments: [Segment], near: [[Int32]], names: [String]) {
        let reach = PlaceReach.streetOfAHouse
        var end = cells.count
        var names: [String] = []
        var segments: [Segment] = []
        var near = [[Int32]](repeating: [], count: cells.count)
        var held = 0
        _ = try streets { name, blob in
            guard case .lineStrings(let lines)? = Geometry(encoded: blob) else { return true }
            // Its index in `names`, which it joins only when a segment of it is near a cell of the pass.
            let index = Int32(names.count)
            var used = false
            for line in lines where line.count > 1 {
                for i in 1..<line.count {
                    let a = line[i - 1], b = line[i]
                    var stored: Int32 = -1
                    Self.forEachCell(around: a, b, reach: reach, degrees: Self.cellDegrees) { cell in
                        guard let number = cells.number(row: cell.row, column: cell.column) else { return }
                        let rank = Int(order.rank[Int(number)])
                        guard rank >= first && rank < end else { return }
                        if stored < 0 {
                            stored = Int32(segments.count)
                            segments.append((index, a, b))
                            held += MemoryLayout<Segment>.stride
                        }
                        near[Int(number)].append(stored)
                        used = true
                        held += MemoryLayout<Int32>.stride
                    }
                }
            }
            if used { names.append(name) }
            while held > memoryBudget && end - first > 1 {
                let kept = first + (end - first + 1) / 2
                for number in order.numbers[kept..<end] {
                    held -= near[Int(number)].count * MemoryLayout<Int32>.stride
                    near[Int(number)] = []
                }
                end = kept
            }
            return true
        }
        return (first..<end, segments, near, names)
    }

    /// The street (index in its segments' `names`) of the segment nearest `p` within `PlaceReach.streetOfAHouse`.
    private static func nearestStreet(to p: Point7, among near: [Int32], of segments: [Segment]) -> Int32? {
        let reach = PlaceReach.streetOfAHouse
        let metresPerUnit = Coordinate.earthRadius * .pi / 180 / 1e7
        let at = p.coordinate, scale = cos(at.lat * .pi / 180)
        let xUnit = scale * metresPerUnit
        var best: (distance: Double, street: Int32)?
        for index in near {
            let segment = segments[Int(index)]
            // The distance to the segment's box first, a bound below the distance to the segment that needs
            // no division: most segments of a cell are farther than the reach or the best so far (1 mm of
            // slack for rounding).
            let (a, b) = (segment.a, segment.b)
            let gapLon = max(0, Int64(min(a.lon, b.lon)) - Int64(p.lon), Int64(p.lon) - Int64(max(a.lon, b.lon)))
            let gapLat = max(0, Int64(min(a.lat, b.lat)) - Int64(p.lat), Int64(p.lat) - Int64(max(a.lat, b.lat)))
            let gx = Double(gapLon) * xUnit, gy = Double(gapLat) * metresPerUnit
            let limit = (best?.distance ?? reach) + 0.001
            guard gx * gx + gy * gy <= limit * limit else { continue }
            let d = LineMath.distance(from: at, scale: scale, toSegment: a, b)
            // Equal distances (a corner house) go to the street read first, which is the lower id.
            if d <= reach, best.map({ d < $0.distance }) ?? true { best = (d, segment.street) }
        }
        return best?.street
    }

    /// Calls `body` with each cell of `degrees` that the box of segment a–b grown by `reach` metres meets
    /// (no array: it runs for every segment of every named street).
    private static func forEachCell(around a: Point7, _ b: Point7, reach: Double, degrees: Double, _ body: (Cell) -> Void) {
        let metresPerDegree = Coordinate.earthRadius * .pi / 180
        let minLat = Double(min(a.lat, b.lat)) / 1e7, maxLat = Double(max(a.lat, b.lat)) / 1e7
        let minLon = Double(min(a.lon, b.lon)) / 1e7, maxLon = Double(max(a.lon, b.lon)) / 1e7
        // A segment across the antimeridian: its short way round is outside [minLon, maxLon]; left out
        // rather than filling the world's width with cells (no street is mapped so).
        guard maxLon - minLon <= 180 else { return }
        let dLat = reach / metresPerDegree
        let dLon = reach / (metresPerDegree * max(0.01, cos(max(abs(minLat), abs(maxLat)) * .pi / 180)))
        let low = Cell(lat: minLat - dLat, lon: minLon - dLon, degrees: degrees)
        let high = Cell(lat: maxLat + dLat, lon: maxLon + dLon, degrees: degrees)
        for row in low.row...high.row {
            for column in low.column...high.column { body(Cell(row: row, column: column)) }
        }
    }

    // MARK: Postcodes

    /// The postcode of each of `places.postcodeTakers` (with the `streets` derived): of the nearest address
    /// with a postcode on the same street, else of the nearest around, else its town's.
    private func derivePostcodes(of places: inout Places, streets: [Int64: String]) -> [Int64: String] {
        guard !places.postcodeTakers.isEmpty else { return [:] }
        var cells = CellNumbering()
        for i in places.postcodeTakers.indices {
            if places.postcodeTakers[i].street == nil { places.postcodeTakers[i].street = streets[places.postcodeTakers[i].id] }
            Self.forEachCell(around: places.postcodeTakers[i].at, reach: Self.sameStreetReach) { cells.insert(row: $0.row, column: $0.column) }
        }
        for (index, id) in places.streetless { places.withPostcode[index].street = places.number(streets[id]) }
        let texts = places.texts

        // The addresses with a postcode in those cells, by cell number.
        var known = [[AddressWithPostcode]](repeating: [], count: cells.count)
        for address in places.withPostcode {
            let cell = Cell(lat: Double(address.at.lat) / 1e7, lon: Double(address.at.lon) / 1e7, degrees: Self.cellDegrees)
            if let number = cells.number(row: cell.row, column: cell.column) { known[Int(number)].append(address) }
        }
        places.withPostcode = []
        var codesOfTown: [Int64: [String: Int]] = [:]
        for (key, count) in places.codeCounts { codesOfTown[key.town, default: [:]][texts[Int(key.code)]] = count }

        // Each town's one postcode, where its addresses all but agree (the lower code of two equally common).
        let townCode = codesOfTown.compactMapValues { counts -> String? in
            let total = counts.values.reduce(0, +)
            guard let top = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), total >= Self.townPostcodeAddresses,
                  Double(top.value) >= Self.townPostcodeShare * Double(total) else { return nil }
            return top.key
        }
        var derived: [Int64: String] = [:]
        let metresPerUnit = Coordinate.earthRadius * .pi / 180 / 1e7
        let sameStreetReach2 = Self.sameStreetReach * Self.sameStreetReach, nearbyReach2 = Self.nearbyReach * Self.nearbyReach
        var around: [(gap2: Double, number: Int32)] = []
        for place in places.postcodeTakers {
            let street = place.street.flatMap { places.textNumbers[$0] } ?? -2
            let country = place.country.flatMap { places.textNumbers[$0] } ?? -1
            // Squared metres on a local plane: exact enough within a few hundred metres, and no trigonometry
            // per address.
            let p = Point7(place.at), xScale = cos(place.at.lat * .pi / 180) * metresPerUnit
            var sameStreet: (d2: Double, code: Int32)?, nearby: (d2: Double, code: Int32)?
            func closer(_ d2: Double, _ code: Int32, than best: (d2: Double, code: Int32)?) -> Bool {
                guard let best else { return true }
                // Equally near (two codes at one point): the lower code, so that imports agree.
                return d2 < best.d2 || (d2 == best.d2 && texts[Int(code)] < texts[Int(best.code)])
            }
            // The cells around, nearest first, each with the squared distance to its nearest point (a bound below
            // that of any address in it): once an address of the same street is found, which decides, only the
            // cells that may hold a nearer one are read. Which one wins does not depend on the order read.
            around.removeAll(keepingCapacity: true)
            Self.forEachCell(around: place.at, reach: Self.sameStreetReach) { cell in
                guard let number = cells.number(row: cell.row, column: cell.column), !known[Int(number)].isEmpty else { return }
                let gap2 = Self.gap2(from: p, to: cell, xScale: xScale, yScale: metresPerUnit)
                if gap2 <= sameStreetReach2 { around.append((gap2, number)) }
            }
            around.sort { $0.gap2 < $1.gap2 }
            for (gap2, number) in around {
                if let sameStreet, gap2 > sameStreet.d2 { break }
                for address in known[Int(number)] {
                    // Another country's codes are another numbering (9490 Vaduz; 9490 in Austria is none).
                    if country >= 0, address.country >= 0, address.country != country { continue }
                    let dx = Double(Int64(address.at.lon) - Int64(p.lon)) * xScale
                    let dy = Double(Int64(address.at.lat) - Int64(p.lat)) * metresPerUnit
                    let d2 = dx * dx + dy * dy
                    if address.street == street, d2 <= sameStreetReach2, closer(d2, address.postcode, than: sameStreet) {
                        sameStreet = (d2, address.postcode)
                    }
                    if d2 <= nearbyReach2, closer(d2, address.postcode, than: nearby) {
                        nearby = (d2, address.postcode)
                    }
                }
            }
            if let code = (sameStreet ?? nearby)?.code {
                derived[place.id] = texts[Int(code)]
            } else if let code = place.town.flatMap({ townCode[$0] }) {
                derived[place.id] = code
            }
        }
        return derived
    }

    /// Calls `body` with each cell that the circle of `reach` metres around `point` may meet.
    private static func forEachCell(around point: Coordinate, reach: Double, _ body: (Cell) -> Void) {
        let p = Point7(point)
        forEachCell(around: p, p, reach: reach, degrees: cellDegrees, body)
    }

    /// The squared distance from `p` to the nearest point of `cell` as `derivePostcodes` measures an address's
    /// (1e-7 degrees times `xScale` east, `yScale` north), never more than any address of the cell has: the cell's
    /// edges are widened by a unit of 1e-7 degree for the rounding of its addresses' positions.
    private static func gap2(from p: Point7, to cell: Cell, xScale: Double, yScale: Double) -> Double {
        func gap(_ value: Int32, _ index: Int32, offset: Double) -> Int64 {
            let low = Int64(((Double(index) * cellDegrees - offset) * 1e7).rounded(.down)) - 1
            let high = Int64(((Double(index + 1) * cellDegrees - offset) * 1e7).rounded(.up)) + 1
            return max(0, low - Int64(value), Int64(value) - high)
        }
        let dx = Double(gap(p.lon, cell.column, offset: 180)) * xScale, dy = Double(gap(p.lat, cell.row, offset: 90)) * yScale
        return dx * dx + dy * dy
    }

    // MARK: Writing

    /// Sets the derived parts and marks them; makes the search rows of the places held back for this phase
    /// with them, and rewrites those of the others (`shownOnly` aside): read back, before they are set, in id
    /// order, as many at a time as `memoryBudget` holds (each batch a pass over `place_name`).
    private func write(streets: [Int64: String], postcodes: [Int64: String], shownOnly: Set<Int64>) throws {
        let update = try writer.db.prepare("""
            UPDATE place SET street = coalesce(street, ?2), postcode = coalesce(postcode, ?3), derived = ?4 WHERE id = ?1
            """)
        func set(_ id: Int64) throws {
            let street = streets[id], postcode = postcodes[id]
            // Derived only for places without a street (`streets`) or without a postcode (`postcodes`).
            let parts = [street.map { _ in Address.Part.street }, postcode.map { _ in Address.Part.postcode }].compactMap { $0 }
            try update.run([.integer(id), street.map { .text($0) } ?? .null, postcode.map { .text($0) } ?? .null,
                            .text(parts.map(\.rawValue).joined(separator: ","))])
        }
        var rewritten: [Int64] = []
        for id in Set(streets.keys).union(postcodes.keys).sorted() {
            if !shownOnly.contains(id), try !writer.completeAddress(of: id, street: streets[id], postcode: postcodes[id]) {
                rewritten.append(id)
            } else {
                try set(id)
            }
        }
        let batch = max(1, memoryBudget / IndexedPlace.approximateBytes)
        for start in stride(from: 0, to: rewritten.count, by: batch) {
            let ids = rewritten[start..<min(start + batch, rewritten.count)]
            let places = try IndexedPlace.read(Set(ids), from: writer)
            for id in ids {
                try set(id)
                guard let old = places[id] else { continue }
                var new = old
                guard !new.complete(street: streets[id], postcode: postcodes[id]).isEmpty else { continue }
                try writer.reindexed(id, from: old, to: new)
            }
        }
    }
}
