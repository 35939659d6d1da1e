// Options every query command shares, declared once: the database argument and the JSON switch.
import ArgumentParser
import GeoDB

/// The database file a command reads.
struct DatabaseArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The database file.", valueName: "database"))
    var path: String

    /// The database, opened for queries.
    func open() throws -> GeoDatabase { try GeoDatabase(path: path) }
}

/// `--json`: print what the command found as JSON instead of a table.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON.")
    var json = false
}
