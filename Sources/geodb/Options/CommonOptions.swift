// Options every query command shares, declared once: the database argument and the JSON switch.
import ArgumentParser
import Foundation
import GeoDB

/// The database file a command reads.
struct DatabaseArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The database file.", valueName: "database"))
    var path: String

    /// The database, opened for queries.
    func open() throws -> GeoDatabase { try GeoDatabase(path: path) }

    /// This database and `more` answering as one (ids shown are ids across the files).
    func open(with more: [String]) throws -> GeoDatabaseSet { try GeoDatabaseSet(paths: [path] + more) }
}

/// The databases after the first of a command that answers from several files as one (`geodb search
/// a.sqlite b.sqlite Vaduz`, `geodb reverse a.sqlite b.sqlite 47.14 9.52`): the leading positional
/// arguments that name existing files; the rest are the command's own (a text, a point, an id). A
/// directory with arguments after it counts too, so that opening it says what is wrong (a directory is no
/// database); the last argument is the command's own text when it is a directory (`search DB Vaduz`
/// beside a folder `Vaduz`).
enum MoreDatabases {
    static func split(_ arguments: [String]) -> (paths: [String], rest: [String]) {
        var count = 0
        var isDirectory: ObjCBool = false
        while count < arguments.count, FileManager.default.fileExists(atPath: arguments[count], isDirectory: &isDirectory),
              !isDirectory.boolValue || count < arguments.count - 1 {
            count += 1
        }
        return (Array(arguments.prefix(count)), Array(arguments.dropFirst(count)))
    }
}

/// `--json`: print what the command found as JSON instead of a table.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON.")
    var json = false
}
