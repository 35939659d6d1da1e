// `geodb import`: build a database from OSM PBF / XML files, GeoNames dumps and CSV files, or add them to one.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBImport

extension GeoDBCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import map data files into a new geodb database, or add them to one.",
            discussion: """
                Formats are recognised by content: OSM PBF (.osm.pbf), OSM XML (.osm, also gzip- or bzip2-compressed), \
                GeoNames dumps (cities500.txt, allCountries.txt, …), CSV files with a header row and timezone \
                boundaries (GeoJSON with a tzid property, as timezone-boundary-builder writes). GeoNames \
                country tables (countryInfo.txt) and admin1CodesASCII.txt given beside a dump name its countries \
                and states.

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

        @Flag(help: "Stop at the first bad GeoNames or CSV row instead of skipping it.")
        var strict = false

        @Flag(inversion: .prefixedNo, help: "Merge GeoNames/CSV records into the same place from another file.")
        var link = true

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

        /// How many bad-row messages go to standard error; the summary counts them all.
        static let warningsShown = 10

        func validate() throws {
            guard (output == nil) != (append == nil) else {
                throw ValidationError("give either --output (a new database) or --append (an existing one)")
            }
        }

        func run() throws {
            var options = ImportOptions()
            options.force = force
            options.rtreeBuild = rtree
            options.cacheMiB = cacheMib
            options.append = append != nil
            options.strict = strict
            options.linkDuplicates = link
            options.csv = csv.options
            InterruptCleanup.install()
            let showProgress = !quiet && (progress || Terminal.stderrIsTTY)
            let start = Date()
            let summary = try Importer.run(inputs: inputs, output: output ?? append ?? "", options: options,
                                           progress: showProgress ? { Self.draw($0, since: start) } : nil)
            if showProgress { Terminal.status("\r\u{1B}[K") }
            if !quiet {
                let warnings = summary.sources.flatMap { $0.records?.warnings ?? [] }
                let total = summary.sources.reduce(0) { $0 + ($1.records?.skippedTotal ?? 0) }
                for warning in warnings.prefix(Self.warningsShown) { Terminal.status("warning: \(warning)\n") }
                if total > Self.warningsShown { Terminal.status("warning: … \(Format.count(total - Self.warningsShown)) more bad rows skipped\n") }
            }
            if json {
                print(try Format.json(ImportReport(summary)))
            } else if !quiet {
                print(Self.describe(summary))
            }
        }

        static func draw(_ p: ImportProgress, since start: Date) {
            let elapsed = max(Date().timeIntervalSince(start), 0.001)
            var line = "\r\u{1B}[K\(p.phase)"
            if !p.file.isEmpty { line += " \(p.file)" }
            if p.bytesTotal > 0 && p.phase == "reading" {
                line += String(format: " %3.0f%%", Double(p.bytesRead) / Double(p.bytesTotal) * 100)
            }
            if p.objectsRead > 0 {
                line += " · \(Format.count(p.objectsRead)) objects (\(Format.count(Int(Double(p.objectsRead) / elapsed)))/s)"
            }
            line += " · \(Format.count(p.placesWritten)) places · \(Format.seconds(elapsed))"
            Terminal.status(line)
        }

        static func describe(_ s: ImportSummary) -> String {
            let verb = s.appended ? "Added" : "Imported"
            let added = s.appended ? "\(Format.count(s.places)) places added" : "\(Format.count(s.places)) places"
            let files = s.sources.count + (s.timeZones == nil ? 0 : 1)
            var lines = ["\(verb) \(files) file\(files == 1 ? "" : "s") \(s.appended ? "to" : "into") \(s.output) in \(Format.seconds(s.seconds)) (\(Format.bytes(s.outputBytes)), \(added))"]
            if !s.lookupTables.isEmpty { lines.append("  names from \(s.lookupTables.joined(separator: ", "))") }
            for source in s.sources {
                if let records = source.records {
                    lines.append(contentsOf: describe(source, records))
                    continue
                }
                let r = source.read, b = source.build
                lines.append("  \(source.name) (\(source.format.rawValue), \(Format.bytes(source.sizeBytes))): \(Format.count(r.nodes)) nodes, \(Format.count(r.ways)) ways, \(Format.count(r.relations)) relations → \(Format.count(source.places)) places")
                lines.append("    relations assembled \(Format.count(b.relationsAssembled)), skipped \(Format.count(b.relationsSkipped)) (rings not closed: cut at the extract edge or broken); street segments \(Format.count(b.streetSegments))")
                if b.waysWithMissingNodes > 0 {
                    lines.append("    \(Format.count(b.waysWithMissingNodes)) ways refer to \(Format.count(b.missingNodeRefs)) nodes missing from the file (left out of their geometry)")
                }
                if r.invalidCoordinates > 0 {
                    lines.append("    \(Format.count(r.invalidCoordinates)) nodes with coordinates outside ±90/±180 skipped")
                }
                if b.interpolationsSkipped > 0 {
                    lines.append("    \(Format.count(b.interpolationsSkipped)) address interpolation lines skipped (end nodes without house numbers)")
                }
            }
            if let timeZones = s.timeZones { lines += Timezone.describe(timeZones) }
            let kinds = s.countsByKind.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
            if !kinds.isEmpty {
                lines.append("  places by kind: " + kinds.map { "\($0.key.rawValue) \(Format.count($0.value))" }.joined(separator: " · "))
            }
            lines.append("  time: " + s.phases.map { "\($0.name) \(Format.seconds($0.seconds))" }.joined(separator: ", "))
            return lines.joined(separator: "\n")
        }

        /// The lines of a GeoNames or CSV source: rows read, places imported and linked, rows skipped and why.
        static func describe(_ source: ImportedSource, _ records: RecordStats) -> [String] {
            var line = "  \(source.name) (\(source.format.rawValue), \(Format.bytes(source.sizeBytes))): \(Format.count(records.rows)) rows → \(Format.count(source.places)) places"
            if source.linked > 0 { line += ", \(Format.count(source.linked)) merged into places of other files" }
            line += ", \(Format.count(records.skippedTotal)) skipped"
            var lines = [line]
            if records.skippedTotal > 0 {
                let reasons = records.skipped.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
                lines.append("    skipped: " + reasons.map { "\(Format.count($0.value)) \($0.key)" }.joined(separator: ", "))
            }
            return lines
        }
    }
}

extension RTreeBuild: ExpressibleByArgument {}

/// The import summary as JSON.
struct ImportReport: Encodable {
    struct Source: Encodable {
        var name: String, format: String, sizeBytes: Int, places: Int
        var nodes: Int, ways: Int, relations: Int, invalidCoordinates: Int
        var relationsAssembled: Int, relationsSkipped: Int, relationMembersMissing: Int
        var waysWithMissingNodes: Int, missingNodeRefs: Int, interpolationsSkipped: Int
        var nodeStoreBytes: Int, wayStoreBytes: Int
        /// GeoNames and CSV files: data rows, records merged into other places, rows skipped by reason.
        var rows: Int?, linked: Int?, skipped: [String: Int]?, warnings: [String]?
    }
    var output: String
    var seconds: Double
    var outputBytes: Int
    var places: Int
    var linked: Int
    var appended: Bool
    var lookupTables: [String]
    var kinds: [String: Int]
    var phases: [String: Double]
    var sources: [Source]
    var timezones: TimeZoneImportReport?

    init(_ s: ImportSummary) {
        output = s.output
        seconds = s.seconds
        outputBytes = s.outputBytes
        places = s.places
        linked = s.linked
        appended = s.appended
        lookupTables = s.lookupTables
        timezones = s.timeZones.map(TimeZoneImportReport.init)
        kinds = Dictionary(uniqueKeysWithValues: s.countsByKind.map { ($0.key.rawValue, $0.value) })
        phases = Dictionary(s.phases.map { ($0.name, $0.seconds) }, uniquingKeysWith: +)
        sources = s.sources.map { src in
            Source(name: src.name, format: src.format.rawValue, sizeBytes: src.sizeBytes, places: src.places,
                   nodes: src.read.nodes, ways: src.read.ways, relations: src.read.relations,
                   invalidCoordinates: src.read.invalidCoordinates, relationsAssembled: src.build.relationsAssembled,
                   relationsSkipped: src.build.relationsSkipped, relationMembersMissing: src.build.relationMembersMissing,
                   waysWithMissingNodes: src.build.waysWithMissingNodes, missingNodeRefs: src.build.missingNodeRefs,
                   interpolationsSkipped: src.build.interpolationsSkipped, nodeStoreBytes: src.build.nodeStoreBytes,
                   wayStoreBytes: src.build.wayStoreBytes, rows: src.records?.rows,
                   linked: src.records.map { _ in src.linked },
                   skipped: src.records.map { r in Dictionary(uniqueKeysWithValues: r.skipped.map { ($0.key.rawValue, $0.value) }) },
                   warnings: src.records?.warnings)
        }
    }
}
