// `geodb import --memory SIZE`: an amount of memory as people write it (512M, 2G), and back.
import Foundation

enum MemorySize {
    /// Multipliers of the units, in powers of 1024 as memory is counted (`sort -S`, osmium, docker).
    private static let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]

    /// The bytes `text` names: a positive number with a unit K, M, G or T, in either case, optionally
    /// followed by B or iB ("512M", "1.5G", "2GiB", "64kb"); nil for anything else, a bare number too
    /// (bytes or MiB? the unit says).
    static func bytes(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces)).uppercased()[...]
        if rest.hasSuffix("IB") { rest = rest.dropLast(2) } else if rest.hasSuffix("B") { rest = rest.dropLast() }
        guard let unit = rest.last.flatMap({ units[$0] }), let number = Double(rest.dropLast()),
              number.isFinite, number > 0, number * Double(unit) < Double(Int.max) else { return nil }
        let bytes = Int(number * Double(unit))
        return bytes > 0 ? bytes : nil
    }

    /// Bytes as a memory size: "512 MiB", "2.0 GiB", "64 KiB".
    static func text(_ bytes: Int) -> String {
        let value = Double(bytes)
        switch bytes {
        case ..<(1 << 20): return String(format: "%.0f KiB", value / 1024)
        case ..<(1 << 30): return String(format: "%.0f MiB", value / 1_048_576)
        default: return String(format: "%.1f GiB", value / 1_073_741_824)
        }
    }
}
