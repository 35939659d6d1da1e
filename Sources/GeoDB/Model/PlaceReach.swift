// How far a place that is only a point reaches, and when two records are one place: one rule for the
// importer (a place node standing in for an unmapped area, a gazetteer record linked to its OSM twin),
// reverse geocoding (the nearest town of a point outside every boundary), search (the streets of a town
// without a boundary) and the server (a place two served files share, shown once). Four tables had
// drifted apart: a village reached 4 km at import and 15 km in reverse.
import Foundation

/// The distance within which a place of a kind stands for the area around it when no boundary says
/// where it ends.
package enum PlaceReach {
    /// Metres, or nil for a kind that is no area or settlement (streets, addresses, POIs, …).
    package static func metres(_ kind: PlaceKind) -> Double? {
        switch kind {
        case .country: 1_000_000
        case .state: 200_000
        case .county: 50_000
        case .city: 15_000
        case .island: 10_000
        case .town: 8_000
        case .village: 4_000
        case .suburb: 2_500
        case .hamlet, .locality: 2_000
        case .neighbourhood: 1_000
        default: nil
        }
    }

    /// The farthest reach of a level's kinds: how far to look for a place that may stand for it.
    package static func metres(_ level: AddressLevel) -> Double? { levelReach[level] }

    /// `metres(level)` for every level, worked out once (the import asks it for every place).
    private static let levelReach = Dictionary(PlaceKind.allCases.compactMap { kind in
        kind.addressLevel.flatMap { level in metres(kind).map { (level, $0) } }
    }, uniquingKeysWith: max)

    /// How far the nearest named street may be from a house number or POI without a street for it to be
    /// given that street (`AddressCompleter`), and so how far from a street its houses are looked for
    /// (`/details?hierarchy=1`). Nominatim takes the nearest road at any distance up to about 9 km
    /// (`getNearestRoadPlaceId`: a radius doubled from 0.00005° while under 0.1°); a house stands along its
    /// street, and a farm at the end of an unnamed drive is seldom more than a hundred metres or two from the
    /// named road it is reached from. Further away the nearest named street is as likely another village's,
    /// and no street is better than a wrong one.
    package static let streetOfAHouse = 200.0

    /// The kinds that are towns: what "Street, Town" and a town filter look for, each reaching as far as
    /// `metres` says where it has no boundary.
    package static let townKinds: [PlaceKind] = [.city, .town, .village, .hamlet, .suburb, .neighbourhood]
}

/// When two records from different sources (a GeoNames or CSV file and OSM), or two files' OSM places, are one
/// real-world place.
package enum SamePlace {
    /// Kinds in one group may be one place (a GeoNames "town" is an OSM village); nil: a kind that is
    /// only ever the same place as a place of its own kind.
    package static func group(_ kind: PlaceKind) -> Int? {
        switch kind {
        case .city, .town, .village, .hamlet, .suburb, .neighbourhood, .locality: 0
        case .country: 1
        case .state: 2
        case .county: 3
        case .island: 4
        default: nil
        }
    }

    /// How far apart two positions of one place of these kinds may be (sources put a place's point
    /// differently: OSM's label node, GeoNames' centre): the smaller kind's reach; 100 m for two places of
    /// one kind that is no area (a café in a CSV file and in OSM); nil when the kinds cannot be one place.
    package static func maxDistance(_ a: PlaceKind, _ b: PlaceKind) -> Double? {
        if let group = group(a), group == self.group(b) { return min(PlaceReach.metres(a) ?? 0, PlaceReach.metres(b) ?? 0) }
        return a == b && group(a) == nil ? 100 : nil
    }

    /// Whether two OSM places of different files are one: made of a common OSM object (their own records
    /// and those merged into them). Region files cut from one planet keep an object that crosses their border
    /// whole in each (Geofabrik's extracts, `osmium extract`): a street cut there is a place in both, each
    /// under its file's smallest way id but sharing the ways across the cut; a town whose node lies in one
    /// file is its boundary relation alone in the other. The same record is the same object in any file.
    package static func shareAnOSMObject(_ a: Set<String>, _ b: Set<String>) -> Bool { !a.isDisjoint(with: b) }

    /// Whether two postcode places are one postal area: one code in one country. Files made from
    /// neighbouring regions each put the postcode place of their addresses (`postcode:9490`) amid those
    /// addresses, often farther apart than any reach.
    package static func onePostalArea(_ a: PlaceResult, _ b: PlaceResult) -> Bool {
        a.kind == .postcode && b.kind == .postcode && a.address.countryCode == b.address.countryCode
            && nameKey(a.name ?? "") == nameKey(b.name ?? "")
    }

    /// The form in which two sources' names are compared: folded as search folds them (case, diacritics,
    /// apostrophes), so "Hèlsingfors", "HELSINGFORS" and "Helsingfors" are one name everywhere.
    package static func nameKey(_ name: String) -> String {
        TextNormalizer.fold(name).trimmingCharacters(in: .whitespaces)
    }
}
