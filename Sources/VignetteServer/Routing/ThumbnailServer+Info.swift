#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteImgproxy

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
        await counted(path: path, logger: logger) {
            let (options, source, delivery) = try urls.infoOrder(for: path)
            try Self.checkNotExpired(delivery)
            let resolved = try await resolve(source)
            let request = try responder.request(options.recipe, source: resolved.source, imageID: resolved.imageID)
            let tag = EntityTag(resultKey: pipeline.infoKey(for: request, options: options))
            let headers = ImageAnswer.resultHeaders(tag: tag, maxAge: configuration.cacheMaxAge, negotiated: false, modified: resolved.modified)
            if tag.matches(ifNoneMatch: ifNoneMatch) { return ImageAnswer(status: 304, headers: headers) }
            let pipeline = pipeline
            let text = try await admitted(joining: { pipeline.isInfoUnderWay(for: request, options: options) }, disconnect: disconnect) {
                try await pipeline.info(for: request, options: options)
            }
            let body = Data(text.utf8)
            return ImageAnswer(
                status: 200, headers: headers + [("Content-Type", "application/json"), ("Content-Length", String(body.count))], body: body)
        }
    }
}
