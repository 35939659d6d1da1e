// The node store answers exactly what was put in, whatever the id gaps, coordinates and input order.
import GeoDB
@testable import GeoDBImport
import Testing

@Suite struct NodeLocationStoreTests {
    /// Nodes with gaps from 1 to beyond 2³², coordinates anywhere (including the extremes, where a
    /// difference does not fit 32 bits), a partial last group; every node found, gaps not.
    @Test(arguments: [false, true])
    func findsEveryNodeAndNothingElse(shuffled: Bool) throws {
        var random = SplitMix(seed: 7)
        var nodes: [(id: Int64, point: Point7)] = []
        var id: Int64 = -5
        for i in 0..<10_007 {
            id += [1, 1, 2, 17, 1_000, 70_000, 5_000_000_000][Int(random.next() % 7)]
            let point = i % 50 == 0
                ? Point7(lat: i % 100 == 0 ? Int32.max : Int32.min, lon: i % 100 == 0 ? Int32.min : Int32.max)
                : Point7(lat: Int32.random(in: -900_000_000...900_000_000, using: &random),
                         lon: Int32.random(in: -1_800_000_000...1_800_000_000, using: &random))
            nodes.append((id, point))
        }
        let store = NodeLocationStore()
        for node in shuffled ? nodes.shuffled(using: &random) : nodes {
            store.append(id: node.id, lat7: node.point.lat, lon7: node.point.lon)
        }
        store.seal()
        #expect(store.count == nodes.count)
        // In order (the cursor path), then at random (the binary search), then ids between and outside.
        for node in nodes { #expect(store.location(of: node.id) == node.point) }
        for node in nodes.shuffled(using: &random) { #expect(store.location(of: node.id) == node.point) }
        let present = Set(nodes.map(\.id))
        for node in nodes where !present.contains(node.id + 1) { #expect(store.location(of: node.id + 1) == nil) }
        #expect(store.location(of: nodes[0].id - 1) == nil)
        #expect(store.location(of: Int64.max) == nil)
        #expect(store.location(of: Int64.min) == nil)
    }

    @Test func emptyStoreFindsNothing() {
        let store = NodeLocationStore()
        store.seal()
        #expect(store.location(of: 1) == nil)
    }

    /// An index that has answered lookups is freed with its last owner, as is one read by another thread's
    /// reader once that reader goes: the index's own reader once held the index in a cycle, and every
    /// OSM import leaked its node store (found by fuzzing: 2 GB after 55,000 imports in one process).
    @Test func indexesAreFreedAfterLookups() {
        weak var looked: DeltaCodedIndex?
        weak var read: DeltaCodedIndex?
        do {
            let index = DeltaCodedIndex(), other = DeltaCodedIndex()
            for id in 1...1_000 as ClosedRange<Int64> {
                index.append(id: id, id, -id)
                other.append(id: id, id, -id)
            }
            index.seal()
            other.seal()
            #expect(index.lookup(500)?.0 == 500)
            var reader: DeltaCodedIndex.Reader? = DeltaCodedIndex.Reader(other)
            looked = index
            read = other
            #expect(reader?.lookup(7)?.1 == -7)
            reader = nil
        }
        #expect(looked == nil)
        #expect(read == nil)
    }
}
