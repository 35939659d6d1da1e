// A text naming a category ("restaurant", "cafes", "pharmacy near Vaduz", "atm Monaco"): the places of that
// category, not places named so. While typing a category word, the category itself is offered.
import Foundation

/// The text as a category phrase (`CategoryText`): the places of the category where it says.
struct CategoryReading {
    let context: ReadingContext
    /// The whole search, for the place a phrase names ("cafe near Senaatintori").
    let search: (_ text: String, _ options: SearchOptions) throws -> [PlaceResult]

    /// A text naming a category ("restaurant", "cafes", "pharmacy near Vaduz", "atm Monaco"): the places of
    /// that category near `near` or in `bbox` (nearest first; in a box without `near`, those named as the text
    /// first: `namedSoFirst`), in the named town (nearest its centre first),
    /// within 1 km of the named place ("cafe near Senaatintori"), or else the most important ones. Nil when
    /// the text is no such phrase, or nothing of the category is there, so it is searched as names.
    func places(_ text: String, options: SearchOptions) throws -> [PlaceResult]? {
        guard options.kinds.isEmpty || options.kinds.contains(.poi), options.categories == nil,
              let category = CategoryText(text) else { return nil }
        // A country asked for is applied to a deeper list: the box and an anchor's surroundings cross borders.
        let depth = options.countryCode == nil ? options.limit : min(NearbySearch.maxPageSize, options.limit * 20)
        var found: [PlaceResult]
        if let placeText = category.place {
            var anchorOptions = options
            anchorOptions.limit = 1
            guard let anchor = category.placeIsTown ? try town(named: placeText, options: options)
                                                    : try search(placeText, anchorOptions).first else { return nil }
            if PlaceReach.townKinds.contains(anchor.kind), let reach = PlaceReach.metres(anchor.kind) {
                let around = try context.nearby.places(near: anchor.coordinate, radius: reach, filter: category.filter, name: nil,
                                               limit: NearbySearch.maxPageSize, after: nil).places
                found = Array(try TownScope(anchor, places: context.places, db: context.db).filter(around).prefix(depth))
            } else {
                found = try context.nearby.places(near: anchor.coordinate, radius: 1_000, filter: category.filter, name: nil,
                                          limit: depth, after: nil).places
            }
        } else if let box = options.bbox {
            found = try context.nearby.places(in: box, near: options.near, filter: category.filter, name: nil, limit: depth,
                                      after: nil).places
            if options.near == nil, let words = category.words {
                found = try namedSoFirst(found, words: words, in: box, category: category, limit: depth)
            }
        } else if let near = options.near {
            found = try context.nearby.places(near: near, radius: 10_000, filter: category.filter, name: nil, limit: depth,
                                      after: nil).places
        } else {
            let ids = try context.index.mostImportant(of: category.filter, options: options, limit: options.limit)
            found = try context.places.results(ids: ids)
        }
        if let code = options.countryCode {
            found = Array(found.filter { $0.address.countryCode?.uppercased() == code.uppercased() }.prefix(options.limit))
        }
        guard !found.isEmpty else { return nil }
        return found.map { var p = $0; p.match = .category; return p }
    }

    /// `found`, the places of the category in `box` nearest its centre, with those whose name is the category's
    /// `words` ("Post", a post office, for "post") first, the nearest of them first: a box is where to look, not a
    /// point to be near, and a place the text names is what it asks for first, as Nominatim and Photon rank a name
    /// the text matches (Nominatim's "post" in a box of Liechtenstein gives the office named Post in Vaduz, not
    /// the one nearest the box's centre). At most `limit`.
    private func namedSoFirst(_ found: [PlaceResult], words: String, in box: BoundingBox, category: CategoryText,
                              limit: Int) throws -> [PlaceResult] {
        let text = TextNormalizer.tokens(words)
        // Most category words are no place's name: the index's whole-name keys say so from one row, before the
        // places of the box whose names merely hold the word are looked up and read ("parking" over central
        // Helsinki: 0.77 M of the category reading's 4.7 M instructions, to find none).
        guard let key = NameKey.of(words: text).flatMap({ FTSQuery.groups([[$0]]) }),
              try !context.index.rowids(named: key, limit: 1).isEmpty else { return found }
        let named = try context.nearby.places(in: box, near: nil, filter: category.filter, name: words, limit: NearbySearch.maxPageSize,
                                              after: nil).places.filter { TextNormalizer.tokens($0.name ?? "") == text }
        guard !named.isEmpty else { return found }
        let first = Set(named.map(\.id))
        return Array((named + found.filter { !first.contains($0.id) }).prefix(limit))
    }

    /// The town a category phrase names ("atm Monaco", "atm Helsingfors"): a place of a town kind (with the
    /// options' country and box) one of whose names is the text, the most important, or with `near` the
    /// nearest. Looked up among the places area sets name (`area_name_fts`), not by searching the text:
    /// most texts after a category word are the rest of a name ("Sport pub Che", "Bank bar and bis"), and a
    /// whole search of them, typing included, cost as much again as the search that follows (and a search
    /// filtered by kind read every place holding the words when none is a town).
    private func town(named text: String, options: SearchOptions) throws -> PlaceResult? {
        let words = TextNormalizer.tokens(text)
        let ids = try context.index.areaPlaces(naming: words, kinds: PlaceReach.townKinds, limit: options.near == nil ? 5 : 200)
        guard !ids.isEmpty else { return nil }
        var names = try context.index.names(of: ids, .ownInAnyLanguage, words: words, fuzzy: false, language: nil)
        for (id, alternates) in try context.index.names(of: ids, .alternates, words: words, fuzzy: false, language: nil) {
            names[id, default: []] += alternates
        }
        let towns = try context.places.results(ids: ids.filter { id in names[id]?.contains { $0.words == words } == true }).filter { town in
            options.countryCode.map { town.address.countryCode?.uppercased() == $0.uppercased() } ?? true
                && options.bbox.map { $0.contains(town.coordinate) } ?? true
        }
        guard let near = options.near else { return towns.first }
        return towns.min { near.distance(to: $0.coordinate) < near.distance(to: $1.coordinate) }
    }

    /// While typing a category word ("coff", "pharm"): the category itself, as a result of kind `category`
    /// (at `near`, else the centre of `bbox`, else 0, 0). Nil for text of fewer than 3 letters or that
    /// starts no category word.
    static func suggestion(for text: String, options: SearchOptions) -> PlaceResult? {
        let typed = text.trimmingCharacters(in: .whitespaces)
        guard typed.count >= 3, options.kinds.isEmpty || options.kinds.contains(.category), options.categories == nil,
              let id = Taxonomy.standard.categories(startingWith: typed).first,
              let category = Taxonomy.standard.category(id) else { return nil }
        let point = options.near ?? options.bbox.map { Coordinate(lat: ($0.minLat + $0.maxLat) / 2, lon: ($0.minLon + $0.maxLon) / 2) }
        return PlaceResult(id: 0, sourceRef: nil, kind: .category, category: nil, categoryID: id,
                           name: category.label, displayStyle: .category, lat: point?.lat ?? 0,
                           lon: point?.lon ?? 0, distanceM: nil, address: Address(), tags: [:], score: nil, match: .category)
    }
}
