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
            var order = try urls.order(for: path)
            try Self.checkNotExpired(order.delivery)
            let formats = negotiate(&order.recipe, accept: accept)
            applyDefaults(to: &order.recipe)
            do {
                let resolved = try await resolve(order.source)
                return try await answer(order, resolved, formats: formats, ifNoneMatch: ifNoneMatch, disconnect: disconnect, watch: watch)
            } catch let error where configuration.fallbackImage != nil && Self.isSourceFailure(error) {
                guard let fallback = configuration.fallbackImage else { throw error }
                return try await fallbackAnswer(
                    order, fallback, failure: error, formats: formats, ifNoneMatch: ifNoneMatch, logger: logger, disconnect: disconnect, watch: watch)
            }
        }
    }

    /// What the format of a result may follow: the formats `Accept` names that the server chooses
    /// from, and whether the answer varies with `Accept`.
    package struct ClientFormats: Sendable {
        /// The formats `ImageRecipe.encoding(accepting:)` may choose for a recipe without a format.
        package var accepted: Set<ImageFormat>
        /// Whether another `Accept` could give another format (the answer then has `Vary: Accept`).
        package var varies: Bool
    }

    /// The server's format negotiation applied to `recipe`: without a format, the first of JPEG XL,
    /// AVIF and WebP that `accept` names and `autoFormats` or `enforcedFormats` holds (JPEG XL is
    /// set as the recipe's format, AVIF and WebP are left to `encoding(accepting:)`); with one, the
    /// first such format in `enforcedFormats` replaces it (imgproxy's auto and enforce settings).
    package func negotiate(_ recipe: inout ImageRecipe, accept: String?) -> ClientFormats {
        var named = FormatNegotiation(accept: accept).accepted
        if let accept, accept.lowercased().contains("image/jxl") { named.insert(.jxl) }
        let preference: [ImageFormat] = [.jxl, .avif, .webp]
        let enforced = configuration.enforcedFormats
        guard recipe.format == nil else {
            guard recipe.format != .svg, !enforced.isEmpty else { return ClientFormats(accepted: [], varies: false) }
            if let format = preference.first(where: { enforced.contains($0) && named.contains($0) }) { recipe.format = format }
            return ClientFormats(accepted: [], varies: true)
        }
        if recipe.bestFormat == nil, configuration.bestFormatByDefault { recipe.bestFormat = configuration.bestFormat }
        let chosen = configuration.autoFormats.union(enforced)
        // `f:best` weighs JPEG XL with the others (`ImageRecipe.bestFormat`).
        if chosen.contains(.jxl), named.contains(.jxl), recipe.bestFormat == nil { recipe.format = .jxl }
        return ClientFormats(accepted: named.intersection(chosen), varies: !chosen.isEmpty)
    }

    /// The server's defaults put in `recipe` where its URL left them: the quality
    /// (`defaultQuality`, `defaultFormatQuality`) when the URL gives none, stills when animations
    /// are not kept, and `maxResultDimension`, which the URL may only lower.
    package func applyDefaults(to recipe: inout ImageRecipe) {
        if recipe.quality == nil {
            recipe.formatQuality = configuration.defaultFormatQuality.merging(recipe.formatQuality) { _, fromURL in fromURL }
            recipe.quality = configuration.defaultQuality
        }
        if !configuration.keepsAnimation { recipe.frames = .first }
        applySearchDefaults(to: &recipe)
        if let limit = configuration.maxResultDimension {
            recipe.limits.maxResultSide = min(recipe.limits.maxResultSide ?? limit, limit)
        }
    }

    /// `source` resolved by the server's rules, after `sourceBaseURL` is put before it when it does
    /// not start with it.
    func resolve(_ source: String) async throws -> SourceResolver.Resolved {
        var source = source
        if let base = configuration.sourceBaseURL, !source.hasPrefix(base) { source = base + source }
        return try await sources.resolve(source)
    }

    /// The answer for `order` made of `resolved`: the source as it is (`raw`, `skip_processing`),
    /// else the responder's one path with the work admitted.
    private func answer(
        _ order: ImageOrder, _ resolved: SourceResolver.Resolved, formats: ClientFormats, ifNoneMatch: String?,
        disconnect: ClientDisconnect?, watch: ClientWatch?
    ) async throws -> ImageAnswer {
        let request = try responder.request(order.recipe, source: resolved.source, imageID: resolved.imageID)
        let encoding: OutputEncoding
        do throws(ImagingError) {
            encoding = try order.recipe.encoding(accepting: formats.accepted)
        } catch {
            throw ImageFailure(recipe: error)
        }
        let plan = ImageResponder.Plan(request: request, encoding: encoding, negotiated: formats.varies)
        if let asItIs = try await sourceAsItIs(order, plan.request, accepted: formats.accepted, disconnect: disconnect) { return asItIs }
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

    /// Whether `error` says the source could not be had: the loader failed (a missing file, the
    /// source server's error, a timeout, a body over the limit), the host has no address, or the
    /// local file is not there. Those are answered with `fallbackImage` when there is one.
    static func isSourceFailure(_ error: any Error) -> Bool {
        switch error {
        case ImagePipelineError.dataLoadingFailed: true
        case is SourceResolver.LookupFailure: true
        case let failure as ImageFailure: failure.status == .notFound
        default: false
        }
    }

    /// `order` made of the fallback image instead of its source, answered with
    /// `fallbackImageStatus` (or `failure`'s own status) and `fallbackImageMaxAge`.
    private func fallbackAnswer(
        _ order: ImageOrder, _ fallback: ImageRequest.Source, failure: any Error, formats: ClientFormats, ifNoneMatch: String?,
        logger: Logger, disconnect: ClientDisconnect?, watch: ClientWatch?
    ) async throws -> ImageAnswer {
        logger.warning("the source could not be had: answering the fallback image", metadata: ["source": "\(order.source)", "error": "\(failure)"])
        let resolved = SourceResolver.Resolved(source: fallback, modified: nil)
        var answer = try await answer(order, resolved, formats: formats, ifNoneMatch: ifNoneMatch, disconnect: disconnect, watch: watch)
        if answer.status == 200 { answer.status = configuration.fallbackImageStatus ?? ImageFailure(failure).httpStatus }
        if let maxAge = configuration.fallbackImageMaxAge, let index = answer.headers.firstIndex(where: { $0.name == "Cache-Control" }) {
            answer.headers[index] = ImageAnswer.cacheControl(maxAge: maxAge, shared: true)
        }
        return answer
    }

    /// `body`'s answer, counted in the metrics (in flight while it runs, then its status and
    /// time); a failure it throws is answered by the responder's one mapping.
    package func counted(path: String, logger: Logger, _ body: () async throws -> ImageAnswer) async -> ImageAnswer {
        let started = ContinuousClock.now
        metrics.inFlight(1)
        defer { metrics.inFlight(-1) }
        var answer: ImageAnswer
        do {
            answer = try await body()
        } catch {
            answer = responder.failureAnswer(for: error, source: path, logger: logger)
            if configuration.detailedErrors { answer.detail(error) }
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
        _ order: ImageOrder, _ imageRequest: ImageRequest, accepted: Set<ImageFormat>, disconnect: ClientDisconnect?
    ) async throws -> ImageAnswer? {
        let delivery = order.delivery
        guard delivery.raw || !delivery.skipProcessing.isEmpty else { return nil }
        let (pipeline, timeout) = (pipeline, configuration.requestTimeout)
        let data = try await ThumbnailServer.within(timeout, unless: disconnect) { try await pipeline.data(for: imageRequest) }
        let info = try? ImageDecoder(limits: configuration.decodingLimits).probe(data)
        let format = info?.format
        if !delivery.raw {
            let bestSkips = order.recipe.bestFormat != nil && configuration.bestFormatAllowsSkips
            guard let info, delivery.skipProcessing.contains(info.format),
                bestSkips || order.recipe.outputFormat(hasAlpha: info.hasAlpha, accepting: accepted) == info.format
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

extension ImageAnswer {
    /// The failure's reason followed by `error` in full (`ServerConfiguration.detailedErrors`),
    /// on one line.
    mutating func detail(_ error: any Error) {
        let text = "\(failure?.reason ?? "failed"): \(error)".map { $0.isNewline ? " " : $0 }
        body = Data((String(text) + "\n").utf8)
        if let index = headers.firstIndex(where: { $0.name == "Content-Length" }) { headers[index].value = String(body.count) }
    }
}
