/// How a request that produced no image is answered: the status it deserves and a reason a client
/// may read.
///
/// Every error an `ImagePipeline` call throws maps to one (`init(_:)`), so a service answers
/// failures the same way whatever front door it has: Vignette's own server, a Hummingbird or Vapor
/// route, a gRPC handler. The mapping names HTTP statuses because those are what services speak,
/// but it depends on no HTTP library.
///
/// The `reason` never carries what only the server should know (file paths, addresses, the C
/// libraries' messages): it is safe to put in a response body. The error itself keeps the detail
/// in its `description`, for logs.
///
/// ```swift
/// do {
///     let result = try await pipeline.encodedImage(for: request, as: encoding)
///     // answer result.image.data
/// } catch {
///     let failure = ImageFailure(error)
///     logger.log(level: failure.status.isServerError ? .warning : .info, "\(error)")
///     // answer failure.httpStatus with failure.reason as the body
/// }
/// ```
public struct ImageFailure: Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is, named after the HTTP status it deserves (its raw value).
    public enum Status: Int, Sendable, Hashable, CaseIterable {
        /// The request asks for what cannot be made: an option out of range, a box without pixels.
        case badRequest = 400
        /// The source may not be read (outside the served folder, on a private network, not allowed).
        case forbidden = 403
        /// There is no such source (a missing file, a source server's 404 or 410), or it is not in
        /// the cache when loading was not allowed.
        case notFound = 404
        /// The source or the result is over a limit: bytes, pixels, frames.
        case contentTooLarge = 413
        /// The source is in a format that is not read, or the result in one that cannot be written.
        case unsupportedMediaType = 415
        /// The source is a broken image: damaged, or cut short.
        case unprocessableContent = 422
        /// The image could not be made for a reason that is not the request's.
        case internalServerError = 500
        /// The source's server failed, or could not be reached.
        case badGateway = 502
        /// The work was stopped before it finished: the request was cancelled, the pipeline shut
        /// down, or the service has more work than it can do in time.
        case serviceUnavailable = 503
        /// The source, or the whole request, took longer than allowed.
        case gatewayTimeout = 504

        /// The HTTP status code.
        public var httpStatus: Int { rawValue }
        /// Whether the fault is the service's (5xx) rather than the request's or its source's (4xx):
        /// what a service logs as a warning rather than as information.
        public var isServerError: Bool { rawValue >= 500 }
    }

    /// What kind of failure it is.
    public let status: Status
    /// One short line for the client, with no internals.
    public let reason: String

    /// A failure of `status` saying `reason` (which a client will read: no paths, no internals).
    public init(_ status: Status, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// The answer to `error`, whatever threw it: an error that knows its answer
    /// (`ImageFailureConvertible`: `ImagePipelineError`, `ImagingError`, `DataLoadingError`,
    /// VignetteHTTP's `HTTPLoadingError`, …) gives it; a `CancellationError` is 503; anything else
    /// is 500 with a reason that says nothing of it.
    public init(_ error: any Error) {
        switch error {
        case let error as any ImageFailureConvertible: self = error.imageFailure
        case is CancellationError: self = .stopped
        default: self = .notMade
        }
    }

    /// The answer to a recipe that cannot be made as asked (what `ImageRecipe.validate(limits:)`,
    /// `request(for:)` or `encoding(accepting:)` threw): 415 for a format that is not written,
    /// 413 for a result over a limit, 400 otherwise, each with the recipe's own message (it names
    /// the option and its value, nothing of the service).
    public init(recipe error: ImagingError) {
        switch error.kind {
        case .unsupportedFormat: self.init(.unsupportedMediaType, reason: "this server cannot write that format: \(error.message)")
        case .limitExceeded: self.init(.contentTooLarge, reason: error.message)
        default: self.init(.badRequest, reason: error.message)
        }
    }

    /// The HTTP status code.
    public var httpStatus: Int { status.httpStatus }

    /// "STATUS reason".
    public var description: String { "\(httpStatus) \(reason)" }

    /// 503: the work was stopped before it finished (cancelled, or the pipeline invalidated).
    public static let stopped = ImageFailure(.serviceUnavailable, reason: "the request was stopped")
    /// 504: the request took longer than the service allows it.
    public static let timedOut = ImageFailure(.gatewayTimeout, reason: "the image took too long")
    /// 500: the image could not be made, for a reason that is not the request's.
    public static let notMade = ImageFailure(.internalServerError, reason: "the image could not be made")
    /// 404: there is no such source.
    public static let sourceNotFound = ImageFailure(.notFound, reason: "source not found")
    /// 502: the source's server failed or could not be reached.
    public static let sourceFailed = ImageFailure(.badGateway, reason: "the source could not be fetched")
    /// 400 saying `reason`: the request cannot be read or made as asked.
    public static func badRequest(_ reason: String) -> ImageFailure { ImageFailure(.badRequest, reason: reason) }
    /// 403 saying `reason`: the request or its source is not allowed.
    public static func forbidden(_ reason: String) -> ImageFailure { ImageFailure(.forbidden, reason: reason) }
}

/// An error that knows how a client is answered for it (`ImageFailure`): its status, and a
/// reason free of internals. Conform a custom `DataLoading` or `ImageProcessing` error to it to
/// choose its status; errors that do not conform are answered 500.
public protocol ImageFailureConvertible: Error {
    /// The status this error deserves and a reason a client may read.
    var imageFailure: ImageFailure { get }
}

extension ImageFailureConvertible {
    /// The HTTP status code this error deserves (`imageFailure.httpStatus`).
    public var httpStatus: Int { imageFailure.httpStatus }
}

extension ImageFailure: ImageFailureConvertible {
    /// Itself: a front door throws an `ImageFailure` for what it refuses on its own (a URL that
    /// cannot be read is 400, a bad signature 403), and it is answered as it says.
    public var imageFailure: ImageFailure { self }
}

extension ImagePipelineError: ImageFailureConvertible {
    /// The answer for this failure: a bad argument is 400 (`invalidRequest`, or a processor's or
    /// encoder's `invalidArgument`), a missing source 404, a source or result over a limit 413, a
    /// format that is not read or cannot be written 415, a broken source 422, a source server's
    /// failure 502 and its timeout 504 (from the loader's own error), a stopped request 503;
    /// anything else 500.
    public var imageFailure: ImageFailure {
        switch self {
        case .cancelled, .pipelineInvalidated:
            return .stopped
        case .dataMissingInCache:
            return ImageFailure(.notFound, reason: "the image is not in the cache")
        case .invalidRequest(let error):
            // The request's own values, named by its validation: nothing of the server in them.
            return ImageFailure(.badRequest, reason: error.message)
        case .dataLoadingFailed(let error):
            switch error {
            case let error as any ImageFailureConvertible: return error.imageFailure
            case is CancellationError: return .stopped
            default: return .sourceFailed
            }
        case .decodingFailed(let error):
            return error.imageFailure
        case .processingFailed(_, let error):
            return ImageFailure(error)
        case .encodingFailed(let error):
            switch error.kind {
            case .unsupportedFormat, .encoderUnavailable:
                return ImageFailure(.unsupportedMediaType, reason: "the output format cannot be written")
            case .limitExceeded:
                return ImageFailure(.contentTooLarge, reason: "the result is over a limit")
            default:
                return error.imageFailure
            }
        }
    }
}

extension ImagingError: ImageFailureConvertible {
    /// The answer for an imaging failure, by its kind: `invalidArgument` 400, `limitExceeded` 413,
    /// `unsupportedFormat` (an opt-in kind not allowed, such as PDF, saying so) and `encoderUnavailable` 415, `corruptData` and `truncatedData` 422,
    /// `cancelled` 503, and `io` and `operationFailed` 500 (a file that cannot be read is the
    /// service's problem; a missing one is found by the loader, `DataLoadingError.Kind.notFound`).
    public var imageFailure: ImageFailure {
        switch kind {
        case .invalidArgument: ImageFailure(.badRequest, reason: "the processing options cannot be applied")
        case .limitExceeded: ImageFailure(.contentTooLarge, reason: "the image is over a limit")
        case .unsupportedFormat:
            if case .inputNotAllowed(let kinds) = code {
                ImageFailure(.unsupportedMediaType, reason: "\(kinds.description.uppercased()) sources are not allowed on this server")
            } else {
                ImageFailure(.unsupportedMediaType, reason: "the source is not an image format that can be read")
            }
        case .encoderUnavailable: ImageFailure(.unsupportedMediaType, reason: "the output format cannot be written")
        case .corruptData, .truncatedData: ImageFailure(.unprocessableContent, reason: "the source image is broken")
        case .cancelled: .stopped
        case .io, .operationFailed: .notMade
        }
    }
}

extension DataLoadingError: ImageFailureConvertible {
    /// 404 for a source that does not exist, 500 for a source no loader reads, 502 otherwise.
    public var imageFailure: ImageFailure {
        switch kind {
        case .notFound: .sourceNotFound
        case .noLoader: .notMade
        case .failed: .sourceFailed
        }
    }
}
