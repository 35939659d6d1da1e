// How important a place is, 0…1: what search ranks by after how well the text matched, and what town
// lists are sorted by. One rule for every source (OSM, GeoNames, CSV).
import Foundation

package enum Importance {
    /// The kind's base importance, raised by population (fourth root: 6,000 people +0.018, 37 million
    /// +0.156), by an entry in Wikipedia/Wikidata (+0.05), and for areas whose population is unknown by
    /// their size (log scale, at most +0.1); `bonus` is a source's own judgement (a GeoNames capital).
    ///
    /// ```swift
    /// Importance.of(kind: .town, population: 6_002)   // 0.568
    /// ```
    package static func of(kind: PlaceKind, population: Int64? = nil, famous: Bool = false, areaKm2: Double? = nil,
                           bonus: Double = 0) -> Double {
        var value = kind.baseImportance + bonus
        if let population, population > 0 {
            value += min(0.2, Double(population).squareRoot().squareRoot() / 500)
        } else if let areaKm2, areaKm2 > 0 {
            value += min(0.1, log10(1 + areaKm2) / 40)
        }
        if famous { value += 0.05 }
        return min(1, value)
    }
}
