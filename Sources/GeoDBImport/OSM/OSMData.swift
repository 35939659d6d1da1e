// The OSM objects the readers hand to an importer: one shape for PBF and XML alike.
import GeoDB

/// The key/value tags of an OSM object, in file order. Small and scanned linearly: objects have few tags.
public struct OSMTags: Sendable {
    /// One tag, with what the importer knows of its key (decided once per distinct key by PBF blocks).
    struct Tag: Sendable {
        var key: String
        var value: String
        var info: OSMKeyInfo
    }

    /// One array, not one per field: most tagged objects are read once and dropped, so allocations count.
    private(set) var tags: [Tag] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        for (k, v) in pairs { append(k, v) }
    }

    public mutating func append(_ key: String, _ value: String) {
        append(key, value, info: OSMKeyInfo(key))
    }

    /// Appends a tag whose key's `info` the caller already has. A key or value longer than OSM allows
    /// (`ValueLimits`), or a tag past the most an object keeps, is left out: OSM's API refuses them, so
    /// only a made-up file has one, and its size would reach every answer naming the object.
    mutating func append(_ key: String, _ value: String, info: OSMKeyInfo) {
        // Nearly every key and value is shorter in bytes than the limit in characters: that decides without
        // `fits`, a generic function of another module (its call cost more than the check, for every tag).
        func fits(_ text: String) -> Bool { text.utf8.count <= ValueLimits.maxValueCharacters || ValueLimits.fits(text) }
        guard tags.count < ValueLimits.maxTags, fits(key), fits(value) else { return }
        tags.append(Tag(key: key, value: value, info: info))
    }

    /// Empties the tags, keeping the storage for the next object's: readers fill one value object after
    /// object, and a tag array grown anew for each was 180k reallocations on the tiled ×5 extract.
    mutating func removeAll() {
        // Most nodes have no tags, and removeAll on an empty array still costs a replaceSubrange call.
        if !tags.isEmpty { tags.removeAll(keepingCapacity: true) }
    }

    /// A copy with storage of its own, sized to its tags: for keeping tags past the handler call. (A plain
    /// copy shares the reader's storage, which has room for the biggest object of a PBF block: way places
    /// waiting for the writer held 5 MB more on the tiled ×50 extract.)
    func detached() -> OSMTags {
        var copy = OSMTags()
        copy.tags.reserveCapacity(tags.count)
        copy.tags.append(contentsOf: tags)
        return copy
    }

    public var isEmpty: Bool { tags.isEmpty }
    public var count: Int { tags.count }
    /// The tags in file order.
    public var pairs: [(key: String, value: String)] { tags.map { ($0.key, $0.value) } }

    /// The value of `key`, any key (the importer itself asks by `OSMKey`).
    public subscript(key: String) -> String? {
        tags.first { $0.key == key }?.value
    }

    /// The value of a key the importer asks for by name.
    subscript(key: OSMKey) -> String? {
        // Through the buffer: a `for tag in tags` loop would retain and release every tag's strings.
        tags.withUnsafeBufferPointer { buffer in
            for i in buffer.indices where buffer[i].info.key == key { return buffer[i].value }
            return nil
        }
    }
}

/// The tag keys the importer reads by name, as small numbers: comparing them costs a byte, not a string.
enum OSMKey: UInt8, CaseIterable {
    case other
    // POI keys, in priority order: the first an object has makes its category (`OSMClassifier.poiCategory`).
    // A named landuse is a place only when nothing else is (Nominatim's "fallback"). `highway` (a POI only for
    // `OSMClassifier.highwayPOIs`) comes before `public_transport`: a stop tagged both ways is a bus stop
    // (`highway=bus_stop`), as Nominatim and Photon answer it, not a `public_transport=platform`.
    case amenity, shop, tourism, leisure, office, craft, healthcare, historic, emergency, highway, publicTransport, railway,
         aeroway, manMade, natural, waterway, sport, club, building, landuse
    case boundary, adminLevel, place, postalCode, type, area, brand, population, wikidata, wikipedia
    case addrHousenumber, addrHousename, addrStreet, addrPlace, addrPostcode, addrCity, addrCountry, addrInterpolation
    case iso3166Alpha2, iso3166, iso3166Subdivision, water, entrance, routingEntrance

    var isPOIKey: Bool { rawValue >= Self.amenity.rawValue && rawValue <= Self.landuse.rawValue }

    /// The key as OSM writes it.
    var text: String { Self.texts[Int(rawValue)] }

    private static let texts = [
        "", "amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare", "historic", "emergency",
        "highway", "public_transport", "railway", "aeroway", "man_made", "natural", "waterway", "sport", "club",
        "building", "landuse", "boundary", "admin_level", "place", "postal_code", "type", "area", "brand", "population", "wikidata", "wikipedia",
        "addr:housenumber", "addr:housename", "addr:street", "addr:place", "addr:postcode", "addr:city", "addr:country",
        "addr:interpolation", "ISO3166-1:alpha2", "ISO3166-1", "ISO3166-2", "water", "entrance", "routing:entrance",
    ]

    fileprivate static let byText = Dictionary(uniqueKeysWithValues: allCases.dropFirst().map { ($0.text, $0) })
}

/// What the importer needs to know about a tag key: which named key it is, whether it is a name tag
/// (type and language) and whether its tag is shown with results.
struct OSMKeyInfo: Sendable {
    var key: OSMKey
    /// Index in `OSMClassifier.nameTypes` for name keys (`name`, `alt_name:fi`, …), else -1.
    var nameType: Int8
    /// Byte offset of the ':' before a name key's language; 0 when it has none.
    var languageColon: UInt8
    var isDisplayed: Bool

    init(_ key: String) {
        self.key = OSMKey.byText[key] ?? .other
        if let (type, colon) = OSMClassifier.nameTypeIndex(key) {
            nameType = Int8(type)
            languageColon = UInt8(colon ?? 0)
        } else {
            nameType = -1
            languageColon = 0
        }
        isDisplayed = OSMClassifier.isDisplayKey(key)
    }

    var isName: Bool { nameType >= 0 }
}

/// One member of a relation.
public struct OSMMember: Sendable, Equatable {
    public enum MemberType: UInt8, Sendable { case node = 0, way = 1, relation = 2 }
    public var type: MemberType
    public var ref: Int64
    public var role: String

    public init(type: MemberType, ref: Int64, role: String) {
        self.type = type
        self.ref = ref
        self.role = role
    }
}

/// What a file says about itself (PBF HeaderBlock, XML `<osm>`/`<bounds>` attributes).
public struct OSMHeader: Sendable {
    public var writingProgram: String?
    public var boundingBox: (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)?
    /// Seconds since 1970 of the replication state the file was cut at.
    public var replicationTimestamp: Int64?
    public var replicationSequence: Int64?
    public var replicationURL: String?

    public init() {}
}

/// Receives the objects of one OSM file, in file order (nodes, then ways, then relations).
public protocol OSMHandler: AnyObject {
    func header(_ header: OSMHeader) throws
    /// A node; `lat7`/`lon7` in 1e-7 degree.
    func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) throws
    func way(id: Int64, refs: [Int64], tags: OSMTags) throws
    func relation(id: Int64, members: [OSMMember], tags: OSMTags) throws
    /// Whether `relation` needs the members of a relation with these tags; when false, a reader may pass
    /// none (the PBF reader then skips decoding them: routes' thousands of members are most of the work).
    func wantsMembers(ofRelationTagged tags: OSMTags) -> Bool
}

extension OSMHandler {
    public func wantsMembers(ofRelationTagged tags: OSMTags) -> Bool { true }
}
