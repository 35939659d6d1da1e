// The geodb command-line tool: one subcommand per file; parsing and output formatting only.
import ArgumentParser
import GeoDB
import GeoDBSQLite

@main
struct GeoDBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geodb",
        abstract: "Build and query offline geodatabases in a single SQLite file.",
        version: GeoDBVersion.string,
        subcommands: [Import.self, Inspect.self, Search.self, Lookup.self, Reverse.self, Nearby.self, Categories.self,
                      Timezone.self, Export.self])

    static func main() {
        Connection.disableMemoryStatistics()   // before any database opens
        main(nil)
    }
}
