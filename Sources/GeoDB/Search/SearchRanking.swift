// How forward search orders what it finds: the match class, the house number, importance and nearness,
// added into one score (README, "Ranking"). Deterministic: equal scores are ordered by place id.
import Foundation

/// A candidate place scored for a query: what ranking needs, without the rest of the place.
struct RankedCandidate {
    var id: Int64
    var kind: PlaceKind
    var score: Double
    var match: MatchClass
    var distanceM: Double?
    /// Where to show it and the town it is in, when that is not its own point and city: a street found
    /// in a town it runs through.
    var shownIn: (point: Coordinate, town: String)?
}

/// The ranking rules of forward search.
enum SearchRanking {
    /// Points for how the text matched.
    static func weight(of match: MatchClass) -> Double {
        switch match {
        case .exact: return 30
        case .prefix: return 20
        case .fuzzy: return 10
        default: return 5
        }
    }

    /// When a house number was asked: the place has that number (it is the answer) …
    static let numberBonus = 12.0
    /// … or has it as its postcode.
    static let postcodeBonus = 4.0
    /// A street, when no number was asked (the street over the shops named after it).
    static let streetBonus = 2.0
    /// Times the place's importance (0…1).
    static let importanceWeight = 10.0
    /// Up to this much for nearness to `SearchOptions.near`: weight · e^(−d / `nearnessScale`).
    static let nearnessWeight = 8.0
    static let nearnessScale = 5_000.0
    /// Fixed scores of the answers that stand in for a missing house number, and of structured search.
    static let interpolatedScore = 35.0
    static let fallbackScore = 15.0
    static let structuredExactScore = 50.0

    /// Scores a candidate. `names` are its names folded (nil when not compared: not whole-word candidates
    /// while typing); `forced` is the class of a second pass (fuzzy), else exact when a name equals the
    /// query (with or without the words naming its own city or postcode), else prefix.
    static func rank(_ place: SearchIndex.Candidate, query: ParsedQuery, names: Set<String>, forced: MatchClass?,
                     near: Coordinate?) -> RankedCandidate {
        let wanted = query.words.joined(separator: " ")
        // Words naming where the place is (its city, suburb, country, postcode) are context ("…, Helsinki").
        let core = query.words.filter { !place.context.contains($0) }.joined(separator: " ")
        var match: MatchClass
        if let forced {
            match = forced
        } else if !wanted.isEmpty && (names.contains(wanted) || names.contains(core)) {
            match = .exact
        } else {
            match = .prefix
        }
        var value = weight(of: match)
        if !query.numbers.isEmpty {
            // An address whose number is the one asked for is the answer; other numbered matches rank lower.
            let number = place.housenumber.map { TextNormalizer.fold($0).replacingOccurrences(of: " ", with: "") }
            if let number, query.numbers.contains(number) || query.numberText == number {
                value += numberBonus
                if forced == nil { match = .exact }
            } else if place.postcode.map({ query.numbers.contains($0) }) == true {
                value += postcodeBonus
            }
        }
        value += place.kind == .street && query.numbers.isEmpty ? streetBonus : 0
        value += place.importance * importanceWeight
        var distance: Double?
        if let near {
            distance = near.distance(to: place.coordinate)
            value += nearnessWeight * exp(-distance! / nearnessScale)
        }
        return RankedCandidate(id: place.id, kind: place.kind, score: (value * 1000).rounded() / 1000, match: match,
                               distanceM: distance)
    }
}
