// How long a value may be: one rule for what an import keeps and what reading a file gives back. Files
// come from anyone: a 20 MB field imported as a name made every answer naming that place 240 MB of JSON.
/// The bounds on names, tag keys and values, and tags per object.
package enum ValueLimits {
    /// Characters (Unicode scalars) in a name, a tag's key or value, a category, an address part: OSM's
    /// own limit for a tag value, which GeoNames (200) and real CSV files stay within too.
    package static let maxValueCharacters = 255
    /// Tags kept of one object. OSM sets no limit, but its most tagged objects have a few hundred.
    package static let maxTags = 1_000
    /// The longest text read back from a database column, in bytes: far above any an import writes (a
    /// name of `maxValueCharacters`; a place's tags as JSON, kilobytes), so only a crafted or damaged
    /// file's values are cut, at a character boundary.
    package static let maxReadTextBytes = 4 << 20

    /// Whether `text` is short enough to keep: bytes are counted first (a UTF-8 character is 1–4 bytes),
    /// characters only for the rare text of more than `maxValueCharacters` bytes.
    package static func fits(_ text: some StringProtocol) -> Bool {
        text.utf8.count <= maxValueCharacters || text.unicodeScalars.count <= maxValueCharacters
    }

    /// Whether bytes of UTF-8 are short enough to keep (counted as `fits` counts a String).
    package static func fits(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count <= maxValueCharacters
            || bytes.count <= 4 * maxValueCharacters && bytes.lazy.filter { $0 & 0xc0 != 0x80 }.count <= maxValueCharacters
    }
}
