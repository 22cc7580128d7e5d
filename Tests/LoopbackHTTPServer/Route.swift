import NIOCore

/// What the loopback server answers for one path.
public struct Route: Sendable {
    /// How the body goes out.
    public enum Delivery: Sendable {
        /// All at once, with a Content-Length.
        case whole
        /// Chunked transfer encoding, no Content-Length.
        case chunkedWithoutLength
        /// `chunkSize` bytes every `interval`.
        case dribble(chunkSize: Int, interval: TimeAmount)
        /// As `dribble` up to `holdAt` bytes, then nothing until `gate` opens, then the rest.
        case dribbleHeld(chunkSize: Int, interval: TimeAmount, holdAt: Int, gate: Gate)
        /// Headers, then nothing: the connection stays open and silent.
        case stall
    }

    public var status: Int
    public var body: [UInt8]
    public var contentType: String
    public var headers: [(String, String)]
    public var delivery: Delivery
    /// Sent as ETag; conditional requests (If-None-Match, If-Range) are checked against it.
    public var etag: String?
    /// Sent as Last-Modified; If-Range may carry it instead of the ETag.
    public var lastModified: String?
    /// Answers `Range: bytes=N-` with 206 and says `Accept-Ranges: bytes`.
    public var acceptsRanges: Bool
    /// The first this-many responses close the connection after `cutOffFraction` of the body.
    public var cutOffResponses: Int
    public var cutOffFraction: Double

    public init(
        status: Int = 200, body: [UInt8], contentType: String = "application/octet-stream",
        headers: [(String, String)] = [], delivery: Delivery = .whole, etag: String? = nil,
        lastModified: String? = nil, acceptsRanges: Bool = false, cutOffResponses: Int = 0,
        cutOffFraction: Double = 0.6
    ) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
        self.delivery = delivery
        self.etag = etag
        self.lastModified = lastModified
        self.acceptsRanges = acceptsRanges
        self.cutOffResponses = cutOffResponses
        self.cutOffFraction = cutOffFraction
    }

    /// A plain status answer with a short text body (404, 500 …).
    public static func status(_ code: Int) -> Route {
        Route(status: code, body: Array("status \(code)\n".utf8), contentType: "text/plain")
    }

    /// A redirect to `location`.
    public static func redirect(to location: String) -> Route {
        Route(status: 302, body: [], headers: [("Location", location)])
    }
}

/// One request as the server saw it.
public struct RecordedRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [(String, String)]
    /// The request's body (a POST's), empty for none.
    public var body: [UInt8]

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
