// place_fts keeps no positions (detail = column), so a quoted string in a MATCH expression must be one token
// of the index: FTSQuery asks FTS5's own tokenizer where a word splits.
import Foundation
import Testing
@testable import GeoDB
import GeoDBSQLite
import TestSupport

@Suite struct FullTextTokenTests {
    /// The tokenizer FTSQuery splits words with is the one Schema/003_search.sql gives place_fts.
    @Test func queriesAreSplitByTheIndexsTokenizer() throws {
        let sql = try #require(SchemaFiles.all.first { $0.name == "003_search.sql" }?.sql)
        let table = try #require(sql.range(of: "CREATE VIRTUAL TABLE place_fts USING fts5(").map { sql[$0.upperBound...] })
        let options = table.prefix { $0 != ";" }
        #expect(options.contains("tokenize = '\(FTSQuery.tokenizer.specification.joined(separator: " "))'"))
        #expect(options.contains("detail = column"))
    }

    /// FTS5's splits, not a copy of its tables: a virama and an apostrophe part words, Latin diacritics fold.
    @Test func theTokenizerSplitsAsTheIndexDoes() throws {
        #expect(try FTSQuery.tokenizer.tokens("नमस्ते").count == 2)
        #expect(try FTSQuery.tokenizer.tokens("Hel'sinki") == ["hel", "sinki"])
        #expect(try FTSQuery.tokenizer.tokens("Ämmäsuo") == ["ammasuo"])
        #expect(FTSQuery.tokens(of: "vaduz") == ["vaduz"])
        #expect(FTSQuery.groups([["नमस्ते*"]]) == #"("नमस" AND "त"*)"#)
        #expect(FTSQuery.phraseCount([["नमस्ते*", "vaduz"], ["x"]]) == 4)
    }

    /// Words FTS5 splits are found whole, as typed and in a name filter of nearby search, where a phrase of
    /// their tokens made FTS5 refuse the expression ("phrase queries are not supported", detail = column);
    /// the phrase count the listing of matches checks stays in step.
    @Test func wordsTheIndexSplitsAreFound() throws {
        let scratch = try ScratchDirectory()
        var osm = OSMFile(lon: 77.2)
        osm.node(1, 28.61, [("name", "नमस्ते चौक"), ("amenity", "cafe")])
        osm.node(2, 28.62, [("name", "Hel&apos;sinki Kafe"), ("amenity", "cafe")])
        osm.node(3, 28.63, [("name", "Namaste Square"), ("amenity", "cafe")])
        let db = try GeoDatabase(path: try osm.imported("split", in: scratch))
        for text in ["नमस्ते", "नमस्ते चौक", "चौक नमस्ते"] {
            #expect(try db.search(text).first?.name == "नमस्ते चौक", "\(text)")
        }
        #expect(try PopularQueryTests.ids(db, "नमस्", limit: 5, typing: true).count == 1)
        #expect(try db.search("Hel'sinki Kafe").first?.name == "Hel'sinki Kafe")
        #expect(try db.search("sinki kafe").first?.name == "Hel'sinki Kafe")
        let near: PlacePage = try db.places(near: Coordinate(lat: 28.62, lon: 77.2), radius: 5_000, name: "नमस्ते")
        #expect(near.places.map(\.name) == ["नमस्ते चौक"])
    }
}
