// `geodb import`: build a database from OSM PBF / XML files, GeoNames dumps and CSV files, or add them to one.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBFileOutput
import GeoDBImport

extension GeoDBCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import map data files into a new geodb database, or add them to one.",
            discussion: """
                Formats are recognised by content: OSM PBF (.osm.pbf), OSM XML (.osm, also gzip- or bzip2-compressed), \
                GeoNames dumps (cities500.txt, allCountries.txt, …), CSV files with a header row and timezone \
                boundaries (GeoJSON with a tzid property, as timezone-boundary-builder writes). GeoNames \
                country tables (countryInfo.txt) and admin1CodesASCII.txt given beside a dump name its countries \
                and states; GeoNames alternate names files (alternateNamesV2.txt, alternateNames.txt, \
                alternatenames/XX.txt) its places' names in other languages (--lang shows them), historic and \
                colloquial names.

                --importance takes Nominatim's wikimedia-importance.csv.gz (or the same uncompressed): a place whose \
                wikidata tag (OSM, or a GeoNames alternate names file's Wikidata id) or wikipedia tag it lists \
                is at least as important as the file says (docs/RANKING.md, Importance).

                OSM files are imported first. A GeoNames or CSV record that is a place already imported from \
                another file (same name, compatible kind, close by) is merged into that place (--no-link: kept \
                apart); docs/SCHEMA.md, place_link, has the rule.

                The database is built in a temporary file beside the output (with --append, a copy of it) and \
                renamed into place only when complete: a failed or interrupted import leaves it untouched.
                """)

        @Argument(help: "Input files.")
        var inputs: [String]

        @Option(name: .shortAndLong, help: "The database file to write.")
        var output: String?

        @Option(help: ArgumentHelp("An existing database to add the inputs to.", valueName: "database"))
        var append: String?

        @OptionGroup(title: "CSV input")
        var csv: CSVArguments

        @Option(help: ArgumentHelp("An importance file in Nominatim's format (wikimedia-importance.csv.gz, gzip or plain): "
                                   + "raises the places whose Wikidata id or Wikipedia article it lists.", valueName: "file"))
        var importance: String?

        @Flag(help: "Stop at the first bad GeoNames, CSV or importance file row instead of skipping it.")
        var strict = false

        @Flag(inversion: .prefixedNo, help: "Merge GeoNames/CSV records into the same place from another file.")
        var link = true

        @Flag(help: "Also store every place's geometry as standard WKB (table place_wkb, view place_wkb_named) for GDAL, DuckDB and other SQL users.")
        var wkb = false

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        @Flag(name: .shortAndLong, help: "Print nothing but errors.")
        var quiet = false

        @Flag(help: "Show progress even when standard error is not a terminal.")
        var progress = false

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @Option(help: "How to build the R*Tree indexes: packed (bulk load) or insert (row by row; slower).")
        var rtree: RTreeBuild = .packed

        @Option(help: "SQLite page cache for the build, in MiB.")
        var cacheMib = ImportOptions().cacheMiB

        @Option(help: ArgumentHelp("Memory for an OSM file's node locations and way index, e.g. 512M or 2G; beyond it they go to "
                                   + "a scratch file beside the output (default: a quarter of this machine's memory, "
                                   + "\(MemorySize.text(ImportOptions.defaultMemoryBudget))).", valueName: "size"))
        var memory: String?

        /// How many bad-row messages go to standard error; the summary counts them all.
        static let warningsShown = 10

        func validate() throws {
            guard (output == nil) != (append == nil) else {
                if output == nil { try UnknownOption.reject(Import.self, name: "import", adding: ["--output", "-"]) }
                throw ValidationError("give either --output (a new database) or --append (an existing one)")
            }
        }

        /// `--memory` in bytes, or the default. Checked in `run`, not `validate`: a library error naming
        /// its option is a usage error of one line (exit status 64) there, where ArgumentParser would add
        /// its usage text.
        func memoryBudget() throws -> Int {
            guard let memory else { return ImportOptions.defaultMemoryBudget }
            guard let bytes = MemorySize.bytes(memory) else {
                throw GeoDBError(.invalidArgument, "--memory '\(memory)' is not a size: give a number with a unit, as 512M or 2G",
                                 option: "memory")
            }
            return bytes
        }

        func run() throws {
            var options = ImportOptions()
            options.memoryBudget = try memoryBudget()
            options.force = force
            options.rtreeBuild = rtree
            options.cacheMiB = cacheMib
            options.append = append != nil
            options.strict = strict
            options.linkDuplicates = link
            options.standardGeometry = wkb
            options.csv = csv.options
            options.importanceFile = importance
            InterruptCleanup.install()
            let showProgress = !quiet && (progress || Terminal.stderrIsTTY)
            let start = Date()
            let summary = try Importer.run(inputs: inputs, output: output ?? append ?? "", options: options,
                                           progress: showProgress ? { Self.draw($0, since: start, budget: options.memoryBudget) } : nil)
            if showProgress { Terminal.status("\r\u{1B}[K") }
            if !quiet {
                // In the order read: the alternate names files, the sources, the importance file.
                let records = (summary.alternateNames?.files.map(\.records) ?? []) + summary.sources.compactMap(\.records)
                    + (summary.importanceFile.map { [$0.records] } ?? [])
                let warnings = records.flatMap(\.warnings)
                let total = records.reduce(0) { $0 + $1.skippedTotal }
                for warning in warnings.prefix(Self.warningsShown) { Terminal.status("warning: \(warning)\n") }
                if total > Self.warningsShown { Terminal.status("warning: … \(Format.count(total - Self.warningsShown)) more bad rows skipped\n") }
            }
            if json {
                print(try Format.json(ImportReport(summary)))
            } else if !quiet {
                Terminal.show(ImportReport.describe(summary))
            }
        }

        static func draw(_ p: ImportProgress, since start: Date, budget: Int) {
            let elapsed = max(Date().timeIntervalSince(start), 0.001)
            var line = "\r\u{1B}[K\(p.phase)"
            if !p.file.isEmpty { line += " \(p.file)" }
            // "locating": a TIGER input's first pass (where its lines are).
            if p.bytesTotal > 0 && (p.phase == "reading" || p.phase == "importance" || p.phase == "locating") {
                line += String(format: " %3.0f%%", Double(p.bytesRead) / Double(p.bytesTotal) * 100)
            }
            if p.objectsRead > 0 {
                line += " · \(Format.count(p.objectsRead)) objects (\(Format.count(Int(Double(p.objectsRead) / elapsed)))/s)"
            }
            line += " · \(Format.count(p.placesWritten)) places · \(Format.seconds(elapsed))"
            if p.spilledBytes > 0 { line += " · past --memory \(MemorySize.text(budget)): \(Format.bytes(p.spilledBytes)) on disk" }
            Terminal.status(line)
        }
    }
}

extension RTreeBuild: ExpressibleByArgument {}
