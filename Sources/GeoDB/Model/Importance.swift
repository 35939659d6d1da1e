// How important a place is, 0…1: what search ranks by after how well the text matched, and what town
// lists are sorted by. One rule for every source (OSM, GeoNames, CSV); docs/RANKING.md states it.
import Foundation

package enum Importance {
    /// The greater of two readings of a place, plus 0.05 for an entry in Wikipedia/Wikidata:
    /// - its kind's base importance, raised a little by population (fourth root: 6,000 people +0.018, 37 million
    ///   +0.156) or, for areas whose population is unknown, by their size (log scale, at most +0.1), and by
    ///   `bonus`, a source's own judgement (a GeoNames capital): this orders the places of a kind;
    /// - its population alone, `perTenfold` a tenfold up to a million people (10,000 0.5, 100,000 0.7, a
    ///   million 0.9), half of that above (10 million 1): places far bigger than their kind says. A
    ///   city a hundred times the size of a village is then 4 points ahead in search, more than a whole name
    ///   loses by being an alternate (3), so "Cologne" is Köln before the village Cologne; on the kind's
    ///   scale alone a city led a village by 2.5 points whatever their sizes, and a village's own name beat
    ///   any city's other name. The gentler slope above a million keeps a country (0.9 and up, and the
    ///   population term) before its capital ("Singapore"), and cities up to 10 million apart below 1.
    ///
    /// ```swift
    /// Importance.of(kind: .town, population: 6_002)        // 0.568
    /// Importance.of(kind: .city, population: 1_024_621)    // 0.902
    /// ```
    package static func of(kind: PlaceKind, population: Int64? = nil, famous: Bool = false, areaKm2: Double? = nil,
                           bonus: Double = 0) -> Double {
        var value = kind.baseImportance + bonus
        if let population, population > 0 {
            let people = Double(population)
            let tenfolds = log10(people) - 6   // above or below a million
            let bySize = 0.9 + perTenfold * (tenfolds > 0 ? tenfolds / 2 : tenfolds)
            value = max(value + min(0.2, people.squareRoot().squareRoot() / 500), bySize)
        } else if let areaKm2, areaKm2 > 0 {
            value += min(0.1, log10(1 + areaKm2) / 40)
        }
        if famous { value += 0.05 }
        return min(1, value)
    }

    /// A place's importance once an importance file has its say (Nominatim's `wikimedia-importance.csv.gz`,
    /// `geodb import --importance`): the greater of what `of` gave (`computed`, its 0.05 for a
    /// `wikipedia`/`wikidata` tag included) and the file's value for the place's Wikidata id or Wikipedia
    /// article (`fromFile`, 0…1, how much Wikipedia's articles link to and read it). A maximum, not a mix:
    /// the file knows how famous a place is, not how big, so it lifts a museum, a peak or a village of
    /// renown and never lowers a city whose page is read little; nil (no row for the place) leaves
    /// `computed` as it is.
    ///
    /// ```swift
    /// Importance.withWikipedia(0.3, 0.62)   // 0.62: a POI with a well-read article
    /// Importance.withWikipedia(0.9, 0.62)   // 0.9
    /// ```
    package static func withWikipedia(_ computed: Double, _ fromFile: Double?) -> Double {
        guard let fromFile, fromFile.isFinite else { return computed }
        return max(computed, min(1, max(0, fromFile)))
    }

    /// What ten times the population adds to the importance of a place whose population says more than its kind.
    static let perTenfold = 0.2
}
