// An address interpolation line: which house numbers it stands for and where each one is, for reverse and
// search alike. OSM's lines and the US Census's TIGER lines differ in one thing, decided here: whether the
// numbers at the ends are the line's own.

/// An `addr:interpolation` way whose two ends are addresses of their own (`first` and `last`): the numbers
/// between them every `step`, spread evenly along it. A TIGER line (category `tiger:interpolation=…`,
/// `tigerKey`) has no addresses at its ends: its range `from`–`to` includes them, spread over the whole line
/// as Nominatim's `location_property_tiger` does (the first number moved up to the scheme's parity).
///
/// Positions follow Nominatim's arithmetic to the last digit, so that a client written for Nominatim sees the
/// same coordinates: the numbers strictly between the ends are spread over the part of the line between their
/// own first and last position, that part's ends rounded to 1e-7°, measured in plain degrees as PostGIS
/// measures EPSG:4326 geometry (not in metres: on a line of several segments the two differ by metres).
///
/// ```swift
/// let line = InterpolationLine(numbers: "1001-1051", category: SourceCategory("addr:interpolation=odd"), line: points)
/// line?.position(of: 1019)   // 47.1185454, 9.5705467, where Nominatim puts it
/// ```
package struct InterpolationLine {
    /// The numbers at the line's ends, the lower first.
    let first: Int, last: Int
    let step: Int
    /// Whether `first` and `last` are numbers of the line (TIGER) rather than addresses of their own (OSM).
    let endsIncluded: Bool
    /// The line, from `first`'s end to `last`'s.
    let line: [Point7]
    /// The numbers the line stands for (of OSM's, those strictly between the ends) and the part of the line
    /// they are spread over; nil when the step leaves none.
    private let inner: (first: Int, last: Int, line: [Point7])?

    /// The category key of a TIGER line, whose value is its scheme (`tiger:interpolation=odd`): what the TIGER
    /// importer writes and what makes a line's ends its own numbers.
    package static let tigerKey = "tiger:interpolation"

    /// Whether a line of category `category` (as stored) is a TIGER line.
    package static func isTiger(category: String?) -> Bool {
        category.flatMap { SourceCategory($0).osmTag?.key } == tigerKey
    }

    /// The line of a place whose house number is stored as the range "1001-1051" (either order), of category
    /// `addr:interpolation=S` or `tiger:interpolation=S` with the scheme S (odd, even, all or a step); nil for
    /// anything else.
    init?(numbers: String, category: SourceCategory?, line: [Point7]) {
        let tag = category?.osmTag
        self.init(numbers: numbers, scheme: tag?.value, endsIncluded: tag?.key == Self.tigerKey, line: line)
    }

    /// `endsIncluded`: the ends are numbers of the line (TIGER), not addresses of their own (OSM).
    private init?(numbers: String, scheme: String?, endsIncluded: Bool, line: [Point7]) {
        // House numbers, so small: a damaged file's 9223372036854775807 would overflow below.
        let range = numbers.split(separator: "-").compactMap { Int($0) }.filter { (0...1_000_000).contains($0) }
        guard range.count == 2, line.count > 1 else { return nil }
        self.endsIncluded = endsIncluded
        let ascending = range[0] <= range[1]
        first = min(range[0], range[1])
        last = max(range[0], range[1])
        self.line = ascending ? line : line.reversed()
        let parity: Int? = scheme == "odd" ? 1 : scheme == "even" ? 0 : nil
        if parity != nil {
            step = 2
        } else if let given = scheme.flatMap({ Int($0) }), (1...1000).contains(given) {
            step = given
        } else if scheme == "all" {
            step = 1
        } else {
            // No usable value: numbers of one parity at both ends are read as every other one.
            step = (last - first) % 2 == 0 ? 2 : 1
        }
        if endsIncluded {
            // Nominatim's TIGER arithmetic: the first number moved to the scheme's parity, the last kept, the
            // numbers at their share of the whole line (a house number is rounded to the step from there).
            var start = first
            if let parity, start % 2 != parity { start += 1 }
            inner = start <= last ? (start, last, self.line) : nil
            return
        }
        var innerFirst = first + step
        if let parity {
            innerFirst = first + 1
            if innerFirst % 2 != parity { innerFirst += 1 }
        }
        let innerLast = innerFirst + ((last - 1 - innerFirst) / step) * step
        if first < last, innerFirst < last, innerLast >= innerFirst {
            let span = Double(last - first)
            inner = (innerFirst, innerLast, LineMath.planarSection(of: self.line, from: Double(innerFirst - first) / span,
                                                                    to: Double(innerLast - first) / span))
        } else {
            inner = nil
        }
    }

    /// The inner number nearest to `point` and where it stands, as Nominatim's reverse answers it; nil when
    /// the line has no inner numbers.
    func number(nearest point: Coordinate) -> (number: Int, at: Coordinate)? {
        guard let inner else { return nil }
        guard inner.last > inner.first else {
            return (inner.first, LineMath.planarPoint(along: inner.line, fraction: 0.5))
        }
        let along = LineMath.planarFraction(of: point, on: inner.line)
        let steps = (Double(inner.last - inner.first) * along / Double(step)).rounded()
        let number = inner.first + Int(steps) * step
        let fraction = Double(number - inner.first) / Double(inner.last - inner.first)
        return (number, LineMath.planarPoint(along: inner.line, fraction: fraction))
    }

    /// Where house `number` stands: on the inner part for the inner numbers, else its share of the whole line.
    func position(of number: Int) -> Coordinate {
        if let inner, (inner.first...inner.last).contains(number) {
            let fraction = inner.last == inner.first ? 0.5 : Double(number - inner.first) / Double(inner.last - inner.first)
            return LineMath.planarPoint(along: inner.line, fraction: fraction)
        }
        let fraction = last == first ? 0.5 : Double(number - first) / Double(last - first)
        return LineMath.planarPoint(along: line, fraction: fraction)
    }

    /// Whether `number` lies within the line's range (of a TIGER line, of its scheme's parity).
    func covers(_ number: Int) -> Bool {
        guard (first...last).contains(number) else { return false }
        guard endsIncluded, step == 2, let inner else { return true }
        return (number - inner.first) % 2 == 0
    }
}
