// Hashes and identities that must mean the same in another process: Swift's `Hasher` is seeded per process.
import Foundation

/// 32-bit FNV-1a of a text's UTF-8: what page cursors carry to tell their query from another.
package enum FNV1a {
    package static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}

/// What tells the file at a path from the one that was there: its inode (another file renamed over it, as
/// an import does), its size and its modification time (the same file written over in place: `cp`, `rsync
/// --inplace`, `truncate`). Open connections see neither, so whoever keeps a file open compares these.
package struct FileIdentity: Equatable, Sendable {
    let inode: UInt64
    let size: Int64
    /// Nanoseconds since 1970: a copy that keeps the size is still seen, however fast it follows.
    let modified: Int64

    /// The file at `path` now, nil when there is none.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
