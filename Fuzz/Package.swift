// swift-tools-version:6.0
// libFuzzer targets for geodb's readers, query parsing and database opening: a package of its own, so that
// the root package's `swift build` never builds them (they have no `main`: libFuzzer's is linked in).
// Build and run with Tools/verify/fuzz.sh TARGET SECONDS.
import PackageDescription

let package = Package(
    name: "geodb-fuzz",
    dependencies: [.package(name: "geodb", path: "..")],
    targets: [
        .executableTarget(name: "geodb-fuzz", dependencies: [
            .product(name: "GeoDB", package: "geodb"),
            .product(name: "GeoDBImport", package: "geodb"),
        ]),
    ]
)
