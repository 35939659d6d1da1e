// What an endpoint answers, and how it goes out: JSON or a page, gzip-compressed when the client takes it
// and the body is big enough to gain from it; JSON written only then, within the server's limits of size
// and time.
import CZlib
import Foundation
import GeoDB
import Hummingbird

/// An endpoint's answer before it becomes an HTTP response.
struct Answer: Sendable {
    /// JSON is kept as values until the response is made, so that writing it counts against the
    /// request's limits (`response(…, maxBytes:stop:)`).
    enum Body: Sendable {
        case json(JSON)
        case bytes([UInt8])
    }

    var status: HTTPResponse.Status = .ok
    var contentType: String
    var body: Body
    /// The `Allow` header of a 405.
    var allow: String?
    /// JSONP: the function a JSON body is passed to (`callback(…)`), sent as JavaScript.
    var callback: String?
    /// The `Cache-Control` header: set for the files of the page, which change only with the binary.
    var cacheControl: String?

    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, geo: Bool = false) -> Answer {
        Answer(status: status, contentType: geo ? "application/geo+json; charset=utf-8" : "application/json; charset=utf-8",
               body: .json(value))
    }

    static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Answer {
        Answer(contentType: contentType, body: .bytes(Array(text.utf8)))
    }

    /// Smaller bodies are sent as they are: compressing them costs more time than the bytes saved.
    static let smallestCompressed = 1_400

    /// The HTTP response, the body gzipped when `acceptEncoding` allows it. JSON longer than `maxBytes`
    /// becomes `APIError.tooLarge`, and once `stop()` is true (the request's time is up) writing and
    /// compressing stop and the answer is `APIError.timeLimit`.
    func response(acceptEncoding: String?, extraHeaders: HTTPFields = [:], maxBytes: Int = .max,
                  stop: @escaping () -> Bool = { false }) -> Response {
        var written: [UInt8]?
        switch body {
        case .json(let value):
            written = value.encoded(limit: maxBytes, stop: stop)
            if let callback, let json = written { written = Array((callback + "(").utf8) + json + Array(")".utf8) }
        case .bytes(let bytes): written = bytes
        }
        var headers = extraHeaders
        if let body = written, body.count >= Self.smallestCompressed, let accepted = acceptEncoding, Self.acceptsGzip(accepted) {
            if let compressed = Gzip.compress(body, stop: stop) {
                written = compressed
                headers[.contentEncoding] = "gzip"
            } else if stop() {
                written = nil
            }
        }
        guard let bytes = written else {
            let error = stop() ? APIError.timeLimit : APIError.tooLarge(limit: maxBytes)
            return Answer.json(error.json, status: error.status).response(acceptEncoding: acceptEncoding, extraHeaders: extraHeaders)
        }
        headers[.contentType] = callback == nil ? contentType : "application/javascript; charset=utf-8"
        if let allow { headers[.allow] = allow }
        if let cacheControl { headers[.cacheControl] = cacheControl }
        headers[.vary] = "Accept-Encoding"
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether an Accept-Encoding header takes gzip: named (or `*`) without a weight of 0 (`gzip;q=0`).
    static func acceptsGzip(_ header: String) -> Bool {
        header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "gzip" || parts.first == "*" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }
}

/// gzip with zlib (already linked for reading compressed OSM XML).
enum Gzip {
    /// The input compressed, or nil when zlib fails or `stop()` turns true (asked before each MiB: a body of
    /// tens of MB takes a good part of a second).
    static func compress(_ input: [UInt8], stop: () -> Bool = { false }) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits + 16: a gzip header and trailer rather than zlib's. Level 5: most of the size gain
        // of 9 at a third of its time.
        guard deflateInit2_(&stream, 5, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let slice = 1 << 20
        let result: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                var offset = 0, result = Z_OK
                // The output has room for all (deflateBound), so each call takes its whole slice.
                repeat {
                    if stop() { return Z_STREAM_ERROR }
                    let count = min(slice, source.count - offset)
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + offset })
                    stream.avail_in = UInt32(count)
                    offset += count
                    result = deflate(&stream, offset == source.count ? Z_FINISH : Z_NO_FLUSH)
                } while result == Z_OK && offset < source.count
                return result
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
