// `geodb serve`: the databases over HTTP (Nominatim's, Photon's and geodb's own API, a web page), until
// SIGTERM or Ctrl-C, which finish the requests in flight first.
import ArgumentParser
import Foundation
import GeoDB
import GeoDBServer
import Logging

extension GeoDBCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve databases over HTTP: Nominatim and Photon APIs, geodb's /v1 API, a search page with a map.",
            discussion: """
                Several files are served as one (search merges by score; reverse, nearby and maps ask the files \
                whose extent reaches the point). A file replaced by a new import is opened anew within --watch \
                seconds or on SIGHUP, with no failed request; so is a file copied over in place (cp, rsync \
                --inplace), though requests reading it while it changes fail (500). SIGTERM finishes the \
                requests in flight and exits.
                """)

        @Argument(help: ArgumentHelp("The database files, served as one.", valueName: "database"))
        var databases: [String]

        @Option(help: "Address to listen on (0.0.0.0 for every interface).")
        var host = "127.0.0.1"

        @Option(help: "Port to listen on (0: any free port, printed when listening).")
        var port = 8080

        @Option(name: .customLong("time-limit"), help: "Seconds a request may run, writing its answer included, before it is stopped (503).")
        var timeLimit = 10.0

        @Option(name: .customLong("max-response-bytes"),
                help: "Largest answer in bytes (before compression); a larger one is not sent but answered with an error (500).")
        var maxResponseBytes = ServerConfiguration.defaultMaxResponseBytes

        @Option(help: "Access-Control-Allow-Origin: '*' for any web page, 'none', or a comma-separated list of origins.")
        var cors = "*"

        @Option(help: "Seconds between checks for database files replaced by a new import (0: only on SIGHUP).")
        var watch = 2.0

        @Option(help: ArgumentHelp(
            "A raster tile URL template the page's map shows, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (default: none; the page draws the databases' own streets and areas, offline).",
            valueName: "url"))
        var tiles: String?

        @Option(name: .customLong("tiles-attribution"), help: "The credit the tiles' licence asks for, shown on the map under them.")
        var tilesAttribution = DataAttribution.openStreetMap.text

        @Flag(help: ArgumentHelp(
            "Start even when a database file is missing or does not open yet: answer 503 (Nominatim's /status: its failure) until every file opens, which is tried at each --watch.",
            discussion: "For a server started before its data, as a container beside an import job: /status is the readiness check."))
        var wait = false

        @Flag(help: ArgumentHelp(
            "Map the database files instead of reading them: faster, for files that are only ever replaced by renaming a new one over them.",
            discussion: "A file copied over in place (cp, rsync --inplace) while mapped kills the server (SIGBUS); geodb import --output renames, which is safe."))
        var immutable = false

        @Flag(help: "Log only errors, not every request.")
        var quiet = false

        func validate() throws {
            guard !databases.isEmpty else { throw ValidationError("give at least one database file") }
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port (0…65535)") }
            guard timeLimit > 0, timeLimit <= 3600 else { throw ValidationError("--time-limit must be 0 < seconds ≤ 3600") }
            guard watch >= 0, watch <= 86400 else { throw ValidationError("--watch must be 0…86400 seconds") }
            // An error answer (about 200 bytes) is never refused, but a limit below a page of results is a mistake.
            guard maxResponseBytes >= 1_024 else { throw ValidationError("--max-response-bytes must be at least 1024") }
            if let tiles {
                // The page fetches the tiles itself: a URL it cannot fetch, or without the places of z, x and y, shows a blank map.
                guard tiles.hasPrefix("https://") || tiles.hasPrefix("http://"),
                      ["{z}", "{x}", "{y}"].allSatisfy(tiles.contains) else {
                    throw ValidationError("--tiles must be an http(s) URL with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png")
                }
            }
        }

        func run() async throws {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = quiet ? .warning : .info
                return handler
            }
            var configuration = ServerConfiguration(databases: databases)
            configuration.host = host
            configuration.port = port
            configuration.timeLimit = .milliseconds(Int64(timeLimit * 1000))
            configuration.maxResponseBytes = maxResponseBytes
            configuration.corsOrigins = cors == "none" ? nil : cors.split(separator: ",").map(String.init)
            configuration.watchInterval = watch > 0 ? .milliseconds(Int64(watch * 1000)) : nil
            configuration.waitForDatabases = wait
            configuration.immutableDatabases = immutable
            configuration.tiles = tiles
            configuration.tilesAttribution = tilesAttribution
            let databases = databases, host = host
            try await GeoDBServer.run(configuration, logger: Logger(label: "geodb")) { port in
                // Written whole at once (tests and scripts wait for this line to learn the port).
                FileHandle.standardOutput.write(Data("geodb serve: listening on http://\(host):\(port)/ (\(databases.joined(separator: ", ")))\n".utf8))
            }
        }
    }
}
