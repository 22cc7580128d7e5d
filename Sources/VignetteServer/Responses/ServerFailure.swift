import Vignette
import VignetteHTTP

/// A request that did not produce an image, as the server answers it: an HTTP status and a short
/// text that says what was wrong without internals (no paths, no library messages).
public struct ServerFailure: Error, Sendable, Equatable {
    /// The HTTP status code.
    public let status: Int
    /// The response body: one short line.
    public let reason: String

    /// A failure with `status` and `reason`.
    public init(status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// 400 with `reason`.
    public static func badRequest(_ reason: String) -> ServerFailure { ServerFailure(status: 400, reason) }
    /// 403 with `reason`.
    public static func forbidden(_ reason: String) -> ServerFailure { ServerFailure(status: 403, reason) }
    /// 404: no such source.
    public static let notFound = ServerFailure(status: 404, "source not found")
    /// 503: every slot busy and the queue full (sent with `Retry-After`).
    public static let overloaded = ServerFailure(status: 503, "overloaded, retry later")

    /// The answer to a pipeline failure: 413 over a limit, 415 unsupported format, 422 broken
    /// image, 404 missing source (a file, or a source server's 404), 502 source failed, 504 source
    /// timed out, 503 cancelled (shutting down), 500 anything else.
    public init(_ error: ImagePipelineError) {
        switch error {
        case .cancelled, .pipelineInvalidated:
            self = ServerFailure(status: 503, "the request was stopped")
        case .dataMissingInCache:
            self = .notFound
        case .dataLoadingFailed(let error as HTTPLoadingError):
            self = ServerFailure(loading: error)
        case .dataLoadingFailed(let error as ImagingError) where error.kind == .io:
            self = .notFound
        default:
            self = ServerFailure(imaging: error.imagingError?.kind)
        }
    }

    /// The answer to a source server's failure.
    init(loading error: HTTPLoadingError) {
        switch error.kind {
        case .badStatus where error.statusCode == 404 || error.statusCode == 410: self = .notFound
        case .responseTooLarge: self = ServerFailure(status: 413, "the source is over the size limit")
        case .timedOut: self = ServerFailure(status: 504, "the source timed out")
        case .invalidURL: self = .badRequest("the source URL is not valid")
        default: self = ServerFailure(status: 502, "the source could not be fetched")
        }
    }

    /// The answer to an imaging failure of `kind`.
    init(imaging kind: ImagingError.Kind?) {
        switch kind {
        case .limitExceeded: self = ServerFailure(status: 413, "the image is over a limit")
        case .unsupportedFormat: self = ServerFailure(status: 415, "the source is not an image format this server reads")
        case .corruptData, .truncatedData: self = ServerFailure(status: 422, "the source image is broken")
        case .invalidArgument: self = .badRequest("the processing options cannot be applied")
        case .encoderUnavailable: self = ServerFailure(status: 415, "this server cannot write that format")
        case .io: self = .notFound
        case .cancelled: self = ServerFailure(status: 503, "the request was stopped")
        case .operationFailed, nil: self = ServerFailure(status: 500, "the image could not be made")
        }
    }
}

extension ServerFailure {
    /// The answer to a recipe its URL options cannot make: 415 for a format this server does not
    /// write, 413 for a result over the budget, 400 with the recipe's own message otherwise (it
    /// names the option and the value; no path or library internals).
    init(recipe error: ImagingError) {
        switch error.kind {
        case .unsupportedFormat: self = ServerFailure(status: 415, "this server cannot write that format: \(error.message)")
        case .limitExceeded: self = ServerFailure(status: 413, error.message)
        default: self = .badRequest(error.message)
        }
    }
}
