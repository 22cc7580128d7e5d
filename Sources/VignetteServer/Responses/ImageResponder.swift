#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteSupport

/// Answers one image over HTTP from a pipeline, whatever the web framework: the recipe made of a
/// source, encoded in the format the client's `Accept` allows, with the validators and caching
/// headers a CDN needs, and failures answered with the status they deserve.
///
/// It is the one answer path: `ThumbnailServer` answers imgproxy's URLs through it (wrapping the
/// work in its admission, timeout and client watch), Hummingbird handlers through
/// `request.vignette.thumbnail(…)` (VignetteHummingbird) and Vapor ones through
/// `req.vignette.thumbnail(…)` (VignetteVapor).
///
/// ```swift
/// let responder = ImageResponder(pipeline: ImagePipeline(configuration: .init()))
/// let answer = await responder.respond(
///     to: .file("/srv/images/cat.jpg"), recipe: ImageRecipe(width: 300, height: 200),
///     accept: "image/webp,*/*", ifNoneMatch: nil)
/// // answer.status 200, Content-Type image/webp, ETag, Cache-Control, Vary: Accept; answer.body
/// ```
public struct ImageResponder: Sendable {
    /// The pipeline every image is made by (and cached in).
    public let pipeline: ImagePipeline
    /// `Cache-Control: public, max-age=` of images, in seconds.
    public var maxAge: Int
    /// `Cache-Control: max-age=` of failures, in seconds: short, so a fixed source is seen soon.
    public var failureMaxAge: Int
    /// The image a recipe's `watermark` draws; nil when none is configured (such a recipe is 400).
    public var watermark: ImageRecipe.WatermarkImage?
    /// The folder `respond(path:…)` reads under; nil: paths are read as given.
    private var local: LocalSourceResolver?
    /// Whether the missing face model was logged (once per responder).
    private let warnedOfNoFaceModel = Locked(false)

    /// A responder over `pipeline`; images are cached by clients for `maxAge` seconds (a year by
    /// default), failures for `failureMaxAge`. `respond(path:…)` reads a path as it is given.
    public init(
        pipeline: ImagePipeline, maxAge: Int = ImageAnswer.defaultMaxAge, failureMaxAge: Int = ImageAnswer.defaultFailureMaxAge,
        watermark: ImageRecipe.WatermarkImage? = nil
    ) {
        self.pipeline = pipeline
        self.maxAge = maxAge
        self.failureMaxAge = failureMaxAge
        self.watermark = watermark
    }

    /// A responder whose `respond(path:…)` reads only files under `root`: a path is joined to it
    /// (an absolute one too) and resolved (`realpath`); one that leaves it by `..` or a symbolic
    /// link is answered 403, one that names no file 404.
    /// - Throws: `ImagingError` (`.invalidArgument`) when `root` is not a folder.
    public init(
        pipeline: ImagePipeline, root: String, maxAge: Int = ImageAnswer.defaultMaxAge,
        failureMaxAge: Int = ImageAnswer.defaultFailureMaxAge, watermark: ImageRecipe.WatermarkImage? = nil
    ) throws(ImagingError) {
        guard let local = LocalSourceResolver(root: root) else { throw ImagingError(.invalidArgument, "the root \(root) is not a folder") }
        self.init(pipeline: pipeline, maxAge: maxAge, failureMaxAge: failureMaxAge, watermark: watermark)
        self.local = local
    }

    /// The file at `path` (under the root, when the responder has one) made by `recipe`, as an
    /// HTTP answer: `respond(to:recipe:accept:ifNoneMatch:logger:)` with a `.file` source.
    public func respond(path: String, recipe: ImageRecipe, accept: String?, ifNoneMatch: String?, logger: Logger? = nil) async -> ImageAnswer {
        guard let local else { return await respond(to: .file(path), recipe: recipe, accept: accept, ifNoneMatch: ifNoneMatch, logger: logger) }
        do throws(LocalSourceResolver.Refusal) {
            let file = try local.resolve(decoded: path)
            return await respond(to: .file(file), recipe: recipe, accept: accept, ifNoneMatch: ifNoneMatch, logger: logger)
        } catch {
            return failureAnswer(for: error, source: path, logger: logger)
        }
    }

    /// `recipe` made of `source` as an HTTP answer.
    ///
    /// The format is the recipe's, or else the best one `accept` names (AVIF, then WebP, then JPEG,
    /// or PNG for images with alpha; `FormatNegotiation`), then with `Vary: Accept`. A 200 carries
    /// `Content-Type`, `Content-Length`, a strong `ETag` made from the result's key
    /// (`ImagePipeline.resultKey(for:as:)`: the source's identity, the recipe, the encoding),
    /// `Cache-Control` and, for a file, `Last-Modified`. When `ifNoneMatch` names the tag the answer
    /// is 304, given before any decode or encode. The image itself comes from
    /// `ImagePipeline.encodedImage(for:as:)`.
    ///
    /// Failures are answered through `ImageFailure`: a recipe that cannot be made is 400 (413, 415),
    /// a missing file 404, a broken one 422, and so on, with a one-line reason that never names a
    /// path. The error in full goes to `logger` (a 5xx as a warning, a 4xx as information).
    /// The responder's root applies to `respond(path:…)` only: `source` is read as it is.
    public func respond(
        to source: ImageRequest.Source, recipe: ImageRecipe, accept: String?, ifNoneMatch: String?, logger: Logger? = nil
    ) async -> ImageAnswer {
        do {
            var modified: Int?
            if case .file(let path) = source { modified = HTTPDate.modificationTime(ofFile: path) }
            let order = try plan(recipe, source: source, accept: accept)
            return try await answer(order, modified: modified, ifNoneMatch: ifNoneMatch)
        } catch {
            return failureAnswer(for: error, source: "\(source)", logger: logger)
        }
    }

    // MARK: - The one path, in steps a server wraps

    /// What an answer is made of: the pipeline's request and encoding, and whether the format was
    /// chosen from `Accept`.
    package struct Plan: Sendable {
        package let request: ImageRequest
        package let encoding: OutputEncoding
        package let negotiated: Bool
    }

    /// How the encoded image is got: given the plan and the pipeline's call, a server runs that
    /// call within its admission, its timeout and its client watch; by default it is run as it is.
    package typealias Runner = @Sendable (_ plan: Plan, _ work: @escaping @Sendable () async throws -> EncodedImage) async throws -> EncodedImage

    /// `recipe` of `source` planned: the pipeline request (`request(_:source:imageID:)`) and the
    /// encoding, the recipe's format or the one `accept` allows.
    /// - Throws: `ImageFailure(recipe:)` (400, 413, 415) when the recipe cannot be made.
    package func plan(_ recipe: ImageRecipe, source: ImageRequest.Source, imageID: String? = nil, accept: String?) throws(ImageFailure) -> Plan {
        let request = try self.request(recipe, source: source, imageID: imageID)
        do throws(ImagingError) {
            let encoding = try recipe.encoding(accepting: FormatNegotiation(accept: accept).accepted)
            return Plan(request: request, encoding: encoding, negotiated: recipe.negotiatesFormat)
        } catch {
            throw ImageFailure(recipe: error)
        }
    }

    /// The pipeline request that makes `recipe` of `source`: within the pipeline's decoding limits,
    /// with the responder's watermark; `imageID` names the source for keys when given.
    /// - Throws: `ImageFailure(recipe:)` (400, 413, 415) when the recipe cannot be made.
    package func request(_ recipe: ImageRecipe, source: ImageRequest.Source, imageID: String? = nil) throws(ImageFailure) -> ImageRequest {
        do throws(ImagingError) {
            return try recipe.request(for: source, imageID: imageID, limits: pipeline.configuration.decodingLimits, watermark: watermark)
        } catch {
            throw ImageFailure(recipe: error)
        }
    }

    /// The answer to `plan`: 304 when `ifNoneMatch` names the result's tag (no work at all), else
    /// 200 with the encoded image that `run` gets from the pipeline, its validators and caching
    /// headers (`Last-Modified` from `modified`, seconds since 1970) and the `Content-Disposition`
    /// that `disposition` gives for the result's format, if any. Failures are thrown, for
    /// `failureAnswer(for:source:logger:)`.
    package func answer(
        _ plan: Plan, modified: Int?, ifNoneMatch: String?, disposition: (ImageFormat) -> String? = { _ in nil },
        run: Runner = { _, work in try await work() }
    ) async throws -> ImageAnswer {
        let tag = EntityTag(resultKey: pipeline.resultKey(for: plan.request, as: plan.encoding))
        var headers = ImageAnswer.resultHeaders(tag: tag, maxAge: maxAge, negotiated: plan.negotiated, modified: modified)
        if tag.matches(ifNoneMatch: ifNoneMatch) { return ImageAnswer(status: 304, headers: headers) }
        let pipeline = pipeline
        let image = try await run(plan) { try await pipeline.encodedImage(for: plan.request, as: plan.encoding).image }
        if let value = disposition(image.format) { headers.append(("Content-Disposition", value)) }
        if let choice = image.choice { headers.append(("Vignette-Encoding", choice.description)) }
        if let reason = image.ignoredProfile { headers.append(("Vignette-Ignored-Profile", reason)) }
        if let placement = await pipeline.facePlacement(for: plan.request) {
            warnOfNoFaceModel()
            headers.append(("Vignette-Crop", placement))
        }
        return ImageAnswer(image: image, headers: headers)
    }

    /// Logs, once per responder, that crops asked to keep faces are attention crops for want of a
    /// face model.
    private func warnOfNoFaceModel() {
        guard pipeline.configuration.faceDetector == nil,
            warnedOfNoFaceModel.withLock({ warned in defer { warned = true }; return !warned })
        else { return }
        pipeline.configuration.logger.warning("a crop asked to keep faces, but no face model is configured: attention crops are made instead")
    }

    /// The one place a failure becomes an answer and a log line. `error` is answered as
    /// `ImageFailure(error)` says (its status and its short reason, cached for `failureMaxAge`,
    /// with `Retry-After` on a 503: the admission's estimate, else 1 s); the error in full, which
    /// may name a path or carry a library's message, goes only to `logger`: a 5xx as a warning, a
    /// refusal (4xx) as information, a request shed by an admission at debug level (it is counted
    /// in the metrics; a line each would add work just when there is too much).
    package func failureAnswer(for error: any Error, source: String, logger: Logger?) -> ImageAnswer {
        let failure = ImageFailure(error)
        let metadata: Logger.Metadata = [
            "source": "\(source)", "status": "\(failure.httpStatus)", "reason": "\(failure.reason)", "error": "\(error)",
        ]
        if case Admission.Refusal.overloaded(let retryAfter) = error {
            logger?.debug("request shed", metadata: metadata)
            return ImageAnswer(failure: failure, maxAge: failureMaxAge, retryAfter: retryAfter)
        }
        logger?.log(level: failure.status.isServerError ? .warning : .info, "request failed", metadata: metadata)
        return ImageAnswer(failure: failure, maxAge: failureMaxAge)
    }
}
