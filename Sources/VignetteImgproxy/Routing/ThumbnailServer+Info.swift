#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteResponses

extension ThumbnailServer {
    /// Answers imgproxy's `/info/%signature/%info_options/(plain/%source | %base64_source)`
    /// (`path` is what follows `/info`, which is what the signature covers): JSON about the source
    /// (`ImagePipeline.info(for:options:)`, `ImageInfoOptions` for the options). The URL is read and
    /// signed as image URLs are, the source goes through the same rules (local root, allowed
    /// prefixes, no private addresses), the recipe through the same limits (`max_src_resolution`
    /// and `max_src_file_size` tighten them), and the work through the admission and the request
    /// timeout; failures answer as image requests do. The answer has an `ETag` (304 when
    /// `ifNoneMatch` names it, no work at all) and the server's `Cache-Control`.
    package func infoAnswer(path: String, ifNoneMatch: String?, logger: Logger, disconnect: ClientDisconnect? = nil) async -> ImageAnswer {
        await counted {
            do {
                return try await info(path: path, ifNoneMatch: ifNoneMatch, disconnect: disconnect)
            } catch {
                return failureAnswer(for: error, path: path, logger: logger)
            }
        }
    }

    private func info(path: String, ifNoneMatch: String?, disconnect: ClientDisconnect?) async throws -> ImageAnswer {
        let (options, source) = try infoOrder(path)
        if options.delivery.hasExpired(now: Int(Date().timeIntervalSince1970)) { throw ServerFailure(status: 404, "the URL has expired") }
        let resolved = try await sources.resolve(source)
        let request = try resolved.request(options.recipe, limits: configuration.decodingLimits)
        let key = pipeline.infoKey(for: request, options: options)
        let tag = EntityTag(resultKey: key)
        let headers = ImageAnswer.resultHeaders(tag: tag, maxAge: configuration.cacheMaxAge, negotiated: false, modified: resolved.modified)
        if tag.matches(ifNoneMatch: ifNoneMatch) { return ImageAnswer(status: 304, headers: headers) }
        let (pipeline, admission, underWay, timeout) = (pipeline, admission, underWay, configuration.requestTimeout)
        let text = try await ThumbnailServer.within(timeout, unless: disconnect) {
            if underWay.contains(key) { return try await pipeline.info(for: request, options: options) }
            return try await admission.run { try await underWay.making(key) { try await pipeline.info(for: request, options: options) } }
        }
        let body = Data(text.utf8)
        return ImageAnswer(
            status: 200, headers: headers + [("Content-Type", "application/json"), ("Content-Length", String(body.count))], body: body)
    }

    /// The info options and the source of an `/info` path (400 for what cannot be read, 403 for
    /// a bad signature).
    func infoOrder(_ path: String) throws(ServerFailure) -> (options: ImageInfoOptions, source: String) {
        do {
            var segments = try urls.signedSegments(path)
            var options = ImageInfoOptions()
            while let segment = segments.first, segment.contains(":"), segment != "plain" {
                try options.apply(segment)
                segments = segments.dropFirst()
            }
            let (source, _) = try ImageURLReader.source(of: segments)
            try options.recipe.validate(limits: configuration.decodingLimits)
            return (options, source)
        } catch let failure as ServerFailure {
            throw failure
        } catch let error as ImagingError {
            throw ServerFailure(recipe: error)
        } catch {
            throw .badRequest("the URL cannot be read")
        }
    }
}
