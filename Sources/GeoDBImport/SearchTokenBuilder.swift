// Fills `search_token`, the vocabulary of the name index that typo-tolerant search draws from.
import GeoDBSQLite

enum SearchTokenBuilder {
    /// Replaces `search_token` with the distinct words of `place_fts`'s name column (and their place counts).
    static func build(in db: Connection) throws {
        try db.execute("""
            DELETE FROM search_token;
            CREATE VIRTUAL TABLE temp.place_fts_vocabulary USING fts5vocab(main, place_fts, 'col');
            INSERT INTO search_token(token, places)
              SELECT term, doc FROM temp.place_fts_vocabulary WHERE col = 'name' AND length(term) BETWEEN 4 AND 32;
            DROP TABLE temp.place_fts_vocabulary;
            """)
    }
}
