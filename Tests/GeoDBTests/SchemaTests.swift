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

    @Test func embeddedTaxonomyMatchesSchemaFolder() throws {
        let text = try String(contentsOf: TestPaths.root.appendingPathComponent("Schema/categories.tsv"), encoding: .utf8)
        #expect(SchemaFiles.categoriesTSV + "\n" == text, "run Tools/generate/generate-schema.sh after editing Schema/categories.tsv")
        let levels = try String(contentsOf: TestPaths.root.appendingPathComponent("Schema/admin_levels.tsv"), encoding: .utf8)
        #expect(SchemaFiles.adminLevelsTSV + "\n" == levels, "run Tools/generate/generate-schema.sh after editing Schema/admin_levels.tsv")
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

/// The schema version README and the contract state is the one the code writes (they said 5 and 6 while
/// files were version 8, so a reader written from them refused every file).
@Suite struct DocumentedVersionTests {
    @Test func readmeAndContractStateTheSchemaVersionTheCodeWrites() throws {
        let patterns = [#"PRAGMA user_version` = (\d+)"#, #"schema version (\d+)"#, #"`schema_version` \| `(\d+)`"#,
                        #"Schema: +version (\d+)"#]
        var found = 0
        for file in ["README.md", "docs/SCHEMA.md"] {
            let text = try String(contentsOf: TestPaths.root.appendingPathComponent(file), encoding: .utf8)
            for pattern in patterns {
                for match in text.matches(of: try Regex<(Substring, Substring)>(pattern)) {
                    #expect(Int64(match.output.1) == Schema.version, "\(file): \(match.output.0)")
                    found += 1
                }
            }
        }
        #expect(found >= 4)
    }
}
