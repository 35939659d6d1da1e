// The files `geodb serve` answers from: a `GeoDatabaseSet` (several files as one, in the library) that a
// file replaced on disk (a new import renamed over it, or a copy written over it in place) swaps one member
// of, on SIGHUP or at the watch, while requests in flight finish on the set they took.
import Foundation
import GeoDB
import Logging
import Synchronization

/// The files a server answers from; none yet while it waits for them to open (`geodb serve --wait`).
final class ServedDatabases: Sendable {
    private let served: Mutex<GeoDatabaseSet?>
    private let paths: [String]
    /// Whether the files are opened immutable (`ServerConfiguration.immutableDatabases`), replacements too.
    private let immutable: Bool
    /// Why the files do not open yet, while waiting; logged when it changes.
    private let waitingFor = Mutex<String?>(nil)
    /// By file index, the replacement that did not open: it is logged once, not at every look of the watch,
    /// and tried again when it changes.
    private let failedReplacements = Mutex<[Int: FileIdentity?]>([:])
    private let logger: Logger

    /// Opens every file; throws the first error (a server must not start with a file missing), unless
    /// `waiting`: then it starts without them and `openWaitingFiles` tries again.
    init(paths: [String], immutable: Bool, waiting: Bool, logger: Logger) throws {
        self.paths = paths
        self.immutable = immutable
        self.logger = logger
        do {
            served = Mutex(try GeoDatabaseSet(paths: paths, immutable: immutable))
        } catch where waiting {
            served = Mutex(nil)
            waitingFor.withLock { $0 = "\(error)" }
            logger.warning("waiting for the databases to open", metadata: ["error": "\(error)"])
        }
    }

    /// The files now, as one: a request takes them once and uses them to its end. While the server waits
    /// for them, a 503, as Nominatim answers without its database.
    var files: GeoDatabaseSet {
        get throws(APIError) {
            guard let files = served.withLock({ $0 }) else { throw APIError(status: .serviceUnavailable, message: Self.unavailable) }
            return files
        }
    }

    /// Nominatim's words for a server without its database.
    static let unavailable = "Database connection failed"

    /// Whether the files are open (false while the server waits for them).
    var isReady: Bool { served.withLock { $0 != nil } }

    /// The files now; none while the server waits for them.
    var current: [GeoDatabaseSet.Member] { served.withLock { $0?.members ?? [] } }

    /// While waiting, opens the files if they all open now; returns whether they did.
    @discardableResult
    func openWaitingFiles() -> Bool {
        guard !isReady else { return false }
        do {
            let files = try GeoDatabaseSet(paths: paths, immutable: immutable)
            served.withLock { $0 = $0 ?? files }
            logger.info("the databases opened", metadata: ["files": "\(files.members.count)"])
            return true
        } catch {
            let reason = "\(error)"
            if waitingFor.withLock({ state in defer { state = reason }; return state != reason }) {
                logger.warning("still waiting for the databases to open", metadata: ["error": "\(reason)"])
            }
            return false
        }
    }

    // MARK: reloading

    /// Opens anew each file that was replaced or written over since it was opened. A file that does not
    /// open (half copied, a newer schema) leaves the old one in service and is logged, once for each state
    /// of the file. Returns how many files were replaced.
    @discardableResult
    func reloadReplacedFiles() -> Int {
        var replaced = 0
        for shard in current where shard.isReplaced {
            let identity = FileIdentity(path: shard.path)
            let failed = failedReplacements.withLock { $0[shard.index] }   // nil: none failed
            guard failed != .some(identity) else { continue }
            do {
                let fresh = try GeoDatabaseSet.Member.open(index: shard.index, path: shard.path, immutable: immutable)
                served.withLock { $0 = $0?.replacing(fresh) }
                failedReplacements.withLock { _ = $0.removeValue(forKey: shard.index) }
                replaced += 1
                logger.info("reloaded a replaced database", metadata: ["path": "\(shard.path)", "places": "\(fresh.info.placeCount)"])
            } catch {
                failedReplacements.withLock { $0[shard.index] = identity }
                logger.error("a replaced database does not open; still serving the old one",
                             metadata: ["path": "\(shard.path)", "error": "\(error)"])
            }
        }
        return replaced
    }

    /// `text` with the path of each served file shortened to its name (`GeoDatabaseSet.Member.name`).
    func hidingDirectories(_ text: String) -> String {
        current.sorted { $0.path.count > $1.path.count }   // longest first: a path inside another is shortened whole
            .reduce(text) { text, shard in text.replacingOccurrences(of: shard.path, with: shard.name) }
    }

    /// A place by global id or source id, or a 404.
    func lookup(_ reference: String) async throws -> (member: GeoDatabaseSet.Member, details: PlaceDetails) {
        guard let found = try await files.lookup(reference) else {
            throw APIError(status: .notFound, message: Int64(reference).map { "no place \($0)" } ?? "no place '\(reference.prefix(60))'")
        }
        return (found.member, found.details)
    }
}
