// The options of forward, structured and hierarchical search, and the checks they pass before a query runs.

/// Options of a free-text, structured or hierarchical search.
///
/// ```swift
/// var options = SearchOptions()
/// options.limit = 5
/// options.near = Coordinate(lat: 60.168, lon: 24.941)
/// let hits = try db.search("Stockmann", options: options)
/// ```
public struct SearchOptions: Sendable {
    /// Results to return, 1…`maxLimit`.
    public var limit = 10
    /// Treat the last word as a prefix (the user is still typing).
    public var autocomplete = false
    /// Bias towards this point (not a filter); results get `distanceM`.
    public var near: Coordinate?
    /// Only places whose point is in this box.
    public var bbox: BoundingBox?
    /// ISO 3166-1 alpha-2 country code, e.g. "FI" (either case).
    public var countryCode: String?
    /// Only these kinds; empty for all.
    public var kinds: [PlaceKind] = []
    /// Only places of these categories.
    public var categories: CategoryFilter?
    /// Show names in this language when the place has one (`name:xx`).
    public var language: String?

    /// ```swift
    /// var options = SearchOptions()
    /// ```
    public init() {}

    /// Largest `limit` accepted.
    public static let maxLimit = 100

    /// Throws the `QueryValidation` error of the first option out of range.
    func validate() throws {
        try QueryValidation.limit(limit, max: Self.maxLimit)
        if let near { try QueryValidation.coordinate(near, option: "near") }
        if let bbox { try QueryValidation.box(bbox) }
        if let countryCode { try QueryValidation.countryCode(countryCode) }
    }
}
