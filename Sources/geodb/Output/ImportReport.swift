// What `geodb import` prints when it is done: the summary as text, and as JSON with `--json`.
import Foundation
import GeoDB
import GeoDBImport

/// The import summary as JSON.
struct ImportReport: Encodable {
    struct Source: Encodable {
        var name: String, format: String, sizeBytes: Int, places: Int
        var nodes: Int, ways: Int, relations: Int, invalidCoordinates: Int
        var relationsAssembled: Int, relationsSkipped: Int, relationMembersMissing: Int, ringsRepaired: Int
        var gapClosingAbandoned: Int
        var waysWithMissingNodes: Int, missingNodeRefs: Int, interpolationsSkipped: Int
        var nodeStoreBytes: Int, wayStoreBytes: Int
        /// Node locations and way index bytes written to scratch files beyond `memory_budget`.
        var spilledBytes: Int
        /// GeoNames and CSV files: data rows, records merged into other places, rows skipped by reason.
        var rows: Int?, linked: Int?, skipped: [String: Int]?, warnings: [String]?
    }
    var output: String
    var seconds: Double
    var outputBytes: Int
    var places: Int
    var linked: Int
    /// Addresses completed at import (`place.derived`): `streets`, `postcodes`.
    var derived: [String: Int]
    /// The file's addresses (`count`) and how many have a street and a postcode, tagged or derived; its
    /// interpolation lines.
    var addresses: [String: Int]
    var appended: Bool
    /// `--memory`, in bytes.
    var memoryBudget: Int
    var lookupTables: [String]
    var kinds: [String: Int]
    var phases: [String: Double]
    var sources: [Source]
    var timezones: TimeZoneImportReport?
    var alternateNames: AlternateNamesReport?
    var importance: ImportanceFileReport?
    /// Files an earlier import of the same output left when its process died, removed by this one.
    var leftoversRemoved: [String]

    init(_ s: ImportSummary) {
        output = s.output
        seconds = s.seconds
        outputBytes = s.outputBytes
        places = s.places
        linked = s.linked
        derived = ["streets": s.derived.streets, "postcodes": s.derived.postcodes]
        let a = s.addresses
        addresses = ["count": a.addresses, "with_street": a.withStreet, "street_derived": a.streetDerived, "with_postcode": a.withPostcode,
                     "postcode_derived": a.postcodeDerived, "interpolation_lines": a.interpolationLines]
        appended = s.appended
        memoryBudget = s.memoryBudget
        lookupTables = s.lookupTables
        timezones = s.timeZones.map(TimeZoneImportReport.init)
        alternateNames = s.alternateNames.map(AlternateNamesReport.init)
        importance = s.importanceFile.map(ImportanceFileReport.init)
        leftoversRemoved = s.leftoversRemoved
        kinds = Dictionary(uniqueKeysWithValues: s.countsByKind.map { ($0.key.rawValue, $0.value) })
        phases = Dictionary(s.phases.map { ($0.name, $0.seconds) }, uniquingKeysWith: +)
        sources = s.sources.map { src in
            Source(name: src.name, format: src.format.rawValue, sizeBytes: src.sizeBytes, places: src.places,
                   nodes: src.read.nodes, ways: src.read.ways, relations: src.read.relations,
                   invalidCoordinates: src.read.invalidCoordinates, relationsAssembled: src.build.relationsAssembled,
                   relationsSkipped: src.build.relationsSkipped, relationMembersMissing: src.build.relationMembersMissing,
                   ringsRepaired: src.build.ringsRepaired, gapClosingAbandoned: src.build.gapClosingAbandoned,
                   waysWithMissingNodes: src.build.waysWithMissingNodes, missingNodeRefs: src.build.missingNodeRefs,
                   interpolationsSkipped: src.build.interpolationsSkipped, nodeStoreBytes: src.build.nodeStoreBytes,
                   wayStoreBytes: src.build.wayStoreBytes, spilledBytes: src.build.spilledBytes, rows: src.records?.rows,
                   linked: src.records.map { _ in src.linked },
                   skipped: src.records.map(Self.skipped), warnings: src.records?.warnings)
        }
    }

    /// Rows skipped, by reason's key.
    static func skipped(_ records: RecordStats) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: records.skipped.map { ($0.key.rawValue, $0.value) })
    }

    /// The summary as text for the terminal: files, places by kind, phases.
    static func describe(_ s: ImportSummary) -> String {
        let verb = s.appended ? "Added" : "Imported"
        let added = s.appended ? "\(Format.count(s.places)) places added" : "\(Format.count(s.places)) places"
        let files = s.sources.count + (s.timeZones == nil ? 0 : 1)
        var lines = ["\(verb) \(files) file\(files == 1 ? "" : "s") \(s.appended ? "to" : "into") \(s.output) in \(Format.seconds(s.seconds)) (\(Format.bytes(s.outputBytes)), \(added))"]
        if !s.leftoversRemoved.isEmpty { lines.append("  removed \(Format.leftovers(s.leftoversRemoved, of: "import"))") }
        if !s.lookupTables.isEmpty { lines.append("  names from \(s.lookupTables.joined(separator: ", "))") }
        if let names = s.alternateNames { lines += describe(names) }
        for source in s.sources {
            if let records = source.records {
                lines.append(contentsOf: describe(source, records))
                continue
            }
            let r = source.read, b = source.build
            lines.append("  \(source.name) (\(source.format.rawValue), \(Format.bytes(source.sizeBytes))): \(Format.count(r.nodes)) nodes, \(Format.count(r.ways)) ways, \(Format.count(r.relations)) relations → \(Format.count(source.places)) places")
            lines.append("    " + describeMemory(b, budget: s.memoryBudget))
            let repaired = b.ringsRepaired > 0 ? " (\(Format.count(b.ringsRepaired, "ring")) closed across missing ways)" : ""
            lines.append("    relations assembled \(Format.count(b.relationsAssembled))\(repaired), skipped \(Format.count(b.relationsSkipped)) (rings not closed: cut at the extract edge or broken); street segments \(Format.count(b.streetSegments))")
            if b.gapClosingAbandoned > 0 {
                lines.append("    \(Format.count(b.gapClosingAbandoned)) relations with too many loose ends to search for gaps to close (imported from the rings their ways close)")
            }
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
        if let timeZones = s.timeZones { lines += describe(timeZones) }
        if let importance = s.importanceFile { lines += describe(importance) }
        let kinds = s.countsByKind.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
        if !kinds.isEmpty {
            lines.append("  places by kind: " + kinds.map { "\($0.key.rawValue) \(Format.count($0.value))" }.joined(separator: " · "))
        }
        if s.addresses.addresses > 0 {
            let a = s.addresses
            lines.append("  addresses \(Format.count(a.addresses)): \(Format.count(a.withStreet)) with a street "
                         + "(\(Format.count(a.streetDerived)) derived), \(Format.count(a.withPostcode)) with a postcode "
                         + "(\(Format.count(a.postcodeDerived)) derived)"
                         + (a.interpolationLines > 0 ? "; interpolation lines \(Format.count(a.interpolationLines))" : ""))
        }
        if s.derived.streets > 0 || s.derived.postcodes > 0 {
            lines.append("  addresses completed: \(Format.count(s.derived.streets)) given the nearest named street, "
                         + "\(Format.count(s.derived.postcodes)) the postcode of the addresses around")
        }
        lines.append("  time: " + s.phases.map { "\($0.name) \(Format.seconds($0.seconds))" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// "memory: node locations 2.0 MB, way index 262 KB (budget 6.0 GiB)", and what went to disk beyond it.
    static func describeMemory(_ b: OSMBuildStats, budget: Int) -> String {
        let held = "memory: node locations \(Format.bytes(b.nodeStoreBytes)), way index \(Format.bytes(b.wayStoreBytes))"
        guard b.spilledBytes > 0 else { return held + " (budget \(MemorySize.text(budget)))" }
        return held + ", past the budget (\(MemorySize.text(budget))) \(Format.bytes(b.spilledBytes)) more in a scratch file"
    }

    /// The lines of a GeoNames or CSV source: rows read, places imported and linked, rows skipped and why.
    static func describe(_ source: ImportedSource, _ records: RecordStats) -> [String] {
        var line = "  \(source.name) (\(source.format.rawValue), \(Format.bytes(source.sizeBytes))): \(Format.count(records.rows)) rows → \(Format.count(source.places)) places"
        if source.linked > 0 { line += ", \(Format.count(source.linked)) merged into places of other files" }
        line += ", \(Format.count(records.skippedTotal)) skipped"
        return [line] + describeSkipped(records)
    }

    /// "    skipped: 3 with invalid coordinates, 1 without a name", when rows were skipped.
    static func describeSkipped(_ records: RecordStats) -> [String] {
        guard records.skippedTotal > 0 else { return [] }
        let reasons = records.skipped.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
        return ["    skipped: " + reasons.map { "\(Format.count($0.value)) \($0.key)" }.joined(separator: ", ")]
    }

    /// The lines of GeoNames alternate names files: each file's rows and what was not for this import, then
    /// what the names became.
    static func describe(_ s: AlternateNamesSummary) -> [String] {
        var lines: [String] = []
        for file in s.files {
            let records = file.records
            lines.append("  \(file.name) (\(InputFormat.alternateNames.rawValue), \(Format.bytes(file.sizeBytes))): \(Format.count(records.rows)) rows, "
                         + "\(Format.count(file.otherPlaces)) for places not imported, \(Format.count(file.notNames)) not names "
                         + "(postal codes, airport and other codes, links), \(Format.count(records.skippedTotal)) skipped")
            lines += describeSkipped(records)
        }
        let n = s.names
        lines.append("    alternate names of \(Format.count(n.places)) places: \(Format.count(n.languageNames)) names in a language, "
                     + "\(Format.count(n.alternates)) alternates, \(Format.count(n.wikidataIDs)) Wikidata ids; "
                     + "\(Format.count(n.duplicates)) not added (names the places have)")
        return lines
    }

    /// The lines of an importance file: rows read, the places it was read for and what it did to them.
    static func describe(_ s: ImportanceFileStats) -> [String] {
        let records = s.records
        guard s.taggedPlaces > 0 else {
            return ["  \(s.name) (importance, \(Format.bytes(s.sizeBytes))): not read: no place of this import has a wikidata or wikipedia tag"]
        }
        return ["  \(s.name) (importance, \(Format.bytes(s.sizeBytes))): \(Format.count(records.rows)) rows, \(Format.count(records.skippedTotal)) skipped; "
                + "of \(Format.count(s.taggedPlaces)) places with a wikidata or wikipedia tag \(Format.count(s.matchedByWikidata)) matched by "
                + "Wikidata id, \(Format.count(s.matchedByTitle)) by Wikipedia title, \(Format.count(s.raised)) raised"] + describeSkipped(records)
    }

    /// The lines of a timezone boundary file: zones, polygons, the grid.
    static func describe(_ s: TimeZoneImportStats) -> [String] {
        [
            "  \(s.name) (timezone.geojson, \(Format.bytes(s.sizeBytes))): \(Format.count(s.zones)) zones, \(Format.count(s.polygons)) polygons (\(Format.count(s.holes)) holes), \(Format.count(s.vertices)) vertices"
                + (s.degenerateRings > 0 ? "; \(Format.count(s.degenerateRings)) degenerate rings dropped" : "")
                + (s.countryPlaces > 0 ? " → \(Format.count(s.countryPlaces)) country places" : ""),
            "    grid to level \(s.gridLevel) (1/\(1 << s.gridLevel)°): \(Format.count(s.gridCells)) cells inside one zone, \(Format.count(s.gridBorderCells)) border cells; read \(Format.seconds(s.readSeconds)), grid \(Format.seconds(s.gridSeconds))",
        ]
    }
}

/// The alternate names part of `geodb import --json`.
struct AlternateNamesReport: Encodable {
    struct File: Encodable {
        var name: String, sizeBytes: Int, rows: Int, otherPlaces: Int, notNames: Int, skipped: [String: Int], warnings: [String]
    }
    var files: [File]
    /// `wikidata`: places given a `wikidata` tag.
    var places: Int, languageNames: Int, alternates: Int, duplicates: Int, wikidata: Int

    init(_ s: AlternateNamesSummary) {
        files = s.files.map { File(name: $0.name, sizeBytes: $0.sizeBytes, rows: $0.records.rows, otherPlaces: $0.otherPlaces,
                                   notNames: $0.notNames, skipped: ImportReport.skipped($0.records), warnings: $0.records.warnings) }
        places = s.names.places; languageNames = s.names.languageNames; alternates = s.names.alternates
        duplicates = s.names.duplicates; wikidata = s.names.wikidataIDs
    }
}

/// The importance file part of `geodb import --json`.
struct ImportanceFileReport: Encodable {
    var name: String, sizeBytes: Int, rows: Int, skipped: [String: Int], warnings: [String]
    /// Places with a wikidata or wikipedia tag; of those, matched by Wikidata id, by Wikipedia title; raised.
    var tagged: Int, wikidata: Int, title: Int, raised: Int

    init(_ s: ImportanceFileStats) {
        name = s.name; sizeBytes = s.sizeBytes; rows = s.records.rows; skipped = ImportReport.skipped(s.records)
        warnings = s.records.warnings; tagged = s.taggedPlaces; wikidata = s.matchedByWikidata; title = s.matchedByTitle; raised = s.raised
    }
}

/// The timezone part of `geodb import --json`.
struct TimeZoneImportReport: Encodable {
    var name: String, sizeBytes: Int, zones: Int, polygons: Int, holes: Int, vertices: Int, degenerateRings: Int
    var gridLevel: Int, gridCells: Int, gridBorderCells: Int, readSeconds: Double, gridSeconds: Double
    /// Country places made from the zones (`ZoneCountryPlaces`).
    var countryPlaces: Int

    init(_ s: TimeZoneImportStats) {
        name = s.name; sizeBytes = s.sizeBytes; zones = s.zones; polygons = s.polygons; holes = s.holes
        vertices = s.vertices; degenerateRings = s.degenerateRings; gridLevel = s.gridLevel; gridCells = s.gridCells
        gridBorderCells = s.gridBorderCells; readSeconds = s.readSeconds; gridSeconds = s.gridSeconds
        countryPlaces = s.countryPlaces
    }
}
