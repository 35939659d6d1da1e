// Moves work to a thread of its own, in order, so that it overlaps with the caller's.
import Foundation

/// A FIFO of items that one thread of its own hands to `handle`, in the order sent. Items travel in
/// batches (one lock round trip per batch) through a bounded queue: a producer that runs ahead waits.
/// `handle` runs only on the worker thread; the caller must not touch what it uses until `drain()`.
final class BackgroundWorker<Item>: @unchecked Sendable {
    // @unchecked: `batch` belongs to the producing thread; `queue`, `failure` and `closed` are guarded by
    // `condition`; `handle` runs only on the worker thread.
    /// Set to nil by the worker thread before it signals that it has ended: what `handle` holds (statements,
    /// the connection they keep open and locked) is released before `drain()` returns, not whenever the
    /// thread lets go of its closure, which can be after an import has renamed its file and a reader opened it.
    private var handle: ((Item) throws -> Void)?
    private let condition = NSCondition()
    private var queue: [[Item]] = []
    private var failure: Error?
    private var closed = false
    private var batch: [Item] = []
    private let batchSize: Int
    /// Batches sent but not yet taken by the worker; `flush()` waits beyond it.
    private let queueLimit: Int
    private let finished = DispatchSemaphore(value: 0)
    /// The worker thread has ended and `drain()` has seen it (producer thread only).
    private var ended = false

    init(name: String, batchSize: Int = 256, queueLimit: Int = 8, handle: @escaping (Item) throws -> Void) {
        self.handle = handle
        self.batchSize = batchSize
        self.queueLimit = queueLimit
        batch.reserveCapacity(batchSize)
        let thread = Thread { [self] in consume() }
        thread.name = name
        thread.start()
    }

    /// Queues `item`; throws the worker's error if it has failed.
    func send(_ item: Item) throws {
        batch.append(item)
        if batch.count >= batchSize { try flush() }
    }

    /// Hands the items sent so far to the worker without waiting for them.
    func flush() throws {
        guard !batch.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= queueLimit && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(batch)
        batch = []
        batch.reserveCapacity(batchSize)
        condition.broadcast()
    }

    /// Waits until every item sent is handled and the thread has ended; rethrows the worker's error.
    /// Nothing may be sent after it; calling it again returns at once (rethrowing the same error).
    func drain() throws {
        if !ended {
            try? flush()   // fails only when the worker has failed: then its error is thrown below
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
            finished.wait()
            ended = true
        }
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
    }

    private func consume() {
        handleAll()
        handle = nil
        finished.signal()
    }

    private func handleAll() {
        guard let handle else { return }
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
                for item in next { try handle(item) }
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                condition.broadcast()
                condition.unlock()
                break
            }
        }
    }
}

/// One value computed on a thread of its own while the caller goes on; `value()` waits for it.
final class BackgroundResult<Value>: @unchecked Sendable {
    // @unchecked: `compute` runs only on the thread; `result` is written once by it before `done` is
    // signalled and read by the one caller of `value()` after waiting for it.
    /// Set to nil once run, before `done` is signalled, so that what it captured is released by then.
    private var compute: (() -> Value)?
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)
    /// Read `result` only once `done` was waited for (reading it earlier would race with the thread).
    private var waited = false

    init(name: String, _ compute: @escaping () -> Value) {
        self.compute = compute
        let thread = Thread { [self] in
            result = self.compute?()
            self.compute = nil
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// The value, once computed; call from one thread.
    func value() -> Value {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}
