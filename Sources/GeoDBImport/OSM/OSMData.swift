// The OSM objects the readers hand to an importer: one shape for PBF and XML alike.

/// The key/value tags of an OSM object, in file order. Small and scanned linearly: objects have few tags.
public struct OSMTags: Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [String] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        for (k, v) in pairs { append(k, v) }
    }

    public mutating func append(_ key: String, _ value: String) {
        keys.append(key)
        values.append(value)
    }

    public var isEmpty: Bool { keys.isEmpty }
    public var count: Int { keys.count }

    public subscript(key: String) -> String? {
        // Comparing lengths first skips Swift's slow path for unequal strings, which most keys are.
        let length = key.utf8.count
        for i in keys.indices where keys[i].utf8.count == length && keys[i] == key { return values[i] }
        return nil
    }
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
}
