// What `geodb inspect` reports about a database: sources, extent, counts, sizes.
import Foundation
import GeoDBSQLite

/// A summary of one database, like `osmium fileinfo` for a geodb file.
///
/// ```swift
/// let info = try db.info()
/// print(info.placeCount, info.sources.map(\.name))
/// ```
public struct DatabaseInfo: Codable, Sendable {
    /// One imported file (`source` table).
    ///
    /// ```swift
    /// for s in try db.info().sources { print(s.name, s.format, s.placeCount) }
    /// ```
    public struct Source: Codable, Sendable {
        /// `source.id`.
        public var id: Int64
        /// File name.
        public var name: String
        /// `osm.pbf`, `osm.xml`, `geonames`, `csv`, `timezone.geojson`, …
        public var format: String
        /// Size of the file when imported.
        public var sizeBytes: Int64
        /// ISO 8601 UTC time of the import.
        public var importedAt: String
        /// The data's own date (OSM replication timestamp, GeoNames modification date).
        public var dataTimestamp: String?
        /// OSM replication sequence number, when the file has one.
        public var replicationSequence: Int64?
        /// OSM replication base URL, when the file has one.
        public var replicationURL: String?
        /// The program that wrote the input file (OSM).
        public var writingProgram: String?
        /// Places the file added.
        public var placeCount: Int64
        /// Records of this source merged into places of other sources (`place_link`).
        public var linkedCount: Int64
    }

    /// A name with a number of places.
    ///
    /// ```swift
    /// let streets = try db.info().kinds.first { $0.name == "street" }?.count
    /// ```
    public struct Count: Codable, Sendable {
        /// A kind or category.
        public var name: String
        /// Places of it.
        public var count: Int64
    }

    /// Bytes a table and its indexes take in the file.
    ///
    /// ```swift
    /// let biggest = try db.info().tables.max { $0.bytes < $1.bytes }?.name
    /// ```
    public struct TableSize: Codable, Sendable {
        /// Table name.
        public var name: String
        /// Bytes of the table and its indexes.
        public var bytes: Int64
    }

    /// The database file.
    public var path: String
    /// Size of the file.
    public var fileBytes: Int64
    /// Schema version (`PRAGMA user_version`).
    public var schemaVersion: Int64
    /// The program that wrote the database, e.g. "geodb 0.1.0".
    public var generator: String?
    /// ISO 8601 UTC time the database was made.
    public var createdAt: String?
    /// The SQLite version that wrote it.
    public var sqliteVersion: String
    /// The extent of all places.
    public var boundingBox: BoundingBox?
    /// Imported files, in import order.
    public var sources: [Source]
    /// Rows of `place`.
    public var placeCount: Int64
    /// Rows of `place_name`.
    public var nameCount: Int64
    /// Places with a line or polygon geometry.
    public var geometryCount: Int64
    /// Places in `area_rtree` (areas that contain other places).
    public var areaCount: Int64
    /// Records merged into places of other sources (`place_link` rows).
    public var linkCount: Int64
    /// Places by kind, most first.
    public var kinds: [Count]
    /// Places by raw category, most first (the top `topCategories`).
    public var categories: [Count]
    /// Bytes per table and index, from SQLite's dbstat (empty when dbstat is not compiled in).
    public var tables: [TableSize]
    /// Every `meta` key and value.
    public var meta: [String: String]
}

extension DatabaseInfo {
    /// Summarises the database `db` reads; `topCategories` limits the category list.
    init(_ db: DatabaseReader, topCategories: Int) throws {
        let meta = Dictionary(try db.rows("read meta", "SELECT key, value FROM meta") { ($0.text(0) ?? "", $0.text(1) ?? "") },
                              uniquingKeysWith: { a, _ in a })
        let sources = try db.rows("read the sources", """
            SELECT id, name, format, size_bytes, imported_at, data_timestamp, replication_sequence, replication_url,
                   writing_program, place_count, linked_count FROM source ORDER BY id
            """) { row in
            Source(id: row.int(0), name: row.text(1) ?? "", format: row.text(2) ?? "", sizeBytes: row.int(3),
                   importedAt: row.text(4) ?? "", dataTimestamp: row.text(5),
                   replicationSequence: row.isNull(6) ? nil : row.int(6), replicationURL: row.text(7),
                   writingProgram: row.text(8), placeCount: row.int(9), linkedCount: row.int(10))
        }
        let counts = { (purpose: String, sql: String) in try db.rows(purpose, sql) { Count(name: $0.text(0) ?? "", count: $0.int(1)) } }
        let count = { (table: String) in try db.first("count \(table) rows", "SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0 }
        var tables: [TableSize] = []
        if Connection.isCompiled(with: "ENABLE_DBSTAT_VTAB") {
            tables = try db.rows("measure the tables", "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC, name") {
                TableSize(name: $0.text(0) ?? "", bytes: $0.int(1))
            }
        }
        let box = meta["bbox"].flatMap(Self.box)
        let placeCount = try count("place")
        // The kinds the kind index holds counted from it, the addresses it leaves out as the rest (KindIndex):
        // grouping every place by kind read the whole table (×20: 44 MB).
        var kinds = try counts("count places by kind", """
            SELECT kind, count(*) FROM place WHERE \(KindIndex.condition()) GROUP BY kind
            """)
        let leftOut = placeCount - kinds.reduce(0) { $0 + $1.count }
        if leftOut > 0 { kinds.append(Count(name: KindIndex.leftOut.rawValue, count: leftOut)) }
        kinds.sort { ($0.count, $1.name) > ($1.count, $0.name) }
        self.init(
            path: db.path, fileBytes: (try? FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int).map(Int64.init) ?? 0,
            schemaVersion: Schema.version, generator: meta["generator"], createdAt: meta["created_at"],
            sqliteVersion: Connection.libraryVersion, boundingBox: box, sources: sources,
            placeCount: placeCount, nameCount: try count("place_name"), geometryCount: try count("place_geometry"),
            areaCount: try count("area_rtree"), linkCount: try count("place_link"), kinds: kinds,
            categories: try counts("count places by category", """
                SELECT category, count(*) AS n FROM place WHERE category IS NOT NULL
                GROUP BY category ORDER BY n DESC, category LIMIT \(max(0, topCategories))
                """),
            tables: tables, meta: meta)
    }
    /// The extent of the places, as `meta` keeps it ("min lon,min lat,max lon,max lat"); nil without places.
    static func box(_ text: String) -> BoundingBox? {
        let v = text.split(separator: ",").compactMap { Double($0) }
        return v.count == 4 ? BoundingBox(minLat: v[1], minLon: v[0], maxLat: v[3], maxLon: v[2]) : nil
    }

    /// The extent alone, read from `meta` (`init` also counts every table).
    static func extent(_ db: DatabaseReader) throws -> BoundingBox? {
        let text = try db.first("read the extent", "SELECT value FROM meta WHERE key = 'bbox'") { $0.text(0) } ?? nil
        return text.flatMap(box)
    }
}
