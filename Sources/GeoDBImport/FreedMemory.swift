// Memory a phase of an import freed, given back to the system before the next phase.
import CMalloc

/// glibc keeps freed memory for reuse by the thread arena that freed it: the OSM reader's and writer's threads
/// free the node locations and the records they read, and the main thread's later phases cannot reuse it, so
/// their memory came on top of it (Liechtenstein ×200: 699 MB resident after reading, 230 MB once trimmed).
enum FreedMemory {
    /// Returns the free memory of every arena to the system.
    static func release() {
        _ = malloc_trim(0)
    }
}
