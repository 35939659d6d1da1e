// Finds the place a gazetteer record (GeoNames, CSV) already is in the database, so one real-world
// place imported from two sources stays one searchable place. The rule (`SamePlace`, for places of the
// kinds it groups) is in docs/SCHEMA.md (place_link).
import Foundation
import GeoDB

/// Places that later records may be linked to, with a grid over their positions.
final class PlaceLinker {
    struct Candidate {
        var id: Int64
        var sourceID: Int64
        var kind: PlaceKind
        var coordinate: Coordinate
        /// Its names as its `place_fts` rows hold them (rebuilt to replace them when a record merges in).
        var names: SearchNames
    }

    /// The candidate a record matched and how far apart the two are.
    struct Match {
        var index: Int
        var distance: Double
    }

    private(set) var candidates: [Candidate] = []
    private var indexOfPlace: [Int64: Int] = [:]
    private var cells: [Int: [Int32]] = [:]
    private var countBySource: [Int64: Int] = [:]

    /// Grid cells of 0.25°: small enough that a city's 15 km search reads a few cells.
    private static let cellDegrees = 0.25
    private static let columns = Int(360 / cellDegrees)
    private static let rows = Int(180 / cellDegrees)

    var isEmpty: Bool { candidates.isEmpty }

    func register(_ candidate: Candidate) {
        let index = Int32(candidates.count)
        indexOfPlace[candidate.id] = Int(index)
        candidates.append(candidate)
        cells[Self.cell(row: Self.row(candidate.coordinate.lat), column: Self.column(candidate.coordinate.lon)), default: []]
            .append(index)
        countBySource[candidate.sourceID, default: 0] += 1
    }

    /// Names after a merge added some.
    func setNames(_ names: SearchNames, at index: Int) { candidates[index].names = names }

    /// Names of place `id`, when it is a candidate, after a merge added some.
    func setNames(_ names: SearchNames, ofPlace id: Int64) {
        if let index = indexOfPlace[id] { candidates[index].names = names }
    }

    /// Place `id` is gone (merged into another): nothing links to it any more (a candidate without names
    /// never matches).
    func remove(place id: Int64) {
        if let index = indexOfPlace[id] { candidates[index].names = SearchNames([]) }
    }

    /// The place of another source that `place` is, if any: a compatible kind within the kinds' distance
    /// limit, where the record's name is one of the place's names or the place's name is one of the
    /// record's. Several: the one whose main name equals the record's first, then the nearest, then the oldest.
    func match(_ place: PlaceRecord, sourceID: Int64) -> Match? {
        guard candidates.count > countBySource[sourceID, default: 0],
              SamePlace.group(place.kind) != nil, let name = place.name,
              let radius = SamePlace.maxDistance(place.kind, place.kind) else { return nil }
        var near: [(index: Int, distance: Double)] = []
        forEachIndex(around: place.coordinate, radius: radius) { index in
            let c = candidates[index]
            guard c.sourceID != sourceID, let limit = SamePlace.maxDistance(place.kind, c.kind) else { return }
            let distance = c.coordinate.distance(to: place.coordinate)
            if distance <= limit { near.append((index, distance)) }
        }
        guard !near.isEmpty else { return nil }

        let key = SamePlace.nameKey(name)
        let recordKeys = Set(place.names.map { SamePlace.nameKey($0.name) }).union([key])
        var best: (match: Match, primary: Bool)?
        for (index, distance) in near {
            let names = candidates[index].names.all
            guard let first = names.first else { continue }
            let primary = SamePlace.nameKey(first) == key
            guard primary || recordKeys.contains(SamePlace.nameKey(first))
                    || names.contains(where: { SamePlace.nameKey($0) == key }) else { continue }
            if let current = best {
                let better = primary != current.primary ? primary
                    : distance != current.match.distance ? distance < current.match.distance
                    : candidates[index].id < candidates[current.match.index].id
                guard better else { continue }
            }
            best = (Match(index: index, distance: distance), primary)
        }
        return best?.match
    }

    private func forEachIndex(around point: Coordinate, radius: Double, _ body: (Int) -> Void) {
        let dLat = radius / (Coordinate.earthRadius * Double.pi / 180)
        let firstRow = Self.row(max(-90, point.lat - dLat)), lastRow = Self.row(min(90, point.lat + dLat))
        let widest = min(89.9, max(abs(point.lat - dLat), abs(point.lat + dLat)))
        let dLon = dLat / cos(widest * Double.pi / 180)
        let columnRange: [Int]
        if dLon >= 180 {
            columnRange = Array(0..<Self.columns)
        } else {
            let first = Int(((point.lon - dLon + 180) / Self.cellDegrees).rounded(.down))
            let last = Int(((point.lon + dLon + 180) / Self.cellDegrees).rounded(.down))
            // Wrap across the antimeridian.
            columnRange = Array(Set((first...last).map { ($0 % Self.columns + Self.columns) % Self.columns })).sorted()
        }
        for row in firstRow...lastRow {
            for column in columnRange {
                guard let indexes = cells[Self.cell(row: row, column: column)] else { continue }
                for index in indexes { body(Int(index)) }
            }
        }
    }

    private static func row(_ lat: Double) -> Int { min(rows - 1, max(0, Int(((lat + 90) / cellDegrees).rounded(.down)))) }

    private static func column(_ lon: Double) -> Int {
        (Int(((lon + 180) / cellDegrees).rounded(.down)) % columns + columns) % columns
    }

    private static func cell(row: Int, column: Int) -> Int { row * columns + column }
}
