// Imports timezone boundaries (timezone-boundary-builder GeoJSON: one feature per zone, property `tzid`)
// into the timezone tables: zones, one row per polygon, a packed R*Tree over polygon boxes, and the grid
// of cells wholly inside one zone.
import Foundation
import GeoDB
import GeoDBSQLite

/// What a timezone import did.
public struct TimeZoneImportStats: Sendable {
    public var name: String
    public var sizeBytes: Int
    public var features = 0
    public var zones = 0
    public var polygons = 0
    public var holes = 0
    public var vertices = 0
    /// Rings dropped for having fewer than 3 distinct positions.
    public var degenerateRings = 0
    /// Deepest grid level (cells of 1/2^level degree).
    public var gridLevel = 0
    /// Grid cells stored (wholly inside one zone) and border cells at the deepest level (left to polygons).
    public var gridCells = 0
    public var gridBorderCells = 0
    /// Places made for the countries of the zones that no place of the database was (`ZoneCountryPlaces`).
    public var countryPlaces = 0
    public var readSeconds = 0.0
    public var gridSeconds = 0.0
}

/// Imports a timezone boundary file.
struct TimeZoneImport: SourceImport {
    /// Deepest level of the stored grid: 1/16° cells (about 7 km). Measured on the simplified world file
    /// and cities500: levels 3/4/5/6 store 0.28/0.58/1.19/2.43 M cells (database 5.9/9.7/17.5/33.5 MB) and
    /// answer 95.0/97.2/98.4/99.0 % of lookups from the grid; all run at 10-20 M lookups/s, because the
    /// polygon tests near borders are fast too. Level 4 keeps the file near the size of its input.
    static let gridLevel = 4

    /// The grid's deepest level here; a negative level stores no grid (tests compare answers with and without it).
    var gridLevel = TimeZoneImport.gridLevel

    func read(_ input: ImportPlan.Input, into context: ImportContext) throws -> TimeZoneImportStats {
        let name = (input.path as NSString).lastPathComponent
        let size = (try? FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int) ?? 0
        let report = ProgressThrottle.reporting(to: context.progress) { (read: (bytes: Int, features: Int)) in
            ImportProgress(phase: "reading", file: name, bytesRead: read.bytes, bytesTotal: size, objectsRead: read.features, placesWritten: 0)
        }
        return try write(input.path, into: context.db) { report(($0, $1)) }
    }

    /// Writes the file at `path` into `db`, inside the importer's transaction.
    func write(_ path: String, into db: Connection,
               progress: ((_ bytesRead: Int, _ features: Int) -> Void)? = nil) throws -> TimeZoneImportStats {
        guard try db.scalarInt("SELECT count(*) FROM timezone") == 0 else {
            throw GeoDBError(.invalidArgument, "\((path as NSString).lastPathComponent): the database already has timezones",
                             remedy: "import one timezone boundary file per database")
        }
        let source = try SourceRow.insert(db, path: path, format: .timezoneGeoJSON)
        let (name, sourceID) = (source.name, source.id)
        var stats = TimeZoneImportStats(name: name, sizeBytes: source.sizeBytes)
        stats.gridLevel = gridLevel

        var start = Date()
        let insertZone = try db.prepare("INSERT INTO timezone(id, tzid, source_id) VALUES (?, ?, ?)")
        let insertPolygon = try db.prepare("INSERT INTO timezone_polygon(id, timezone_id, geometry) VALUES (?, ?, ?)")
        var zoneIndex: [String: Int32] = [:]
        var parts: [IndexedPolygon] = []
        let boxes = RTreeEntries()
        try GeoJSONReader(path: path, displayName: name).read(progress: { progress?($0, stats.features) }) { feature in
            guard let tzid = feature.properties["tzid"], !tzid.isEmpty else {
                throw GeoDBError.badInput(file: name, at: .feature(feature.index), "no \"tzid\" property (timezone boundaries name their zone in it)")
            }
            guard ValueLimits.fits(tzid) else {
                throw GeoDBError.badInput(file: name, at: .feature(feature.index),
                                          "a \"tzid\" longer than \(ValueLimits.maxValueCharacters) characters (IANA zone names are at most 30)")
            }
            stats.features += 1
            stats.degenerateRings += feature.degenerateRings
            let zone: Int32
            if let known = zoneIndex[tzid] {
                zone = known   // a zone split over several features: one zone
            } else {
                zone = Int32(zoneIndex.count)
                zoneIndex[tzid] = zone
                try insertZone.run([.integer(Int64(zone) + 1), .text(tzid), .integer(sourceID)])
            }
            for rings in feature.polygons {
                let polygon = IndexedPolygon(owner: zone, rings: rings)
                let id = Int64(parts.count + 1)
                try insertPolygon.run([.integer(id), .integer(Int64(zone) + 1), .blob(Geometry.polygons([rings]).encoded())])
                let box = polygon.box
                boxes.append(id: id, BoundingBox(minLat: Double(box.minY) / 1e7, minLon: Double(box.minX) / 1e7,
                                                 maxLat: Double(box.maxY) / 1e7, maxLon: Double(box.maxX) / 1e7))
                parts.append(polygon)
                stats.polygons += 1
                stats.holes += rings.count - 1
                stats.vertices += rings.reduce(0) { $0 + $1.count }
            }
        }
        guard stats.features > 0 else {
            throw GeoDBError.badInput(file: name, at: .byteOffset(0), "the FeatureCollection has no features")
        }
        stats.zones = zoneIndex.count
        try RTreeBulkLoader.load(boxes, into: "timezone_rtree", db: db)
        stats.readSeconds = Date().timeIntervalSince(start)

        start = Date()
        let grid = gridLevel < 0 ? TimeZoneGridBuilder.Result()
            : TimeZoneGridBuilder(polygons: PolygonSet(polygons: parts), parts: parts, level: gridLevel).build()
        let insertCell = try db.prepare("INSERT INTO timezone_grid(cell, timezone_id) VALUES (?, ?)")
        for cell in grid.cells {
            try insertCell.bind(1, cell.id)
            try insertCell.bind(2, Int64(cell.zone) + 1)
            try insertCell.step()
            insertCell.reset()
        }
        stats.gridCells = grid.cells.count
        stats.gridBorderCells = grid.borderCells
        stats.gridSeconds = Date().timeIntervalSince(start)

        let meta = try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
        try meta.run([.text("timezone_count"), .text(String(stats.zones))])
        try meta.run([.text("timezone_grid_level"), .text(String(gridLevel))])
        return stats
    }
}

extension TimeZoneImport {
    /// For `InputFormat.detect`: a FeatureCollection whose first feature has a `tzid` property.
    static func detect(_ path: String) throws -> InputFormat {
        let reader = GeoJSONReader(path: path, displayName: path)
        guard let properties = try reader.firstFeatureProperties() else {
            throw GeoDBError.badInput(file: path, at: .byteOffset(0), "the FeatureCollection has no features")
        }
        guard properties["tzid"] != nil else {
            throw GeoDBError(.unsupportedInput, "\(path): GeoJSON whose features have no \"tzid\" property",
                             remedy: "geodb imports GeoJSON only as timezone boundaries (timezone-boundary-builder format)")
        }
        return .timezoneGeoJSON
    }
}
