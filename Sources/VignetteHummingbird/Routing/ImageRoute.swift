import Hummingbird
import Logging
import VignetteServer
import VignetteSupport

extension ThumbnailServer {
    /// The methods routed to the server: every request under the mount with one of them is the
    /// server's to answer (405 for those it does not take).
    static let doorMethods: [HTTPRequest.Method] = [.get, .head, .options, .post, .put, .patch, .delete]

    /// Answers `request` on Hummingbird: the request as `ServerRequest`, the server's answer
    /// (`answer(to:mountedAt:…)`) as a response. `disconnect` tells when the client leaves (the
    /// server's own application); without it (routes mounted in another application) a processed
    /// request watches the request body's stream instead, and its connection closes after the response.
    func respond(to request: Request, mount: String, logger: Logger, disconnect: ClientDisconnect?) async -> Response {
        // Set once the request body was handed to the close watcher: Hummingbird then closes the
        // connection after the response, so the response says so and clients do not reuse it.
        let watched = Locked(false)
        let watch: ClientWatch = { work in
            // The body can be read once: later work (a fallback image after a failed source) runs unwatched.
            let first = watched.withLock { handed in
                defer { handed = true }
                return !handed
            }
            guard first else { return try await work() }
            return try await request.body.consumeWithCancellationOnInboundClose { _ in try await work() }
        }
        let asked = ServerRequest(
            method: request.method.rawValue, path: request.uri.path, headers: request.headers.map { ($0.name.rawName, $0.value) })
        var response = Response(await answer(to: asked, mountedAt: mount, logger: logger, disconnect: disconnect, watch: watch))
        if watched.withLock({ $0 }) { response.headers[.connection] = "close" }
        return response
    }
}
