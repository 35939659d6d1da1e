// Standard output through one large buffer, for commands that print a row per input (batches).
import Foundation

/// Standard output through one buffer: print() per line is slow for big batches.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func write(_ text: String) {
        bytes += text.utf8
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
