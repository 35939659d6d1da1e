// `geodb-bench tile`: a larger synthetic OSM PBF made of N shifted copies of an extract, by the rules of
// Tools/data/tile-osm.py (same grid, id offsets and coordinate shifts, so either tool writes the same
// objects in the same order). The input is read once into arrays and the copies are encoded natively:
// tile-osm.py's round trip through osmium's OPL text took minutes where this takes seconds.
import Foundation
import GeoDB
import GeoDBFileOutput
import GeoDBImport

enum TileBench {
    static func run(input: String, factor: Int?, output: String?) throws -> [String: Any] {
        guard let factor, factor >= 1 else { throw GeoDBError(.invalidArgument, "tile: --factor must be a whole number, at least 1") }
        guard let output else { throw GeoDBError(.invalidArgument, "tile: --output OUT.osm.pbf is required") }
        let started = Date()
        // The output first: an unwritable one fails before the input is read.
        InterruptCleanup.install()
        let temporary = TemporaryOutput(for: output)
        defer { temporary.discard() }
        let writer = try PBFWriter(path: temporary.path)
        let extract = OSMExtract()
        let reader = PBFReader(path: input)
        try reader.read(into: extract)
        extract.finish()
        let grid = try TileGrid(extract, input: input, factor: factor)
        // Objects carry no metadata here (the reader keeps none): the newest object's timestamp goes in the
        // header instead, so that an import of the copies dates its data as an import of the input does.
        try writer.writeHeader(writingProgram: "geodb-bench tile", sortedByTypeThenID: extract.isSorted,
                               replicationTimestamp: reader.stats.newestTimestamp)
        try extract.writeCopies(grid, to: writer)
        try writer.close()
        try temporary.commit()
        return [
            "tiles": factor, "columns": grid.columns,
            "nodes": extract.nodes.ids.count * factor, "ways": extract.ways.ids.count * factor,
            "relations": extract.relations.ids.count * factor,
            "bytes": writer.bytesWritten, "seconds": Date().timeIntervalSince(started), "output": output,
        ]
    }
}

/// Where each copy goes: tile-osm.py's layout, in integer 1e-7 degrees as there.
struct TileGrid {
    let factor: Int
    let columns: Int
    /// Copy k adds k times these to the ids of nodes, ways and relations (and to the references to them):
    /// the power of ten above the type's largest id, which keeps every copy's ids disjoint and readable.
    let idSteps: [Int64]
    /// One tile's size: the input's bbox and a tenth more (at least 0.0001°), so tiles do not touch.
    let width: Int64
    let height: Int64

    init(_ extract: OSMExtract, input: String, factor: Int) throws {
        guard let bbox = extract.bbox else { throw GeoDBError(.badInput, "tile: \(input) has no node locations to tile") }
        guard extract.smallestID >= 0 else {
            throw GeoDBError(.badInput, "tile: \(input) has negative ids; shifted copies could collide with them")
        }
        self.factor = factor
        idSteps = try extract.largestIDs.map { largest in
            var step: Int64 = 10
            while step <= largest { step *= 10 }
            let (top, overflow) = step.multipliedReportingOverflow(by: Int64(factor - 1))
            guard !overflow, top <= Int64.max - largest else {
                throw GeoDBError(.invalidArgument, "tile: \(factor) copies of ids up to \(largest) pass the largest 64-bit id")
            }
            return step
        }
        let spanX = Int64(bbox.maxLon) - Int64(bbox.minLon), spanY = Int64(bbox.maxLat) - Int64(bbox.minLat)
        width = spanX + max(spanX / 10, 1000)
        height = spanY + max(spanY / 10, 1000)
        var columns = Int(Double(factor).squareRoot().rounded(.up))
        while columns * columns < factor { columns += 1 }
        while (columns - 1) * (columns - 1) >= factor { columns -= 1 }
        self.columns = columns
        let rows = (factor + columns - 1) / columns
        if Int64(bbox.maxLon) + Int64(columns - 1) * width > 1_800_000_000
            || Int64(bbox.maxLat) + Int64(rows - 1) * height > 900_000_000 {
            throw GeoDBError(.invalidArgument, "tile: \(columns)x\(rows) tiles of \(Self.degrees(width))x\(Self.degrees(height)) degrees "
                             + "east/north of the input's bbox would pass 180 longitude or 90 latitude")
        }
    }

    /// Where one copy goes: what its ids add per type (node, way, relation), how far east and north it moves.
    struct Placement {
        var idOffsets: [Int64]
        /// In 1e-7 degree. Wider than a coordinate: a far copy of an input west of -33° moves it more than
        /// 214° east, and only the sum is sure to be a coordinate again.
        var dx: Int64
        var dy: Int64
    }

    /// Copy `k`'s placement: row by row, from the input's own place (copy 0) eastwards.
    func placement(of k: Int) -> Placement {
        let (row, column) = k.quotientAndRemainder(dividingBy: columns)
        return Placement(idOffsets: idSteps.map { $0 * Int64(k) }, dx: Int64(column) * width, dy: Int64(row) * height)
    }

    /// 1e-7 degrees as tile-osm.py prints them.
    static func degrees(_ units: Int64) -> String {
        let fraction = String(units % 10_000_000)
        return "\(units / 10_000_000)." + String(repeating: "0", count: 7 - fraction.count) + fraction
    }
}

/// The objects of one extract in arrays, in file order, cut into the blocks they are written in; tags
/// and roles are indices into their block's string table.
final class OSMExtract: OSMHandler {
    struct Nodes {
        var ids: [Int64] = []
        var lat7: [Int32] = []
        var lon7: [Int32] = []
        var blocks = BlockPlan()
    }

    struct Ways {
        var ids: [Int64] = []
        /// Way i's node ids are `refs[refEnds[i]..<refEnds[i + 1]]`.
        var refEnds = [0]
        var refs: [Int64] = []
        var blocks = BlockPlan()
    }

    struct Relations {
        var ids: [Int64] = []
        /// Relation i's members are entries `memberEnds[i]..<memberEnds[i + 1]` of the member arrays.
        var memberEnds = [0]
        var memberIDs: [Int64] = []
        var memberTypes: [UInt8] = []
        var roles: [UInt32] = []
        var blocks = BlockPlan()
    }

    private(set) var nodes = Nodes()
    private(set) var ways = Ways()
    private(set) var relations = Relations()
    /// The nodes' extent, in 1e-7 degree.
    private(set) var bbox: (minLon: Int32, minLat: Int32, maxLon: Int32, maxLat: Int32)?
    /// Per type (node, way, relation); 0 for a type the file has none of, as `osmium fileinfo` says.
    private(set) var largestIDs: [Int64] = [0, 0, 0]
    private(set) var smallestID: Int64 = 0
    /// Nodes, then ways, then relations, ids ascending within each, as the copies then are too.
    private(set) var isSorted = true
    private var last: (type: Int, id: Int64)?

    private func note(type: Int, id: Int64) {
        if let last, (last.type, last.id) >= (type, id) { isSorted = false }
        last = (type, id)
        largestIDs[type] = max(largestIDs[type], id)
        smallestID = min(smallestID, id)
    }

    func header(_ header: OSMHeader) {}

    func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) {
        note(type: 0, id: id)
        nodes.blocks.startObject(nodes.ids.count, bytes: 30 + 10 * tags.count)
        nodes.ids.append(id)
        nodes.lat7.append(lat7)
        nodes.lon7.append(lon7)
        nodes.blocks.appendTags(tags)
        if let box = bbox {
            bbox = (min(box.minLon, lon7), min(box.minLat, lat7), max(box.maxLon, lon7), max(box.maxLat, lat7))
        } else {
            bbox = (lon7, lat7, lon7, lat7)
        }
    }

    func way(id: Int64, refs: [Int64], tags: OSMTags) {
        note(type: 1, id: id)
        ways.blocks.startObject(ways.ids.count, bytes: 20 + 10 * (refs.count + tags.count))
        ways.ids.append(id)
        ways.refs.append(contentsOf: refs)
        ways.refEnds.append(ways.refs.count)
        ways.blocks.appendTags(tags)
    }

    func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        note(type: 2, id: id)
        relations.blocks.startObject(relations.ids.count, bytes: 30 + 17 * members.count + 10 * tags.count)
        relations.ids.append(id)
        for member in members {
            relations.memberIDs.append(member.ref)
            relations.memberTypes.append(member.type.rawValue)
            relations.roles.append(relations.blocks.index(of: member.role))
        }
        relations.memberEnds.append(relations.memberIDs.count)
        relations.blocks.appendTags(tags)
    }

    /// Ends the last block of each type; call once the reader is done.
    func finish() {
        nodes.blocks.finish(objectCount: nodes.ids.count)
        ways.blocks.finish(objectCount: ways.ids.count)
        relations.blocks.finish(objectCount: relations.ids.count)
    }

    /// Writes every copy's nodes, then every copy's ways, then every copy's relations (as tile-osm.py):
    /// copy k's ids are all above copy k-1's, so sorted input gives sorted output.
    func writeCopies(_ grid: TileGrid, to writer: PBFWriter) throws {
        // Local copies (of the arrays' references): the loops then skip the class's exclusivity checks.
        let (nodes, ways, relations) = (self.nodes, self.ways, self.relations)
        var shifted: [Int64] = []
        try Self.writeCopies(of: nodes.blocks, .nodes, grid, to: writer) { block, i, copy in
            block.addNode(id: nodes.ids[i] + copy.idOffsets[0],
                          lat7: Int32(Int64(nodes.lat7[i]) + copy.dy), lon7: Int32(Int64(nodes.lon7[i]) + copy.dx),
                          keys: nodes.blocks.tags.keys(of: i), values: nodes.blocks.tags.values(of: i))
        }
        try Self.writeCopies(of: ways.blocks, .ways, grid, to: writer) { block, i, copy in
            shifted.removeAll(keepingCapacity: true)
            shifted.append(contentsOf: ways.refs[ways.refEnds[i]..<ways.refEnds[i + 1]].lazy.map { $0 + copy.idOffsets[0] })
            block.addWay(id: ways.ids[i] + copy.idOffsets[1], refs: shifted,
                         keys: ways.blocks.tags.keys(of: i), values: ways.blocks.tags.values(of: i))
        }
        try Self.writeCopies(of: relations.blocks, .relations, grid, to: writer) { block, i, copy in
            let members = relations.memberEnds[i]..<relations.memberEnds[i + 1]
            shifted.removeAll(keepingCapacity: true)
            for m in members { shifted.append(relations.memberIDs[m] + copy.idOffsets[Int(relations.memberTypes[m])]) }
            block.addRelation(id: relations.ids[i] + copy.idOffsets[2], memberIDs: shifted,
                              memberTypes: relations.memberTypes[members], roles: relations.roles[members],
                              keys: relations.blocks.tags.keys(of: i), values: relations.blocks.tags.values(of: i))
        }
    }

    /// Writes the blocks of `plan` once per copy, `add` putting object i of the input into a block as copy places it.
    private static func writeCopies(of plan: BlockPlan, _ kind: PBFBlockEncoder.Kind, _ grid: TileGrid, to writer: PBFWriter,
                                    add: (inout PBFBlockEncoder, Int, TileGrid.Placement) -> Void) throws {
        var block = PBFBlockEncoder()
        for k in 0..<grid.factor {
            let copy = grid.placement(of: k)
            for planned in plan.blocks {
                block.reset(kind)
                for i in planned.objects { add(&block, i, copy) }
                try writer.write(block, strings: planned.strings)
            }
        }
    }
}

/// The tags of one type's objects: object i's are entries `ends[i]..<ends[i + 1]`, as indices into the
/// string table of its block.
struct TagColumns {
    fileprivate var keys: [UInt32] = []
    fileprivate var values: [UInt32] = []
    fileprivate var ends = [0]

    func keys(of object: Int) -> ArraySlice<UInt32> { keys[ends[object]..<ends[object + 1]] }
    func values(of object: Int) -> ArraySlice<UInt32> { values[ends[object]..<ends[object + 1]] }
}

/// Cuts one type's objects into PBF blocks as they are read and collects each block's string table and
/// the objects' tags as indices into it:
/// every copy of a block then reuses it, since a copy changes ids and coordinates, never strings.
struct BlockPlan {
    struct Block {
        var objects: Range<Int>
        var strings: PBFStringTable
    }

    private(set) var blocks: [Block] = []
    private(set) var tags = TagColumns()
    /// Well below the 32 MiB a reader accepts, counting every varint at its longest.
    static let maxBytes = 16 << 20
    private var start = 0
    private var count = 0
    private var bytes = 0
    private var strings: [String] = []
    private var indices: [String: UInt32] = [:]

    /// Makes room for object `index`, which encodes in at most `bytes` besides its new strings: ends the
    /// current block first when it is full.
    mutating func startObject(_ index: Int, bytes objectBytes: Int) {
        if count == PBFWriter.maxEntitiesPerBlock || (count > 0 && bytes + objectBytes > Self.maxBytes) { end(at: index) }
        count += 1
        bytes += objectBytes
    }

    /// The index of `string` in the current block's table, added when new.
    mutating func index(of string: String) -> UInt32 {
        if let index = indices[string] { return index }
        let index = UInt32(strings.count)
        strings.append(string)
        indices[string] = index
        bytes += string.utf8.count + 6
        return index
    }

    /// Adds the tags of the object last started.
    mutating func appendTags(_ objectTags: OSMTags) {
        for (key, value) in objectTags.pairs {
            tags.keys.append(index(of: key))
            tags.values.append(index(of: value))
        }
        tags.ends.append(tags.keys.count)
    }

    mutating func finish(objectCount: Int) {
        if count > 0 { end(at: objectCount) }
    }

    private mutating func end(at index: Int) {
        blocks.append(Block(objects: start..<index, strings: PBFStringTable(strings)))
        start = index
        count = 0
        bytes = 0
        strings.removeAll()
        indices.removeAll()
    }
}
