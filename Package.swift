// swift-tools-version:6.0
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
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // Thin checked layer over the SQLite C API: connections, statements, errors.
        .target(name: "GeoDBSQLite", dependencies: ["CSQLite"]),
        // Runtime library an app links to read a database: schema, model, queries, inspection.
        .target(name: "GeoDB", dependencies: ["GeoDBSQLite"]),
        // Output files written whole or not at all: a temporary file renamed into place, removed on Ctrl-C.
        .target(name: "GeoDBFileOutput", dependencies: ["GeoDB"]),
        // Readers for every input format and the importer that writes a database.
        .target(name: "GeoDBImport", dependencies: ["GeoDB", "GeoDBSQLite", "GeoDBFileOutput", "CZlib", "CBzip2", "CDeflate"]),
        // Writers of places as GeoJSON, CSV and GeoPackage files (`geodb export`).
        .target(name: "GeoDBExport", dependencies: ["GeoDB", "GeoDBSQLite", "GeoDBFileOutput"]),
        // The command-line tool: argument parsing and output formatting only.
        .executableTarget(name: "geodb", dependencies: [
            "GeoDB", "GeoDBImport", "GeoDBExport", "GeoDBFileOutput",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Paths to SampleData and fixtures, temporary directories, running the built geodb binary.
        .target(name: "TestSupport", dependencies: ["GeoDB", "GeoDBImport"], path: "Tests/TestSupport"),
        // In-process query benchmarks printing JSON (search, reverse, nearby, timezone), for Tools/bench.py.
        .executableTarget(name: "geodb-bench", dependencies: ["GeoDB", "GeoDBSQLite"], path: "Sources/GeoDBBench"),
        .testTarget(name: "GeoDBTests", dependencies: ["GeoDB", "GeoDBSQLite", "TestSupport"]),
        .testTarget(name: "GeoDBImportTests", dependencies: ["GeoDBImport", "GeoDB", "GeoDBSQLite", "TestSupport"]),
        .testTarget(name: "GeoDBCLITests", dependencies: ["geodb", "GeoDB", "GeoDBSQLite", "TestSupport"]),
    ]
)
