// Country and first-level subdivision names for GeoNames rows, from the tables GeoNames publishes
// beside its dumps: countryInfo.txt (SampleData/countries.tsv has its layout) and admin1CodesASCII.txt.
import GeoDB

/// Names by code, from the lookup tables given beside a dump. Empty tables: codes are kept as they are.
public struct GazetteerLookups: Sendable {
    /// ISO 3166-1 alpha-2 code → country name ("FI" → "Finland").
    public var countries: [String: String] = [:]
    /// "CC.admin1" → subdivision name ("FI.01" → "Uusimaa").
    public var admin1: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { countries.isEmpty && admin1.isEmpty }

    /// Adds the rows of a countryInfo.txt-style table: comment lines start with '#', then tab-separated
    /// ISO, ISO3, ISO-Numeric, fips, Country, …
    public mutating func loadCountries(path: String) throws {
        var fields: [Range<Int>] = []
        try ChunkedFileReader(path: path).readLines { line, number in
            guard !line.isEmpty, line[0] != UInt8(ascii: "#") else { return }
            splitFields(line, separator: 0x09, into: &fields)
            guard fields.count >= 5, let code = CountryCode.parse(line.string(fields[0])), !fields[4].isEmpty else {
                throw GeoDBError.badInput(file: path, at: .line(number),
                                          "not a country table row (ISO code, ISO3, numeric, fips, name, … separated by tabs)")
            }
            countries[code] = line.string(fields[4])
        }
    }

    /// Adds the rows of an admin1CodesASCII.txt-style table: "CC.code", name, ASCII name, geonameid.
    public mutating func loadAdmin1(path: String) throws {
        var fields: [Range<Int>] = []
        try ChunkedFileReader(path: path).readLines { line, number in
            guard !line.isEmpty else { return }
            splitFields(line, separator: 0x09, into: &fields)
            guard fields.count >= 2, Self.isAdminCode(line.slice(fields[0])), !fields[1].isEmpty else {
                throw GeoDBError.badInput(file: path, at: .line(number),
                                          "not an admin1 code row (CC.code, name, ASCII name, geonameid separated by tabs)")
            }
            admin1[line.string(fields[0])] = line.string(fields[1])
        }
    }

    /// "FI.01", "US.CA": two upper-case letters, a dot, then a code without dots.
    static func isAdminCode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4, bytes[2] == UInt8(ascii: "."),
              bytes[0] >= 0x41 && bytes[0] <= 0x5a, bytes[1] >= 0x41 && bytes[1] <= 0x5a else { return false }
        return !bytes[3...].contains(UInt8(ascii: ".")) && !bytes[3...].contains(0x20)
    }
}
