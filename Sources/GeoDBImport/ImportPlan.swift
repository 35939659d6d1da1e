// Which input of an import is what, in which order its sources are read, and how each source's places meet
// those of the others: decided once, before anything is read.
import GeoDB

/// The inputs of one import, sorted: lookup tables apart, then the sources in import order.
struct ImportPlan {
    struct Input {
        var path: String
        var format: InputFormat
        /// How the file's places meet those of the other sources (lookup tables and alternate names: not at all).
        var linking = SourceLinking()
    }

    /// OSM files first, then GeoNames dumps, then CSV files (each group in the order given), so that
    /// records of gazetteers link to OSM places whatever order the files were named in; TIGER inputs last,
    /// since their lines are parented to the streets of the files before them.
    let sources: [Input]
    let lookupTables: [Input]
    /// GeoNames alternate names files: names for the places of the GeoNames dumps among the sources, read
    /// before them (`AlternateNameStore`).
    let alternateNames: [Input]

    /// `linkDuplicates`: `ImportOptions.linkDuplicates`.
    init(inputs: [String], formats: [InputFormat], linkDuplicates: Bool) throws {
        let all = zip(inputs, formats).map { Input(path: $0, format: $1) }
        lookupTables = all.filter { $0.format.isLookupTable }
        alternateNames = all.filter { $0.format == .alternateNames }
        let rank = { (format: InputFormat) in format.isOSM ? 0 : format == .geonames ? 1 : format == .tiger ? 3 : 2 }
        var sources = all.filter { !$0.format.isLookupTable && $0.format != .alternateNames }.enumerated()
            .sorted { (rank($0.element.format), $0.offset) < (rank($1.element.format), $1.offset) }.map(\.element)
        // Gazetteer records link to places of the files before them (OSM files come first).
        for i in sources.indices where linkDuplicates {
            sources[i].linking = SourceLinking(mergesIntoEarlier: sources[i].format.isGazetteer,
                                               keepsCandidates: sources[(i + 1)...].contains { $0.format.isGazetteer })
        }
        self.sources = sources
        if let table = lookupTables.first, !sources.contains(where: { $0.format.isGazetteer }) {
            throw GeoDBError(.invalidArgument,
                             "\(table.path) is a lookup table (\(table.format == .countryTable ? "country" : "admin1") names), not a source of places",
                             remedy: "give it beside a GeoNames dump or CSV file whose codes it names")
        }
        if let names = alternateNames.first, !sources.contains(where: { $0.format == .geonames }) {
            throw GeoDBError(.invalidArgument, "\(names.path) is a GeoNames alternate names file, not a source of places",
                             remedy: "give it beside the GeoNames dump whose places it names (cities500.txt, allCountries.txt, …)")
        }
    }

    /// Whether a source after the one at `index` is an OSM file (the merge of places waits for the last).
    func hasOSMSource(after index: Int) -> Bool {
        sources[(index + 1)...].contains { $0.format.isOSM }
    }
}

/// How the places of one source meet those of the other sources (`PlaceLinker`, `ImportOptions.linkDuplicates`).
struct SourceLinking: Equatable {
    /// A place that is the same real-world place as one of an earlier source is merged into it (its names
    /// added, the link recorded in `place_link`) instead of being written (gazetteer records).
    var mergesIntoEarlier = false
    /// The source's places are kept as candidates for the sources after it to merge into.
    var keepsCandidates = false
}
