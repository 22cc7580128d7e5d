import Vignette

/// Why an HTTP load failed. The pipeline hands it on inside
/// `ImagePipelineError.dataLoadingFailed`.
public struct HTTPLoadingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The server answered with a status other than 2xx (or 304 to a conditional request).
        case badStatus
        /// The body is, or would be, larger than `maximumResponseSize`.
        case responseTooLarge
        /// Connecting, or waiting for the next bytes, took longer than allowed.
        case timedOut
        /// More redirects than `maximumRedirects`, or a cycle.
        case tooManyRedirects
        /// The URL is not an http(s) URL the client can use, or an `s3://` one it cannot read (not
        /// valid, or S3 is not configured).
        case invalidURL
        /// The connection could not be made or broke off.
        case connectionFailed
        /// The answer could not be read: an S3 listing that is not one.
        case invalidResponse
    }

    /// What went wrong.
    public let kind: Kind
    /// The URL that was asked for.
    public let url: String
    /// The response status for `.badStatus`.
    public let statusCode: Int?
    /// The status line, the limit, or AsyncHTTPClient's / NIO's own error.
    public let message: String

    /// An error of `kind` for `url`.
    public init(_ kind: Kind, url: String, statusCode: Int? = nil, message: String) {
        self.kind = kind
        self.url = url
        self.statusCode = statusCode
        self.message = message
    }

    /// `URL: message`.
    public var description: String { "\(url): \(message)" }
}

extension HTTPLoadingError: ImageFailureConvertible {
    /// The answer for a source server's failure: its 404 or 410 is 404, a body over the size limit
    /// 413, a timeout 504, a URL that is not valid 400, anything else (its 403 and 5xx, a broken
    /// connection, a redirect) 502. The source's URL and the server's words stay in the error.
    public var imageFailure: ImageFailure {
        switch kind {
        case .badStatus where statusCode == 404 || statusCode == 410: .sourceNotFound
        case .responseTooLarge: ImageFailure(.contentTooLarge, reason: "the source is over the size limit")
        case .timedOut: ImageFailure(.gatewayTimeout, reason: "the source timed out")
        case .invalidURL: ImageFailure(.badRequest, reason: "the source URL is not valid")
        default: .sourceFailed
        }
    }
}
