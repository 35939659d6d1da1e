// The traps a new user falls into on the command line, each answered the same way by every command: a
// mistyped option is named as one (with ArgumentParser's suggestion), a point is "LAT LON" or "LAT,LON",
// swapped coordinates are warned about, a directory is refused at once in one line, and the exit status
// is 64 for a usage error or a bad value and 1 for a file or data problem.
import Foundation
import Testing
import TestSupport

@Suite struct CLITrapTests {
    static let helsinki = Result { try TestDatabases.helsinki() }
    static let timezones = Result { try TestDatabases.helsinkiWithTimeZones() }

    /// `arguments` with DB and TZ replaced by the Helsinki database and the one with timezones.
    static func run(_ arguments: [String]) throws -> ProcessResult {
        let db = try helsinki.get(), tz = try timezones.get()
        return try runGeodb(arguments.map { $0 == "DB" ? db : $0 == "TZ" ? tz : $0 })
    }

    /// A mistyped option is an unknown option on every command, after the positionals too (`reverse`,
    /// `nearby` and `timezone` take what ArgumentParser does not recognise as their point, for negative
    /// coordinates; `search` and `lookup` would take the value after it as more text).
    @Test(arguments: [
        (["reverse", "DB", "60.17", "24.94", "--limt", "3"], "--limt", "--limit"),
        (["reverse", "DB", "-33.9", "151.2", "--kidn", "street"], "--kidn", "--kind"),
        (["nearby", "DB", "60.17", "24.94", "--radus", "100"], "--radus", "--radius"),
        (["nearby", "DB", "--bbox", "24.9,60.1,24.95,60.2", "--categroy", "cafe"], "--categroy", "--category"),
        (["timezone", "TZ", "60.17", "24.94", "--jsn"], "--jsn", "--json"),
        (["search", "DB", "Kamppi", "--limt", "3"], "--limt", "--limit"),
        (["lookup", "DB", "n1", "--jsn", "3"], "--jsn", "--json"),
        (["export", "DB", "--formt", "csv"], "--formt", "--format"),
        (["export", "DB", "--format", "gpkg", "--ouptut", "x.gpkg"], "--ouptut", "--output"),
        (["import", "x.osm.pbf", "--outptu", "x.sqlite"], "--outptu", "--output"),
        (["inspect", "DB", "--chek"], "--chek", "--check"),
        (["categories", "DB", "--al"], "--al", "--all"),
        (["serve", "DB", "--prot", "0"], "--prot", "--port"),
    ] as [([String], String, String)])
    func unknownOptionIsNamed(_ arguments: [String], _ option: String, _ meant: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: Unknown option '\(option)'. Did you mean '\(meant)'?\nUsage: geodb \(arguments[0])"),
                "\(result.stderr)")
    }

    /// Negative coordinates stay values, alone, after several databases and before options.
    @Test func negativeCoordinatesAreValues() throws {
        let reverse = try Self.run(["reverse", "DB", "-33.9", "151.2", "--kind", "city", "--json"])
        #expect(reverse.status == 0 && reverse.stderr.isEmpty, "\(reverse.stderr)")
        let nearby = try Self.run(["nearby", "DB", "-33.9", "-151.2"])
        #expect(nearby.status == 0 && nearby.stdout == "nothing within 500 m\n", "\(nearby.stderr)")
        let two = try Self.run(["reverse", "DB", try TestDatabases.liechtenstein(), "-33.9,151.2", "--limit", "2", "--json"])
        #expect(two.status == 0, "\(two.stderr)")
        let zone = try Self.run(["timezone", "TZ", "-44.0", "-176.5", "--json"])
        #expect(zone.status == 0, "\(zone.stderr)")
        let ended = try Self.run(["reverse", "DB", "--kind", "city", "--json", "--", "-33.9", "151.2"])
        #expect(ended.status == 0 && ended.stdout == reverse.stdout, "\(ended.stderr)")
        let late = try Self.run(["reverse", "DB", "--", "-33.9", "151.2", "--json"])
        #expect(late.status == 64 && late.stderr.hasPrefix("Error: '--json' comes after '--', which ends the options"), "\(late.stderr)")
    }

    /// "LAT,LON" (as `search` and `--near` take it) is the same point as "LAT LON", on every command with a point.
    @Test(arguments: ["reverse", "nearby", "timezone"])
    func latCommaLonIsAPoint(_ command: String) throws {
        let database = command == "timezone" ? "TZ" : "DB"
        // A fixed time for timezone: its answer holds the clock at `--at` (now by default), which moves between runs.
        let options = command == "timezone" ? ["--json", "--at", "2026-07-01T12:00:00Z"] : ["--json"]
        let apart = try Self.run([command, database, "60.1699", "24.9384"] + options)
        #expect(apart.status == 0, "\(apart.stderr)")
        for form in [["60.1699,24.9384"], ["60.1699,", "24.9384"], ["60.1699, 24.9384"]] {
            let joined = try Self.run([command, database] + form + options)
            #expect(joined.status == 0 && joined.stdout == apart.stdout, "\(form): \(joined.stderr)")
        }
        let three = try Self.run([command, database, "60.1,24.9,3"])
        #expect(three.status == 64 && three.stderr.hasPrefix("Error: expected LAT LON (or LAT,LON), got 60.1,24.9,3"), "\(three.stderr)")
    }

    /// A point outside the file's places whose swap is inside is warned about on standard error, the swap
    /// hinted; the answer is still for the point given. Inside, or with neither inside, no warning.
    @Test func swappedCoordinatesAreWarnedAbout() throws {
        let swapped = try Self.run(["reverse", "DB", "24.9384", "60.1699"])
        #expect(swapped.status == 0)
        #expect(swapped.stderr == "warning: 24.9384, 60.1699 (lat, lon) lies outside the database's places but 60.1699, 24.9384 "
                + "inside: latitude and longitude swapped? Answering for 24.9384, 60.1699; for the other give 60.1699 24.9384\n")
        #expect(swapped.stdout.hasPrefix("nothing within"), "\(swapped.stdout)")   // outside every area of the file
        for arguments in [["nearby", "DB", "24.9384", "60.1699"], ["timezone", "TZ", "24.9384,60.1699"],
                          ["reverse", try TestDatabases.liechtenstein(), "DB", "24.9384", "60.1699"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 0 && result.stderr.contains("60.1699 24.9384"), "\(arguments): \(result.stderr)")
        }
        for arguments in [["reverse", "DB", "60.1699", "24.9384"], ["reverse", "DB", "-33.9", "151.2"], ["nearby", "DB", "10", "20"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
    }

    /// A directory where a database is expected: one line, exit status 1, on every command that reads one.
    @Test(arguments: [["reverse", "DIR", "60.17", "24.94"], ["reverse", "DB", "DIR", "60.17", "24.94"], ["nearby", "DIR", "60.17", "24.94"],
                      ["timezone", "DIR", "60.17", "24.94"], ["search", "DIR", "Kamppi"], ["search", "DB", "DIR", "Kamppi"],
                      ["lookup", "DIR", "n1"], ["export", "DIR"], ["inspect", "DIR"], ["inspect", "DIR", "--check"],
                      ["categories", "DIR"], ["serve", "DIR", "--port", "0"]])
    func directoryIsNoDatabase(_ arguments: [String]) throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path("data")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let result = try Self.run(arguments.map { $0 == "DIR" ? directory : $0 })
        #expect(result.status == 1 && result.stderr == "Error: \(directory) is a directory, not a database file\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// `import --force` and `export --force` onto a directory are refused before any input is read (the
    /// input here is not even importable), and leave nothing behind.
    @Test func directoryIsNoOutput() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path("out"), input = scratch.path("garbage.osm.pbf")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try "not a map".write(toFile: input, atomically: true, encoding: .utf8)
        for arguments in [["import", input, "-o", directory, "--force"], ["import", input, "-o", directory],
                          ["export", "DB", "-o", directory, "--force"], ["export", "DB", "--format", "gpkg", "-o", directory, "--force"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 1 && result.stderr == "Error: \(directory) is a directory, not a file to write (give a file name)\n",
                    "\(arguments): \(result.stderr)")
        }
        let asInput = try Self.run(["import", directory, "-o", scratch.path("x.sqlite")])
        #expect(asInput.status == 1 && asInput.stderr == "Error: \(directory) is a directory, not a file to import nor a directory of TIGER CSV files\n", "\(asInput.stderr)")
        #expect(scratch.contents() == ["garbage.osm.pbf", "out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// One rule for every command: 64 for a usage error or a bad value (ArgumentParser's, the CLI's and the
    /// library's checks of option values alike), 1 for files and data (missing, not geodb, nothing there).
    @Test(arguments: [
        (["reverse", "DB"], 64, "Error: missing the point: geodb reverse DB LAT LON (or LAT,LON)"),
        (["reverse", "DB", "91", "0"], 64, "Error: LAT LON 91, 0 is out of range"),
        (["reverse", "DB", "60.17", "24.94", "--limit", "0"], 64, "Error: --limit 0 is out of range (1…100)"),
        (["reverse", "DB", "60.17", "24.94", "--kind", "planet"], 64, "Error: --kind 'planet' is none of"),
        (["nearby", "DB", "60.17", "24.94", "--category", "cofee"], 64, "Error: unknown category 'cofee' (did you mean: cafe"),
        (["nearby", "DB", "60.17", "24.94", "--after", "zz"], 64, "Error: --after 'zz' is not a cursor"),
        (["search", "DB", "Kamppi", "--country", "FIN"], 64, "Error: --country 'FIN' is not a two-letter"),
        (["search", "DB", "Kamppi", "--category", "cafe,amenity=bar"], 64, "Error: mix of taxonomy categories and raw tags"),
        (["export", "DB", "--category", "cofee"], 64, "Error: unknown category 'cofee'"),
        (["export", "DB", "--format", "kml"], 64, "Error: unknown format 'kml'"),
        (["inspect", "DB", "--get", "nonsense"], 64, "Error: unknown key 'nonsense'"),
        (["timezone", "TZ", "60.17", "24.94", "--at", "noon"], 64, "Error: --at 'noon' is not an ISO 8601 time"),
        (["serve", "DB", "--port", "70000"], 64, "Error: --port 70000 is not a port"),
        (["import", "x.osm"], 64, "Error: give either --output"),
        (["reverse", "missing.sqlite", "60.17", "24.94"], 1, "Error: missing.sqlite: no such file"),
        (["search", "README.md", "Kamppi"], 1, "Error: README.md"),
        (["lookup", "DB", "n0"], 1, "Error: no place 'n0' in"),
        (["timezone", "DB", "60.17", "24.94"], 1, "Error: "),
        (["import", "missing.osm.pbf", "-o", "x.sqlite"], 1, "Error: missing.osm.pbf: no such file"),
        (["export", "DB", "--output", "README.md"], 1, "Error: README.md already exists"),
    ] as [([String], Int32, String)])
    func exitStatus(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let result = try Self.run(arguments.map { $0 == "README.md" ? TestPaths.root.appendingPathComponent("README.md").path : $0 })
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let stderr = result.stderr.replacingOccurrences(of: TestPaths.root.appendingPathComponent("README.md").path, with: "README.md")
        #expect(stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
    }

    /// Shell completion, as docs/CLI.md documents it.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) throws {
        let result = try runGeodb(["--generate-completion-script", shell])
        #expect(result.status == 0 && result.stdout.contains("reverse") && result.stdout.contains("limit"), "\(result.stderr)")
    }
}
