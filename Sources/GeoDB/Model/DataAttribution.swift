// What the licences of the data ask a map or an answer to credit: OpenStreetMap's ODbL "© OpenStreetMap
// contributors", GeoNames' CC BY 4.0. The one home of those texts, for Nominatim's `licence` field and the
// web page's map alike.

/// The credit a source's licence requires.
///
/// ```swift
/// try db.info().sources.compactMap(\.attribution).map(\.text)   // ["© OpenStreetMap contributors"]
/// ```
public struct DataAttribution: Hashable, Sendable {
    /// What a map shows, e.g. "© OpenStreetMap contributors".
    public let text: String
    /// Where `text` links to.
    public let url: String
    /// The licence's short name, e.g. "CC BY 4.0".
    public let license: String
    public let licenseURL: String
    /// The one-line notice of an API answer (Nominatim's `licence`).
    public let notice: String

    public static let openStreetMap = DataAttribution(
        text: "© OpenStreetMap contributors", url: "https://www.openstreetmap.org/copyright", license: "ODbL 1.0",
        licenseURL: "https://opendatacommons.org/licenses/odbl/1-0/",
        notice: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright")   // Nominatim's own words
    public static let geoNames = DataAttribution(
        text: "GeoNames", url: "https://www.geonames.org/", license: "CC BY 4.0",
        licenseURL: "https://creativecommons.org/licenses/by/4.0/", notice: "GeoNames (CC BY 4.0) https://www.geonames.org")
}

extension DatabaseInfo.Source {
    /// The credit this imported file needs (`format`: OSM's four, GeoNames' dump and its lookup tables); nil
    /// for CSV and for timezone boundaries, whose origin the file does not say.
    public var attribution: DataAttribution? {
        if format.hasPrefix("osm.") { return .openStreetMap }
        if format.hasPrefix("geonames") { return .geoNames }
        return nil
    }
}
