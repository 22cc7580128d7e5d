#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteResponses

extension ThumbnailServer {
    /// Answers `/placeholder/<kind>/<imgproxy path>`: the source's ThumbHash or BlurHash as JSON
    /// (`{"thumbhash":"…"}`), made from its `ImageRecipe.placeholder` through the pipeline and the
    /// admission, within the request timeout; failures as the image route answers them.
    package func placeholderAnswer(kind: PlaceholderKind?, path: String, logger: Logger, disconnect: ClientDisconnect? = nil) async -> ImageAnswer {
        await counted {
            do {
                guard let kind else { throw ServerFailure.badRequest("the placeholder kind must be thumbhash or blurhash") }
                let order = try urls.order(for: path)
                let resolved = try await sources.resolve(order.source)
                let request = try resolved.request(.placeholder, limits: configuration.decodingLimits)
                let (pipeline, timeout) = (pipeline, configuration.requestTimeout)
                let text = try await ThumbnailServer.within(timeout, unless: disconnect) { [admission] in
                    try await admission.run { try await pipeline.placeholder(kind, for: request) }
                }
                let body = Data("{\"\(kind.rawValue)\":\"\(text)\"}".utf8)
                return ImageAnswer(
                    status: 200,
                    headers: [
                        ("Content-Type", "application/json"), ImageAnswer.cacheControl(maxAge: configuration.cacheMaxAge, shared: true),
                        ("Content-Length", String(body.count)),
                    ],
                    body: body)
            } catch {
                return failureAnswer(for: error, path: path, logger: logger)
            }
        }
    }
}
