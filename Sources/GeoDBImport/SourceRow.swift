// The `source` table's row of an imported file (docs/SCHEMA.md): every importer made it with the same SQL
// of its own, and three phases changed its counts with SQL of their own. What a row holds and how its counts
// move is here, once.
import Foundation
import GeoDB
import GeoDBSQLite

/// One imported file's row in `source`.
struct SourceRow {
    let id: Int64
    /// The file's name without its directory, as the row and the import report show it.
    let name: String
    let sizeBytes: Int

    /// What the finished import of a file records about it.
    struct Outcome {
        /// Places the file added (not those merged into a place of another source).
        var places: Int
        /// Records merged into another place (of another source, or a street's other ways); nil: the format links none.
        var linked: Int?
        /// ISO 8601: the replication timestamp, else the newest object's (GeoNames: its newest modification).
        var dataTimestamp: String?
        var replicationSequence: Int64?
        var replicationURL: String?
        var writingProgram: String?
    }

    /// Inserts the row of the file at `path`, imported now.
    static func insert(_ db: Connection, path: String, format: InputFormat) throws -> SourceRow {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let name = (path as NSString).lastPathComponent
        try db.prepare("INSERT INTO source(name, format, size_bytes, imported_at) VALUES (?, ?, ?, ?)")
            .run([.text(name), .text(format.rawValue), .integer(Int64(size)), .text(ISO8601.now())])
        return SourceRow(id: db.lastInsertRowID, name: name, sizeBytes: size)
    }

    /// Records what the file's import gave.
    func record(_ outcome: Outcome, in db: Connection) throws {
        try db.prepare("""
            UPDATE source SET place_count = ?2, linked_count = coalesce(?3, linked_count), data_timestamp = ?4,
                              replication_sequence = ?5, replication_url = ?6, writing_program = ?7 WHERE id = ?1
            """).run([.integer(id), .integer(Int64(outcome.places)), outcome.linked.map { .integer(Int64($0)) } ?? .null,
                      outcome.dataTimestamp.map { .text($0) } ?? .null, outcome.replicationSequence.map { .integer($0) } ?? .null,
                      outcome.replicationURL.map { .text($0) } ?? .null, outcome.writingProgram.map { .text($0) } ?? .null])
    }

    /// Counts `count` more places of source `id` (made after its import: the postcode places of its addresses).
    static func countPlaces(_ count: Int, ofSource id: Int64, in db: Connection) throws {
        try db.prepare("UPDATE source SET place_count = place_count + ?1 WHERE id = ?2").run([.integer(Int64(count)), .integer(id)])
    }

    /// The statement that moves one place of a source (its one parameter) from its places to its links: the
    /// place was merged into another source's.
    static func linkOnePlace(_ db: Connection) throws -> Statement {
        try db.prepare("UPDATE source SET place_count = place_count - 1, linked_count = linked_count + 1 WHERE id = ?")
    }
}
