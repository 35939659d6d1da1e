// `geodb serve`: the HTTP server over one or more database files. Requests run as Swift tasks; the queries
// themselves run on GeoDB's query threads (never on SwiftNIO's event loops nor the cooperative pool), each
// under a time limit that interrupts SQLite. SIGTERM drains the requests in flight; SIGHUP, and a watch on
// the files, open a database that was replaced or written over.
import Foundation
import GeoDB
import Hummingbird
import Logging
import Synchronization

/// What `geodb serve` was asked for.
public struct ServerConfiguration: Sendable {
    /// The database files, served as one.
    public var databases: [String]
    public var host = "127.0.0.1"
    /// 0 picks a free port (`onListening` says which).
    public var port = 8080
    /// Longest a request may run, writing its answer included; its SQLite query is interrupted then and it
    /// answers 503.
    public var timeLimit: Duration = .seconds(10)
    /// Longest answer, in bytes before compression; a longer one answers 500 (`APIError.tooLarge`).
    public var maxResponseBytes = ServerConfiguration.defaultMaxResponseBytes
    /// 64 MiB: above the polygon of a large country at full resolution (a few million points at ~22 bytes
    /// each), and low enough that a few such answers at once stay within a few hundred MB of memory.
    public static let defaultMaxResponseBytes = 64 << 20
    /// `Access-Control-Allow-Origin`: "*" for any page, nil for none, or the origins allowed.
    public var corsOrigins: [String]? = ["*"]
    /// Whether to start while a file is missing or does not open, answering 503 until all open (at the
    /// watch or on SIGHUP); otherwise such a file stops the start.
    public var waitForDatabases = false
    /// Whether the files are opened `immutable` (`GeoDatabase(path:immutable:)`): their pages mapped, not read
    /// with `pread` and copied (+13 % requests/s on the popular mix, docs/DESIGN-NOTES.md). Only for files that
    /// are replaced by renaming a new one over them: a file copied over in place while mapped kills the process.
    public var immutableDatabases = false
    /// How often the files are checked for a replacement; nil for SIGHUP only.
    public var watchInterval: Duration? = .seconds(2)
    /// Longest request target (path and query) accepted.
    public var maxURLBytes = 8_192
    /// A raster tile URL template (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`) the page draws under its
    /// search results; nil for none: the page then draws the databases' own streets and areas, offline.
    public var tiles: String?
    /// The credit the tiles' licence asks for, shown on the map with them.
    public var tilesAttribution = DataAttribution.openStreetMap.text

    public init(databases: [String]) {
        self.databases = databases
    }
}

/// The HTTP server of `geodb serve`.
public enum GeoDBServer {
    /// Opens the databases and serves until SIGTERM or SIGINT, then finishes the requests in flight and
    /// returns. Throws when a database does not open or the address cannot be bound.
    ///
    /// ```swift
    /// try await GeoDBServer.run(ServerConfiguration(databases: ["world.sqlite"]), logger: Logger(label: "geodb"))
    /// ```
    public static func run(_ configuration: ServerConfiguration, logger: Logger,
                           onListening: @escaping @Sendable (_ port: Int) -> Void = { _ in }) async throws {
        let served = try ServedDatabases(paths: configuration.databases, immutable: configuration.immutableDatabases,
                                         waiting: configuration.waitForDatabases, logger: logger)
        let endpoints = Endpoints(served: served, configuration: configuration, logger: logger)
        let router = Router(options: .autoGenerateHeadEndpoints)   // HEAD answers as GET, without the body
        router.add(middleware: JSONErrors(endpoints: endpoints))
        NominatimAPI(endpoints: endpoints).register(on: router)
        PhotonAPI(endpoints: endpoints).register(on: router)
        GeoDBAPI(endpoints: endpoints).register(on: router)
        // The parser's limits are above `maxURLBytes`, so that an over-long URL reaches the endpoint and gets
        // its JSON error rather than the parser's empty 400.
        let parserLimit = max(256 * 1024, configuration.maxURLBytes * 2)
        let app = Application(router: router,
                              server: .http1(configuration: .init(idleTimeout: .seconds(60), httpDecoderConfiguration: .init(
                                  maxHeaderFieldSize: parserLimit, maxHeaderListSize: parserLimit))),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "geodb"),
                              onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
                              logger: logger)
        let reloads = reloadOnSignalAndChange(served, metrics: endpoints.metrics, every: configuration.watchInterval, logger: logger)
        let deadlines = Task { await endpoints.deadlines.watch() }
        defer {
            reloads.cancel()
            deadlines.cancel()
        }
        try await app.runService()
    }

    /// Checks the files for replacements on SIGHUP and every `interval`, until cancelled.
    private static func reloadOnSignalAndChange(_ served: ServedDatabases, metrics: ServerMetrics, every interval: Duration?,
                                                logger: Logger) -> Task<Void, Never> {
        signal(SIGHUP, SIG_IGN)   // handled by the dispatch source below, not by dying
        let hangups = DispatchSource.makeSignalSource(signal: SIGHUP)
        hangups.setEventHandler {
            logger.info("SIGHUP: checking the databases for replacements")
            served.openWaitingFiles()
            metrics.recordReloads(served.reloadReplacedFiles())
        }
        hangups.resume()
        // Without an interval the task only keeps the signal source alive until the server stops.
        return Task {
            defer { hangups.cancel() }
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval ?? .seconds(3600))
                } catch {
                    return
                }
                if interval != nil {
                    served.openWaitingFiles()
                    metrics.recordReloads(served.reloadReplacedFiles())
                }
            }
        }
    }
}

/// The one path every request of every API takes: parameters decoded, the handler run under the time
/// limit, errors turned into JSON, the body compressed, the request counted and logged.
struct Endpoints: Sendable {
    let served: ServedDatabases
    let configuration: ServerConfiguration
    let metrics = ServerMetrics()
    let deadlines: RequestDeadlines
    let accessLog: Logger

    init(served: ServedDatabases, configuration: ServerConfiguration, logger: Logger) {
        self.served = served
        self.configuration = configuration
        deadlines = RequestDeadlines(limit: configuration.timeLimit)
        var accessLog = logger
        accessLog[metadataKey: "log"] = "access"
        self.accessLog = accessLog
    }

    typealias Handler = @Sendable (QueryParameters, Request) async throws -> Answer

    /// Routes GET `path` to `handler`; `name` labels its metrics and log lines.
    func get(_ path: String, name: String, on router: Router<BasicRequestContext>, _ handler: @escaping Handler) {
        router.get(RouterPath(path)) { request, _ in await self.respond(to: request, endpoint: name, handler) }
        routes.add(path)
    }

    /// The paths routed, for telling an unknown path (404) from a method they do not take (405).
    let routes = RoutedPaths()

    func respond(to request: Request, endpoint: String, _ handler: @escaping Handler) async -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            guard request.uri.string.utf8.count <= configuration.maxURLBytes else {
                throw APIError(status: .badRequest, message: "the URL is longer than \(configuration.maxURLBytes) bytes")
            }
            let parameters = try QueryParameters(Substring(request.uri.query ?? ""))
            // The answer is written inside the time limit too, and stops at the size limit: a huge value (a
            // name of 60 MB) must not hold a thread and gigabytes past either.
            response = try await deadlines.run {
                self.response(try await handler(parameters, request), to: request, maxBytes: configuration.maxResponseBytes) {
                    Task.isCancelled
                }
            }
        } catch {
            response = self.response(errorAnswer(error), to: request)
        }
        return finish(response, request: request, endpoint: endpoint, start: start)
    }

    /// `answer` as the response to `request`: compressed when it accepts gzip, with the CORS header.
    func response(_ answer: Answer, to request: Request, maxBytes: Int = .max, stop: @escaping () -> Bool = { false }) -> Response {
        var headers = HTTPFields()
        if let origin = allowedOrigin(request.headers[.origin]) { headers[.accessControlAllowOrigin] = origin }
        return answer.response(acceptEncoding: request.headers[.acceptEncoding], extraHeaders: headers, maxBytes: maxBytes, stop: stop)
    }

    /// `response`, counted and logged.
    func finish(_ response: Response, request: Request, endpoint: String, start: ContinuousClock.Instant) -> Response {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(endpoint: endpoint, status: Int(response.status.code), seconds: seconds)
        accessLog.info("request", metadata: [
            "method": "\(request.method.rawValue)", "uri": "\(request.uri.string.prefix(300))", "endpoint": "\(endpoint)",
            "status": "\(response.status.code)", "ms": "\(String(format: "%.2f", seconds * 1000))",
            "bytes": "\(response.headers[.contentLength] ?? "0")",
        ])
        return response
    }

    /// The JSON answer for `error`, naming served files without their directories.
    func errorAnswer(_ error: any Error) -> Answer {
        var apiError = APIError(error)
        apiError.message = served.hidingDirectories(apiError.message)
        return .json(apiError.json, status: apiError.status)
    }

    private func allowedOrigin(_ origin: String?) -> String? {
        guard let allowed = configuration.corsOrigins else { return nil }
        if allowed.contains("*") { return "*" }
        return origin.flatMap { allowed.contains($0) ? $0 : nil }
    }
}

/// The time limit of every request in flight, enforced by one watcher: a request past its deadline has
/// its task cancelled, which interrupts its SQLite statement, and answers 503. (A timer per request, a
/// sleeping child task, cost a tenth of a search request's time in Dispatch's timer heap and thread.)
final class RequestDeadlines: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
    }

    let limit: Duration
    private let entries = Mutex<(next: Int, running: [Int: Entry])>((0, [:]))

    init(limit: Duration) {
        self.limit = limit
    }

    /// `body` in a task of its own, cancelled if it is still running when the limit has passed.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let entry = Entry(deadline: .now + limit, cancel: { task.cancel() })
        let id = entries.withLock { state in
            state.next += 1
            state.running[state.next] = entry
            return state.next
        }
        defer { entries.withLock { _ = $0.running.removeValue(forKey: id) } }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Cancels the requests past their deadline, looking a few times per limit (at most every 100 ms),
    /// until cancelled itself.
    func watch() async {
        let interval = max(.milliseconds(1), min(limit / 4, .milliseconds(100)))
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let now = ContinuousClock.now
            let due = entries.withLock { state in
                let due = state.running.filter { $0.value.deadline <= now }
                for id in due.keys { state.running.removeValue(forKey: id) }
                return Array(due.values)
            }
            for entry in due { entry.cancel() }
        }
    }
}

/// Requests no route takes (404, 405) answer JSON like every other error.
struct JSONErrors: RouterMiddleware {
    typealias Context = BasicRequestContext
    let endpoints: Endpoints

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var status = error.status, message = "\(status.reasonPhrase)"
            if status == .notFound {
                let routed = endpoints.routes.contains(request.uri.path)
                status = routed ? .methodNotAllowed : .notFound
                message = routed ? "\(request.method.rawValue.prefix(20)) is not allowed here: only GET and HEAD"
                    : "no such endpoint: \(request.uri.path.prefix(200))"
            }
            var answer = Answer.json(APIError(status: status, message: message).json, status: status)
            answer.allow = status == .methodNotAllowed ? "GET, HEAD" : nil
            return endpoints.finish(endpoints.response(answer, to: request), request: request, endpoint: "other", start: start)
        }
    }
}

/// The paths the endpoints were routed at.
final class RoutedPaths: Sendable {
    private let paths = Mutex<Set<String>>([])

    func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }
}
