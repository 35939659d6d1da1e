// `geodb lookup`: everything about one place, by its id or source id.
import ArgumentParser
import Foundation
import GeoDB

extension GeoDBCommand {
    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lookup",
            abstract: "Everything about one place: names, address, category, tags, geometry, source.",
            discussion: "Several databases answer as one: an id across them (as their search prints it), or a source id "
                + "from the first file that has it.")

        @OptionGroup var database: DatabaseArgument

        @Argument(help: ArgumentHelp("More databases, then the place: its id (42) or its source id (n123, w45, r6, "
                                     + "geonames:658225, csv:stores.csv:17).", valueName: "database… place"))
        var words: [String] = []

        /// The databases after the first, and the place asked for.
        var parts: (more: [String], place: String) {
            get throws {
                let (more, rest) = MoreDatabases.split(words)
                guard rest.count == 1 else {
                    if rest.count > 1 { try UnknownOption.reject(Lookup.self, name: "lookup", extra: Array(rest.dropFirst())) }
                    throw ValidationError(rest.isEmpty ? "missing the place: geodb lookup DB ID" : "give one place, got \(rest.joined(separator: " "))")
                }
                return (more, rest[0])
            }
        }

        @OptionGroup var output: JSONOption

        func validate() throws { _ = try parts }

        func run() async throws {
            let (more, place) = try parts
            // The file that has the place, its details there, and the id shown (across the files, with several).
            let file: GeoDatabase, details: PlaceDetails, shownID: Int64
            if more.isEmpty {
                file = try database.open()
                details = try await file.lookup(place)
                shownID = details.place.id
            } else {
                guard let found = try await database.open(with: more).lookup(place) else {
                    throw GeoDBError(.invalidArgument, "no place '\(place)' in these databases")
                }
                (file, details) = (found.member.database, found.details)
                shownID = GeoDatabaseSet.globalID(member: found.member.index, id: details.place.id)
            }
            if output.json {
                let geometry = try await file.read { [id = details.place.id] in try $0.geometry(ofPlace: id) }
                print(ResultJSON.details(details, id: shownID, geometry: geometry).indented())
                return
            }
            var p = details.place
            p.id = shownID
            var lines = ["\(p.name ?? p.displayName)  (\(p.kind.rawValue)\(p.categoryID.map { ", " + $0 } ?? ""))",
                         "  id \(p.id), source \(details.source) \(p.sourceRef?.description ?? "-"), category \(p.category?.text ?? "-")",
                         String(format: "  at %.7f, %.7f, importance %.3f", p.lat, p.lon, details.importance),
                         "  address: \(p.displayName)"]
            if !p.address.derived.isEmpty {
                lines.append("  derived at import: " + p.address.derived.map(\.rawValue).joined(separator: ", ")
                             + " (not tagged; the nearest named street, the postcode of the addresses around)")
            }
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
