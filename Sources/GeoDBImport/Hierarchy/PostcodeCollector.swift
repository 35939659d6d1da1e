// The postcodes of this import's addresses: where each code's addresses are, and a postcode place for each
// code that no postal boundary or earlier import gives.
import Foundation
import GeoDB
import GeoDBSQLite

/// Collects the postcodes of addresses and makes postcode places of those that have none.
final class PostcodeCollector {
    private struct PostcodeKey: Hashable {
        var countryCode: String?
        var code: String
    }

    /// The addresses that give one postcode: where they are and how often each city goes with it.
    private final class PostcodeUse {
        private var count = 0
        private var latSum = 0.0, lonSum = 0.0
        /// Every `stride`-th point, at most `sampleSize`: a country's addresses need not fit in memory.
        private var sample: [Coordinate] = []
        private var stride = 1
        private static let sampleSize = 256
        /// A code goes with few cities: a list, not a dictionary that hashes the name per address.
        private var cities: [(name: String, count: Int)] = []

        func add(_ point: Coordinate, city: String?) {
            if count % stride == 0 {
                if sample.count == Self.sampleSize {
                    sample = Self.everyOther(sample)
                    stride *= 2
                }
                if count % stride == 0 { sample.append(point) }
            }
            count += 1
            latSum += point.lat
            lonSum += point.lon
            guard let city else { return }
            if let i = cities.firstIndex(where: { $0.name == city }) {
                cities[i].count += 1
            } else {
                cities.append((city, 1))
            }
        }

        /// Takes in the addresses of `other`.
        func absorb(_ other: PostcodeUse) {
            count += other.count
            latSum += other.latSum
            lonSum += other.lonSum
            sample += other.sample
            while sample.count > Self.sampleSize { sample = Self.everyOther(sample) }
            for city in other.cities {
                if let i = cities.firstIndex(where: { $0.name == city.name }) {
                    cities[i].count += city.count
                } else {
                    cities.append(city)
                }
            }
        }

        private static func everyOther(_ points: [Coordinate]) -> [Coordinate] {
            points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }

        /// The sampled address nearest the middle of all of them.
        var point: Coordinate? {
            guard count > 0 else { return nil }
            let middle = Coordinate(lat: latSum / Double(count), lon: lonSum / Double(count))
            return sample.min { $0.distance(to: middle) < $1.distance(to: middle) }
        }

        /// The city named most often with the code.
        var city: String? { cities.max { ($0.count, $1.name) < ($1.count, $0.name) }?.name }
    }

    /// A postcode place made by `addPostcodePlaces`.
    struct PostcodePlace {
        var id: Int64
        var point: Coordinate
        var countryCode: String?
    }

    /// Where the addresses of each postcode of this import are, by (country, code).
    private var postcodeUses: [PostcodeKey: PostcodeUse] = [:]

    /// Remembers a place's own postcode: codes with no postal area become postcode places (`addPostcodePlaces`).
    func collect(_ code: String, at point: Coordinate, city: String?, country: String?) {
        let key = PostcodeKey(countryCode: country, code: code)
        let use: PostcodeUse
        if let known = postcodeUses[key] {
            use = known
        } else {
            use = PostcodeUse()
            postcodeUses[key] = use
        }
        use.add(point, city: city)
    }

    /// A place of kind postcode for each postcode of this import's addresses that has none (no postal
    /// boundary, no earlier import): at the address nearest the middle of its addresses, so that "9490"
    /// and "949" (by prefix) find it.
    ///
    /// `osmSources`: the sources whose addresses were collected; `areas`: the areas, with the postal ones.
    func addPostcodePlaces(writer: PlaceWriter, osmSources: Set<Int64>, areas: AreaIndex) throws -> [PostcodePlace] {
        let earlier = try writer.db.prepare("SELECT name, country_code FROM place WHERE id < ?1 AND \(KindIndex.equals(.postcode))")
            .rows([.integer(writer.firstID)]) { PostcodeKey(countryCode: $0.text(1), code: $0.text(0) ?? "") }
        var known = Set(earlier)
        for area in areas.postalAreas {
            if let code = area.postcode { known.insert(PostcodeKey(countryCode: area.countryCode, code: code)) }
        }
        // Addresses without a country (no country boundary, no addr:country) go with the one country their code
        // has elsewhere in the import.
        let countriesOfCode = Dictionary(grouping: postcodeUses.keys.filter { $0.countryCode != nil }, by: \.code)
        for key in postcodeUses.keys where key.countryCode == nil {
            guard let countries = countriesOfCode[key.code], countries.count == 1, let use = postcodeUses[key] else { continue }
            postcodeUses[countries[0]]?.absorb(use)
            postcodeUses[key] = nil
        }
        // They belong to the last OSM source (a merged file's addresses are all in one).
        guard let source = osmSources.max() else { return [] }
        var added: [PostcodePlace] = []
        let order: (PostcodeKey, PostcodeKey) -> Bool = { ($0.countryCode ?? "", $0.code) < ($1.countryCode ?? "", $1.code) }
        for key in postcodeUses.keys.sorted(by: order) where !known.contains(key) {
            guard let use = postcodeUses[key], let point = use.point else { continue }
            let id = try writer.insert(PlaceRecord(
                sourceRef: "postcode:" + key.code, kind: .postcode, category: nil, name: key.code,
                names: [PlaceName(name: key.code, type: "postcode")], coordinate: point,
                address: Address(postcode: key.code, city: use.city, countryCode: key.countryCode)), sourceID: source)
            added.append(PostcodePlace(id: id, point: point, countryCode: key.countryCode))
        }
        try SourceRow.countPlaces(added.count, ofSource: source, in: writer.db)
        return added
    }
}
