// The points of `geodb timezone --batch`: a CSV file (or standard input) with lat and lon columns, named
// in a header row or the first two columns, read with the importer's CSV scanner.
import GeoDB
import GeoDBImport

/// Points from a CSV file, in order, with their coordinates as written (echoed in the output).
struct BatchPoints {
    struct Point {
        var coordinate: Coordinate
        var latText: String
        var lonText: String
    }

    private let records: CSVRecords
    private let name: String

    /// Points of the file at `path`; "-" reads standard input.
    init(path: String) {
        name = path == "-" ? "standard input" : path
        records = CSVRecords(path: path == "-" ? "/dev/stdin" : path)
    }

    /// Calls `body` with each point, and `bad` with the lat and lon texts of a row without two numbers in
    /// range (empty where the row has no such column) and the error naming its line: one bad row among a
    /// million does not lose the others. Throws when the first row names no lat and lon columns.
    func forEach(_ body: (Point) throws -> Void, bad: (_ lat: String, _ lon: String, GeoDBError) throws -> Void) throws {
        var columns: (lat: Int, lon: Int)?
        try records.read { line in
            let fields = (0..<records.fieldCount).map { records.field($0) ?? "" }
            if columns == nil {
                if fields.count >= 2, Double(fields[0]) != nil, Double(fields[1]) != nil {
                    columns = (0, 1)
                } else {
                    let names = fields.map { $0.lowercased() }
                    guard let lat = names.firstIndex(where: { ["lat", "latitude"].contains($0) }),
                          let lon = names.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) }) else {
                        throw GeoDBError.badInput(file: name, at: .line(line),
                                                  "no lat and lon columns (a header naming them, or numbers in the first two columns)")
                    }
                    columns = (lat, lon)
                    return
                }
            }
            guard let (latIndex, lonIndex) = columns else { return }
            let latText = latIndex < fields.count ? fields[latIndex] : "", lonText = lonIndex < fields.count ? fields[lonIndex] : ""
            guard let lat = Double(latText), let lon = Double(lonText) else {
                try bad(latText, lonText, GeoDBError.badInput(file: name, at: .line(line),
                                                              "expected a latitude and longitude, got '\(fields.joined(separator: ","))'"))
                return
            }
            let coordinate = Coordinate(lat: lat, lon: lon)
            do {
                try QueryValidation.coordinate(coordinate, option: "point")
            } catch let error as GeoDBError {
                try bad(latText, lonText, GeoDBError.badInput(file: name, at: .line(line), CLIMessages.flagged(error.message)))
                return
            }
            try body(Point(coordinate: coordinate, latText: latText, lonText: lonText))
        }
    }
}
