// Recognises a coordinate typed into a search box: "60.1699, 24.9384", "60.1699 24.9384",
// "60°10'12\"N 24°56'18\"E", "60 10 12 N, 24 56 18 E", "S 33.86 E 151.2".
import Foundation

enum CoordinateParser {
    /// The coordinate in `text`, or nil when the text is not (only) a coordinate or is out of range.
    static func parse(_ text: String) -> Coordinate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, first.isNumber || "-+NSEWnsew".contains(first), trimmed.count <= 64 else { return nil }
        // Split into the two axes: at a comma, else at the hemisphere letter that ends the first.
        var halves: [String]
        let commaParts = trimmed.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        if commaParts.count == 2 {
            halves = commaParts
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
