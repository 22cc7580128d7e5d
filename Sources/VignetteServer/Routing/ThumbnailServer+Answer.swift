#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteImgproxy

extension ThumbnailServer {
    /// Runs a processed request's work so that the client's leaving cancels it, for a front end
    /// that learns of it only through the request (Hummingbird's body stream).
    package typealias ClientWatch = @Sendable (_ work: @escaping @Sendable () async throws -> EncodedImage) async throws -> EncodedImage

    /// Answers an image URL's path (what follows the mount point; what the signature covers):
    /// parse and check the URL (400, 403), resolve the source (403, 404), then the responder's one
    /// answer path (`ImageResponder`: 304 when `ifNoneMatch` names the result's tag, else the
    /// encoded result), with the work run as `admitted(…)` runs it. The client's leaving cancels
    /// the work when `disconnect` tells of it, else inside `watch` when one is given; else only the
    /// timeout ends it.
    package func answer(
        path: String, accept: String?, ifNoneMatch: String?, logger: Logger, disconnect: ClientDisconnect? = nil,
        watch: ClientWatch? = nil
    ) async -> ImageAnswer {
        await counted(path: path, logger: logger) {
            let order = try urls.order(for: path)
            try Self.checkNotExpired(order.delivery)
            let resolved = try await sources.resolve(order.source)
            let plan = try responder.plan(order.recipe, source: resolved.source, imageID: resolved.imageID, accept: accept)
            if let asItIs = try await sourceAsItIs(order, plan.request, accept: accept, disconnect: disconnect) { return asItIs }
            return try await responder.answer(
                plan, modified: resolved.modified, ifNoneMatch: ifNoneMatch, disposition: { order.contentDisposition(format: $0) }
            ) { [self, pipeline] plan, work in
                // A memory hit is answered at once, outside the admission and the timeout.
                if pipeline.hasEncodedImageInMemory(for: plan.request, as: plan.encoding) { return try await work() }
                let admitted: @Sendable () async throws -> EncodedImage = {
                    try await self.admitted(joining: { pipeline.isEncodedImageUnderWay(for: plan.request, as: plan.encoding) }, disconnect: disconnect, work)
                }
                if disconnect == nil, let watch { return try await watch(admitted) }
                return try await admitted()
            }
        }
    }

    /// `body`'s answer, counted in the metrics (in flight while it runs, then its status and
    /// time); a failure it throws is answered by the responder's one mapping.
    package func counted(path: String, logger: Logger, _ body: () async throws -> ImageAnswer) async -> ImageAnswer {
        let started = ContinuousClock.now
        metrics.inFlight(1)
        defer { metrics.inFlight(-1) }
        let answer: ImageAnswer
        do {
            answer = try await body()
        } catch {
            answer = responder.failureAnswer(for: error, source: path, logger: logger)
        }
        metrics.responded(status: answer.status, after: ContinuousClock.now - started)
        return answer
    }

    /// `work` as the server runs work that is not answered at once: within the request timeout
    /// (504) or until the client leaves (`disconnect`); joined at once when `joining` says equal
    /// work is under way in the pipeline already (it adds no work), else through the admission
    /// (503 when a slot would not come in time).
    package func admitted<T: Sendable>(
        joining: @escaping @Sendable () -> Bool, disconnect: ClientDisconnect?, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let admission = admission
        return try await ThumbnailServer.within(configuration.requestTimeout, unless: disconnect) {
            if joining() { return try await work() }
            return try await admission.run { try await work() }
        }
    }

    /// 404 when the URL's `expires` has passed.
    static func checkNotExpired(_ delivery: ImgproxyOptions.Delivery) throws(ImageFailure) {
        if delivery.hasExpired(now: Int(Date().timeIntervalSince1970)) { throw ImageFailure(.notFound, reason: "the URL has expired") }
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
