// Gives the places of an import the importance an importance file has for them (`geodb import
// --importance`): after every source is read and merged, before the hierarchy, while the search tables are
// still being built.
import GeoDB
import GeoDBSQLite

/// Reads the importance file for the places `WikimediaTaggedPlaces` noted, and raises each matched place's
/// importance to `Importance.withWikipedia` of it: its row, its category row, its search rows (whose rowids
/// order search by importance: `SearchRowID`).
///
/// Why after the places are written, not as each is: the file must then be looked up while places stream
/// in, so held whole (tens of millions of rows, in memory or a scratch table), while the places it concerns
/// are known only once they are written (OSM tags, GeoNames alternate names). At the end the file is read
/// once, past the few references the import has (`ImportanceFileMatcher`), and only the places it raises
/// are rewritten. After the merges of places and records, so that what a merge computes anew from the
/// sources' values (`PlaceMerger`) is not computed over the file's; before the hierarchy, whose address
/// completion rewrites search rows with the importance it reads.
enum ImportanceFileUpdater {
    static func run(_ reader: ImportanceFileReader, writer: PlaceWriter, tagged: WikimediaTaggedPlaces) throws -> ImportanceFileStats {
        let (ids, references) = try references(of: tagged, in: writer.db)
        guard !ids.isEmpty else { return reader.stats }   // nothing to match: the file need not be read
        var matcher = ImportanceFileMatcher(references)
        try reader.read { matcher.offer($0) }
        var stats = reader.stats
        stats.taggedPlaces = ids.count
        var values: [(id: Int64, value: Double)] = []
        for (index, id) in ids.enumerated() {
            guard let match = matcher.importance(of: index) else { continue }
            values.append((id, match.value))
            if match.byWikidata { stats.matchedByWikidata += 1 } else { stats.matchedByTitle += 1 }
        }
        // The places the file raises: their search rows are read (all their names) and written anew.
        let current = try writer.db.prepare("SELECT importance FROM place WHERE id = ?1")
        var raised: [Int64: Double] = [:]
        for (id, value) in values {
            guard let importance = try current.rows([.integer(id)], { $0.double(0) }).first else { continue }
            let new = Importance.withWikipedia(importance, value)
            if new != importance { raised[id] = new }
        }
        let places = try IndexedPlace.read(Set(raised.keys), from: writer)
        let updatePlace = try writer.db.prepare("UPDATE place SET importance = ?2 WHERE id = ?1")
        // A POI's category row repeats its importance (for category lists by importance).
        let updateCategory = try writer.db.prepare("UPDATE place_category SET importance = ?2 WHERE place_id = ?1")
        for (id, importance) in raised.sorted(by: { $0.key < $1.key }) {
            guard let old = places[id] else { continue }
            var new = old
            new.importance = importance
            try updatePlace.run([.integer(id), .real(importance)])
            try updateCategory.run([.integer(id), .real(importance)])
            try writer.reindexed(id, from: old, to: new)
            stats.raised += 1
        }
        return stats
    }

    /// The places noted (in id order, each once) with their references: their tags' as the database has them
    /// now, and those of the records merged into them. Places without any are left out.
    private static func references(of tagged: WikimediaTaggedPlaces,
                                   in db: Connection) throws -> (ids: [Int64], references: [[WikimediaReference]]) {
        var byPlace: [Int64: [WikimediaReference]] = [:]
        for (id, reference) in tagged.merged { byPlace[id, default: []].append(reference) }
        let tags = try db.prepare("SELECT json_extract(tags, '$.wikidata'), json_extract(tags, '$.wikipedia') FROM place WHERE id = ?1")
        for id in Set(tagged.ids) {
            try tags.bind(1, id)
            defer { tags.reset() }
            guard try tags.step() else { continue }   // merged into another place
            let reference = WikimediaReference(wikidata: tags.text(0), wikipedia: tags.text(1))
            if !reference.isEmpty { byPlace[id, default: []].append(reference) }
        }
        let ids = byPlace.keys.sorted()
        return (ids, ids.map { byPlace[$0] ?? [] })
    }
}
