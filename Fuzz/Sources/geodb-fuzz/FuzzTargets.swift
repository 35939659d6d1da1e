// What each fuzz target does with one input. The target is chosen by GEODB_FUZZ_TARGET (Tools/verify/fuzz.sh sets
// it); every input must end in a return or a thrown GeoDBError, never a trap, a hang or a leftover file.
import Foundation
import GeoDB
import GeoDBImport

/// The directory for the input file and the database an input is imported into: GEODB_FUZZ_SCRATCH
/// (Tools/verify/fuzz.sh: fuzz-work/TARGET/scratch), else one in the temporary directory.
let scratch: String = {
    let path = ProcessInfo.processInfo.environment["GEODB_FUZZ_SCRATCH"] ?? NSTemporaryDirectory() + "geodb-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

enum FuzzTarget: String, CaseIterable {
    /// An input file of any format (the seed corpus decides which reader is mostly hit: OSM PBF or XML,
    /// GeoJSON timezones, GeoNames, CSV), imported whole: readers, place building, geometry, writer.
    case `import`
    /// A search text, parsed and run on a small database (query parsing, FTS5 query building, ranking), and
    /// taken as a cursor of a search's and a nearby list's next page.
    case query
    /// A database file (a geodb database with bytes changed), opened and queried.
    case database

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["GEODB_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("set GEODB_FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()

    func run(_ input: Data) {
        switch self {
        case .import: importFile(input)
        case .query: search(input)
        case .database: queryDatabase(input)
        }
    }

    private func importFile(_ input: Data) {
        let file = scratch + "/input", output = scratch + "/output.sqlite"
        try? input.write(to: URL(fileURLWithPath: file))
        var options = ImportOptions()
        options.force = true
        options.cacheMiB = 4
        _ = try? Importer.run(inputs: [file], output: output, options: options)
        // A failed import must leave nothing but its input and any earlier output. (Temporary files are named
        // after the process: those of a run that was killed are not this one's.)
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).filter { $0.contains(".tmp-\(getpid())") }
        if !left.isEmpty { fatalError("temporary files left: \(left)") }
    }

    /// The database the query target searches: the grid fixture, imported once.
    /// (libFuzzer runs inputs one at a time, on one thread.)
    nonisolated(unsafe) private static let session: QuerySession = {
        let output = scratch + "/query.sqlite"
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Tests/Fixtures/grid.osm").path
        do {
            var options = ImportOptions()
            options.force = true
            _ = try Importer.run(inputs: [fixture], output: output, options: options)
            return try QuerySession(path: output)
        } catch {
            fatalError("cannot build the query database: \(error)")
        }
    }()

    private func search(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        var options = SearchOptions()
        _ = try? Self.session.search(text, options: options)
        options.autocomplete = true
        _ = try? Self.session.search(text, options: options)
        _ = try? Self.session.structuredSearch(street: text, housenumber: text, city: nil, postcode: nil)
        // The text as a cursor of the next page: of a search, of a nearby list.
        _ = try? Self.session.searchPage("Street", options: SearchOptions(), after: text)
        _ = try? Self.session.places(near: Coordinate(lat: 60.0, lon: 25.0), radius: 2_000, limit: 2, after: text)
    }

    private func queryDatabase(_ input: Data) {
        let file = scratch + "/database.sqlite"
        try? input.write(to: URL(fileURLWithPath: file))
        guard let session = try? QuerySession(path: file) else { return }
        _ = try? session.search("Kauppa")
        _ = try? session.lookup("1")
        _ = try? session.reverse(at: Coordinate(lat: 60.17, lon: 24.94))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

/// libFuzzer's driver: runs `fuzzOneInput` on the corpus and mutations of it, or on the files given.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The program's entry: SwiftPM names an executable's `main` after its module, so libFuzzer's own `main`
/// is not the one linked; this starts libFuzzer's driver instead.
@_cdecl("geodb_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
