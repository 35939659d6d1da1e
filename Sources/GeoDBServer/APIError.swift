// What a request that cannot be answered gets: an HTTP status and a JSON body naming the parameter at
// fault, never a 500 for bad input and never a crash.
import GeoDB
import Hummingbird

/// An answer other than 200: `{"error": {"code": 400, "message": "…", "parameter": "lat"}}` (Nominatim's
/// shape, with the parameter added).
struct APIError: Error {
    var status: HTTPResponse.Status
    var message: String
    var parameter: String?

    init(status: HTTPResponse.Status, message: String, parameter: String? = nil) {
        self.status = status
        self.message = message
        self.parameter = parameter
    }

    static func badParameter(_ name: String, _ message: String) -> APIError {
        APIError(status: .badRequest, message: message, parameter: name)
    }

    static func missing(_ name: String) -> APIError {
        badParameter(name, "missing parameter '\(name)'")
    }

    /// A request past the server's time limit (`RequestDeadlines` cancelled it, the only canceller of
    /// requests): a client may try again when the server is less busy.
    static let timeLimit = APIError(status: .serviceUnavailable, message: "the request took longer than the server's time limit")

    /// An answer that would be longer than the server's limit. 500, not 503: asking again gets the same.
    static func tooLarge(limit: Int) -> APIError {
        APIError(status: .internalServerError,
                 message: "the answer is larger than the server's limit of \(limit) bytes (geodb serve --max-response-bytes)")
    }

    /// The answer for an error a query threw. The endpoints check their parameters before querying, so a
    /// library error naming an option (its own name for it) is rare.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as GeoDBError:
            switch error.code {
            case .invalidArgument:
                self.init(status: .badRequest, message: error.message, parameter: error.option)
            case .interrupted:
                self = .timeLimit
            case .fileNotFound:
                self.init(status: .notFound, message: error.message, parameter: nil)
            default:
                self.init(status: .internalServerError, message: error.message, parameter: nil)
            }
        default:
            self.init(status: .internalServerError, message: "\(error)", parameter: nil)
        }
    }

    var json: JSON {
        .object([("error", .fields([("code", .int(Int64(status.code))), ("message", .string(message)),
                                    ("parameter", parameter.map(JSON.string))]))])
    }
}
