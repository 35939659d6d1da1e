// The narrow interface between readers that make places and the writer that stores them.
import GeoDB

/// Receives finished places. The database writer is one; tests use a collecting fake.
package protocol PlaceSink: AnyObject {
    func add(_ place: PlaceRecord) throws
}
