// Writes places into a new database with prepared statements, committing in batches.
import GeoDB
import GeoDBSQLite

/// How the R*Tree indexes are built.
public enum RTreeBuild: String, Sendable, CaseIterable {
    /// Packed bulk load into the rtree shadow tables after all places are written (fast; default).
    case packed
    /// One SQL INSERT per place (SQLite's own R*Tree insertion; the slow reference path).
    case insert
}

/// Writes places to the geodb tables of an open database; each source's places arrive through a sink of
/// their own (`sink(forSource:linking:)`).
///
/// A place of a source whose linking merges into earlier sources (gazetteer sources) that is the same
/// real-world place as one of another source (`PlaceLinker`) is not written as a second place: its names
/// are added to that place and the link is recorded in `place_link`.
public final class PlaceWriter {
    let db: Connection
    private let rtreeBuild: RTreeBuild
    private let insertPlace: Statement
    private let insertName: Statement
    private let insertNameBatch: Statement
    /// Names waiting for `insertNameBatch`, in order: one multi-row INSERT costs far less than as many
    /// single ones (GeoNames places have ~5 names, the biggest cities hundreds).
    private var pendingNames: [(placeID: Int64, name: PlaceName)] = []
    private let fullText: FullTextBuilder
    private let insertGeometry: Statement
    private let insertPlaceRTree: Statement
    private let insertAreaRTree: Statement
    private let insertCategory: Statement
    private let categories = CategoryMap()
    private let linker = PlaceLinker()
    private var mergeStatements: MergeStatements?
    private var placeBoxes = RTreeEntries()
    private var areaBoxes = RTreeEntries()
    private var nextID: Int64
    /// The first place id of this import (earlier ones are in the database already, when appending).
    let firstID: Int64
    /// The label and admin-centre nodes ("n123") of boundaries written so far, by place id: the place
    /// nodes they may be merged with (`PlaceMerger`).
    private(set) var boundaryNodes: [Int64: (label: String?, adminCentre: String?)] = [:]
    /// Ids of the places written that are or stand for an area a place can lie in (settlements,
    /// administrative and postal areas, localities, islands): the merger and the hierarchy read these rows,
    /// a few in a hundred, instead of scanning the table.
    private(set) var areaLikeIDs: [Int64] = []
    /// The places of sources whose addresses are completed that may take the nearest named street, as written:
    /// what the addresses phase looks for streets for (`AddressCompleter.startFindingStreets`), without reading
    /// `place` again (about 40 bytes each; Liechtenstein ×20: 38,950).
    private(set) var streetTakers: [AddressCompleter.StreetTaker] = []

    private var sinceCommit = 0

    /// Names are inserted in batches of this many.
    static let nameBatchSize = 32

    /// Places are committed in batches of this many.
    static let batchSize = 50_000

    public private(set) var countsByKind: [PlaceKind: Int] = [:]
    public private(set) var written = 0
    /// Records merged into a place of another source instead of being written (`place_link` rows).
    public private(set) var linked = 0
    /// Links a street's other ways to it (`PlaceRecord.mergedRecords`); prepared on first use.
    private var insertMergedRecord: Statement?
    /// Writes a place's entrances (`PlaceRecord.entrances`); prepared on first use (few places have any).
    private var insertEntrance: Statement?
    /// The extent of the places written: where the file has data (`meta`'s bbox).
    public private(set) var boundingBox: BoundingBox?
    /// Places written per taxonomy category (`category.place_count` of this import's places).
    private(set) var categoryCounts: [String: Int] = [:]
    /// Notes the places an importance file may concern, when the import has one.
    let wikimediaTagged: WikimediaTaggedPlaces?

    /// Starts writing into `db`, inside an open transaction the writer commits in batches. The search
    /// tables are built beside it by `fullText` (by default one started here, while `db` is not yet in a
    /// transaction); call `finish()` and `installFullText()` at the end. `wikimediaTagged`: when the import
    /// has an importance file.
    init(db: Connection, fullText: FullTextBuilder? = nil, rtreeBuild: RTreeBuild = .packed,
         wikimediaTagged: WikimediaTaggedPlaces? = nil) throws {
        self.db = db
        self.wikimediaTagged = wikimediaTagged
        self.fullText = try fullText ?? FullTextBuilder(output: db, scratchPath: db.path + FullTextBuilder.scratchSuffix,
                                                                   cacheMiB: ImportOptions().cacheMiB)
        self.rtreeBuild = rtreeBuild
        insertPlace = try db.prepare("""
            INSERT INTO place(id, source_id, source_ref, kind, category, name, lat, lon, rank, importance,
                              admin_level, population, housenumber, street, postcode, city, country_code, tags,
                              state, country, timezone)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertName = try db.prepare("INSERT INTO place_name(place_id, name, type, lang) VALUES (?, ?, ?, ?)")
        // OR FAIL, not the default ABORT: a multi-row statement that may abort needs a statement journal,
        // and opening one made FTS5 flush its pending terms (xSavepoint) on every batch while place_fts
        // shared this connection. Measured then on 8,000 GeoNames rows: batches with ABORT 4.07 G
        // instructions, single-row inserts 3.03 G, batches with FAIL 2.79 G.
        insertNameBatch = try db.prepare("INSERT OR FAIL INTO place_name(place_id, name, type, lang) VALUES "
            + Array(repeating: "(?, ?, ?, ?)", count: Self.nameBatchSize).joined(separator: ", "))
        pendingNames.reserveCapacity(Self.nameBatchSize)
        insertGeometry = try db.prepare("INSERT INTO place_geometry(place_id, geometry) VALUES (?, ?)")
        insertPlaceRTree = try db.prepare("INSERT INTO place_rtree(id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)")
        insertAreaRTree = try db.prepare("INSERT INTO area_rtree(id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)")
        insertCategory = try db.prepare("INSERT INTO place_category(place_id, category_id, lat, lon, importance) VALUES (?, ?, ?, ?, ?)")
        for statement in [insertPlace, insertName, insertNameBatch, insertGeometry, insertCategory] {
            statement.copiesBoundValues = true
        }
        nextID = (try db.scalarInt("SELECT max(id) FROM place") ?? 0) + 1
        firstID = nextID
        if rtreeBuild == .packed && nextID > 1 {
            // Appending: the packed load rewrites the whole tree, so it must start from what is there.
            placeBoxes = try Self.existingEntries(of: "place_rtree", in: db)
            areaBoxes = try Self.existingEntries(of: "area_rtree", in: db)
        }
    }

    private static func existingEntries(of table: String, in db: Connection) throws -> RTreeEntries {
        let entries = RTreeEntries()
        let rows = try db.prepare("SELECT id, min_lon, max_lon, min_lat, max_lat FROM \(table)")
        while try rows.step() {
            entries.append(id: rows.int(0), (Float(rows.double(1)), Float(rows.double(2)), Float(rows.double(3)), Float(rows.double(4))))
        }
        return entries
    }

    /// The sink the places of source `id` (`source.id`) are added to, linked to other sources' as `linking` says.
    /// `completesAddresses`: the addresses phase completes the source's places (`AddressCompleter`).
    func sink(forSource id: Int64, linking: SourceLinking, completesAddresses: Bool = false) -> PlaceSink {
        SourcePlaces(writer: self, sourceID: id, linking: linking, completesAddresses: completesAddresses)
    }

    /// One source's places on their way into the writer, with what they are written as.
    private final class SourcePlaces: PlaceSink {
        let writer: PlaceWriter
        let sourceID: Int64
        let linking: SourceLinking
        let completesAddresses: Bool

        init(writer: PlaceWriter, sourceID: Int64, linking: SourceLinking, completesAddresses: Bool) {
            (self.writer, self.sourceID, self.linking, self.completesAddresses) = (writer, sourceID, linking, completesAddresses)
        }

        func add(_ place: PlaceRecord) throws {
            try writer.add(place, sourceID: sourceID, linking: linking, completesAddresses: completesAddresses)
        }
    }

    private func add(_ place: PlaceRecord, sourceID: Int64, linking: SourceLinking, completesAddresses: Bool) throws {
        if linking.mergesIntoEarlier, let match = linker.match(place, sourceID: sourceID) {
            try merge(place, of: sourceID, into: match)
            return
        }
        let id = try insert(place, sourceID: sourceID, keepsLinkCandidate: linking.keepsCandidates,
                            awaitsAddress: completesAddresses && AddressCompleter.mayComplete(place))
        let numbered = place.address.housenumber != nil
        if completesAddresses,
           AddressCompleter.takesStreet(kind: place.kind, numbered: numbered, hasStreet: place.address.street != nil, category: { place.category }) {
            streetTakers.append(.init(id: id, at: place.coordinate, isAddress: place.kind == .address, shownOnly: place.kind == .poi && !numbered))
        }
    }

    /// Writes `place` of source `sourceID` as a new place (never linked to another) and returns its id.
    /// `keepsLinkCandidate`: later sources may merge their records into it. `widensExtent` false: the place
    /// is not data where it lies (a country known from the time zones alone), so `boundingBox` ignores it.
    /// `awaitsAddress`: the addresses phase may complete it, so its search rows wait for that
    /// (`FullTextBuilder.insert`).
    @discardableResult
    func insert(_ place: PlaceRecord, sourceID: Int64, keepsLinkCandidate: Bool = false, widensExtent: Bool = true,
                awaitsAddress: Bool = false) throws -> Int64 {
        let id = nextID
        nextID += 1
        let p = insertPlace
        try p.bind(1, id)
        try p.bind(2, sourceID)
        try p.bind(3, place.sourceRef)
        try p.bind(4, place.kind.rawValue)
        try p.bind(5, place.category)
        try p.bind(6, place.name)
        try p.bind(7, place.coordinate.lat)
        try p.bind(8, place.coordinate.lon)
        try p.bind(9, place.kind.rank)
        try p.bind(10, place.importance)
        try p.bind(11, place.adminLevel.map(Int64.init))
        try p.bind(12, place.population)
        try p.bind(13, place.address.housenumber)
        try p.bind(14, place.address.street)
        try p.bind(15, place.address.postcode)
        try p.bind(16, place.address.city)
        try p.bind(17, place.address.countryCode)
        try p.bind(18, place.tags.isEmpty ? nil : JSONText.object(place.tags))
        try p.bind(19, place.address.state)
        try p.bind(20, place.address.country)
        try p.bind(21, place.timezone)
        try p.step()
        p.reset()

        try insertNames(place.names, of: id)
        if let raw = place.category, let category = categories.categoryID(raw: raw, kind: place.kind) {
            try insertCategory.bind(1, id)
            try insertCategory.bind(2, category)
            try insertCategory.bind(3, place.coordinate.lat)
            try insertCategory.bind(4, place.coordinate.lon)
            // Final: only settlements and areas are merged later (their importance changes), and they have
            // no taxonomy category (inspect --check compares the two).
            try insertCategory.bind(5, place.importance)
            try insertCategory.step()
            insertCategory.reset()
            categoryCounts[category, default: 0] += 1
        }
        let searchNames = place.searchNames   // for the index and the link candidate: made once
        // A TIGER line is found through its street (`StreetNumberReading`), as Nominatim finds it: its row holds
        // no words, or every search of a US street would list its ranges.
        let searched = place.kind == .interpolation && InterpolationLine.isTiger(category: place.category) ? Address() : place.address
        try fullText.insert(id: id, importance: place.importance, kind: place.kind, names: searchNames,
                            named: place.name != nil, address: searched, awaitsAddress: awaitsAddress)
        if place.kind.addressLevel != nil || place.adminLevel != nil || place.kind == .locality || place.kind == .island {
            areaLikeIDs.append(id)
        }
        if place.labelNode != nil || place.adminCentreNode != nil {
            boundaryNodes[id] = (place.labelNode, place.adminCentreNode)
        }
        wikimediaTagged?.written(id, tags: place.tags)
        if keepsLinkCandidate, SamePlace.group(place.kind) != nil, !place.names.isEmpty {
            linker.register(.init(id: id, sourceID: sourceID, kind: place.kind, coordinate: place.coordinate, names: searchNames))
        }

        if let geometry = place.geometry {
            try insertGeometry.bind(1, id)
            try insertGeometry.bind(2, geometry.encoded())
            try insertGeometry.step()
            insertGeometry.reset()
        }

        try addBox(id: id, place.boundingBox, to: placeBoxes, statement: insertPlaceRTree)
        if !place.mergedRecords.isEmpty {
            if insertMergedRecord == nil {
                insertMergedRecord = try db.prepare("INSERT INTO place_link(place_id, source_id, source_ref, distance_m) VALUES (?, ?, ?, ?)")
            }
            for record in place.mergedRecords {
                try insertMergedRecord?.run([.integer(id), .integer(sourceID), .text(record.sourceRef), .real(record.distanceM)])
            }
            linked += place.mergedRecords.count
        }
        if !place.entrances.isEmpty {
            if insertEntrance == nil {
                insertEntrance = try db.prepare("INSERT INTO place_entrance(place_id, osm_id, type, lat, lon, tags) VALUES (?, ?, ?, ?, ?, ?)")
            }
            for door in place.entrances {
                let tags = door.tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
                try insertEntrance?.run([.integer(id), .integer(door.osmID), .text(door.type), .real(door.coordinate.lat),
                                         .real(door.coordinate.lon), tags.isEmpty ? .null : .text(JSONText.object(tags))])
            }
        }

        countsByKind[place.kind, default: 0] += 1
        written += 1
        if widensExtent { if boundingBox == nil { boundingBox = place.boundingBox } else { boundingBox!.extend(place.boundingBox) } }
        try countForCommit()
        return id
    }

    private func countForCommit() throws {
        sinceCommit += 1
        if sinceCommit >= Self.batchSize {
            try flushNames()
            try db.execute("COMMIT; BEGIN")
            sinceCommit = 0
        }
    }

    func insertNames(_ names: [PlaceName], of id: Int64) throws {
        for name in names {
            pendingNames.append((id, name))
            if pendingNames.count == Self.nameBatchSize {
                try bindNames(pendingNames, to: insertNameBatch)
                pendingNames.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes the names still waiting; before anything reads `place_name` or adds to a place's names.
    func flushNames() throws {
        for pending in pendingNames { try bindNames([pending], to: insertName) }
        pendingNames.removeAll(keepingCapacity: true)
    }

    private func bindNames(_ names: [(placeID: Int64, name: PlaceName)], to statement: Statement) throws {
        var index: Int32 = 1
        for (placeID, name) in names {
            try statement.bind(index, placeID)
            try statement.bind(index + 1, name.name)
            try statement.bind(index + 2, name.type)
            try statement.bind(index + 3, name.lang)
            index += 4
        }
        try statement.step()
        statement.reset()
    }

    // MARK: linking records of several sources

    /// Statements only merging needs, prepared on first use.
    private struct MergeStatements {
        let selectAddress: Statement
        let update: Statement
        let insertLink: Statement

        init(db: Connection) throws {
            selectAddress = try db.prepare("SELECT housenumber, street, postcode, city, state, country, importance FROM place WHERE id = ?")
            update = try db.prepare("""
                UPDATE place SET state = coalesce(state, ?), country = coalesce(country, ?),
                                 country_code = coalesce(country_code, ?), timezone = coalesce(timezone, ?),
                                 population = coalesce(population, ?), importance = max(importance, ?)
                WHERE id = ?
                """)
            insertLink = try db.prepare("INSERT INTO place_link(place_id, source_id, source_ref, distance_m) VALUES (?, ?, ?, ?)")
        }
    }

    /// Loads the linkable places already in the database (appending), so new records can link to them.
    public func loadLinkCandidates() throws {
        let rows = try db.prepare("""
            SELECT p.id, p.source_id, p.kind, p.lat, p.lon, n.name, n.type, n.lang FROM place p JOIN place_name n ON n.place_id = p.id
            WHERE p.kind IN ('city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood', 'locality',
                             'country', 'state', 'county', 'island') AND \(KindIndex.condition(on: "p.kind"))
            ORDER BY p.id, n.rowid
            """)
        var current: PlaceLinker.Candidate?
        var names: [PlaceName] = []
        func register() {
            guard var candidate = current else { return }
            candidate.names = SearchNames(names)
            linker.register(candidate)
        }
        while try rows.step() {
            let id = rows.int(0)
            if current?.id != id {
                register()
                current = try PlaceKind(rawValue: rows.text(2) ?? "").map {
                    .init(id: id, sourceID: rows.int(1), kind: $0, coordinate: try rows.coordinate(3, 4, place: id, in: db.path),
                          names: SearchNames([]))
                }
                names = []
            }
            if let name = rows.text(5) { names.append(PlaceName(name: name, type: rows.text(6) ?? "", lang: rows.text(7))) }
        }
        register()
    }

    /// Adds `place`'s names, missing address parts, time zone and population to the place it matched.
    private func merge(_ place: PlaceRecord, of sourceID: Int64, into match: PlaceLinker.Match) throws {
        // The place's own names get lower rowids than the ones added now (place_name order is name order).
        try flushNames()
        if mergeStatements == nil { mergeStatements = try MergeStatements(db: db) }
        guard let statements = mergeStatements else { return }
        let target = linker.candidates[match.index]
        let select = statements.selectAddress
        try select.bind(1, target.id)
        guard try select.step() else {
            select.reset()
            throw GeoDBError(.database, "place \(target.id) to link \(place.sourceRef) to is missing")
        }
        let old = Address(housenumber: select.text(0), street: select.text(1), postcode: select.text(2),
                          city: select.text(3), state: select.text(4), country: select.text(5))
        let oldImportance = select.double(6)
        select.reset()
        var address = old
        address.state = old.state ?? place.address.state
        address.country = old.country ?? place.address.country

        // The place keeps its one main name; the record's becomes an alternative. Names it has are not added.
        let known = target.names.all
        let all = known.map { PlaceName(name: $0, type: "") } + place.names
        let added = PlaceRecord.distinct(all)[known.count...]
            .map { PlaceName(name: $0.name, type: $0.type == "name" ? "alt_name" : $0.type, lang: $0.lang) }
        let names = target.names.adding(Array(added))
        try insertNames(added, of: target.id)
        linker.setNames(names, at: match.index)

        // As the update below sets it.
        let importance = max(oldImportance, place.importance)
        // Linked places are settlements and areas: named when they have names (only an address can have a
        // name without `place.name`, a `name` tag without `addr:housename`).
        try fullText.delete(id: target.id, importance: oldImportance, kind: target.kind, names: target.names,
                            named: !target.names.all.isEmpty, address: old)
        try fullText.insert(id: target.id, importance: importance, kind: target.kind, names: names, named: !names.all.isEmpty,
                            address: address)
        try statements.update.run([
            place.address.state.map { .text($0) } ?? .null, place.address.country.map { .text($0) } ?? .null,
            place.address.countryCode.map { .text($0) } ?? .null, place.timezone.map { .text($0) } ?? .null,
            place.population.map { .integer($0) } ?? .null, .real(place.importance), .integer(target.id),
        ])
        try statements.insertLink.run([.integer(target.id), .integer(sourceID), .text(place.sourceRef),
                                       .real(match.distance)])
        wikimediaTagged?.merged(into: target.id, tags: place.tags)
        linked += 1
        try countForCommit()
    }

    private func addBox(id: Int64, _ box: BoundingBox, to entries: RTreeEntries, statement: Statement) throws {
        switch rtreeBuild {
        case .packed:
            entries.append(id: id, box)
        case .insert:
            try statement.run([.integer(id), .real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)])
        }
    }

    // MARK: changing places written earlier in this import (merges, the hierarchy)

    /// Gives place `id` another box in the place R*Tree (it took over a merged boundary's polygon).
    func setBox(of id: Int64, _ box: BoundingBox) throws {
        switch rtreeBuild {
        case .packed: placeBoxes.setBox(id: id, box)
        case .insert:
            try db.prepare("UPDATE place_rtree SET min_lon = ?2, max_lon = ?3, min_lat = ?4, max_lat = ?5 WHERE id = ?1")
                .run([.integer(id), .real(box.minLon), .real(box.maxLon), .real(box.minLat), .real(box.maxLat)])
        }
    }

    /// Adds an area (`area.id`) with its box to area_rtree.
    func addArea(_ id: Int64, box: BoundingBox) throws {
        try addBox(id: id, box, to: areaBoxes, statement: insertAreaRTree)
    }

    /// Forgets what this writer keeps of place `id` besides its rows (which the caller deletes): its
    /// R*Tree entry, its search row (`importance`, `names` and `address` as indexed), its link candidate, its
    /// counts.
    /// Merged places are settlements and areas, named when they have names.
    func forget(_ id: Int64, kind: PlaceKind, category: String?, importance: Double, names: SearchNames, address: Address) throws {
        switch rtreeBuild {
        case .packed: placeBoxes.remove(id: id)
        case .insert: try db.prepare("DELETE FROM place_rtree WHERE id = ?").run([.integer(id)])
        }
        try fullText.delete(id: id, importance: importance, kind: kind, names: names, named: !names.all.isEmpty, address: address)
        linker.remove(place: id)
        countsByKind[kind, default: 0] -= 1
        written -= 1
        if let raw = category, let category = categories.categoryID(raw: raw, kind: kind) { categoryCounts[category, default: 0] -= 1 }
        boundaryNodes[id] = nil
    }

    /// Place `id` has `names` and `importance` now instead of `old` (a merge added some): its search rows and
    /// its link candidate follow.
    func renamed(_ id: Int64, kind: PlaceKind, from old: (names: SearchNames, importance: Double), to names: SearchNames,
                 importance: Double, address: Address) throws {
        try fullText.delete(id: id, importance: old.importance, kind: kind, names: old.names, named: !old.names.all.isEmpty,
                            address: address)
        try fullText.insert(id: id, importance: importance, kind: kind, names: names, named: !names.all.isEmpty, address: address)
        linker.setNames(names, ofPlace: id)
    }

    /// Makes the search rows of place `id`, held back for the addresses phase (`insert(…, awaitsAddress:)`),
    /// with `street` and `postcode` where it has none (`IndexedPlace.complete`). False when its rows were made
    /// already: `reindexed` must rewrite them.
    func completeAddress(of id: Int64, street: String?, postcode: String?) throws -> Bool {
        try fullText.completeAddress(of: id, street: street, postcode: postcode)
    }

    /// Place `id` is `new` now instead of `old` (`AddressCompleter` derived an address part, an importance
    /// file raised its importance): its search rows follow.
    func reindexed(_ id: Int64, from old: IndexedPlace, to new: IndexedPlace) throws {
        try fullText.delete(id: id, importance: old.importance, kind: old.kind, names: old.names, named: old.named, address: old.address)
        try fullText.insert(id: id, importance: new.importance, kind: new.kind, names: new.names, named: new.named, address: new.address)
    }

    /// Has the search rows made so far indexed beside whatever the caller does next (`FullTextBuilder.indexHeldRows`).
    func indexSearchRows() throws {
        try fullText.indexHeldRows()
    }

    /// Starts completing the search tables and (when packing) packing the R*Trees, on threads of their own,
    /// so that the caller's index building overlaps them; call once after the last place.
    public func finish() throws {
        try flushNames()
        try fullText.complete()
        guard rtreeBuild == .packed else { return }
        let trees: [(table: String, entries: RTreeEntries)] = [("place_rtree", placeBoxes), ("area_rtree", areaBoxes)]
        // Packed for the output's node size; the scratch database's tables have the same (its page size).
        let nodeSizes = try trees.map { try RTreeBulkLoader.nodeSize(of: $0.table, db: db) }
        let packing = BackgroundResult(name: "geodb-rtree-pack") {
            zip(trees, nodeSizes).map { (table: $0.table, tree: RTreeBulkLoader.pack($0.entries, nodeSize: $1)) }
        }
        try fullText.writeRTrees(packing, tables: trees.map(\.table))
    }

    /// Puts the finished search tables and packed R*Trees into the database; after `finish()`, outside a
    /// transaction.
    public func installFullText() throws {
        try fullText.install(into: db)
    }
}
