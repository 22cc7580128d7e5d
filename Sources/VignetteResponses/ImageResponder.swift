#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette

/// Answers one image over HTTP from a pipeline, whatever the web framework: the recipe made of a
/// source, encoded in the format the client's `Accept` allows, with the validators and caching
/// headers a CDN needs, and failures answered with the status they deserve.
///
/// `respond(to:recipe:accept:ifNoneMatch:logger:)` does the work and gives an `ImageAnswer`;
/// Hummingbird handlers use `request.vignette.thumbnail(…)` (VignetteServer) and Vapor ones
/// `req.vignette.thumbnail(…)` (VignetteVapor), which go through it.
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
            return answer(error.imageFailure, error: error, source: path, logger: logger)
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
        do throws(Failed) {
            return try await image(source: source, recipe: recipe, accept: accept, ifNoneMatch: ifNoneMatch)
        } catch {
            return answer(error.failure, error: error.error, source: "\(source)", logger: logger)
        }
    }

    /// The answer to `failure`, logged with `error` in full (a 5xx as a warning, a 4xx as information).
    private func answer(_ failure: ImageFailure, error: any Error, source: String, logger: Logger?) -> ImageAnswer {
        let metadata: Logger.Metadata = [
            "source": "\(source)", "status": "\(failure.httpStatus)", "reason": "\(failure.reason)", "error": "\(error)",
        ]
        logger?.log(level: failure.status.isServerError ? .warning : .info, "image request failed", metadata: metadata)
        return ImageAnswer(failure: failure, maxAge: failureMaxAge)
    }

    /// An error of `image(…)` with the failure it is answered with.
    private struct Failed: Error {
        let error: any Error
        let failure: ImageFailure
    }

    private func image(source: ImageRequest.Source, recipe: ImageRecipe, accept: String?, ifNoneMatch: String?) async throws(Failed) -> ImageAnswer {
        let request: ImageRequest
        let encoding: OutputEncoding, negotiated: Bool
        do throws(ImagingError) {
            request = try recipe.request(for: source, limits: pipeline.configuration.decodingLimits, watermark: watermark)
            (encoding, negotiated) = try recipe.encoding(accepting: FormatNegotiation(accept: accept).accepted)
        } catch {
            throw Failed(error: error, failure: ImageFailure(recipe: error))
        }
        let tag = EntityTag(resultKey: pipeline.resultKey(for: request, as: encoding))
        var modified: Int?
        if case .file(let path) = source { modified = HTTPDate.modificationTime(ofFile: path) }
        let headers = ImageAnswer.resultHeaders(tag: tag, maxAge: maxAge, negotiated: negotiated, modified: modified)
        if tag.matches(ifNoneMatch: ifNoneMatch) { return ImageAnswer(status: 304, headers: headers) }
        let image: EncodedImage
        do {
            image = try await pipeline.encodedImage(for: request, as: encoding).image
        } catch {
            throw Failed(error: error, failure: ImageFailure(error))
        }
        return ImageAnswer(image: image, headers: headers)
    }
}
