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
                // Cancelled: by the server's time limit (RequestDeadlines), the only canceller of requests.
                self.init(status: .serviceUnavailable, message: "the query took longer than the server's time limit", parameter: nil)
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
