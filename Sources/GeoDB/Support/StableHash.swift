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

/// The inode number of the file at a path: another number means another file was renamed over it (a new
/// import), which open connections do not see.
package enum FileIdentity {
    package static func number(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? Int
    }
}
