// What an endpoint answers, and how it goes out: JSON or a page, gzip-compressed when the client takes it
// and the body is big enough to gain from it.
import CZlib
import Foundation
import Hummingbird

/// An endpoint's answer before it becomes an HTTP response.
struct Answer: Sendable {
    var status: HTTPResponse.Status = .ok
    var contentType: String
    var body: [UInt8]
    /// The `Allow` header of a 405.
    var allow: String?

    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, geo: Bool = false) -> Answer {
        Answer(status: status, contentType: geo ? "application/geo+json; charset=utf-8" : "application/json; charset=utf-8",
               body: Array(value.text.utf8))
    }

    static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Answer {
        Answer(contentType: contentType, body: Array(text.utf8))
    }

    /// Smaller bodies are sent as they are: compressing them costs more time than the bytes saved.
    static let smallestCompressed = 1_400

    /// The HTTP response, the body gzipped when `acceptEncoding` allows it.
    func response(acceptEncoding: String?, extraHeaders: HTTPFields = [:]) -> Response {
        var headers = extraHeaders
        headers[.contentType] = contentType
        if let allow { headers[.allow] = allow }
        var bytes = body
        if body.count >= Self.smallestCompressed, let accepted = acceptEncoding, Self.acceptsGzip(accepted),
           let compressed = Gzip.compress(body) {
            bytes = compressed
            headers[.contentEncoding] = "gzip"
        }
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
    static func compress(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits + 16: a gzip header and trailer rather than zlib's. Level 5: most of the size gain
        // of 9 at a third of its time.
        guard deflateInit2_(&stream, 5, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let result: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
