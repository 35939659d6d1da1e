// Places as a table for the terminal, shared by search, nearby and reverse listings.
import Foundation
import GeoDB

/// Places as an aligned table for the terminal: rank, distance, name, kind or category, address, position.
enum ResultTable {
    static func render(_ places: [PlaceResult], showMatch: Bool = false) -> String {
        let showDistance = places.contains { $0.distanceM != nil }
        var header = ["#"] + (showDistance ? ["distance"] : []) + ["name", showMatch ? "kind" : "category", "address"]
        if showMatch { header += ["lat, lon", "match"] }
        var rows = [header]
        for (i, p) in places.enumerated() {
            // A town or area: the areas above it ("Oberland, Liechtenstein"); anything else: street and town.
            let address = p.kind.addressLevel != nil ? AddressFormat.areaLine(name: nil, address: p.address)
                : [[p.address.street, p.address.housenumber].compactMap { $0 }.joined(separator: " "),
                   p.address.city ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
            var row = [String(i + 1)] + (showDistance ? [p.distanceM.map(distance) ?? ""] : [])
            row += [p.name ?? p.displayName, showMatch ? p.categoryID.map { "\(p.kind.rawValue) (\($0))" } ?? p.kind.rawValue
                        : p.categoryID ?? p.category?.text ?? p.kind.rawValue, address]
            // A category offered while typing is no place: it has no position to show.
            let position = p.kind == .category ? "" : String(format: "%.5f, %.5f", p.lat, p.lon)
            if showMatch { row += [position, p.match?.rawValue ?? ""] }
            rows.append(row)
        }
        return Format.table(rows, indent: 0)
    }

    static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }
}
