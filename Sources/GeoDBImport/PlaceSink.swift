// The narrow interface between readers that make places and the writer that stores them.
import GeoDB

/// Receives finished places. The database writer is one; tests use a collecting fake.
package protocol PlaceSink: AnyObject {
    func add(_ place: PlaceRecord) throws

    /// Runs `work` in order with the places added, handing it the sink to add its places to: on the
    /// sink's own thread when it has one, so that work finishing places can leave the caller's thread.
    func perform(_ work: @escaping (PlaceSink) throws -> Void) throws
}

extension PlaceSink {
    package func perform(_ work: @escaping (PlaceSink) throws -> Void) throws {
        try work(self)
    }
}
