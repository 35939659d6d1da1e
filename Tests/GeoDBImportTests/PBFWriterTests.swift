// PBFWriter's files read back by PBFReader: every object, tag, reference and member as written.
import Foundation
import GeoDB
@testable import GeoDBImport
import Testing
import TestSupport

/// Every object a reader hands over, as text.
final class ObjectRecorder: OSMHandler {
    var header: OSMHeader?
    var objects: [String] = []
    func header(_ header: OSMHeader) { self.header = header }
    func node(id: Int64, lat7: Int32, lon7: Int32, tags: OSMTags) { objects.append("n\(id) \(lat7) \(lon7) \(describe(tags))") }
    func way(id: Int64, refs: [Int64], tags: OSMTags) { objects.append("w\(id) \(refs) \(describe(tags))") }
    func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        objects.append("r\(id) \(members.map { "\($0.type)\($0.ref)@\($0.role)" }) \(describe(tags))")
    }
    private func describe(_ tags: OSMTags) -> String { tags.pairs.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
}

@Test func pbfWriterFilesReadBackAsWritten() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("written.osm.pbf")
    let writer = try PBFWriter(path: path)
    try writer.writeHeader(writingProgram: "test", sortedByTypeThenID: true, replicationTimestamp: 1_700_000_000)
    // Two blocks of nodes, negative coordinates, ids far apart; the ways' block has a table of its own.
    let strings = PBFStringTable(["amenity", "cafe", "name", "Kahvila", ""])
    var block = PBFBlockEncoder()
    block.reset(.nodes)
    block.addNode(id: 1, lat7: 601_700_000, lon7: 249_400_000, keys: [0, 2], values: [1, 3])
    block.addNode(id: 2, lat7: -337_000_000, lon7: -700_000_000, keys: [], values: [])
    try writer.write(block, strings: strings)
    block.reset(.nodes)
    block.addNode(id: 100_000_000_000, lat7: 0, lon7: 1_800_000_000, keys: [2], values: [1])
    try writer.write(block, strings: strings)
    block.reset(.ways)
    block.addWay(id: 5, refs: [2, 1, 100_000_000_000, 2], keys: [0], values: [1])
    block.addWay(id: 6, refs: [], keys: [], values: [])
    try writer.write(block, strings: PBFStringTable(["name", "Katu"]))
    block.reset(.relations)
    block.addRelation(id: 7, memberIDs: [1, 5, 7], memberTypes: [0, 1, 2], roles: [0, 4, 1],
                      keys: [0], values: [1])
    try writer.write(block, strings: strings)
    block.reset(.relations)   // an empty block is not written
    try writer.write(block, strings: strings)
    try writer.close()

    let recorder = ObjectRecorder()
    let reader = PBFReader(path: path)
    try reader.read(into: recorder)
    #expect(recorder.header?.writingProgram == "test" && recorder.header?.replicationTimestamp == 1_700_000_000)
    #expect(recorder.objects == [
        "n1 601700000 249400000 amenity=cafe,name=Kahvila",
        "n2 -337000000 -700000000 ",
        "n100000000000 0 1800000000 name=cafe",
        "w5 [2, 1, 100000000000, 2] name=Katu",
        "w6 [] ",
        "r7 [\"node1@amenity\", \"way5@\", \"relation7@cafe\"] amenity=cafe",
    ])
    #expect(reader.stats.nodes == 3 && reader.stats.ways == 2 && reader.stats.relations == 1)
    #expect(writer.bytesWritten == Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64))
}
