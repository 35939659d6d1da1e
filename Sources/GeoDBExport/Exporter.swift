// `geodb export`: streams the places of a database, or a selection of them, as GeoJSON (a
// FeatureCollection or one feature per line), CSV or an OGC GeoPackage. A file output is written to a
// temporary file and renamed into place, like an import.
import Foundation
import GeoDB
import GeoDBFileOutput
import GeoDBSQLite

/// The file formats `geodb export` writes.
///
/// ```swift
/// var options = ExportOptions()
/// options.format = .gpkg
/// ```
public enum ExportFormat: String, CaseIterable, Sendable {
    /// RFC 7946 GeoJSON: a FeatureCollection, or newline-delimited features (`ExportOptions.newlineDelimited`).
    case geojson
    /// RFC 4180 CSV with a header row, readable again by `geodb import`.
    case csv
    /// An OGC GeoPackage 1.3 (an SQLite file): feature tables `points`, and with full geometry `lines` and
    /// `polygons`, each with the R*Tree spatial index; EPSG:4326.
    case gpkg
}

/// What to export and how.
///
/// ```swift
/// var options = ExportOptions()
/// options.format = .geojson
/// options.newlineDelimited = true
/// options.selection.kinds = ["street"]
/// ```
public struct ExportOptions: Sendable {
    public var format = ExportFormat.geojson
    /// GeoJSON only: one Feature per line (GeoJSONSeq / ndjson) instead of a FeatureCollection.
    public var newlineDelimited = false
    /// Which places, and whether with their line and polygon geometry (else points).
    public var selection = PlaceSelection()
    /// Replace an existing output file.
    public var force = false

    /// ```swift
    /// var options = ExportOptions()
    /// ```
    public init() {}
}

/// What an export wrote.
///
/// ```swift
/// let summary = try Exporter.run(database: "h.sqlite", output: "h.csv", options: options)
/// print(summary.places)
/// ```
public struct ExportSummary: Sendable {
    public var places = 0
    /// Places written with a line or polygon geometry instead of their point.
    public var withGeometry = 0
    /// Files that earlier exports to this output left when their process died, removed first.
    public var leftoversRemoved: [String] = []
}

/// Writes the places of a database in one of the `ExportFormat`s.
///
/// ```swift
/// _ = try Exporter.run(database: "helsinki.sqlite", output: nil, options: ExportOptions())   // GeoJSON to stdout
/// ```
public enum Exporter {
    /// Exports the places of `database` selected by `options` to `output`, or to standard output when it is
    /// nil (GeoJSON and CSV only).
    ///
    /// ```swift
    /// var options = ExportOptions()
    /// options.format = .csv
    /// let summary = try Exporter.run(database: "helsinki.sqlite", output: "places.csv", options: options)
    /// ```
    public static func run(database: String, output: String?, options: ExportOptions) throws -> ExportSummary {
        do {
            return try write(database: database, output: output, options: options)
        } catch let error as SQLiteError {
            // The GeoPackage writer's own SQLite calls (the session's are GeoDBErrors already).
            throw GeoDBError.database(path: output ?? database, purpose: "export", error)
        }
    }

    private static func write(database: String, output: String?, options: ExportOptions) throws -> ExportSummary {
        if let output { try GeoDBError.refuseDirectory(asOutput: output) }
        let session = try QuerySession(path: database)
        guard let output else {
            guard options.format != .gpkg else {
                throw GeoDBError(.invalidArgument, "a GeoPackage cannot be written to standard output", remedy: "give an `output` file")
            }
            let out = ByteOutput(descriptor: STDOUT_FILENO, name: "standard output")
            return try export(session, options: options, to: out, gpkg: nil)
        }
        if FileManager.default.fileExists(atPath: output) && !options.force {
            throw GeoDBError(.fileExists, "\(output) already exists", remedy: "set `force` to replace it")
        }
        let leftovers = TemporaryOutput.removeLeftovers(for: output)
        let temporary = TemporaryOutput(for: output, sideFiles: ["-journal"])
        defer { temporary.discard() }
        unlink(temporary.path)
        var summary: ExportSummary
        if options.format == .gpkg {
            let gpkg = try GeoPackageWriter(path: temporary.path)
            summary = try export(session, options: options, to: nil, gpkg: gpkg)
        } else {
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                throw GeoDBError(.io, "cannot create \(temporary.path): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            summary = try export(session, options: options, to: ByteOutput(descriptor: fd, name: output), gpkg: nil)
        }
        try temporary.commit()
        summary.leftoversRemoved = leftovers
        return summary
    }

    private static func export(_ session: QuerySession, options: ExportOptions, to out: ByteOutput?,
                               gpkg: GeoPackageWriter?) throws -> ExportSummary {
        var writer: ExportWriter
        switch (options.format, out, gpkg) {
        case (.gpkg, _, let gpkg?): writer = gpkg
        case (.csv, let out?, _): writer = try CSVExportWriter(out, tagKeys: session.tagKeys())
        case (_, let out?, _): writer = GeoJSONWriter(out, newlineDelimited: options.newlineDelimited)
        default: preconditionFailure("an output for \(options.format)")
        }
        var summary = ExportSummary()
        try writer.begin(withGeometry: options.selection.withGeometry)
        try session.forEachPlace(options.selection) { place, geometry in
            try writer.write(place, geometry: geometry)
            summary.places += 1
            if geometry != nil { summary.withGeometry += 1 }
        }
        try writer.finish()
        return summary
    }
}

/// One output format's writer: `begin`, a `write` per place in id order, `finish`.
protocol ExportWriter {
    mutating func begin(withGeometry: Bool) throws
    mutating func write(_ place: PlaceResult, geometry: Geometry?) throws
    mutating func finish() throws
}

/// The fixed place fields every format writes, beside the geometry and the tags: named as `ResultJSON.place`
/// (geodb's JSON) names them, its address flattened to a place's own parts.
enum ExportField {
    /// Every field, in the order GeoJSON's properties and GeoPackage's columns have them.
    static let names = ["id", "source_id", "kind", "category", "category_id", "name"] + addressParts.map(\.rawValue) + ["timezone", "population"]
    /// The fields that are numbers: unquoted in GeoJSON, INTEGER columns in a GeoPackage.
    static let numbers: Set<String> = ["id", "population"]

    /// (name, value) of each field the place has, in the order of `names`.
    static func values(_ place: PlaceResult) -> [(String, String)] {
        var fields: [(String, String)] = [("id", String(place.id)), ("source_id", place.sourceRef?.description ?? ""),
                                          ("kind", place.kind.rawValue)]
        for (key, value) in [("category", place.category?.text), ("category_id", place.categoryID), ("name", place.name)] {
            if let value { fields.append((key, value)) }
        }
        for part in addressParts { if let value = place.address[part] { fields.append((part.rawValue, value)) } }
        if let timezone = place.timezone { fields.append(("timezone", timezone)) }
        if let population = place.population { fields.append(("population", String(population))) }
        return fields
    }

    /// The address columns: a place's own parts (the areas around it are not columns).
    static let addressParts: [Address.Part] = [.housenumber, .street, .postcode, .city, .state, .country, .countryCode]
}

/// Buffered writes to a file descriptor.
final class ByteOutput {
    private let descriptor: Int32
    private let name: String
    private var buffer: [UInt8] = []

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        var written = 0
        while written < buffer.count {
            let n = buffer[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw GeoDBError(.io, "cannot write to \(name): \(String(cString: strerror(errno)))") }
            written += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
