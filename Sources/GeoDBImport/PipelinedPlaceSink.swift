// Moves database writing to a second thread, so SQLite's work overlaps with reading and classifying.
import Foundation
import GeoDB

/// A `PlaceSink` that hands places in batches to another `PlaceSink` running on its own thread.
/// Order is kept (one consumer, FIFO), so place ids are the same as with a direct writer.
/// The target must not be touched by the caller until `drain()` has returned.
final class PipelinedPlaceSink: PlaceSink, @unchecked Sendable {
    // @unchecked: `batch` belongs to the producing thread; `queue`, `failure` and `closed` are guarded by
    // `condition`; the target is used only by the consumer thread until `drain()` returns.
    private let target: PlaceSink
    private let condition = NSCondition()
    private var queue: [[PlaceRecord]] = []
    private var failure: Error?
    private var closed = false
    private var batch: [PlaceRecord] = []
    private let finished = DispatchSemaphore(value: 0)
    /// Places handed over so far (producer thread only).
    private(set) var sent = 0

    static let batchSize = 256
    static let maxQueuedBatches = 8

    init(target: PlaceSink) {
        self.target = target
        batch.reserveCapacity(Self.batchSize)
        let thread = Thread { [self] in consume() }
        thread.name = "geodb-writer"
        thread.start()
    }

    func add(_ place: PlaceRecord) throws {
        batch.append(place)
        sent += 1
        if batch.count >= Self.batchSize { try send() }
    }

    /// Waits until every place sent so far is written; rethrows the writer's error if it failed.
    func drain() throws {
        try send()
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
        if let failure { throw failure }
    }

    private func send() throws {
        guard !batch.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.maxQueuedBatches && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(batch)
        batch = []
        batch.reserveCapacity(Self.batchSize)
        condition.broadcast()
    }

    private func consume() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                break
            }
            let next = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                for place in next { try target.add(place) }
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                condition.broadcast()
                condition.unlock()
                break
            }
        }
        finished.signal()
    }
}
