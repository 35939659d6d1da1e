// Writes places into a new database with prepared statements, committing in batches.
import GeoDB
import GeoDBSQLite

/// How the R*Tree indexes are built.
public enum RTreeBuild: String, Sendable, CaseIterable {
    /// Packed bulk load into the rtree shadow tables after all places are written (fast; default).
    case packed
    /// One SQL INSERT per place (SQLite's own R*Tree insertion; the slow reference path).
    case insert
}

/// A `PlaceSink` that writes to the geodb tables of an open database.
public final class PlaceWriter: PlaceSink {
    private let db: Connection
    private let rtreeBuild: RTreeBuild
    private let insertPlace: Statement
    private let insertName: Statement
    private let insertFTS: Statement
    private let insertGeometry: Statement
    private let insertPlaceRTree: Statement
    private let insertAreaRTree: Statement
    private var placeBoxes = RTreeEntries()
    private var areaBoxes = RTreeEntries()
    private var nextID: Int64
    private var sinceCommit = 0

    /// Places are committed in batches of this many.
    static let batchSize = 50_000

    /// The source new places belong to (`source.id`).
    public var sourceID: Int64 = 0
    public private(set) var countsByKind: [PlaceKind: Int] = [:]
    public private(set) var written = 0
    public private(set) var boundingBox: BoundingBox?

    /// Starts writing into `db`, inside an open transaction the writer commits in batches.
    public init(db: Connection, rtreeBuild: RTreeBuild = .packed) throws {
        self.db = db
        self.rtreeBuild = rtreeBuild
        insertPlace = try db.prepare("""
            INSERT INTO place(id, source_id, source_ref, kind, category, name, lat, lon, rank, importance,
                              admin_level, population, housenumber, street, postcode, city, country_code, tags)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertName = try db.prepare("INSERT INTO place_name(place_id, name, type, lang) VALUES (?, ?, ?, ?)")
        insertFTS = try db.prepare("INSERT INTO place_fts(rowid, name, address) VALUES (?, ?, ?)")
        insertGeometry = try db.prepare("INSERT INTO place_geometry(place_id, geometry) VALUES (?, ?)")
        insertPlaceRTree = try db.prepare("INSERT INTO place_rtree(id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)")
        insertAreaRTree = try db.prepare("INSERT INTO area_rtree(id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)")
        nextID = (try db.scalarInt("SELECT max(id) FROM place") ?? 0) + 1
        if rtreeBuild == .packed && nextID > 1 {
            // Appending: the packed load rewrites the whole tree, so it must start from what is there.
            placeBoxes = try Self.existingEntries(of: "place_rtree", in: db)
            areaBoxes = try Self.existingEntries(of: "area_rtree", in: db)
        }
    }

    private static func existingEntries(of table: String, in db: Connection) throws -> RTreeEntries {
        let entries = RTreeEntries()
        let rows = try db.prepare("SELECT id, min_lon, max_lon, min_lat, max_lat FROM \(table)")
        while try rows.step() {
            entries.append(id: rows.int(0), (Float(rows.double(1)), Float(rows.double(2)), Float(rows.double(3)), Float(rows.double(4))))
        }
        return entries
    }

    public func add(_ place: PlaceRecord) throws {
        let id = nextID
        nextID += 1
        let p = insertPlace
        try p.bind(1, id)
        try p.bind(2, sourceID)
        try p.bind(3, place.sourceRef)
        try p.bind(4, place.kind.rawValue)
        try p.bind(5, place.category)
        try p.bind(6, place.name)
        try p.bind(7, place.coordinate.lat)
        try p.bind(8, place.coordinate.lon)
        try p.bind(9, place.kind.rank)
        try p.bind(10, place.importance)
        try p.bind(11, place.adminLevel.map(Int64.init))
        try p.bind(12, place.population)
        try p.bind(13, place.address.housenumber)
        try p.bind(14, place.address.street)
        try p.bind(15, place.address.postcode)
        try p.bind(16, place.address.city)
        try p.bind(17, place.address.countryCode)
        try p.bind(18, place.tags.isEmpty ? nil : JSONText.object(place.tags))
        try p.step()
        p.reset()

        for name in place.names {
            try insertName.bind(1, id)
            try insertName.bind(2, name.name)
            try insertName.bind(3, name.type)
            try insertName.bind(4, name.lang)
            try insertName.step()
            insertName.reset()
        }

        try insertFTS.bind(1, id)
        try insertFTS.bind(2, place.nameSearchText)
        try insertFTS.bind(3, place.address.searchText)
        try insertFTS.step()
        insertFTS.reset()

        if let geometry = place.geometry {
            try insertGeometry.bind(1, id)
            try insertGeometry.bind(2, geometry.encoded())
            try insertGeometry.step()
            insertGeometry.reset()
        }

        try addBox(id: id, place.boundingBox, to: placeBoxes, statement: insertPlaceRTree)
        if place.isContainerArea { try addBox(id: id, place.boundingBox, to: areaBoxes, statement: insertAreaRTree) }

        countsByKind[place.kind, default: 0] += 1
        written += 1
        if boundingBox == nil { boundingBox = place.boundingBox } else { boundingBox!.extend(place.boundingBox) }
        sinceCommit += 1
        if sinceCommit >= Self.batchSize {
            try db.execute("COMMIT; BEGIN")
            sinceCommit = 0
        }
    }

    private func addBox(id: Int64, _ box: BoundingBox, to entries: RTreeEntries, statement: Statement) throws {
        switch rtreeBuild {
        case .packed:
            entries.append(id: id, box)
        case .insert:
            try statement.run([.integer(id), .real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)])
        }
    }

    /// Builds the packed R*Trees (when packing); call once after the last place.
    public func finish() throws {
        guard rtreeBuild == .packed else { return }
        try RTreeBulkLoader.load(placeBoxes, into: "place_rtree", db: db)
        try RTreeBulkLoader.load(areaBoxes, into: "area_rtree", db: db)
    }
}
