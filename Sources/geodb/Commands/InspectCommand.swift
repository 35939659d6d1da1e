// `geodb inspect`: what is in a database (like `osmium fileinfo`), and `--check` for its integrity.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show what a geodb database holds; --check verifies its integrity.")

        @OptionGroup var database: DatabaseArgument

        @OptionGroup var output: JSONOption

        @Flag(help: "Run integrity checks (SQLite, FTS5, R*Tree, cross-table counts); exit 1 on any problem.")
        var check = false

        @Option(name: [.customShort("g"), .long], help: "Print one value, e.g. place_count, bbox, kind.street, meta.generator.")
        var get: String?

        @Option(help: "How many categories to list.")
        var top = 15

        func run() throws {
            if check {
                let results = try IntegrityCheck.run(path: database.path)
                if output.json {
                    print(try Format.json(results))
                } else {
                    Terminal.show(Format.table(results.map { [$0.ok ? "ok" : "FAIL", $0.name, $0.ok ? "" : $0.detail] }))
                }
                let failures = results.filter { !$0.ok }.count
                if failures > 0 {
                    if !output.json { Terminal.show("\(failures) check\(failures == 1 ? "" : "s") failed") }
                    throw ExitCode(1)
                }
                return
            }
            let file = try database.open()
            let info = try file.info(topCategories: top)
            if let key = get {
                let values = Self.flatten(info)
                guard let value = values[key] else {
                    throw GeoDBError(.invalidArgument, "unknown key '\(key)' (known: \(values.keys.sorted().filter { !$0.contains(".") }.joined(separator: ", ")), kind.KIND, category.KEY=VALUE, meta.KEY, source.N.name, table.NAME)", option: "get")
                }
                Terminal.show(value)
            } else if output.json {
                print(ResultJSON.database(info, file: database.path, timeZones: file.hasTimeZones).indented())
            } else {
                Terminal.show(Self.describe(info))
            }
        }

        /// Every single value of the summary under a dotted key, for `--get`.
        static func flatten(_ info: DatabaseInfo) -> [String: String] {
            var values: [String: String] = [
                "path": info.path, "file_bytes": String(info.fileBytes), "schema_version": String(info.schemaVersion),
                "sqlite_version": info.sqliteVersion, "place_count": String(info.placeCount),
                "name_count": String(info.nameCount), "geometry_count": String(info.geometryCount),
                "area_count": String(info.areaCount), "source_count": String(info.sources.count),
                "link_count": String(info.linkCount),
            ]
            values["generator"] = info.generator
            values["created_at"] = info.createdAt
            if let b = info.boundingBox { values["bbox"] = "\(b.minLon),\(b.minLat),\(b.maxLon),\(b.maxLat)" }
            for kind in info.kinds { values["kind.\(kind.name)"] = String(kind.count) }
            for category in info.categories { values["category.\(category.name)"] = String(category.count) }
            for (key, value) in info.meta { values["meta.\(key)"] = value }
            for (i, s) in info.sources.enumerated() {
                values["source.\(i + 1).name"] = s.name
                values["source.\(i + 1).format"] = s.format
                values["source.\(i + 1).place_count"] = String(s.placeCount)
                values["source.\(i + 1).linked_count"] = String(s.linkedCount)
                values["source.\(i + 1).data_timestamp"] = s.dataTimestamp
            }
            for table in info.tables { values["table.\(table.name)"] = String(table.bytes) }
            return values
        }

        static func describe(_ info: DatabaseInfo) -> String {
            var lines: [String] = []
            lines.append("File:          \(info.path) (\(Format.bytes(info.fileBytes)))")
            var schema = "Schema:        version \(info.schemaVersion), written by \(info.generator ?? "?") at \(info.createdAt ?? "?")"
            if let updated = info.meta["updated_at"] { schema += ", added to at \(updated)" }
            lines.append(schema + " (SQLite \(info.meta["sqlite_version"] ?? "?"))")
            if let b = info.boundingBox {
                lines.append(String(format: "Bounding box:  %.7f,%.7f %.7f,%.7f  (min lon,lat  max lon,lat)", b.minLon, b.minLat, b.maxLon, b.maxLat))
            }
            lines.append("Sources:")
            for s in info.sources {
                var line = "  #\(s.id) \(s.name)  \(s.format)  \(Format.bytes(s.sizeBytes))  imported \(s.importedAt)  \(Format.count(s.placeCount)) places"
                if s.linkedCount > 0 { line += " (+\(Format.count(s.linkedCount)) merged into places of other sources)" }
                if let t = s.dataTimestamp { line += "\n     data as of \(t)" }
                if let seq = s.replicationSequence { line += ", replication sequence \(seq)" }
                if let url = s.replicationURL { line += " (\(url))" }
                if let program = s.writingProgram { line += "\n     written by \(program)" }
                lines.append(line)
            }
            var places = "Places:        \(Format.count(info.placeCount)) (\(Format.count(info.nameCount, "name")), \(Format.count(info.geometryCount)) geometr\(info.geometryCount == 1 ? "y" : "ies"), \(Format.count(info.areaCount, "area"))"
            if info.linkCount > 0 { places += ", \(Format.count(info.linkCount, "linked record"))" }
            lines.append(places + ")")
            lines.append("By kind:")
            lines.append(Format.table(info.kinds.map { [$0.name, Format.count($0.count)] }))
            lines.append("Top categories:")
            lines.append(Format.table(info.categories.map { [$0.name, Format.count($0.count)] }))
            if !info.tables.isEmpty {
                lines.append("Size by table and index:")
                lines.append(Format.table(info.tables.prefix(14).map { [$0.name, Format.bytes($0.bytes)] }))
            }
            return lines.joined(separator: "\n")
        }
    }
}
