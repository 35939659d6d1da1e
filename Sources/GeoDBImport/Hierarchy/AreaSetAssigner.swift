// Which area set a place is given: the smallest areas of each level containing it and, for levels they
// lack, the nearest stand-in place nodes; ordinary places in the same part of a cell share one answer.
import Foundation
import GeoDB

/// The area set of each place, from the areas around it and the stand-in place nodes.
final class AreaSetAssigner {
    /// An `area_set` row a place is given, and its country.
    struct AssignedSet {
        var id: Int64
        var countryCode: String?
    }

    /// Ordinary places (not areas, not place nodes) with the same own country code in the same part of a
    /// cell (inside the same of its crossing polygons, bit i for `crossing[i]`) have the same area set.
    private struct OrdinaryPosition: Hashable {
        var cell: AreaIndex.CellKey
        var inside: UInt64
        var ownCountry: String?
    }

    private let areas: AreaIndex
    /// Nil when the import has no OSM source, whose place nodes could stand in.
    private let nodes: LevelNodes?
    private let sets: AreaSetWriter
    private var ordinarySets: [OrdinaryPosition: AssignedSet?] = [:]
    /// The country of a file no area of which names one (`HierarchyBuilder.taggedCountry`), for places
    /// without their own.
    private let fileCountry: String?
    /// The country of the time zone at a point (`TimeZoneCountry`), when the import has time zones: for
    /// places that no area names a country for and that have none of their own.
    private let zoneCountry: ((Coordinate) throws -> String?)?
    /// The country places without an area (`ZoneCountryPlaces`, GeoNames' country table), by upper-case code:
    /// a set whose country no boundary gives names it through them.
    private let countryPlaces: [String: Int64]

    init(areas: AreaIndex, nodes: LevelNodes?, sets: AreaSetWriter, fileCountry: String?,
         zoneCountry: ((Coordinate) throws -> String?)?, countryPlaces: [String: Int64]) {
        self.areas = areas
        self.nodes = nodes
        self.sets = sets
        self.fileCountry = fileCountry
        self.zoneCountry = zoneCountry
        self.countryPlaces = countryPlaces
        areas.whenCellsForgotten = { [unowned self] in
            self.ordinarySets.removeAll(keepingCapacity: true)
            self.nodes?.forgetCells()
        }
    }

    /// The area set of a place; nil when it lies in no area and no place node stands in for one.
    func areaSet(of place: Int64, kind: PlaceKind, at point: Coordinate, ownCountry: String?) throws -> AssignedSet? {
        func assign(_ key: AreaSetWriter.AreaSetKey?) -> AssignedSet? {
            key.map { AssignedSet(id: sets.setID($0), countryCode: $0.countryCode) }
        }
        let ownLevels = areas.levels(ofPlace: place)
        let cell = AreaIndex.CellKey(point)
        let cellAreas = try areas.cellAreas(cell)
        // Most places (addresses, POIs, streets) are ordinary: they share the set of their part of the cell.
        guard ownLevels.isEmpty, kind.addressLevel == nil, cellAreas.crossing.count <= UInt64.bitWidth else {
            return assign(try computeAreaSet(of: place, kind: kind, at: point, ownCountry: ownCountry, ownLevels: ownLevels,
                                             levels: try areas.containingAreas(point)))
        }
        let p = Point7(point)
        var inside: UInt64 = 0
        for (i, polygon) in cellAreas.crossing.enumerated() where polygon.contains(lon: p.lon, lat: p.lat) { inside |= 1 << i }
        let position = OrdinaryPosition(cell: cell, inside: inside, ownCountry: ownCountry)
        if let known = ordinarySets[position] { return known }
        let levels = cellAreas.whole
            ?? areas.smallest(cellAreas.around + cellAreas.crossing.indices.filter { inside & (1 << $0) != 0 }.map { cellAreas.crossing[$0].owner })
        let set = assign(try computeAreaSet(of: place, kind: kind, at: point, ownCountry: ownCountry, ownLevels: ownLevels, levels: levels))
        ordinarySets[position] = .some(set)
        return set
    }

    /// Vertices of an extent looked at, at most: enough to see a river leave a town, bounded for the Rhine.
    private static let extentSamples = 256
    /// The share of those vertices an area must hold to name the feature: a lake whose shore is a municipal
    /// boundary has a vertex or two on the far side, a river through three villages most of them.
    private static let heldShare = 0.75

    /// The area set of a natural feature with an extent (a river, a lake, a wood, a valley: the places of the
    /// natural layer, `ReverseLayer.feature`), which may lie in several towns and belongs to none of them:
    /// of the areas around its point, those that also hold `heldShare` of the vertices looked at (up to
    /// `extentSamples`, evenly spread); the country is the one around its point. Stand-in place nodes are
    /// given only when no area was left out: a river through three villages has none of their nodes.
    /// Nominatim, too, addresses natural features by their whole geometry ("Samina, Austria" for a river of
    /// Liechtenstein and Austria, not the town its point happens to lie in).
    func areaSet(of place: Int64, kind: PlaceKind, at point: Coordinate, extent: [Point7], ownCountry: String?) throws -> AssignedSet? {
        let aroundPoint = try areas.containingAreas(point)
        var held = [Int](repeating: 0, count: aroundPoint.count)
        let samples = Array(stride(from: 0, to: extent.count, by: max(1, (extent.count + Self.extentSamples - 1) / Self.extentSamples)))
        let needed = Self.heldShare * Double(samples.count)
        for (n, i) in samples.enumerated() {
            let there = try areas.containingAreas(extent[i].coordinate)
            for (level, area) in aroundPoint.enumerated() where area != nil && there[level]?.id == area?.id { held[level] += 1 }
            // Done once each area holds enough of them or can no longer: a wood inside one village is decided
            // at three quarters of its vertices (Liechtenstein: a fifth of the hierarchy's point lookups).
            let left = Double(samples.count - n - 1)
            if aroundPoint.indices.allSatisfy({ level in
                aroundPoint[level] == nil || level == AddressLevel.country.ordinal || Double(held[level]) >= needed
                    || Double(held[level]) + left < needed
            }) { break }
        }
        var levels = aroundPoint
        var leftOut = false
        for (level, area) in aroundPoint.enumerated()
        where area != nil && level != AddressLevel.country.ordinal && Double(held[level]) < needed {
            levels[level] = nil
            leftOut = true
        }
        return try computeAreaSet(of: place, kind: kind, at: point, ownCountry: ownCountry, ownLevels: areas.levels(ofPlace: place),
                                  levels: levels, countryFrom: aroundPoint, standIns: !leftOut)
            .map { AssignedSet(id: sets.setID($0), countryCode: $0.countryCode) }
    }

    /// The areas around a place from the areas containing its point (`levels`) and, for levels they lack,
    /// stand-in place nodes (unless `standIns` is false). Its country is that of the areas `countryFrom`,
    /// when they are not `levels` (a municipality names its country where an extract has no country boundary).
    private func computeAreaSet(of place: Int64, kind: PlaceKind, at point: Coordinate, ownCountry: String?,
                                ownLevels: [AddressLevel], levels: AreaIndex.Levels, countryFrom: AreaIndex.Levels? = nil,
                                standIns: Bool = true) throws -> AreaSetWriter.AreaSetKey? {
        var levels = levels
        func area(_ level: AddressLevel) -> AreaIndex.Area? { levels[level.ordinal] }
        // An area lies in the areas above it, not in itself or its neighbours of the same level.
        if let smallest = AddressLevel.nested.firstIndex(where: ownLevels.contains) {
            for level in AddressLevel.nested[...smallest] { levels[level.ordinal] = nil }
        }
        if ownLevels.contains(.postcode) { levels[AddressLevel.postcode.ordinal] = nil }
        // Nor in itself at a second level (a city-state is its country too).
        for i in levels.indices where levels[i]?.placeID == place { levels[i] = nil }
        var ids = AddressLevel.nested.map { area($0)?.placeID }
        var fromNodes: [AddressLevel] = []
        // The country around it over its own addr:country, which is wrong more often than a boundary (CH in Vaduz).
        // Where no area names one and it has none, the country of its time zone, over the file's guess.
        let countryAreas = countryFrom ?? levels
        let named = countryAreas[AddressLevel.country.ordinal]?.countryCode
            ?? AddressLevel.nested.lazy.compactMap({ countryAreas[$0.ordinal]?.countryCode }).first ?? ownCountry
        let zoned = named == nil ? try zoneCountry?(point) : nil
        let countryCode = named ?? zoned ?? fileCountry
        // An area's level is its most local own one: Helsinki's extract has Kluuvi's boundary but not the city's,
        // so the district gets the city node as a suburb node does (a postcode area gets no stand-ins).
        let ownRank = AddressLevel.nested.firstIndex(where: ownLevels.contains)
        if let nodes, standIns, ownLevels.isEmpty || ownRank != nil {
            // A place node stands in only for levels above its own: a suburb gets a city, a town none.
            let rank = ownRank ?? kind.addressLevel.flatMap { AddressLevel.nested.firstIndex(of: $0) } ?? -1
            func wanted(_ level: AddressLevel) -> Bool {
                let i = AddressLevel.nested.firstIndex(of: level)!
                return ids[i] == nil && i > rank
            }
            func set(_ level: AddressLevel, _ node: Int64) {
                ids[AddressLevel.nested.firstIndex(of: level)!] = node
                fromNodes.append(level)
            }
            let cityArea = area(.city)?.placeID
            if wanted(.city), let node = nodes.nearest(.city, to: point, except: place, country: countryCode) { set(.city, node) }
            // Where no suburb is mapped, a village or town in the same municipality is the part of it a
            // place lies in (Malbun and Steg in Triesenberg).
            if wanted(.suburb), let node = nodes.nearest(.suburb, to: point, except: place, country: countryCode, city: cityArea)
                ?? cityArea.flatMap({ nodes.nearest(.city, to: point, except: place, country: countryCode, city: $0, villages: true) }) {
                set(.suburb, node)
            }
            if wanted(.neighbourhood),
               let node = nodes.nearest(.neighbourhood, to: point, except: place, country: countryCode, city: cityArea) {
                set(.neighbourhood, node)
            }
        }
        // No area around it: its country code, if any, is its own (a gazetteer's place) and needs no set, unless
        // its time zone's country is the one it gets.
        guard ids.contains(where: { $0 != nil }) || area(.postcode) != nil || zoned != nil else { return nil }
        // A country no boundary of the file gives (the United States in Nominatim's test data, from its time
        // zone) is still named, as Nominatim's country grid names it: by its country place, when there is one,
        // a point like a stand-in place node (`from_nodes`), not a boundary around the place.
        let country = AddressLevel.nested.firstIndex(of: .country)!
        if ids[country] == nil, let code = countryCode.flatMap(CountryCode.parse), let id = countryPlaces[code], id != place {
            ids[country] = id
            fromNodes.append(.country)
        }
        return AreaSetWriter.AreaSetKey(ids: ids, postcode: area(.postcode)?.postcode, countryCode: countryCode,
                                        fromNodes: fromNodes.isEmpty ? nil : fromNodes.map(\.rawValue).joined(separator: ","))
    }
}
