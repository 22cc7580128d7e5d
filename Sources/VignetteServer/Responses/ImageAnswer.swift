#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette

/// An HTTP answer for one image, with no web framework in it: the status, the headers in order
/// and the body. `ImageResponder.respond(to:recipe:accept:ifNoneMatch:logger:)` makes them;
/// VignetteHummingbird and VignetteVapor turn them into their framework's response.
public struct ImageAnswer: Sendable {
    /// The HTTP status code: 200, 304, or the failure's.
    public var status: Int
    /// The header fields, in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body: the encoded image, a failure's one-line reason, or nothing for a 304.
    public var body: Data
    /// Why no image was made (the status and the client's reason); nil for 200 and 304.
    public var failure: ImageFailure?

    /// An answer of `status` with `headers` and `body`.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), failure: ImageFailure? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.failure = failure
    }

    /// The first value of the header `name` (compared without case).
    public subscript(header name: String) -> String? { Self.firstValue(of: name, in: headers) }

    /// The first value of the header `name` in `headers` (compared without case).
    package static func firstValue(of name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A one-line text answer (a failure, a health check): `text` and a newline as
    /// `text/plain; charset=utf-8`, cached by the client alone for `maxAge` seconds.
    public static func text(_ status: Int, _ text: String, maxAge: Int = 0) -> ImageAnswer {
        let body = Data((text + "\n").utf8)
        return ImageAnswer(
            status: status,
            headers: [
                ("Content-Type", "text/plain; charset=utf-8"), cacheControl(maxAge: maxAge, shared: false), ("Content-Length", String(body.count)),
            ],
            body: body)
    }

    /// The default `max-age` of images, in seconds: a year (31,536,000 s). An image's URL names
    /// the result it answers, so what is kept under it never goes stale.
    public static let defaultMaxAge = 31_536_000

    /// The default `max-age` of failures, in seconds: short, so a source that is fixed is seen soon.
    public static let defaultFailureMaxAge = 10

    /// The `Cache-Control` header, written here alone: `public, max-age=N` when shared caches (a
    /// CDN) may keep the answer as well as the client (images and what is made of them), else
    /// `max-age=N` (failures, health checks).
    package static func cacheControl(maxAge: Int, shared: Bool) -> (name: String, value: String) {
        (name: "Cache-Control", value: shared ? "public, max-age=\(maxAge)" : "max-age=\(maxAge)")
    }

    /// The answer to `failure`: its status and its reason as text, cached for `maxAge` seconds,
    /// with `Retry-After: retryAfter` when the status is 503.
    public init(failure: ImageFailure, maxAge: Int, retryAfter: Int = 1) {
        self = ImageAnswer.text(failure.httpStatus, failure.reason, maxAge: maxAge)
        if failure.status == .serviceUnavailable { headers.append(("Retry-After", String(retryAfter))) }
        self.failure = failure
    }
}

extension ImageFormat {
    /// The media type sent as `Content-Type` for this format (`image/webp`);
    /// `application/octet-stream` for a format without one.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .heic: "image/heic"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .jxl: "image/jxl"
        case .bmp: "image/bmp"
        case .ico: "image/x-icon"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        default: "application/octet-stream"
        }
    }
}

extension ImageAnswer {
    /// The headers of every answer for a result, 200 or 304: its strong `ETag`, `Cache-Control:
    /// public, max-age=`, `Vary: Accept` when the format was chosen from `Accept`, and
    /// `Last-Modified` when the source's modification time (seconds since 1970) is known.
    package static func resultHeaders(
        tag: EntityTag, maxAge: Int, negotiated: Bool, modified: Int?
    ) -> [(name: String, value: String)] {
        var headers = [(name: "ETag", value: tag.value), cacheControl(maxAge: maxAge, shared: true)]
        if negotiated { headers.append(("Vary", "Accept")) }
        if let modified { headers.append(("Last-Modified", HTTPDate.format(modified))) }
        return headers
    }

    /// 200 with `image` as the body: `headers`, then its `Content-Type` and `Content-Length`.
    package init(image: EncodedImage, headers: [(name: String, value: String)]) {
        self.init(
            status: 200,
            headers: headers + [("Content-Type", image.format.mediaType), ("Content-Length", String(image.data.count))],
            body: image.data)
    }
}
