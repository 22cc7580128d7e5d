import Hummingbird
import Logging
import Vignette
import VignetteImgproxy
import VignetteServer
import VignetteSupport

extension ThumbnailServer {
    /// Answers an image URL on Hummingbird (`answer(path:…)`). `logger` is the request's (with its
    /// `hb.request.id`). `disconnect` tells when the client leaves (the server's own application);
    /// without it (routes mounted in another application) a processed request watches the request
    /// body's stream instead, and its connection closes after the response.
    func respond(to request: Request, path: String, logger: Logger, disconnect: ClientDisconnect? = nil) async -> Response {
        // Set once the request body was handed to the close watcher: Hummingbird then closes the
        // connection after the response, so the response says so and clients do not reuse it.
        let watched = Locked(false)
        let watch: ClientWatch = { work in
            watched.withLock { $0 = true }
            return try await request.body.consumeWithCancellationOnInboundClose { _ in try await work() }
        }
        var response = Response(withCORS(await answer(
            path: path, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch], logger: logger,
            disconnect: disconnect, watch: watch)))
        if watched.withLock({ $0 }) { response.headers[.connection] = "close" }
        return response
    }
}
