import Vignette

/// A request that did not produce an image, as the server answers it: an HTTP status and a short
/// text that says what was wrong without internals (no paths, no library messages).
package struct ServerFailure: Error, Sendable, Equatable {
    /// The HTTP status code.
    package let status: Int
    /// The response body: one short line.
    package let reason: String
    /// Seconds after which a client may try again (`Retry-After`), for a 503; nil for none.
    package let retryAfter: Int?

    /// A failure with `status` and `reason`, and `retryAfter` seconds for a 503.
    package init(status: Int, _ reason: String, retryAfter: Int? = nil) {
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// The server's answer to an `ImageFailure`: its status and reason.
    package init(_ failure: ImageFailure) {
        self.init(status: failure.httpStatus, failure.reason)
    }

    /// The answer to a pipeline failure (`ImagePipelineError.imageFailure`: 400, 404, 413, 415,
    /// 422, 502, 503, 504 or 500).
    package init(_ error: ImagePipelineError) {
        self.init(error.imageFailure)
    }

    /// 400 with `reason`.
    package static func badRequest(_ reason: String) -> ServerFailure { ServerFailure(status: 400, reason) }
    /// 403 with `reason`.
    package static func forbidden(_ reason: String) -> ServerFailure { ServerFailure(status: 403, reason) }
    /// 404: no such source.
    package static let notFound = ServerFailure(ImageFailure.sourceNotFound)
    /// 503: the request would not be served in time; try again after `retryAfter` seconds.
    package static func overloaded(retryAfter: Int) -> ServerFailure {
        ServerFailure(status: 503, "overloaded, retry later", retryAfter: retryAfter)
    }
}

extension ServerFailure {
    /// The answer to a recipe its URL options cannot make (`ImageFailure(recipe:)`: 415, 413 or 400).
    init(recipe error: ImagingError) {
        self.init(ImageFailure(recipe: error))
    }
}

extension ServerFailure: ImageFailureConvertible {
    /// The same status and reason as the library's answer (a status it does not name is 500), so
    /// `ImageFailure(error)` gives the server's own refusals (400 for a bad URL, 403 for a bad
    /// signature) to a route of another framework too.
    package var imageFailure: ImageFailure {
        ImageFailure(ImageFailure.Status(rawValue: status) ?? .internalServerError, reason: reason)
    }
}
