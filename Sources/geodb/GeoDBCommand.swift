// The geodb command-line tool: one subcommand per file in Commands/, options shared through Options/,
// output written by Output/. Library errors are printed with the CLI's own flag names.
import ArgumentParser
import GeoDB

@main
struct GeoDBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geodb",
        abstract: "Build and query offline geodatabases in a single SQLite file.",
        version: GeoDBVersion.string,
        subcommands: [Import.self, Inspect.self, Search.self, Lookup.self, Reverse.self, Nearby.self, Categories.self,
                      Timezone.self, Export.self, Serve.self])

    static func main() async {
        GeoDatabase.disableSQLiteMemoryStatistics()   // before any database opens
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: CLIMessages.translated(error))
        }
    }
}
