// swift-tools-version:6.1
// geodb: an embedded, SQLite-backed geodatabase toolkit (import OSM and gazetteers, query offline).
import PackageDescription

let package = Package(
    name: "geodb",
    products: [
        .library(name: "GeoDB", targets: ["GeoDB"]),
        .library(name: "GeoDBImport", targets: ["GeoDBImport"]),
        .library(name: "GeoDBExport", targets: ["GeoDBExport"]),
        .executable(name: "geodb", targets: ["geodb"]),
        .executable(name: "geodb-bench", targets: ["geodb-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The HTTP server of `geodb serve` (SwiftNIO underneath); no default traits: they pull in
        // swift-configuration, which the server does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CMalloc"),
        // Thin checked layer over the SQLite C API: connections, statements, errors.
        .target(name: "GeoDBSQLite", dependencies: ["CSQLite"]),
        // Runtime library an app links to read a database: schema, model, queries, inspection.
        .target(name: "GeoDB", dependencies: ["GeoDBSQLite"]),
        // Output files written whole or not at all: a temporary file renamed into place, removed on Ctrl-C.
        .target(name: "GeoDBFileOutput", dependencies: ["GeoDB"]),
        // Readers for every input format and the importer that writes a database.
        .target(name: "GeoDBImport", dependencies: ["GeoDB", "GeoDBSQLite", "GeoDBFileOutput", "CZlib", "CBzip2", "CDeflate", "CMalloc"]),
        // Writers of places as GeoJSON, CSV and GeoPackage files (`geodb export`).
        .target(name: "GeoDBExport", dependencies: ["GeoDB", "GeoDBSQLite", "GeoDBFileOutput"]),
        // `geodb serve`: the databases over HTTP in Nominatim's, Photon's and geodb's own API, the web page.
        .target(name: "GeoDBServer", dependencies: [
            "GeoDB", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["Web"]),
        // The command-line tool: argument parsing and output formatting only.
        .executableTarget(name: "geodb", dependencies: [
            "GeoDB", "GeoDBImport", "GeoDBExport", "GeoDBFileOutput", "GeoDBServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Paths to SampleData and fixtures, temporary directories, running the built geodb binary.
        .target(name: "TestSupport", dependencies: ["GeoDB", "GeoDBImport"], path: "Tests/TestSupport"),
        // In-process query benchmarks printing JSON (search, reverse, nearby, timezone), for Tools/bench/bench.py,
        // and `tile`, which makes the larger inputs (an OSM PBF read and written: GeoDBImport's reader and writer).
        .executableTarget(name: "geodb-bench", dependencies: ["GeoDB", "GeoDBSQLite", "GeoDBImport", "GeoDBFileOutput"],
                          path: "Sources/GeoDBBench"),
        .testTarget(name: "GeoDBTests", dependencies: ["GeoDB", "GeoDBSQLite", "TestSupport"]),
        .testTarget(name: "GeoDBImportTests", dependencies: ["GeoDBImport", "GeoDB", "GeoDBSQLite", "TestSupport"]),
        .testTarget(name: "GeoDBCLITests", dependencies: ["geodb", "GeoDB", "GeoDBSQLite", "TestSupport"]),
        // `geodb serve` run as a process and asked over HTTP, by URLSession, geopy and a headless browser.
        .testTarget(name: "GeoDBServerTests", dependencies: ["geodb", "GeoDBServer", "TestSupport"]),
    ]
)
