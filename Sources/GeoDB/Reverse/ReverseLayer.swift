// Which places a reverse query may answer with, as Nominatim's layers: addresses, POIs, and the named
// natural, railway and man-made features. The one rule every front end (CLI, /v1, Nominatim) goes through.

/// A class of places a reverse query may answer with (Nominatim's `layer`).
///
/// ```swift
/// var options = ReverseOptions()
/// options.layers = [.natural]          // the nearest peak, river (to its line), lake, wood …
/// ```
public enum ReverseLayer: String, CaseIterable, Sendable, Codable {
    /// Addresses, streets and the places an address names: what `level` answers alone.
    case address
    /// Points of interest (kind `poi`): shops, restaurants, stations, peaks, bridges.
    case poi
    /// Named natural features: peaks, springs, woods, rivers and streams, lakes, bays (OSM keys
    /// `natural`, `water`, `waterway`), and islands.
    case natural
    /// Railway features: stations, halts, tram stops (OSM key `railway`).
    case railway
    /// The features people name that are neither: parks, nature reserves, gardens, land use, protected
    /// areas, and man-made structures (`man_made`: towers, piers, bridges; `bridge`, `tunnel`).
    case manmade

    /// The feature layer (natural, railway or manmade) of a place of this kind and raw category; nil for
    /// addresses, streets, settlements and the other areas of an address, and for the POIs that are none.
    ///
    /// ```swift
    /// ReverseLayer.feature(kind: .water, category: "waterway=river")   // .natural
    /// ReverseLayer.feature(kind: .poi, category: "amenity=cafe")       // nil
    /// ```
    public static func feature(kind: PlaceKind, category: String?) -> ReverseLayer? {
        if kind == .water || kind == .island { return .natural }
        guard kind == .poi || kind == .boundary, let category, let equals = category.firstIndex(of: "=") else { return nil }
        let key = category[..<equals], value = category[category.index(after: equals)...]
        switch key {
        case "natural", "water", "waterway": return .natural
        case "railway": return .railway
        case "man_made", "landuse", "bridge", "tunnel", "mountain_pass": return .manmade
        case "leisure": return Self.namedAreas.contains(String(value)) ? .manmade : nil
        case "boundary": return value == "administrative" ? nil : .manmade
        default: return nil
        }
    }

    /// How detailed a place is as a feature, as Nominatim ranks it (its search rank, 4 a sea … 30 a house):
    /// 17 an island, 18 a peak, 19 a river, 20 a lake, 22 a stream or a wood, 24 a park, a pond or land use,
    /// 30 a POI (a spring, a station, a tower). `ReverseOptions.maxRank` leaves out the finer ones: a map
    /// zoomed out to a town wants the river, not the stream.
    ///
    /// ```swift
    /// ReverseLayer.rank(kind: .poi, category: "natural=peak")   // 18
    /// ```
    public static func rank(kind: PlaceKind, category: String?) -> Int {
        if kind == .island { return kind.rank }
        guard let category, let equals = category.firstIndex(of: "=") else { return 30 }
        let key = category[..<equals], value = category[category.index(after: equals)...]
        switch key {
        case "natural":
            switch value {
            case "sea": return 4
            case "peak", "volcano", "mountain_range": return 18
            case "tree", "spring", "cave_entrance", "geyser", "hot_spring", "rock", "stone": return 30
            default: return 22
            }
        case "water":
            switch value {
            case "lake", "reservoir": return 20
            case "wastewater", "pond", "fountain": return 24
            default: return 22
            }
        case "waterway":
            switch value {
            case "river": return 19
            case "stream", "ditch", "drain": return 22
            default: return 20
            }
        case "landuse": return kind == .water ? 20 : 24
        case "leisure":
            switch value {
            case "park", "nature_reserve": return 24
            case "garden", "common": return 25
            default: return 30
            }
        case "mountain_pass": return 20
        case "boundary": return 25
        default: return 30
        }
    }

    /// Leisure areas that are features rather than destinations (Nominatim ranks them as areas, not POIs).
    static let namedAreas: Set<String> = ["park", "nature_reserve", "garden", "common"]

    /// What answers when no layer is asked for at the address level, as Nominatim's default: addresses and
    /// POIs, the nearer first (a viewpoint 2 m away before the street 9 m away).
    public static let defaults: Set<ReverseLayer> = [.address, .poi]

    /// A street's rank: features this fine or finer (a spring, a tower) answer as POIs do, the nearest within
    /// reach; coarser ones (a river, a lake) by rank first (`ReverseOptions.maxRank`).
    static let streetRank = PlaceKind.street.rank

    /// How far a feature coarser than a street answers from, in metres: Nominatim looks 0.007° around.
    static let areaFeatureReach = 750.0

    /// The feature layers: natural, railway, manmade.
    public static let features: [ReverseLayer] = [.natural, .railway, .manmade]

    /// Place kinds that can be in a feature layer (a filter for SQL before `feature(kind:category:)`).
    static let featureKinds: [PlaceKind] = [.poi, .water, .island, .boundary]
}
