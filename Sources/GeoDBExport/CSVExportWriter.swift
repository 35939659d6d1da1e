// Places as RFC 4180 CSV: the place fields, then one column per tag key of the database, so that
// `geodb import` reads the file back as the same places (the tags become tags again).
import Foundation
import GeoDB

struct CSVExportWriter: ExportWriter {
    private let out: ByteOutput
    private let columns: [String]
    /// Column of each tag key; a key that is also a field name is written as `tag:key`.
    private let tagColumns: [String: Int]
    static let fields = ["id", "name", "kind", "category", "lat", "lon"] + ExportField.addressParts.map(\.rawValue) + ["timezone", "population"]
    static let latColumn = fields.firstIndex(of: "lat")!, lonColumn = fields.firstIndex(of: "lon")!

    init(_ out: ByteOutput, tagKeys: [String]) {
        self.out = out
        let headers = tagKeys.map { Self.fields.contains($0) ? "tag:" + $0 : $0 }
        columns = Self.fields + headers
        tagColumns = Dictionary(uniqueKeysWithValues: tagKeys.enumerated().map { ($1, Self.fields.count + $0) })
    }

    mutating func begin(withGeometry: Bool) throws {
        try out.write(columns.map(CSVText.quoted).joined(separator: ",") + "\r\n")
    }

    mutating func write(_ place: PlaceResult, geometry: Geometry?) throws {
        var row = [String](repeating: "", count: columns.count)
        let values = Dictionary(ExportField.values(place), uniquingKeysWith: { a, _ in a })
        for (index, field) in Self.fields.enumerated() { row[index] = values[field] ?? "" }
        row[Self.latColumn] = DegreesText.decimal(place.lat)
        row[Self.lonColumn] = DegreesText.decimal(place.lon)
        for (key, value) in place.tags { if let index = tagColumns[key] { row[index] = value } }
        try out.write(row.map(CSVText.quoted).joined(separator: ",") + "\r\n")
    }

    mutating func finish() throws { try out.flush() }
}
