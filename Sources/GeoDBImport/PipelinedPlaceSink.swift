// Moves database writing to a second thread, so SQLite's work overlaps with reading and classifying.
import GeoDB

/// A `PlaceSink` that hands places in batches to another `PlaceSink` running on its own thread.
/// Order is kept (one consumer, FIFO), so place ids are the same as with a direct writer.
/// The target must not be touched by the caller until `drain()` has returned.
final class PipelinedPlaceSink: PlaceSink {
    private enum Item {
        case place(PlaceRecord)
        case work((PlaceSink) throws -> Void)
    }

    private let worker: BackgroundWorker<Item>
    /// Places handed over so far (producer thread only).
    private(set) var sent = 0

    init(target: PlaceSink) {
        worker = BackgroundWorker(name: "geodb-writer") { item in
            switch item {
            case .place(let place): try target.add(place)
            case .work(let work): try work(target)
            }
        }
    }

    func add(_ place: PlaceRecord) throws {
        try worker.send(.place(place))
        sent += 1
    }

    /// Runs `work` on the writer's thread, after the places sent before it.
    func perform(_ work: @escaping (PlaceSink) throws -> Void) throws {
        try worker.send(.work(work))
    }

    /// Waits until every place sent so far is written; rethrows the writer's error if it failed.
    func drain() throws {
        try worker.drain()
    }
}
