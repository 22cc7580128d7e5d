#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette

extension ThumbnailServer {
    /// Answers `/placeholder/<kind>/<imgproxy path>`: the source's ThumbHash or BlurHash as JSON
    /// (`{"thumbhash":"…"}`), made from its `ImageRecipe.placeholder` through the pipeline and the
    /// admission, within the request timeout; failures as the image route answers them.
    package func placeholderAnswer(kind: PlaceholderKind?, path: String, logger: Logger, disconnect: ClientDisconnect? = nil) async -> ImageAnswer {
        await counted(path: path, logger: logger) {
            guard let kind else { throw ImageFailure.badRequest("the placeholder kind must be thumbhash or blurhash") }
            let order = try urls.order(for: path)
            let resolved = try await resolve(order.source)
            let request = try responder.request(.placeholder, source: resolved.source, imageID: resolved.imageID)
            let pipeline = pipeline
            let text = try await admitted(joining: { false }, disconnect: disconnect) { try await pipeline.placeholder(kind, for: request) }
            let body = Data("{\"\(kind.rawValue)\":\"\(text)\"}".utf8)
            return ImageAnswer(
                status: 200,
                headers: [
                    ("Content-Type", "application/json"), ImageAnswer.cacheControl(maxAge: configuration.cacheMaxAge, shared: true),
                    ("Content-Length", String(body.count)),
                ],
                body: body)
        }
    }
}
