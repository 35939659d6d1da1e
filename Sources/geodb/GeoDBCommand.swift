// The geodb command-line tool: one subcommand per file in Commands/, options shared through Options/,
// output written by Output/. Library errors are printed with the CLI's own flag names. Exit status: 0,
// 64 for a usage error or a bad value (ArgumentParser's, and a library error naming the option at fault),
// 1 for everything else (a missing, damaged or unreadable file, bad input data, nothing found).
import ArgumentParser
import Foundation
import GeoDB

@main
struct GeoDBCommand: AsyncParsableCommand {
    // Every command names itself (`commandName`): without a name ArgumentParser makes one of `String(describing:)`
    // of its type, whose dynamic casts search all of this large binary's conformance records on every run (the
    // commands' names were a third of the CLI's argument parsing, perf on `geodb search`).
    static let configuration = CommandConfiguration(
        commandName: "geodb",
        abstract: "Build and query offline geodatabases in a single SQLite file.",
        version: GeoDBVersion.string,
        subcommands: [Import.self, Inspect.self, Search.self, Lookup.self, Reverse.self, Nearby.self, Categories.self,
                      Timezone.self, Export.self, Serve.self])

    static func main() async {
        GeoDatabase.configureSQLiteForPrograms()   // before any database opens
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let error = CLIMessages.translated(error)
            if CLIMessages.isUsageError(error) {
                // Printed as ArgumentParser prints an error, with the status of a usage error.
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode.validationFailure)
            }
            exit(withError: error)
        }
    }
}
