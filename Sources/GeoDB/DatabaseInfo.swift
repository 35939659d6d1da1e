// What `geodb inspect` reports about a database: sources, extent, counts, sizes.
import Foundation
import GeoDBSQLite

/// A summary of one database, like `osmium fileinfo` for a geodb file.
public struct DatabaseInfo: Codable, Sendable {
    public struct Source: Codable, Sendable {
        public var id: Int64
        public var name: String
        public var format: String
        public var sizeBytes: Int64
        public var importedAt: String
        public var dataTimestamp: String?
        public var replicationSequence: Int64?
        public var replicationURL: String?
        public var writingProgram: String?
        public var placeCount: Int64
        /// Records of this source merged into places of other sources (`place_link`).
        public var linkedCount: Int64
    }

    public struct Count: Codable, Sendable {
        public var name: String
        public var count: Int64
    }

    public struct TableSize: Codable, Sendable {
        public var name: String
        public var bytes: Int64
    }

    public var path: String
    public var fileBytes: Int64
    public var schemaVersion: Int64
    public var generator: String?
    public var createdAt: String?
    public var sqliteVersion: String
    public var boundingBox: BoundingBox?
    public var sources: [Source]
    public var placeCount: Int64
    public var nameCount: Int64
    public var geometryCount: Int64
    public var areaCount: Int64
    /// Records merged into places of other sources (`place_link` rows).
    public var linkCount: Int64
    public var kinds: [Count]
    public var categories: [Count]
    /// Bytes per table and index, from SQLite's dbstat (empty when dbstat is not compiled in).
    public var tables: [TableSize]
    public var meta: [String: String]
}

extension QuerySession {
    /// Summarises the database; `topCategories` limits the category list.
    public func info(topCategories: Int = 15) throws -> DatabaseInfo {
        let db = connection
        let meta = Dictionary(try db.prepare("SELECT key, value FROM meta").rows { ($0.text(0) ?? "", $0.text(1) ?? "") },
                              uniquingKeysWith: { a, _ in a })
        let sources = try db.prepare("""
            SELECT id, name, format, size_bytes, imported_at, data_timestamp, replication_sequence, replication_url,
                   writing_program, place_count, linked_count FROM source ORDER BY id
            """).rows { row in
            DatabaseInfo.Source(id: row.int(0), name: row.text(1) ?? "", format: row.text(2) ?? "", sizeBytes: row.int(3),
                                importedAt: row.text(4) ?? "", dataTimestamp: row.text(5),
                                replicationSequence: row.isNull(6) ? nil : row.int(6), replicationURL: row.text(7),
                                writingProgram: row.text(8), placeCount: row.int(9), linkedCount: row.int(10))
        }
        let counts = { (sql: String) in try db.prepare(sql).rows { DatabaseInfo.Count(name: $0.text(0) ?? "", count: $0.int(1)) } }
        let kinds = try counts("SELECT kind, count(*) AS n FROM place GROUP BY kind ORDER BY n DESC, kind")
        let categories = try counts("""
            SELECT category, count(*) AS n FROM place WHERE category IS NOT NULL
            GROUP BY category ORDER BY n DESC, category LIMIT \(max(0, topCategories))
            """)
        var tables: [DatabaseInfo.TableSize] = []
        if Connection.isCompiled(with: "ENABLE_DBSTAT_VTAB") {
            tables = try db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC, name")
                .rows { DatabaseInfo.TableSize(name: $0.text(0) ?? "", bytes: $0.int(1)) }
        }
        let box = meta["bbox"].flatMap { text -> BoundingBox? in
            let v = text.split(separator: ",").compactMap { Double($0) }
            return v.count == 4 ? BoundingBox(minLat: v[1], minLon: v[0], maxLat: v[3], maxLon: v[2]) : nil
        }
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map(Int64.init) ?? 0
        return DatabaseInfo(
            path: path, fileBytes: fileBytes, schemaVersion: Schema.version, generator: meta["generator"],
            createdAt: meta["created_at"], sqliteVersion: Connection.libraryVersion, boundingBox: box, sources: sources,
            placeCount: try db.scalarInt("SELECT count(*) FROM place") ?? 0,
            nameCount: try db.scalarInt("SELECT count(*) FROM place_name") ?? 0,
            geometryCount: try db.scalarInt("SELECT count(*) FROM place_geometry") ?? 0,
            areaCount: try db.scalarInt("SELECT count(*) FROM area_rtree") ?? 0,
            linkCount: try db.scalarInt("SELECT count(*) FROM place_link") ?? 0,
            kinds: kinds, categories: categories, tables: tables, meta: meta)
    }
}
