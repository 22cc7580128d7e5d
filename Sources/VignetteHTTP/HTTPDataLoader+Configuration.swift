import NIOCore

extension HTTPDataLoader {
    /// Limits and manners of the HTTP loader. The defaults suit untrusted servers.
    public struct Configuration: Sendable {
        /// Bodies larger than this are refused: at once when Content-Length says so, else as soon
        /// as the bytes received pass it (100 MiB, as `DecodingLimits.untrusted`).
        public var maximumResponseSize: Int
        /// Time to establish a connection (10 s). AsyncHTTPClient retries a refused connection
        /// until then, so a server that is down fails after this long, with `.connectionFailed`.
        public var connectTimeout: Duration
        /// Longest wait for the next bytes of a response, headers included (30 s).
        public var readTimeout: Duration
        /// Longest a request may take until the response's head has arrived: connecting,
        /// sending, and waiting for the status and headers (120 s). The body is not under it:
        /// each wait for its next bytes is bounded by `readTimeout`, its size by
        /// `maximumResponseSize`, and the whole by the caller (the server's `requestTimeout`).
        public var requestTimeout: Duration
        /// Redirects followed before giving up (5); cycles are refused.
        public var maximumRedirects: Int
        /// Paces the start of requests; nil for none. Default: 80 a second, bursts of 25.
        public var rateLimiter: RateLimiter?
        /// Bytes of partial downloads kept in memory for resuming (32 MiB; 0 turns resuming off).
        public var resumableDataLimit: Int
        /// Extra headers sent with every request.
        public var headers: [(String, String)]
        /// The User-Agent header.
        public var userAgent: String
        /// Where `s3://` (and `gs://`) URLs are read from, and the credentials their requests are
        /// signed with (AWS Signature Version 4); nil refuses them.
        public var s3: S3Configuration?

        /// The defaults: 100 MiB, 10 s connect, 30 s read, 120 s to a response's head, 5 redirects, 80/s
        /// bursts of 25, 32 MiB of resumable data, no S3.
        public init(
            maximumResponseSize: Int = 100 << 20, connectTimeout: Duration = .seconds(10),
            readTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(120),
            maximumRedirects: Int = 5, rateLimiter: RateLimiter? = RateLimiter(rate: 80, burst: 25),
            resumableDataLimit: Int = 32 << 20, headers: [(String, String)] = [],
            userAgent: String = "Vignette", s3: S3Configuration? = nil
        ) {
            self.maximumResponseSize = maximumResponseSize
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.requestTimeout = requestTimeout
            self.maximumRedirects = maximumRedirects
            self.rateLimiter = rateLimiter
            self.resumableDataLimit = resumableDataLimit
            self.headers = headers
            self.userAgent = userAgent
            self.s3 = s3
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
