#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteResponses

extension ThumbnailServer {
    /// Runs a processed request's work so that the client's leaving cancels it, for a front end
    /// that learns of it only through the request (Hummingbird's body stream).
    package typealias ClientWatch = @Sendable (_ work: @escaping @Sendable () async throws -> EncodedImage) async throws -> EncodedImage

    /// Answers an image URL's path (what follows the mount point; what the signature covers):
    /// parse and check the URL (400, 403), resolve the source (403, 404), answer 304 when
    /// `ifNoneMatch` names the result's tag (no work at all), answer a result in the memory cache
    /// at once, join a result being made in a slot already, else wait for a processing slot (503
    /// when it would not come in time) and get the encoded result from the pipeline, all within
    /// the request timeout (504). The client's leaving cancels the work when `disconnect` tells
    /// of it, else inside `watch` when one is given; else only the timeout ends it.
    package func answer(
        path: String, accept: String?, ifNoneMatch: String?, logger: Logger, disconnect: ClientDisconnect? = nil,
        watch: ClientWatch? = nil
    ) async -> ImageAnswer {
        await counted {
            do {
                return try await image(path: path, accept: accept, ifNoneMatch: ifNoneMatch, disconnect: disconnect, watch: watch)
            } catch {
                return failureAnswer(for: error, path: path, logger: logger)
            }
        }
    }

    /// `body`'s answer, counted in the metrics: in flight while it runs, then its status and time.
    package func counted(_ body: () async -> ImageAnswer) async -> ImageAnswer {
        let started = ContinuousClock.now
        metrics.inFlight(1)
        defer { metrics.inFlight(-1) }
        let answer = await body()
        metrics.responded(status: answer.status, after: ContinuousClock.now - started)
        return answer
    }

    private func image(
        path: String, accept: String?, ifNoneMatch: String?, disconnect: ClientDisconnect?, watch: ClientWatch?
    ) async throws -> ImageAnswer {
        let order = try urls.order(for: path)
        if order.delivery.hasExpired(now: Int(Date().timeIntervalSince1970)) { throw ServerFailure(status: 404, "the URL has expired") }
        let resolved = try await sources.resolve(order.source)
        let imageRequest = try resolved.request(order.recipe, limits: configuration.decodingLimits, watermark: watermark)
        let (encoding, negotiated) = try order.encoding(accept: accept)
        if let source = try await sourceAsItIs(order, imageRequest, accept: accept, disconnect: disconnect) {
            return source
        }
        let resultKey = pipeline.resultKey(for: imageRequest, as: encoding)
        let tag = EntityTag(resultKey: resultKey)

        var headers = ImageAnswer.resultHeaders(
            tag: tag, maxAge: configuration.cacheMaxAge, negotiated: negotiated, modified: resolved.modified)
        if tag.matches(ifNoneMatch: ifNoneMatch) {
            return ImageAnswer(status: 304, headers: headers)
        }
        let image: EncodedImage
        if pipeline.configuration.encodedImageCache?[imageRequest, encoding] != nil {
            // A memory hit: answered at once (and counted by the pipeline's metrics), outside the
            // admission, on the kept-alive connection.
            image = try await pipeline.encodedImage(for: imageRequest, as: encoding).image
        } else {
            // Work to do: a client that goes away cancels it (the shared work stops when no other
            // request waits for it); the time limit counts the wait for a slot too. A result being
            // made in a slot already is joined without a slot.
            let (pipeline, admission, underWay, timeout) = (pipeline, admission, underWay, configuration.requestTimeout)
            let work: @Sendable () async throws -> EncodedImage = {
                try await ThumbnailServer.within(timeout, unless: disconnect) {
                    if underWay.contains(resultKey) { return try await pipeline.encodedImage(for: imageRequest, as: encoding).image }
                    return try await admission.run {
                        try await underWay.making(resultKey) { try await pipeline.encodedImage(for: imageRequest, as: encoding).image }
                    }
                }
            }
            if disconnect == nil, let watch {
                image = try await watch(work)
            } else {
                image = try await work()
            }
        }
        if let disposition = order.contentDisposition(format: image.format) { headers.append(("Content-Disposition", disposition)) }
        return ImageAnswer(image: image, headers: headers)
    }

    /// The source's bytes as they are, for `raw` and for `skip_processing` when the source is of a
    /// format listed and the result would be of the same format; nil to process as usual. They
    /// come through the pipeline's loader, so the byte limit, time limits and source rules apply.
    private func sourceAsItIs(
        _ order: ImageOrder, _ imageRequest: ImageRequest, accept: String?, disconnect: ClientDisconnect?
    ) async throws -> ImageAnswer? {
        let delivery = order.delivery
        guard delivery.raw || !delivery.skipProcessing.isEmpty else { return nil }
        let (pipeline, timeout) = (pipeline, configuration.requestTimeout)
        let data = try await ThumbnailServer.within(timeout, unless: disconnect) { try await pipeline.data(for: imageRequest) }
        let info = try? ImageDecoder(limits: configuration.decodingLimits).probe(data)
        let format = info?.format
        if !delivery.raw {
            guard let info, delivery.skipProcessing.contains(info.format),
                order.recipe.outputFormat(hasAlpha: info.hasAlpha, accepting: FormatNegotiation(accept: accept).accepted) == info.format
            else { return nil }
        }
        var headers = [
            (name: "Content-Type", value: format?.mediaType ?? "application/octet-stream"), (name: "Content-Length", value: String(data.count)),
            ImageAnswer.cacheControl(maxAge: configuration.cacheMaxAge, shared: true),
        ]
        if let disposition = order.contentDisposition(format: format) { headers.append(("Content-Disposition", disposition)) }
        return ImageAnswer(status: 200, headers: headers, body: data)
    }

    /// The failure to answer for `error`: the server's own, the admission's refusal, or the
    /// library's mapping (`ImageFailure`) for everything else.
    static func failure(for error: any Error) -> ServerFailure {
        switch error {
        case let failure as ServerFailure: failure
        case Admission.Refusal.overloaded(let retryAfter): .overloaded(retryAfter: retryAfter)
        case Admission.Refusal.cancelled: ServerFailure(ImageFailure.stopped)
        default: ServerFailure(ImageFailure(error))
        }
    }

    /// The answer for `error`, logged with its detail: a 5xx as a warning, a refusal (4xx) as
    /// information, a request shed by the admission at debug level (it is counted in `/metrics`; a
    /// line each would add work just when there is too much). The client gets the failure's short
    /// reason (and `Retry-After` with a 503); the error itself, which may name a path or carry a
    /// library's message, goes only to the log.
    package func failureAnswer(for error: any Error, path: String, logger: Logger) -> ImageAnswer {
        let failure = ThumbnailServer.failure(for: error)
        let metadata: Logger.Metadata = ["path": "\(path)", "status": "\(failure.status)", "reason": "\(failure.reason)", "error": "\(error)"]
        if case Admission.Refusal.overloaded = error {
            logger.debug("request shed", metadata: metadata)
        } else if failure.status >= 500 {
            logger.warning("request failed", metadata: metadata)
        } else {
            logger.info("request refused", metadata: metadata)
        }
        var answer = ImageAnswer.text(failure.status, failure.reason, maxAge: configuration.errorCacheMaxAge)
        if failure.status == 503 { answer.headers.append(("Retry-After", String(failure.retryAfter ?? 1))) }
        return answer
    }

    /// The request's time ran out (504).
    struct TimedOut: ImageFailureConvertible {
        var imageFailure: ImageFailure { .timedOut }
    }

    /// What ended `within`: the work, the time limit or the client.
    enum WorkOutcome<T: Sendable>: Sendable { case value(T), timedOut, clientGone }

    /// `body`'s result; `TimedOut` once `limit` has passed, or `CancellationError` once the client
    /// has gone (`disconnect`), whichever comes first: then `body` is cancelled (shared work stops
    /// when no other request waits for it).
    static func within<T: Sendable>(
        _ limit: Duration, unless disconnect: ClientDisconnect? = nil, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: WorkOutcome<T>.self) { group in
            group.addTask { .value(try await body()) }
            group.addTask {
                try await Task.sleep(for: limit)
                return .timedOut
            }
            if let disconnect {
                group.addTask {
                    try await disconnect.waitUntilGone()
                    return .clientGone
                }
            }
            defer { group.cancelAll() }
            switch try await group.next() {
            case .value(let value): return value
            case .timedOut: throw TimedOut()
            case .clientGone, nil: throw CancellationError()
            }
        }
    }
}
