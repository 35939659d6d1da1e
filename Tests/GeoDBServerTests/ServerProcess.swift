// A `geodb serve` process for the tests: started on a free port, asked over HTTP, stopped with SIGTERM.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// The built geodb serving `databases` on a free loopback port.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    /// The line the server printed first: "geodb serve: listening on http://127.0.0.1:PORT/ (…)".
    let listening: String
    private let errors = Pipe()
    private let session: URLSession

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `directory`: where relative database paths are taken from (default: the test process's directory).
    init(_ databases: [String], options: [String] = [], in directory: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.geodbBinary)
        process.arguments = ["serve"] + databases + ["--port", "0", "--quiet"] + options
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        LiveServers.add(process.processIdentifier)
        // The first line says where it listens: "geodb serve: listening on http://127.0.0.1:PORT/ (…)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
              let port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast()) else {
            process.terminate()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServerTestError("geodb serve did not start: \(text) \(stderr)")
        }
        self.port = port
        listening = String(text.prefix { $0 != "\n" })
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 64   // tests send requests at once: none may wait for a connection
        session = URLSession(configuration: configuration)
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any], "\(text.prefix(300))") }
        /// The `error` object of a JSON error answer, nil when the body is not one.
        var error: [String: Any]? { ((try? json()) as? [String: Any])?["error"] as? [String: Any] }
        func array() throws -> [[String: Any]] { try #require(try json() as? [[String: Any]], "\(text.prefix(300))") }
    }

    /// GET `path` (already percent-encoded), waiting for the reply.
    func get(_ path: String, headers: [String: String] = [:]) throws -> Reply {
        try request("GET", path, headers: headers)
    }

    /// `method` on `path`, waiting for the reply.
    func request(_ method: String, _ path: String, headers: [String: String] = [:]) throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: baseURL + path)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Reply, any Error> = .failure(ServerTestError("no reply"))
        session.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else if let response = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (key, value) in response.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
                result = .success(Reply(status: response.statusCode, headers: fields, body: data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }

    /// `get` for a path whose query is given unencoded, as name-value pairs.
    func get(_ path: String, _ parameters: [(String, String)], headers: [String: String] = [:]) throws -> Reply {
        var components = URLComponents()
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        return try get(path + "?" + (components.percentEncodedQuery ?? ""), headers: headers)
    }

    /// GET `target` sent byte for byte over a socket (URLSession would repair a malformed URL before
    /// sending it); the status and body of the reply.
    func rawGet(_ target: String) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerTestError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServerTestError("connect() failed") }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw ServerTestError("send() failed") }
            sent += n
        }
        var reply = [UInt8](), buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply += buffer[..<n]
        }
        let text = String(decoding: reply, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server wrote to standard error (after it stopped).
    func standardError() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        LiveServers.remove(process.processIdentifier)
    }
}

/// The servers tests started, stopped when the test process exits: a server a suite shares (a static) is
/// never deinitialized, and would outlive the test run.
enum LiveServers {
    nonisolated(unsafe) private static var pids: Set<pid_t> = []
    private static let lock = NSLock()
    private static let stopAtExit: Void = { atexit { LiveServers.stopAll() } }()

    static func add(_ pid: pid_t) {
        _ = stopAtExit
        lock.withLock { _ = pids.insert(pid) }
    }

    static func remove(_ pid: pid_t) {
        lock.withLock { _ = pids.remove(pid) }
    }

    static func stopAll() {
        for pid in lock.withLock({ pids }) { kill(pid, SIGTERM) }
    }
}

struct ServerTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
