// How much memory an OSM file's lookup tables may take (`geodb import --memory`), and where the rest goes.
import Foundation

/// The bytes the stores that grow with an OSM file (node locations, the index of way node lists) may
/// hold in memory, shared by all of them: each claims its memory here a chunk at a time, and a store
/// refused a chunk writes its further bytes to a scratch file in `scratchDirectory` (the output's
/// directory) and reads them back from there. Nodes come first in an OSM file, so the node locations, the
/// store read most, keep the memory; what comes later spills. Group heads (1 byte per entry) cannot spill:
/// they are claimed whatever the budget says, and memory exceeds it when they alone do.
final class MemoryBudget: @unchecked Sendable {
    let limit: Int
    let scratchDirectory: String
    // Claimed and released a chunk (128 KiB to 1 MiB) at a time; stores may be freed on the writer's thread.
    private let lock = NSLock()
    private var held = 0
    private var written = 0

    init(limit: Int, scratchDirectory: String) {
        self.limit = limit
        self.scratchDirectory = scratchDirectory
    }

    /// Takes `bytes` if they fit; false (nothing taken) when they would pass the limit.
    func claim(_ bytes: Int) -> Bool {
        lock.withLock {
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    /// Takes `bytes` whether they fit or not: memory that cannot go to disk.
    func hold(_ bytes: Int) { lock.withLock { held += bytes } }

    func release(_ bytes: Int) { lock.withLock { held -= bytes } }

    /// Counts bytes a store wrote to its scratch file because the budget was spent.
    func spilled(_ bytes: Int) { lock.withLock { written += bytes } }

    /// Bytes held in memory now.
    var heldBytes: Int { lock.withLock { held } }
    /// Bytes written to scratch files beyond the budget (0: everything stayed in memory).
    var spilledBytes: Int { lock.withLock { written } }
}
