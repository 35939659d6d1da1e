// The places of an import that an importance file may concern, noted as they are written.
import GeoDB

/// What `ImportanceFileUpdater` matches the file against, gathered while places are written (only when an
/// import has an importance file): the ids of places with a `wikidata` or `wikipedia` tag, whose tags are
/// read back at the end (merges of a place node and its boundary combine both's tags), and the references
/// of gazetteer records merged into another place, whose tags are not kept: a GeoNames record's Wikidata
/// id (from its alternate names) then still counts for the OSM place it is, as its importance would have.
/// Memory: 8 bytes a tagged place, a little more a tagged merged record.
final class WikimediaTaggedPlaces {
    private(set) var ids: [Int64] = []
    private(set) var merged: [(id: Int64, reference: WikimediaReference)] = []

    /// Place `id` was written with `tags`.
    func written(_ id: Int64, tags: [(key: String, value: String)]) {
        if WikimediaReference.isTagged(tags) { ids.append(id) }
    }

    /// Place `id` has a `wikidata` or `wikipedia` tag now (a merge gave it another's tags).
    func tagged(_ id: Int64) {
        ids.append(id)
    }

    /// A record with `tags` was merged into place `id`.
    func merged(into id: Int64, tags: [(key: String, value: String)]) {
        let reference = WikimediaReference(tags: tags)
        if !reference.isEmpty { merged.append((id, reference)) }
    }
}
