// What every query returns for a place: the fields a client shows or keeps, the same for all queries,
// and the one place that writes a place's name and address as a line of text (`displayName` is that line,
// computed, so an address changed after reading is never shown with the line of the address before).

/// A place in a query answer.
///
/// ```swift
/// let first = try db.search("Stockmann").first
/// print(first?.displayName ?? "", first?.sourceRef ?? "")   // "Stockmann, Aleksanterinkatu 52, 00100 Helsinki" w122595241
/// ```
public struct PlaceResult: Codable, Sendable, Equatable {
    /// `place.id` in this database.
    public var id: Int64
    /// The record in its source, shown so it names one record across sources: OSM `n123`/`w45`/`r6`,
    /// GeoNames `geonames:658225`, CSV `csv:<file name>:<id or line>`. `lookup` takes it back. Nil for an
    /// answer that is no stored place: a coordinate, a category.
    public var sourceRef: SourceReference?
    /// `city`, `street`, `address`, `poi`, …
    public var kind: PlaceKind
    /// The category as the source wrote it, e.g. `amenity=cafe`.
    public var category: SourceCategory?
    /// Taxonomy category, e.g. `cafe`.
    public var categoryID: String?
    /// Display name; nil for most addresses.
    public var name: String?
    /// Which line `displayName` is: a reverse answer's names the areas around it too.
    public var displayStyle: DisplayStyle = .place
    /// Latitude, degrees (exact to 1e-7).
    public var lat: Double
    /// Longitude, degrees (exact to 1e-7).
    public var lon: Double
    /// Metres from the query point, when the query has one.
    public var distanceM: Double?
    /// The place's own address tags, then the areas it lies in (reverse: the areas around the query point).
    public var address: Address
    /// Display tags: opening_hours, website, phone, cuisine, wheelchair, …
    public var tags: [String: String]
    /// The place's IANA time zone, when its source gives one (GeoNames does).
    public var timezone: String?
    /// Population, when the source gives one.
    public var population: Int64?
    /// Search only: the ranking score, higher first.
    public var score: Double?
    /// How the query found it (search and reverse answers).
    public var match: MatchClass?
    /// Search only: the parts of `displayName` the query's words matched, for an autocomplete list to
    /// bold what was typed.
    public var highlights: [TextRange]? {
        get {
            switch highlighting {
            case .ranges(let ranges): return ranges
            case .query(let highlighter): return highlighter.ranges(in: displayName)
            }
        }
        set { highlighting = .ranges(newValue) }
    }
    /// What `highlights` are: ranges given, or those a search's query matches in the display line, found when read.
    /// A search highlights its results so (`ForwardSearch`): writing the line of each and testing its words was a
    /// tenth of a search for a rare name, and Nominatim's and Photon's answers show no highlights.
    var highlighting = Highlighting.ranges(nil)
    /// How important the place is, 0…1 (`place.importance`, what search ranks by); nil for a result that is
    /// no stored place. Not in geodb's JSON (`lookup` shows it); Nominatim's formats report it.
    public var importance: Double? = nil
    /// The `area_set` the import gave it (nil: none, or no stored place), read with the place so that its
    /// areas' names and ids need no second look-up (`AreaSets.entry`). Not in any JSON.
    var areaSetID: Int64? = nil

    /// Name and address as one line, written by `displayStyle`: "Café Engel, Aleksanterinkatu 26, 00170 Helsinki".
    public var displayName: String { AddressFormat.line(of: self) }

    /// The position as a `Coordinate`.
    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}

/// How a result's `highlights` are known. Two results compare equal by them when they hold equal ranges, or both
/// the highlights of the same query: the ranges of a query are not found to compare them (a result decoded from
/// JSON, which holds ranges, is not equal to the search result it was written from; nor, for its importance, was it).
enum Highlighting: Sendable, Equatable {
    case ranges([TextRange]?)
    /// The ranges `Highlighter` finds in the result's display line.
    case query(Highlighter)
}

/// Which line of text a result shows as its `displayName`. The line itself is never kept: `AddressFormat`
/// writes it from the result's name, kind and address whenever it is asked for.
///
/// ```swift
/// let namesTheAreasAround = result.displayStyle == .reverse
/// ```
public enum DisplayStyle: Codable, Sendable, Equatable {
    /// Name and address as search, nearby and lookup show them (`AddressFormat.displayName`; a number found
    /// on an interpolation line without the line's name).
    case place
    /// A reverse answer: the address with the areas around the point asked about (`AddressFormat.reverseLine`).
    case reverse
    /// A category offered while typing: "Cafe (category)".
    case category
    /// A coordinate typed as the search: its degrees, then the place `near` it when one is: its name and
    /// kind, written over the result's address, which is that place's.
    case coordinate(near: NearPlace?)

    /// The place nearest a coordinate typed as a search, as its line needs it.
    public struct NearPlace: Codable, Sendable, Equatable {
        public var name: String?
        public var kind: PlaceKind

        public init(name: String?, kind: PlaceKind) {
            self.name = name
            self.kind = kind
        }
    }
}

extension PlaceResult {
    /// The keys this encoding has always had, `displayName` among them (written, not read back: it is
    /// computed); `displayStyle` only where it is not `place`, so that a decoded result writes the same line.
    enum CodingKeys: String, CodingKey {
        case id, sourceRef = "sourceId", kind, category, categoryID = "categoryId", name, displayName, displayStyle, lat, lon,
             distanceM, address, tags, timezone, population, score, match, highlights
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        id = try values.decode(Int64.self, forKey: .id)
        sourceRef = try values.decodeIfPresent(SourceReference.self, forKey: .sourceRef)
        kind = try values.decode(PlaceKind.self, forKey: .kind)
        category = try values.decodeIfPresent(SourceCategory.self, forKey: .category)
        categoryID = try values.decodeIfPresent(String.self, forKey: .categoryID)
        name = try values.decodeIfPresent(String.self, forKey: .name)
        displayStyle = try values.decodeIfPresent(DisplayStyle.self, forKey: .displayStyle) ?? .place
        lat = try values.decode(Double.self, forKey: .lat)
        lon = try values.decode(Double.self, forKey: .lon)
        distanceM = try values.decodeIfPresent(Double.self, forKey: .distanceM)
        address = try values.decode(Address.self, forKey: .address)
        tags = try values.decode([String: String].self, forKey: .tags)
        timezone = try values.decodeIfPresent(String.self, forKey: .timezone)
        population = try values.decodeIfPresent(Int64.self, forKey: .population)
        score = try values.decodeIfPresent(Double.self, forKey: .score)
        match = try values.decodeIfPresent(MatchClass.self, forKey: .match)
        highlights = try values.decodeIfPresent([TextRange].self, forKey: .highlights)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encodeIfPresent(sourceRef, forKey: .sourceRef)
        try values.encode(kind, forKey: .kind)
        try values.encodeIfPresent(category, forKey: .category)
        try values.encodeIfPresent(categoryID, forKey: .categoryID)
        try values.encodeIfPresent(name, forKey: .name)
        try values.encode(displayName, forKey: .displayName)
        if displayStyle != .place { try values.encode(displayStyle, forKey: .displayStyle) }
        try values.encode(lat, forKey: .lat)
        try values.encode(lon, forKey: .lon)
        try values.encodeIfPresent(distanceM, forKey: .distanceM)
        try values.encode(address, forKey: .address)
        try values.encode(tags, forKey: .tags)
        try values.encodeIfPresent(timezone, forKey: .timezone)
        try values.encodeIfPresent(population, forKey: .population)
        try values.encodeIfPresent(score, forKey: .score)
        try values.encodeIfPresent(match, forKey: .match)
        try values.encodeIfPresent(highlights, forKey: .highlights)
    }
}

/// A part of a text: `start` and `end` (exclusive) count Characters (what a user sees as letters) from 0.
///
/// ```swift
/// let first = result.highlights?.first   // TextRange(start: 0, end: 5) for "Stock" in "Stockmann, …"
/// ```
public struct TextRange: Codable, Sendable, Equatable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// How a result matched its query. The raw value is what JSON shows.
///
/// ```swift
/// let typo = results.first?.match == .fuzzy
/// ```
public enum MatchClass: String, Codable, Sendable, CaseIterable {
    /// The text equals a name of the place (and its house number, when one was asked).
    case exact
    /// The text is the start of a name, or names it with words beyond the query's.
    case prefix
    /// Words 1–2 edits away from the text matched (a typo).
    case fuzzy
    /// A house number placed along an interpolation line.
    case interpolated
    /// The street, because it has no such house number.
    case fallback
    /// The text was a coordinate.
    case coordinate
    /// A place of the category the text named ("cafe near Senaatintori").
    case category
    /// Reverse: nothing was near; the point lies in this area (outside every area: in this country, by its time zone).
    case area
    /// Reverse in a database without areas: the nearest settlement, however far.
    case nearest
}

/// A place's name and address written as one line, the same way for every query.
package enum AddressFormat {
    /// The line `place` shows as `displayName`, by its `displayStyle`.
    package static func line(of place: PlaceResult) -> String {
        switch place.displayStyle {
        case .place:
            // A number placed on an interpolation line is that address alone: the line's name names no house.
            return displayName(name: place.match == .interpolated ? nil : place.name, kind: place.kind, address: place.address)
        case .reverse:
            return reverseLine(name: place.name, kind: place.kind, address: place.address)
        case .category:
            return (place.name ?? "") + " (category)"
        case .coordinate(let near):
            let degrees = String(format: "%.6f, %.6f", place.lat, place.lon)
            return near.map { degrees + " (near \(displayName(name: $0.name, kind: $0.kind, address: place.address)))" } ?? degrees
        }
    }

    /// What results show as `displayName`: "Name, Street 12, 00100 City" for a place in a town, the
    /// `areaLine` for a settlement or an area.
    ///
    /// ```swift
    /// AddressFormat.displayName(name: "Stockmann", kind: .poi, address: Address(housenumber: "52", street: "Aleksanterinkatu"))
    /// ```
    package static func displayName(name: String?, kind: PlaceKind, address: Address) -> String {
        kind.addressLevel != nil ? areaLine(name: name, address: address) : line(name: name, address: address, withAreas: false)
    }

    /// "Name, Street 12, Suburb, 00100 City, Country": a reverse answer, which names the areas around it too.
    /// An area answers for itself, with only the levels above it; an address or a number on an interpolation
    /// line is its address alone.
    package static func reverseLine(name: String?, kind: PlaceKind, address: Address) -> String {
        if kind.addressLevel != nil { return areaLine(name: name, address: address) }
        return line(name: kind == .address || kind == .interpolation ? nil : name, address: address, withAreas: true)
    }

    /// "Vaduz, Oberland, Liechtenstein", "Monte-Carlo, Monaco": a settlement or an area with the areas above
    /// it (a place's area set holds only those), each name once.
    package static func areaLine(name: String?, address: Address) -> String {
        var parts = name.map { [$0] } ?? []
        for area in [address.suburb, address.city, address.county, address.state, address.country] {
            if let area, !parts.contains(area) { parts.append(area) }
        }
        return parts.joined(separator: ", ")
    }

    private static func line(name: String?, address: Address, withAreas: Bool) -> String {
        var parts: [String] = []
        if let name { parts.append(name) }
        let street = [address.street, address.housenumber].compactMap { $0 }.joined(separator: " ")
        if !street.isEmpty && street != name { parts.append(street) }
        if withAreas, let suburb = address.suburb ?? address.neighbourhood { parts.append(suburb) }
        let city = [address.postcode, address.city].compactMap { $0 }.joined(separator: " ")
        if !city.isEmpty { parts.append(city) }
        // (A city-state's city is its country: named once.)
        if withAreas, let country = address.country, country != address.city { parts.append(country) }
        return parts.joined(separator: ", ")
    }
}
