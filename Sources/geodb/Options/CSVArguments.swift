// The CSV options of `geodb import`: the delimiter and which columns hold what.
import ArgumentParser
import GeoDBImport

struct CSVArguments: ParsableArguments {
    @Option(help: "Field delimiter: , ; | or tab (default: detected from the header line).")
    var delimiter: String?
    @Option(help: "Column of the name (default: name, title or label).") var nameColumn: String?
    @Option(help: "Column of the latitude (default: lat, latitude or y).") var latColumn: String?
    @Option(help: "Column of the longitude (default: lon, lng, long, longitude or x).") var lonColumn: String?
    @Option(help: "Column of the category (default: category, type or kind).") var categoryColumn: String?
    @Option(help: "Column of the id in the source (default: id; else the line number).") var idColumn: String?
    @Flag(help: "Keep rows without a name that have a category (ATMs, toilets, …); rows with a house number need no name.")
    var keepUnnamed = false

    func validate() throws {
        if let delimiter, CSVOptions.delimiter(delimiter) == nil {
            throw ValidationError("--delimiter must be one character (, ; |) or 'tab', not '\(delimiter)'")
        }
    }

    var options: CSVOptions {
        var options = CSVOptions()
        options.delimiter = delimiter.flatMap(CSVOptions.delimiter)
        options.nameColumn = nameColumn
        options.latColumn = latColumn
        options.lonColumn = lonColumn
        options.categoryColumn = categoryColumn
        options.idColumn = idColumn
        options.keepUnnamed = keepUnnamed
        return options
    }
}
