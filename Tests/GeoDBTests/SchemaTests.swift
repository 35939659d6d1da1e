// The compiled-in schema is Schema/*.sql, and readers refuse databases of another version.
import Foundation
@testable import GeoDB
import GeoDBSQLite
import Testing
import TestSupport

@Suite struct SchemaTests {
    @Test func embeddedSchemaMatchesSchemaFolder() throws {
        let folder = TestPaths.root.appendingPathComponent("Schema")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(SchemaFiles.all.map(\.name) == names, "run Tools/generate/generate-schema.sh after editing Schema/")
        for file in SchemaFiles.all {
            let text = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(file.sql + "\n" == text, "Schema/\(file.name) changed: run Tools/generate/generate-schema.sh")
        }
    }

    /// The schema objects opening a file compares with first are what this SQLite makes of `Schema/*.sql`.
    @Test func generatedSchemaObjectsAreThisSQLites() throws {
        #expect(try Schema.generatedObjectsAreThisSQLites(), "run python3 Tools/generate/generate-schema-objects.py after editing Schema/")
        #expect(Schema.generatedRequiredObjects.count > 40 && Schema.generatedOptionalObjects.count == 2)
    }

    @Test func embeddedTaxonomyMatchesSchemaFolder() throws {
        let text = try String(contentsOf: TestPaths.root.appendingPathComponent("Schema/categories.tsv"), encoding: .utf8)
        #expect(SchemaFiles.categoriesTSV + "\n" == text, "run Tools/generate/generate-schema.sh after editing Schema/categories.tsv")
        let levels = try String(contentsOf: TestPaths.root.appendingPathComponent("Schema/admin_levels.tsv"), encoding: .utf8)
        #expect(SchemaFiles.adminLevelsTSV + "\n" == levels, "run Tools/generate/generate-schema.sh after editing Schema/admin_levels.tsv")
    }

    /// The taxonomy's word lists are its comma-separated items trimmed as Foundation's `.whitespaces` trims them
    /// (the table trims without Foundation): the standard table's, and items padded with tabs and no-break spaces.
    @Test func taxonomyListsAreTrimmedItems() throws {
        func foundationList(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var checked = 0
        for line in SchemaFiles.categoriesTSV.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let category = Taxonomy.standard.category(fields[0]) else { continue }
            #expect(category.synonyms == foundationList(fields[3]), "\(fields[0])")
            #expect(category.osmTags == foundationList(fields[4]), "\(fields[0])")
            checked += 1
        }
        #expect(checked == Taxonomy.standard.categories.count && checked > 100)
        let padded = Taxonomy(tsv: "x\t\tX\t \u{00A0}coffee ,, \u{3000} ,tea\u{2003}\tamenity=x")
        #expect(padded.category("x")?.synonyms == ["coffee", "tea"])
        #expect(padded.category("x")?.osmTags == ["amenity=x"])
    }

    /// The admin level table: a country's own row wins over the default, "-" means no level, an unknown
    /// admin level is none.
    @Test func adminLevelsPerCountry() {
        let table = AdminLevels.standard
        #expect(table.level(adminLevel: 8, country: "LI") == .city)
        #expect(table.level(adminLevel: 10, country: "MC") == .suburb)
        #expect(table.level(adminLevel: 7, country: "FR") == nil)          // arrondissement: no address level
        #expect(table.level(adminLevel: 7, country: nil) == .city)        // the default
        #expect(table.level(adminLevel: 10, country: "NL") == .city)      // woonplaats
        #expect(table.level(adminLevel: 4, country: "DE") == .state)
        #expect(table.level(adminLevel: 42, country: "DE") == nil)
    }

    @Test func newDatabaseRecordsItsVersion() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("v.sqlite")
        let db = try Connection(path: path, mode: .create)
        try Schema.createTables(in: db)
        try Schema.createIndexes(in: db)
        #expect(try db.scalarInt("PRAGMA user_version") == Schema.version)
        #expect(try db.scalarText("SELECT value FROM meta WHERE key = 'schema_version'") == String(Schema.version))
        _ = try GeoDatabase(path: path)
    }

    @Test func otherVersionIsRefusedWithAClearMessage() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("old.sqlite")
        let db = try Connection(path: path, mode: .create)
        try Schema.createTables(in: db)
        try db.execute("PRAGMA user_version = 99; UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        let error = #expect(throws: GeoDBError.self) { _ = try GeoDatabase(path: path) }
        #expect(error?.code == .schemaVersionMismatch)
        #expect(error?.message.contains("version 99") == true)
        #expect(error?.remedy?.contains("re-import") == true)
    }

    @Test func plainSQLiteFileIsNotAGeoDatabase() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("other.sqlite")
        try Connection(path: path, mode: .create).execute("CREATE TABLE t(x)")
        let error = #expect(throws: GeoDBError.self) { _ = try GeoDatabase(path: path) }
        #expect(error?.code == .notAGeoDatabase)
    }

    @Test func textFileIsNotAGeoDatabase() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.txt")
        try "hello, not a database\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: GeoDBError.self) { _ = try GeoDatabase(path: path) }
        #expect(error?.code == .notAGeoDatabase)
        #expect(error?.message.contains("notes.txt") == true)
    }
}

/// Every version number the README and docs/ state is checked here, against what it claims to be: the schema
/// version the code writes (the README and the contract once said 5 and 6 while files were version 8, so a
/// reader written from them refused every file), geodb's own version, the SQLite it runs on, the Swift the
/// package needs. A version a test cannot check (a standard's, or the record of a benchmark run) is named in
/// `unchecked`; any other x.y.z in the docs fails, so that a new one gets a check or a reason.
@Suite struct DocumentedVersionTests {
    static let files = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(
        atPath: TestPaths.root.appendingPathComponent("docs").path)) ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: TestPaths.root.appendingPathComponent(file), encoding: .utf8)
    }

    /// Versions stated in the docs that no code here can confirm, and why they stand.
    static let unchecked: [(pattern: String, reason: String)] = [
        (#"GeoPackage \(?1\.3"#, "the OGC standard GeoPackageWriter writes (its application_id and user_version)"),
        (#"ODbL 1\.0"#, "the licence of the OSM data"),
        (#"CC BY 4\.0"#, "the licence of the GeoNames data"),
        (#"- Software: [^\n]*"#, "BENCHMARKS.md's record of the tools of the run it reports (written by Tools/bench/bench.sh)"),
        (#"- Machine: [^\n]*"#, "BENCHMARKS.md's record of the machine of its run"),
    ]

    @Test func schemaVersionIsTheOneTheCodeWrites() throws {
        let patterns = [#"PRAGMA user_version` = (\d+)"#, #"schema version (\d+)"#, #"`schema_version` \| `(\d+)`"#,
                        #"Schema: +version (\d+)"#]
        var found = 0
        for file in Self.files {
            let text = try Self.text(file)
            for pattern in patterns {
                for match in text.matches(of: try Regex<(Substring, Substring)>(pattern)) {
                    #expect(Int64(match.output.1) == Schema.version, "\(file): \(match.output.0)")
                    found += 1
                }
            }
        }
        #expect(found >= 3)   // the contract's title and meta table, the inspect output of docs/CLI.md
    }

    @Test func everyOtherVersionIsCheckedOrExplained() throws {
        let sqlite = try #require(try Connection(path: ":memory:", mode: .create).scalarText("SELECT sqlite_version()"))
        let package = try String(contentsOf: TestPaths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tools = try #require(package.firstMatch(of: #/swift-tools-version:(\d+\.\d+)/#)).output.1
        // What each versioned name must say.
        let checked: [(pattern: String, expected: String)] = [
            (#"geodb (\d+\.\d+\.\d+)"#, GeoDBVersion.string),
            (#"SQLite (\d+\.\d+\.\d+)"#, sqlite),
            (#"Swift (\d+\.\d+) or later"#, String(tools)),
        ]
        var found = 0
        for file in Self.files {
            var text = try Self.text(file)
            for (pattern, expected) in checked {
                for match in text.matches(of: try Regex<(Substring, Substring)>(pattern)) {
                    #expect(match.output.1 == expected, "\(file): '\(match.output.0)', not \(expected)")
                    found += 1
                }
                text = text.replacing(try Regex(pattern), with: "")
            }
            for (pattern, _) in Self.unchecked { text = text.replacing(try Regex(pattern), with: "") }
            // The minimum SQLite of the contract: no newer than the one the tests run on.
            for match in text.matches(of: #/SQLite 3 file \((\d+)\.(\d+) or later/#) {
                let parts = sqlite.split(separator: ".").compactMap { Int($0) }
                #expect(parts.count >= 2 && (parts[0], parts[1]) >= (3, Int(match.output.2) ?? .max), "\(file): \(match.output.0)")
            }
            // Any other x.y.z (not an IP address, not part of a longer number) has no check: name it above.
            for match in text.matches(of: #/(?:^|[^\d.])(\d+\.\d+\.\d+)(?![\d.])/#) {
                Issue.record("\(file): version \(match.output.1) is neither checked nor explained in DocumentedVersionTests")
            }
        }
        #expect(found >= 3)
    }
}
