// Where the next page of a search starts. Ranking is deterministic and a search for N results is the
// beginning of one for more, so a page is a slice of a deeper search: the cursor is how many results came
// before it, with a fingerprint of the query so that a cursor is not taken to another query.

/// A position in the results of one search: "20.6c1f09a3" is the 21st result of the query with that
/// fingerprint.
struct SearchCursor: Equatable {
    /// Results before the page.
    var offset: Int
    /// `fingerprint(text:options:)` of the query.
    var fingerprint: UInt32

    /// How deep pages go: results beyond it are not ranked (`CandidateRanker.candidateLimit` bounds them too).
    static let maxDepth = 500

    var text: String { String(offset) + "." + String(fingerprint, radix: 16) }

    init(offset: Int, fingerprint: UInt32) {
        self.offset = offset
        self.fingerprint = fingerprint
    }

    /// Nil when `text` is not shaped like a cursor or goes deeper than `maxDepth`.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 4, let offset = Int(parts[0]), (1..<Self.maxDepth).contains(offset),
              parts[1].count <= 8, let fingerprint = UInt32(parts[1], radix: 16) else { return nil }
        self.init(offset: offset, fingerprint: fingerprint)
    }

    /// FNV-1a of everything that decides a search's results but the page size (Swift's `Hasher` is seeded
    /// per process: a cursor must outlive it).
    static func fingerprint(text: String, options: SearchOptions) -> UInt32 {
        let parts: [String] = [
            text, String(options.autocomplete), options.near.map { "\($0.lat),\($0.lon)" } ?? "",
            options.bbox.map { "\($0.minLon),\($0.minLat),\($0.maxLon),\($0.maxLat)" } ?? "", options.countryCode?.uppercased() ?? "",
            options.kinds.map(\.rawValue).joined(separator: ","), options.categories.map { "\($0)" } ?? "", options.language ?? "",
        ]
        return FNV1a.hash(parts.joined(separator: "\u{1F}"))
    }
}
