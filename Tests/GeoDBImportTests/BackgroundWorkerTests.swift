// The worker thread behind the pipelined writer and the full-text builder: order, errors, repeated drains,
// and what its handler holds released by the end.
@testable import GeoDBImport
import Testing

@Suite struct BackgroundWorkerTests {
    struct Failure: Error, Equatable {}

    @Test func handlesEveryItemInOrder() throws {
        let seen = Box()
        let worker = BackgroundWorker<Int>(name: "test", batchSize: 7) { seen.items.append($0) }
        for i in 0..<1_000 { try worker.send(i) }
        try worker.drain()
        #expect(seen.items == Array(0..<1_000))
        try worker.drain()   // again: returns at once
    }

    /// After the handler throws, sending fails with its error.
    @Test func aFailureReachesTheProducer() throws {
        let worker = BackgroundWorker<Int>(name: "test", batchSize: 1) { if $0 == 3 { throw Failure() } }
        #expect(throws: Failure.self) { for i in 0..<10_000 { try worker.send(i) } }
        #expect(throws: Failure.self) { try worker.drain() }
    }

    /// The last item fails (no send can see it): every drain rethrows the error, without waiting again for
    /// the thread that has ended (a second drain once hung an import that failed).
    @Test func everyDrainRethrowsTheFailure() throws {
        let worker = BackgroundWorker<Int>(name: "test", batchSize: 1) { if $0 == 3 { throw Failure() } }
        for i in 0...3 { try worker.send(i) }
        #expect(throws: Failure.self) { try worker.drain() }
        #expect(throws: Failure.self) { try worker.drain() }
    }

    /// What the handler holds (an import's writer, and so its connection) is released by the time `drain()`
    /// returns, not whenever the thread lets go of its closure: a reader opening the renamed file next found
    /// it locked. And a background result's captures once its value is read.
    @Test func whatTheHandlerHoldsIsReleasedByDrain() throws {
        for _ in 0..<200 {
            var held: Box? = Box()
            weak let released = held
            let worker = BackgroundWorker<Int>(name: "test") { [held] in held?.items.append($0) }
            held = nil
            try worker.send(1)
            try worker.drain()
            #expect(released == nil)
            var captured: Box? = Box()
            weak let gone = captured
            let result = BackgroundResult(name: "test") { [captured] in captured?.items.count ?? -1 }
            captured = nil
            #expect(result.value() == 0 && gone == nil)
        }
    }

    final class Box: @unchecked Sendable { var items: [Int] = [] }
}
