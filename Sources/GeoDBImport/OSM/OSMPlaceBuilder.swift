// Turns the stream of OSM nodes, ways and relations into places: POIs, addresses, streets, areas.
import Foundation
import GeoDB

/// What the OSM import did, beyond what the reader counted.
public struct OSMBuildStats: Sendable {
    public var waysWithMissingNodes = 0
    public var missingNodeRefs = 0
    public var relationsAssembled = 0
    /// Relations whose rings could not be closed (cut at the extract edge or broken): not imported.
    public var relationsSkipped = 0
    public var relationMembersMissing = 0
    /// Rings of relations closed across gaps where member ways were missing (cut at the extract edge).
    public var ringsRepaired = 0
    /// Relations whose loose ends were too many, piled too close, to search for gaps to close
    /// (`RingAssembler.gapWorkPerEnd`): imported from the rings their ways close alone.
    public var gapClosingAbandoned = 0
    public var interpolationsSkipped = 0
    public var streetSegments = 0
    /// Memory of the node locations and of the index of way node lists, at the end of the file.
    public var nodeStoreBytes = 0
    public var wayStoreBytes = 0
    /// Bytes of them that went to scratch files beyond the memory budget (0: all stayed in memory).
    public var spilledBytes = 0

    mutating func add(_ other: OSMBuildStats) {
        waysWithMissingNodes += other.waysWithMissingNodes
        missingNodeRefs += other.missingNodeRefs
        relationsAssembled += other.relationsAssembled
        relationsSkipped += other.relationsSkipped
        relationMembersMissing += other.relationMembersMissing
        ringsRepaired += other.ringsRepaired
        gapClosingAbandoned += other.gapClosingAbandoned
        interpolationsSkipped += other.interpolationsSkipped
        streetSegments += other.streetSegments
        nodeStoreBytes += other.nodeStoreBytes
        wayStoreBytes += other.wayStoreBytes
        spilledBytes += other.spilledBytes
    }
}

/// An `OSMHandler` that decides what each object becomes and hands the places to a sink.
/// Streets and interpolation lines are completed once the last way is read; `finish()` ends a file.
public final class OSMPlaceBuilder: OSMHandler {
    private let sink: PlaceSink
    /// For errors.
    private let fileName: String
    private let budget: MemoryBudget
    private let nodes: NodeLocationStore
    private let wayRefs: WayRefStore
    private var lines: LineCollector
    private let addressNodes: AddressNodeIndex
    private let entranceNodes: EntranceNodeIndex
    private var interpolations: [(wayID: Int64, refs: [Int64], points: [Point7], tags: OSMTags)] = []
    /// Named `type=waterway` relations (a river of many ways, the Rhine): their member ways are one place
    /// under the relation's id, not lines merged by name. Read after the ways, so rivers are written last.
    private var waterwayRelations: [WaterwayRelation] = []
    private var nodesSealed = false
    private var waysSealed = false
    /// Node lookups for the work `way` hands to the sink's thread (made when the nodes are sealed).
    private var sinkNodes: NodeLocationStore.Reader?
    /// Counted by this thread; `geometryStats` by the work on the sink's thread.
    private var readStats = OSMBuildStats()
    private var geometryStats = OSMBuildStats()
    /// What the import did; complete once the sink has done all the work handed to it.
    public var stats: OSMBuildStats {
        var total = readStats
        total.add(geometryStats)
        return total
    }
    public private(set) var fileHeader = OSMHeader()

    /// `scratchDirectory` holds the (unlinked) scratch files for way node lists, street geometry and
    /// address node texts, and for the node locations and indexes beyond `memoryBudget` bytes; the
    /// output's directory keeps them on the same disk as the database.
    package init(sink: PlaceSink, fileName: String, scratchDirectory: String = NSTemporaryDirectory(),
                 memoryBudget: Int = .max) throws {
        self.sink = sink
        self.fileName = fileName
        budget = MemoryBudget(limit: memoryBudget, scratchDirectory: scratchDirectory)
        nodes = NodeLocationStore(budget: budget)
        wayRefs = WayRefStore(spill: try SpillFile(directory: scratchDirectory), budget: budget)
        lines = LineCollector(spill: try SpillFile(directory: scratchDirectory))
        addressNodes = AddressNodeIndex(spill: try SpillFile(directory: scratchDirectory), budget: budget)
        entranceNodes = EntranceNodeIndex(spill: try SpillFile(directory: scratchDirectory), budget: budget)
    }

    /// Bytes of node locations and indexes written to scratch files so far because the budget was spent.
    public var spilledBytes: Int { budget.spilledBytes }

    public func header(_ header: OSMHeader) throws { fileHeader = header }

    public func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) throws {
        try nodes.append(id: id, lat7: lat7, lon7: lon7)
        guard !tags.isEmpty else { return }
        if let number = tags[.addrHousenumber] {
            try addressNodes.add(id: id, housenumber: number, street: tags[.addrStreet] ?? tags[.addrPlace],
                             postcode: tags[.addrPostcode])
        }
        if let entrance = OSMClassifier.entrance(tags) {
            try entranceNodes.add(id: id, at: Point7(lat: lat7, lon: lon7), type: entrance.type, tags: entrance.tags)
        }
        guard let classification = OSMClassifier.classify(tags, hasName: Self.hasName(tags), isArea: false) else { return }
        let point = Point7(lat: lat7, lon: lon7)
        try emit(ref: "n\(id)", classification, tags, Self.names(tags), at: point, geometry: nil, into: sink)
    }

    public func way(id: Int64, refs: [Int64], tags: OSMTags) throws {
        guard !waysSealed else {
            throw GeoDBError(.unsupportedInput, "\(fileName): way \(id) comes after relations; geodb reads OSM files in the "
                             + "standard order (nodes, ways, relations): sort it first with `osmium sort`")
        }
        try sealNodes()
        try wayRefs.add(wayID: id, refs: refs)
        guard !tags.isEmpty else { return }
        if tags[.addrInterpolation] != nil {
            let line = try resolve(refs, with: { try self.nodes.location(of: $0) }, counting: &readStats)
            if line.count >= 2 { interpolations.append((id, refs, line, tags.detached())) } else { readStats.interpolationsSkipped += 1 }
            return
        }
        let hasName = Self.hasName(tags)
        let isClosed = refs.count >= 4 && refs.first == refs.last
        let classification = OSMClassifier.classify(tags, hasName: hasName, isArea: isClosed)
        let lineType = hasName ? OSMClassifier.lineType(tags) : nil
        guard classification != nil || lineType != nil else { return }
        let names = Self.names(tags)
        // Only a place of this way alone has its entrances: not a street or river merged from many ways.
        let entrances = classification == nil || entranceNodes.isEmpty ? [] : try entranceNodes.entrances(among: refs)
        let tags = classification == nil ? OSMTags() : tags.detached()   // streets need only their names
        // The geometry is the rest of the way's work: it goes to the sink's thread (the writer's, which
        // has time while ways are read), in order with the places, with node lookups of its own.
        let nodes = sinkNodes!
        try sink.perform { [self] target in
            let line = try resolve(refs, with: nodes.location(of:), counting: &geometryStats)
            if let lineType, classification == nil || classification?.kind == .address || classification?.kind == .poi {
                guard line.count >= 1 else { return }
                try lines.add(wayID: id, family: lineType.family, value: lineType.value, names: names, points: line)
                if lineType.family == .highway { geometryStats.streetSegments += 1 }
            } else if let classification, !line.isEmpty {
                try emitWay(id: id, classification, tags, names, line: line, isClosed: isClosed, entrances: entrances, into: target)
            }
        }
    }

    private func emitWay(id: Int64, _ classification: OSMClassification, _ tags: OSMTags, _ names: [PlaceName],
                         line: [Point7], isClosed: Bool, entrances: [PlaceEntrance], into target: PlaceSink) throws {
        var line = line
        if isClosed, line.count >= 4, line.first == line.last {
            line.removeLast()
            let polygons = [[line]]
            let point = PolygonMath.interiorPoint(polygons) ?? line[0]
            try emit(ref: "w\(id)", classification, tags, names, at: point, geometry: .polygons(polygons), entrances: entrances, into: target)
        } else {
            let point = LineMath.point(along: line, fraction: 0.5) ?? line[0]
            try emit(ref: "w\(id)", classification, tags, names, at: point, geometry: line.count > 1 ? .lineStrings([line]) : nil,
                     entrances: entrances, into: target)
        }
    }

    /// Multipolygons and boundaries become places (as areas), waterway relations lines; routes and the rest
    /// are skipped.
    public func wantsMembers(ofRelationTagged tags: OSMTags) -> Bool {
        tags[.type] == "multipolygon" || tags[.type] == "boundary" || tags[.type] == "waterway"
    }

    public func relation(id: Int64, members: [OSMMember], tags: OSMTags) throws {
        try sealNodes()
        try finishWays()
        guard wantsMembers(ofRelationTagged: tags) else { return }
        if tags[.type] == "waterway" {
            let names = Self.names(tags)
            if !names.isEmpty {
                waterwayRelations.append(WaterwayRelation(id: id, names: names, waterway: tags[.waterway],
                                                          ways: members.filter { $0.type == .way }.map(\.ref)))
            }
            return
        }
        guard let classification = OSMClassifier.classify(tags, hasName: Self.hasName(tags), isArea: true) else { return }
        let names = Self.names(tags)
        var ways: [[Int64]] = []
        for member in members where member.type == .way {
            if let refs = try wayRefs.refs(of: member.ref) { ways.append(refs) } else { readStats.relationMembersMissing += 1 }
        }
        // RingAssembler's lookups cannot throw: a scratch file read that fails is kept and thrown after it.
        var readError: Error?
        let result = RingAssembler.assemble(ways: ways) { id in
            do { return try self.nodes.location(of: id) } catch { readError = error; return nil }
        }
        if let readError { throw readError }
        if result.gapClosingAbandoned { readStats.gapClosingAbandoned += 1 }
        guard !result.polygons.isEmpty else {
            readStats.relationsSkipped += 1
            return
        }
        readStats.relationsAssembled += 1
        readStats.ringsRepaired += result.repairedRings
        let labelNode = members.first { $0.type == .node && $0.role == "label" }?.ref
        let adminCentre = members.first { $0.type == .node && $0.role == "admin_centre" }?.ref
        // The label node, else the admin centre (a town inside the area), else the point deepest inside.
        let point = try [labelNode, adminCentre].compactMap { try $0.flatMap(self.nodes.location(of:)) }
            .first { point in result.polygons.contains { PolygonMath.polygonContains($0, lat: point.lat, lon: point.lon) } }
            ?? PolygonMath.labelPoint(result.polygons) ?? result.polygons[0][0][0]
        try emit(ref: "r\(id)", classification, tags, names, at: point, geometry: .polygons(result.polygons),
                 areaKm2: PolygonMath.areaKm2(result.polygons), labelNode: labelNode.map { "n\($0)" },
                 adminCentreNode: adminCentre.map { "n\($0)" }, into: sink)
    }

    /// Completes the places of a file without relations (see `finishWays`), the waterways, and the counts.
    public func finish() throws {
        try sealNodes()
        try finishWays()
        let relations = waterwayRelations
        waterwayRelations = []
        try sink.perform { [self] target in try emitLines(of: .waterway, relations: relations, into: target) }
        readStats.nodeStoreBytes = nodes.memoryBytes
        readStats.wayStoreBytes = wayRefs.memoryBytes
        readStats.spilledBytes = budget.spilledBytes
    }

    // MARK: helpers

    private func sealNodes() throws {
        guard !nodesSealed else { return }
        nodesSealed = true
        try nodes.seal()
        sinkNodes = nodes.makeReader()
        try addressNodes.seal()
        try entranceNodes.seal()
    }

    /// Writes the streets and interpolation lines, which need every way read first: once the last way is
    /// (at the first relation or the end), after the work handed to the sink (the street segments), on
    /// its thread, which builds them while this one reads the relations.
    private func finishWays() throws {
        guard !waysSealed else { return }
        waysSealed = true
        try wayRefs.seal()
        try sink.perform { [self] target in
            try emitLines(of: .highway, relations: [], into: target)
            try emitInterpolations(into: target)
        }
    }

    /// Whether `names(_:)` would find a name; cheap, for objects that may not become places at all.
    private static func hasName(_ tags: OSMTags) -> Bool {
        OSMClassifier.hasName(tags) || tags[.brand] != nil
    }

    /// Names for search; a brand stands in for a missing name (many chain shops carry only `brand`).
    private static func names(_ tags: OSMTags) -> [PlaceName] {
        let names = OSMClassifier.names(tags)
        if names.isEmpty, let brand = tags[.brand] { return [PlaceName(name: brand, type: "brand")] }
        return names
    }

    /// Node positions of a way, leaving out nodes the extract does not have (counted).
    private func resolve(_ refs: [Int64], with location: (Int64) throws -> Point7?,
                         counting stats: inout OSMBuildStats) rethrows -> [Point7] {
        var points: [Point7] = []
        points.reserveCapacity(refs.count)
        for ref in refs {
            if let p = try location(ref) { points.append(p) }
        }
        if points.count < refs.count {
            stats.waysWithMissingNodes += 1
            stats.missingNodeRefs += refs.count - points.count
        }
        return points
    }

    private func emit(ref: String, _ classification: OSMClassification, _ tags: OSMTags, _ names: [PlaceName],
                      at point: Point7, geometry: Geometry?, areaKm2: Double? = nil, labelNode: String? = nil,
                      adminCentreNode: String? = nil, entrances: [PlaceEntrance] = [], into target: PlaceSink) throws {
        var names = names
        var name = names.first?.name
        if classification.kind == .postcode, let code = tags[.postalCode] {
            name = code
            if !names.contains(where: { $0.name == code }) { names.insert(PlaceName(name: code, type: "postcode"), at: 0) }
        } else if classification.kind == .address {
            name = tags[.addrHousename]
            if let name { names = [PlaceName(name: name, type: "housename")] }
        }
        let population = OSMClassifier.population(tags)
        let coordinate = point.coordinate
        var record = PlaceRecord(
            sourceRef: ref, kind: classification.kind, category: classification.category, name: name, names: names,
            coordinate: coordinate, boundingBox: geometry?.boundingBox ?? BoundingBox(coordinate),
            importance: Importance.of(kind: classification.kind, population: population,
                                      famous: tags[.wikidata] != nil || tags[.wikipedia] != nil, areaKm2: areaKm2),
            adminLevel: classification.adminLevel, population: population, address: OSMClassifier.address(tags),
            tags: OSMClassifier.displayTags(tags), geometry: geometry)
        record.labelNode = labelNode
        record.adminCentreNode = adminCentreNode
        record.entrances = entrances
        try target.add(record)
    }

    /// One place per named line of `family`: a street (`highway=…`, the most important type of its segments)
    /// or a river, stream or canal (kind water, `waterway=…`). The named member ways of a waterway relation
    /// (`relations`, in file order; a way in two takes the first) are its place, under the relation's id and
    /// names; the other ways are merged by `LineCollector`'s rule.
    private func emitLines(of family: LineCollector.Family, relations: [WaterwayRelation], into target: PlaceSink) throws {
        var taken = Set<Int>()
        let byWay = relations.isEmpty ? [:] : lines.segmentsByWay(family)
        for relation in relations {
            let members = relation.ways.compactMap { byWay[$0] }.filter { taken.insert($0).inserted }
            guard !members.isEmpty else { continue }
            try emitLine(members, ref: "r\(relation.id)", names: relation.names, value: relation.waterway, family: family, into: target)
        }
        for group in lines.lineGroups(family, excluding: taken) {
            try emitLine(group, ref: nil, names: [], value: nil, family: family, into: target)
        }
    }

    /// The place of one line: `segments` (indices in `lines`), the first's way id its id unless `ref` is given;
    /// its names `names` and then the segments', its type `value` if that is a line type of the family, else
    /// the most important of its segments'. Its other ways are linked to it (`mergedRecords`).
    private func emitLine(_ group: [Int], ref: String?, names given: [PlaceName], value: String?, family: LineCollector.Family,
                          into target: PlaceSink) throws {
        let segments = group.map { lines.segments[$0] }
        let lineStrings = try segments.map { try lines.line(of: $0) }
        var names: [PlaceName] = []
        var seen = Set<PlaceName>()
        for n in given where seen.insert(n).inserted { names.append(n) }
        for segment in segments {
            for n in lines.names(of: segment) where seen.insert(n).inserted { names.append(n) }
        }
        // The most important type of the line's segments (a family's values are in order of importance).
        let type = value.flatMap { LineCollector.isLine(family, $0) ? $0 : nil } ?? lines.type(of: segments.min { $0.type < $1.type }!).value
        let longest = lineStrings.max { LineMath.relativeLength($0) < LineMath.relativeLength($1) } ?? lineStrings[0]
        let point = LineMath.point(along: longest, fraction: 0.5) ?? longest[0]
        let geometry = Geometry.lineStrings(lineStrings)
        var record = PlaceRecord(
            sourceRef: ref ?? "w\(segments[0].wayID)", kind: family.kind, category: "\(family.key)=\(type)",
            name: names[0].name, names: names, coordinate: point.coordinate, boundingBox: geometry.boundingBox,
            geometry: geometry)
        record.mergedRecords = zip(segments, lineStrings).dropFirst(ref == nil ? 1 : 0).map { segment, line in
            let middle = LineMath.point(along: line, fraction: 0.5) ?? line[0]
            return ("w\(segment.wayID)", middle.coordinate.distance(to: point.coordinate))
        }
        try target.add(record)
    }

    private func emitInterpolations(into target: PlaceSink) throws {
        for item in interpolations {
            guard let firstRef = item.refs.first, let lastRef = item.refs.last,
                  let first = try addressNodes.lookup(firstRef), let last = try addressNodes.lookup(lastRef) else {
                geometryStats.interpolationsSkipped += 1
                continue
            }
            let point = LineMath.point(along: item.points, fraction: 0.5) ?? item.points[0]
            let geometry = Geometry.lineStrings([item.points])
            let address = Address(housenumber: "\(first.housenumber)-\(last.housenumber)",
                                  street: item.tags[.addrStreet] ?? first.street ?? last.street,
                                  postcode: item.tags[.addrPostcode] ?? first.postcode ?? last.postcode,
                                  city: item.tags[.addrCity])
            try target.add(PlaceRecord(
                sourceRef: "w\(item.wayID)", kind: .interpolation, category: "addr:interpolation=\(item.tags[.addrInterpolation] ?? "")",
                name: nil, names: [], coordinate: point.coordinate, boundingBox: geometry.boundingBox,
                address: address, tags: OSMClassifier.displayTags(item.tags), geometry: geometry))
        }
    }
}

/// A named `type=waterway` relation: its names, its `waterway` value and its member ways, in order.
private struct WaterwayRelation {
    var id: Int64
    var names: [PlaceName]
    var waterway: String?
    var ways: [Int64]
}
