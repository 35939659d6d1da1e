// The vocabulary of the name index (`search_word`), as the index says it is: one definition for the import that
// writes it and the check that compares a file's with its index.

/// How `search_word`'s rows are counted from `place_fts`.
package enum SearchVocabulary {
    /// The rows of `search_word` (token, places, language_places, address_places) counted from `vocabulary`, an
    /// `fts5vocab` 'col' table over `place_fts`: each word of 4 to 32 letters that a name column holds, in term
    /// order, with the rows holding it in a name column (a row holding it in both, twice), in `lang_name`, in `address`
    /// (columns `term`, `places`, `language_places`, `address_places`).
    package static func rows(countedIn vocabulary: String) -> String {
        """
        SELECT term, sum(doc) FILTER (WHERE col IN ('name', 'lang_name')) AS places,
               coalesce(sum(doc) FILTER (WHERE col = 'lang_name'), 0) AS language_places,
               coalesce(sum(doc) FILTER (WHERE col = 'address'), 0) AS address_places
        FROM \(vocabulary) WHERE length(term) BETWEEN 4 AND 32 GROUP BY term HAVING places > 0
        """
    }
}
