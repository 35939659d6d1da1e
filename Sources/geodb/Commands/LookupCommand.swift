// `geodb lookup`: everything about one place, by its id or source id.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Lookup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Everything about one place: names, address, category, tags, geometry, source.")

        @OptionGroup var database: DatabaseArgument

        @Argument(help: "The place: its id (42) or its source id (n123, w45, r6, geonames:658225, csv:stores.csv:17).")
        var place: String

        @OptionGroup var output: JSONOption

        func run() throws {
            let details = try database.open().lookup(place)
            if output.json {
                print(try Format.json(details))
                return
            }
            let p = details.place
            var lines = ["\(p.name ?? p.displayName)  (\(p.kind.rawValue)\(p.categoryID.map { ", " + $0 } ?? ""))",
                         "  id \(p.id), source \(details.source) \(p.sourceRef), category \(p.category ?? "-")",
                         String(format: "  at %.7f, %.7f", p.lat, p.lon),
                         "  address: \(p.displayName)"]
            if !details.names.isEmpty {
                lines.append("  names:")
                lines += details.names.map { "    \($0.name)  (\($0.type)\($0.lang.map { ":" + $0 } ?? ""))" }
            }
            if !p.tags.isEmpty {
                lines.append("  tags:")
                lines += p.tags.sorted { $0.key < $1.key }.map { "    \($0.key)=\($0.value)" }
            }
            if let g = details.geometry { lines.append("  geometry: \(g)") }
            Terminal.show(lines.joined(separator: "\n"))
        }
    }
}
