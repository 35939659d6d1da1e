// Recognises a coordinate typed into a search box: "60.1699, 24.9384", "60.1699 24.9384",
// "60°10'12\"N 24°56'18\"E", "60 10 12 N, 24 56 18 E", "S 33.86 E 151.2".
import Foundation

package enum CoordinateParser {
    /// The coordinate in `text`, or nil when the text is not (only) a coordinate or is out of range.
    package static func parse(_ text: String) -> Coordinate? {
        // Most texts are names: an ASCII letter other than a hemisphere's first rules one out before trimming copies
        // it (Foundation's trim cost 25,000 instructions, 1 % of a town's search).
        // A byte that is no whitespace `trimmingCharacters(in: .whitespaces)` would remove: ASCII but a space or a tab.
        func unblank(_ byte: UInt8?) -> Bool { byte.map { $0 < 0x80 && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? false }
        if let lead = text.utf8.first, unblank(lead),
           !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lead), !"-+NSEWnsew".utf8.contains(lead) {
            return nil
        }
        // Nor trimmed when neither end can be trimmed ("Eschen", "Sevelen").
        let trimmed = unblank(text.utf8.first) && unblank(text.utf8.last) ? text : text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, first.isNumber || "-+NSEWnsew".contains(first), trimmed.count <= 64 else { return nil }
        // Split into the two axes: at a comma, else at the hemisphere letter that ends the first.
        var halves: [String]
        let commaParts = trimmed.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        if commaParts.count == 2 {
            halves = commaParts
        } else if "NSns".contains(first), let split = trimmed.dropFirst().firstIndex(where: { "EWew".contains($0) }) {
            // The hemisphere before each axis: "N 47.10791° E 9.52676°".
            halves = [String(trimmed[..<split]), String(trimmed[split...])]
        } else if let split = trimmed.firstIndex(where: { "NSns".contains($0) }), split != trimmed.startIndex {
            halves = [String(trimmed[...split]), String(trimmed[trimmed.index(after: split)...])]
        } else {
            let numbers = trimmed.split(separator: " ").map(String.init)
            guard numbers.count == 2 else { return nil }
            halves = numbers
        }
        guard halves.count == 2, let lat = axis(halves[0], positive: "N", negative: "S"),
              let lon = axis(halves[1], positive: "E", negative: "W") else { return nil }
        let c = Coordinate(lat: lat, lon: lon)
        return c.isValid ? c : nil
    }

    /// A position written before or after other words ("sporry weiher, N 47.10791° E 9.52676°",
    /// "restaurant near 47.16712,9.51100", "[natural=peak] 47.06512,9.53965"): the position and the words
    /// (without the commas and "near"/"at"/"around" that joined them). Only a position with a decimal point,
    /// a degree sign or a hemisphere letter counts: "Austrasse 9 10" is a street and two numbers.
    static func split(_ text: String) -> (rest: String, point: Coordinate)? {
        // Every search text passes here: one without a digit holds no position (most names), and costs no split.
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let tokens = text.split(whereSeparator: \.isWhitespace)
        guard tokens.count >= 2, tokens.count <= 40 else { return nil }
        // The longest position first: "47.150° N 9.5340493° E" holds the shorter "47.150° N 9.5340493°".
        for count in stride(from: min(8, tokens.count - 1), through: 1, by: -1) {
            for (position, rest) in [(tokens.suffix(count), tokens.dropLast(count)), (tokens.prefix(count), tokens.dropFirst(count))] {
                let written = position.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ", "))
                guard written.contains(where: { ".°NSEWnsew".contains($0) }), let point = parse(written) else { continue }
                var words = rest.map(String.init)
                while let last = words.last, Self.joiners.contains(last.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ","))) {
                    words.removeLast()
                }
                let joined = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ", "))
                guard !joined.isEmpty else { continue }
                return (joined, point)
            }
        }
        return nil
    }

    /// Words that join a name to the position after it.
    private static let joiners: Set<String> = ["near", "at", "around", ""]

    /// One axis: decimal degrees, or degrees/minutes/seconds, with a sign or a hemisphere letter.
    static func axis(_ text: String, positive: Character, negative: Character) -> Double? {
        var sign = 1.0
        var body = ""
        for ch in text.uppercased() {
            if ch == negative { sign = -sign } else if ch == positive { continue } else if ch == "-" { sign = -sign } else { body.append(ch) }
        }
        let numbers = body.split { !($0.isNumber || $0 == ".") }.map(String.init)
        guard (1...3).contains(numbers.count), body.allSatisfy({ $0.isNumber || " .°'′\"″+".contains($0) }) else { return nil }
        let parts = numbers.compactMap(Double.init)
        guard parts.count == numbers.count else { return nil }
        if parts.count > 1, parts[1...].contains(where: { $0 >= 60 }) { return nil }
        let degrees = parts[0] + (parts.count > 1 ? parts[1] / 60 : 0) + (parts.count > 2 ? parts[2] / 3600 : 0)
        return sign * degrees
    }
}
