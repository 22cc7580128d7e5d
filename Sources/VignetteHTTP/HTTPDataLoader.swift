#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Vignette

/// Loads `.url` sources over HTTP(S) with AsyncHTTPClient, and `s3://` ones signed to the
/// configured S3 endpoint (`Configuration.s3`); other sources go to `fallback`, the file loader by
/// default. Bodies streamed with progress, a maximum response size, connect, read and request
/// timeouts, a redirect limit, typed errors with the status, a token-bucket rate limiter,
/// resumable downloads (`Range` + `If-Range` after a download broke off, when the server sent
/// `Accept-Ranges: bytes` and a validator; not for S3) and revalidation of the disk cache's
/// expired copies (`If-None-Match` / `If-Modified-Since`; 304 reuses the cached bytes).
///
/// Use one loader for many requests: it owns an `HTTPClient` (a connection pool), shut down when
/// the loader goes away or by `shutdown()`.
public final class HTTPDataLoader: DataLoading {
    /// The limits and manners it was made with.
    public let configuration: Configuration
    let client: HTTPClient
    private let fallback: any DataLoading
    let resumableDownloads: ResumableDownloads

    /// A loader with its own `HTTPClient` on AsyncHTTPClient's shared event loops; sources that
    /// are not URLs go to `fallback`.
    public init(configuration: Configuration = Configuration(), fallback: any DataLoading = FileDataLoader()) {
        self.configuration = configuration
        self.fallback = fallback
        resumableDownloads = ResumableDownloads(limit: configuration.resumableDataLimit)
        let redirects: HTTPClient.Configuration.RedirectConfiguration = configuration.maximumRedirects > 0
            ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow
        let timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.readTimeout))
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: redirects, timeout: timeout))
    }

    /// A loader held to `limits` whatever the source: responses within `limits.maxInputBytes`
    /// (`configuration.maximumResponseSize` is set from it) and files read by a `FileDataLoader`
    /// within `limits`, so a local file and a download meet the same budget.
    public convenience init(limits: DecodingLimits, configuration: Configuration = Configuration()) {
        var configuration = configuration
        configuration.maximumResponseSize = limits.maxInputBytes
        self.init(configuration: configuration, fallback: FileDataLoader(limits: limits))
    }

    deinit {
        _ = client.shutdown()
    }

    /// Closes the client's connections; later loads fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// The bytes of `request.source`; see `loadData(for:context:)`.
    public func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
        let context = DataLoadingContext(received: { data, total in progress(Int64(data.count), total) }, progress: progress)
        return try await loadData(for: request, context: context).data
    }

    /// GETs `.url` sources (`HTTPClient.execute`, body streamed), resuming or revalidating as the
    /// context and the kept partial data allow; `s3://` and `gs://` URLs go to the configured S3
    /// endpoint, signed (`configuration.s3`). Throws `HTTPLoadingError` or `CancellationError`.
    public func loadData(for request: ImageRequest, context: DataLoadingContext) async throws -> LoadedData {
        guard case .url(let url, let pinnedHost) = request.source else { return try await fallback.loadData(for: request, context: context) }
        let address = url.absoluteString
        let target = try Target(url, s3: configuration.s3)
        if let limiter = configuration.rateLimiter { try await limiter.acquire() }

        var outgoing = outgoingRequest(to: target)
        if target.s3 == nil, let host = pinnedHost {
            outgoing.headers.replaceOrAdd(name: "Host", value: host)
        }
        var partial: ResumableDownloads.Partial?
        if let cached = context.cached {
            if let etag = cached.metadata.etag { outgoing.headers.add(name: "If-None-Match", value: etag) }
            if let lastModified = cached.metadata.lastModified { outgoing.headers.add(name: "If-Modified-Since", value: lastModified) }
        } else if target.s3 == nil, let resumable = resumableDownloads.take(for: address) {
            partial = resumable
            outgoing.headers.add(name: "Range", value: "bytes=\(resumable.data.count)-")
            outgoing.headers.add(name: "If-Range", value: resumable.validator)
        }

        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: TimeAmount(configuration.requestTimeout))
        } catch {
            if let partial { resumableDownloads.keep(partial, for: address) }
            throw Self.translate(error, url: address)
        }
        let now = Date().timeIntervalSince1970
        let status = Int(response.status.code)
        if status == 304, let cached = context.cached {
            let fresh = CacheHeaders.metadata(of: response.headers, now: now)
            let metadata = ResponseMetadata(
                etag: fresh?.etag ?? cached.metadata.etag, lastModified: fresh?.lastModified ?? cached.metadata.lastModified,
                expiresAt: fresh?.expiresAt)
            context.received(cached.data, Int64(cached.data.count))
            return LoadedData(data: cached.data, metadata: metadata, isNotModified: true, statusCode: status)
        }
        var data = Data()
        if status == 206, let partial, Self.contentRangeStart(response.headers) == partial.data.count {
            data = partial.data
        } else if !(200...299).contains(status) || status == 206 {
            throw await badStatus(response, of: target)
        }
        // S3 does not document If-Range: a broken S3 download starts over rather than risk
        // joining two versions of an object.
        let body = try await receiveBody(of: response, after: data, url: address, context: context, resumable: target.s3 == nil)
        return LoadedData(
            data: body, metadata: CacheHeaders.metadata(of: response.headers, now: now),
            mayBeStored: !CacheHeaders.forbidsStoring(response.headers), statusCode: status)
    }

    /// The request to `target`: the User-Agent, the configured headers, and an S3 request's signature.
    func outgoingRequest(to target: Target) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: target.url)
        outgoing.headers.add(name: "User-Agent", value: configuration.userAgent)
        for (name, value) in configuration.headers { outgoing.headers.add(name: name, value: value) }
        if let s3 = target.s3, let signer = configuration.s3?.signer {
            outgoing.headers.replaceOrAdd(name: "Host", value: s3.hostHeader)
            for (name, value) in signer.headers(for: s3, date: Date()) { outgoing.headers.replaceOrAdd(name: name, value: value) }
        }
        return outgoing
    }

    /// The error for a response with a status that is not a success: the status line, and for S3
    /// the error code its body names (`NoSuchKey`, `SignatureDoesNotMatch`; never the rest of the
    /// body, which may echo the request).
    func badStatus(_ response: HTTPClientResponse, of target: Target) async -> HTTPLoadingError {
        let status = Int(response.status.code)
        var message = "HTTP \(status) \(response.status.reasonPhrase)"
        if target.s3 != nil, let code = await S3ErrorCode.read(from: response.body) { message += " (S3: \(code))" }
        return HTTPLoadingError(.badStatus, url: target.address, statusCode: status, message: message)
    }

    /// Streams the body onto `prefix` within the size limit; keeps what arrived for a resume when
    /// the stream breaks off, the server allows ranges and the caller can resume (`resumable`).
    func receiveBody(
        of response: HTTPClientResponse, after prefix: Data, url: String, context: DataLoadingContext, resumable: Bool = true
    ) async throws -> Data {
        let limit = configuration.maximumResponseSize
        let declared = Self.contentLength(response.headers)
        if let declared, Self.exceeds(limit, declared: declared, after: prefix.count) {
            throw HTTPLoadingError(
                .responseTooLarge, url: url,
                message: "the response declares \(declared) bytes after \(prefix.count) already received, over the limit of \(limit)")
        }
        // From here prefix.count + declared <= limit: no overflow below.
        let total = declared.map { Int64(prefix.count + $0) } ?? -1
        let acceptsRanges = response.headers[canonicalForm: "Accept-Ranges"].contains { $0.lowercased() == "bytes" }
        let validator = resumable && acceptsRanges && configuration.resumableDataLimit > 0
            ? CacheHeaders.rangeValidator(of: response.headers) : nil
        var data = prefix
        // The server's word is untrusted: reserve for at most the first MiB; appends grow the
        // buffer geometrically past it.
        if let declared { data.reserveCapacity(prefix.count + min(declared, Self.initialReservation)) }
        // The bytes so far are handed out (for progress and previews) each time they have grown by
        // a quarter: a holder keeps the buffer shared, so the next append copies it, and copies
        // at geometric intervals add up to a linear cost, not a quadratic one.
        var handedOut = prefix.count
        do {
            for try await buffer in response.body {
                data.append(contentsOf: buffer.readableBytesView)
                if data.count > limit {
                    throw HTTPLoadingError(.responseTooLarge, url: url, message: "the response passed the limit of \(limit) bytes")
                }
                if data.count >= handedOut + max(Self.firstHandOut, handedOut / 4) {
                    context.received(data, total)
                    handedOut = data.count
                } else {
                    context.progress(Int64(data.count), total)
                }
            }
            if data.count > handedOut { context.received(data, total) }
        } catch {
            if let validator, !(error is HTTPLoadingError) {
                resumableDownloads.keep(ResumableDownloads.Partial(data: data, validator: validator), for: url)
            }
            throw Self.translate(error, url: url)
        }
        return data
    }

    /// The most a body's buffer reserves up front, whatever Content-Length says.
    static let initialReservation = 1 << 20
    /// Bytes that arrive before the first hand-out of the bytes so far.
    static let firstHandOut = 1 << 10

    /// A Content-Length that is a non-negative number, else nil (the server's word, untrusted).
    package static func contentLength(_ headers: HTTPHeaders) -> Int? {
        headers.first(name: "Content-Length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Whether `declared` more bytes after `received` would pass `limit`, without overflowing
    /// however large the server says the body is.
    package static func exceeds(_ limit: Int, declared: Int, after received: Int) -> Bool {
        received > limit || declared > limit - received
    }

    /// N of `Content-Range: bytes N-M/T`.
    static func contentRangeStart(_ headers: HTTPHeaders) -> Int? {
        guard let range = headers.first(name: "Content-Range"), range.hasPrefix("bytes ") else { return nil }
        return range.dropFirst(6).split(separator: "-").first.flatMap { Int($0) }
    }

    /// AsyncHTTPClient's and NIO's errors as `HTTPLoadingError`s; cancellation stays cancellation.
    static func translate(_ error: any Error, url: String) -> any Error {
        if error is CancellationError || error is HTTPLoadingError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return CancellationError()
            case .readTimeout, .connectTimeout, .deadlineExceeded:
                return HTTPLoadingError(.timedOut, url: url, message: "timed out (\(error))")
            case .redirectLimitReached, .redirectCycleDetected:
                return HTTPLoadingError(.tooManyRedirects, url: url, message: "\(error)")
            case .invalidURL, .emptyHost, .emptyScheme:
                return HTTPLoadingError(.invalidURL, url: url, message: "\(error)")
            default: break
            }
        }
        if Task.isCancelled { return CancellationError() }
        return HTTPLoadingError(.connectionFailed, url: url, message: "\(error)")
    }
}
