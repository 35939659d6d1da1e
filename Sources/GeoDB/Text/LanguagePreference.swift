// The languages a user asks for, as Nominatim reads an Accept-Language value: one reading for the library
// (search and reverse name places in the first language of the list they have a name in), the CLI's
// --lang and every endpoint of the server.

/// A list of languages in Accept-Language form ("de-CH,de;q=0.9,en;q=0.8", or just "de").
public enum LanguagePreference {
    /// The languages of an Accept-Language value in the order of their weights (equal weights in the
    /// order given), each region variant followed by its language unless that is listed itself
    /// ("fo-FR;q=0.8,en-ca;q=0.5" → fo-fr, fo, en-ca, en), as Nominatim reads them. Malformed items are
    /// left out.
    public static func ordered(_ header: String?) -> [String] {
        let weighted = (header ?? "").split(separator: ",").compactMap { item -> (String, Double)? in
            let parts = item.split(separator: ";", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let tag = parts.first, !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
                return nil
            }
            guard parts.count > 1 else { return (tag, 1) }
            let weight = parts[1].split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard weight.count == 2, weight[0] == "q", let q = Double(weight[1]), (0...1).contains(q) else { return nil }
            return (tag, q)
        }
        let ordered = weighted.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element.0)
        return ordered.flatMap { tag -> [String] in
            guard let base = tag.split(separator: "-").first.map(String.init), base != tag, !ordered.contains(base) else { return [tag] }
            return [tag, base]
        }
    }
}
