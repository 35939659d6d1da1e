// `geodb export`: the places of a database as GeoJSON, newline-delimited GeoJSON, CSV or a GeoPackage.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBExport
import GeoDBFileOutput

extension GeoDBCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the places of a database as GeoJSON, CSV or a GeoPackage.",
            discussion: """
                To standard output without --output (GeoJSON and CSV). Places are written in id order with \
                their fields (id, source_id, kind, category, category_id, name, address, timezone, population) \
                and tags; --geometry full writes streets as lines and areas as polygons instead of points (a \
                GeoPackage has a layer per geometry type: points, lines, polygons, each with an R*Tree spatial index). \
                A CSV export imports again as the same places with `geodb import FILE.csv --keep-unnamed`. \
                A file output is written to a temporary file and renamed into place when complete.
                """)

        @OptionGroup var database: DatabaseArgument

        @Option(help: "geojson, csv or gpkg (GeoPackage).")
        var format: String = "geojson"

        @Flag(help: "GeoJSON: one feature per line (GeoJSONSeq) instead of a FeatureCollection.")
        var ndjson = false

        @Option(name: [.short, .long], help: "The file to write (required for gpkg).")
        var output: String?

        @Flag(help: "Replace an existing output file.")
        var force = false

        @Option(help: "Only these kinds, comma-separated (city, street, address, poi, …).")
        var kind: String?

        @Option(help: "Only these categories, comma-separated (taxonomy ids, parents, synonyms or raw tags).")
        var category: String?

        @Option(parsing: .unconditional, help: "Only places in this box: min lon,min lat,max lon,max lat.")
        var bbox: String?

        @Option(help: "point (every place as its point) or full (lines and polygons where a place has them).")
        var geometry: String = "point"

        func validate() throws {
            guard ExportFormat(rawValue: format) != nil else {
                throw ValidationError("unknown format '\(format)': use geojson, csv or gpkg")
            }
            guard ["point", "full"].contains(geometry) else { throw ValidationError("--geometry is point or full") }
            if ndjson && format != "geojson" { throw ValidationError("--ndjson is for --format geojson") }
            if format == "csv" && geometry == "full" { throw ValidationError("CSV holds points only: drop --geometry full") }
            if format == "gpkg" && output == nil {
                try UnknownOption.reject(Export.self, name: "export", adding: ["--output", "-"])
                throw ValidationError("--format gpkg needs --output FILE.gpkg")
            }
            _ = try KindList.parse(kind.map { [$0] } ?? [])
            try CategoryArgument.validate(category)
        }

        func run() throws {
            var options = ExportOptions()
            options.format = ExportFormat(rawValue: format) ?? .geojson
            options.newlineDelimited = ndjson
            options.force = force
            options.selection.kinds = try KindList.parse(kind.map { [$0] } ?? [])
            options.selection.categories = try category.map { try CategoryFilter.resolve(CommaList.items($0)) }
            options.selection.bbox = try bbox.map { try BoxArgument.parse($0) }
            options.selection.withGeometry = geometry == "full"
            if output != nil { InterruptCleanup.install() }
            let started = Date()
            let summary = try Exporter.run(database: database.path, output: output, options: options)
            if let output {
                let lines = summary.withGeometry > 0 ? " (\(Format.count(summary.withGeometry)) as lines or polygons)" : ""
                Terminal.show("Exported \(Format.count(summary.places)) places\(lines) to \(output) in \(Format.seconds(Date().timeIntervalSince(started)))")
                if !summary.leftoversRemoved.isEmpty {
                    Terminal.show("  removed \(Format.leftovers(summary.leftoversRemoved, of: "export"))")
                }
            }
        }
    }
}
