import Logging
import Tracing
import Vapor
import Vignette
import VignetteServer

extension VignetteVaporApplication {
    /// Mounts an imgproxy-compatible image server in the application under `prefix` (e.g.
    /// "img"): `/img/<imgproxy URL>` (signed or `insecure`, every option `vignette serve`
    /// takes), `/img/placeholder/<thumbhash|blurhash>/<imgproxy URL>`, `/img/info/<imgproxy info URL>`, `/img/health`,
    /// `/img/ready` and `/img/metrics`. It is a `ThumbnailServer` with its own pipeline, made from
    /// `configuration` (whose host and port are not used: the application listens): the same
    /// answers, statuses, source rules, admission and metrics as `vignette serve`, through
    /// `ThumbnailServer`'s framework-neutral answers. The client's leaving is not seen here; the
    /// request timeout ends work nobody waits for. Each request's work continues the request's
    /// trace (`Request.serviceContext`; Vapor's `TracingMiddleware` makes the request's span). At
    /// the application's shutdown the pipeline's disk cache writes what it has staged.
    /// - Returns: the server, for its pipeline and metrics.
    /// - Throws: `ImagingError` when the configuration is refused (a cache folder that cannot be
    ///   made, a local root that is not a folder, a key or salt that is not hex).
    @discardableResult
    public func mount(at prefix: String, configuration: ServerConfiguration) throws -> ThumbnailServer {
        let server = try ThumbnailServer(configuration: configuration, logger: application.logger)
        let names = prefix.split(separator: "/").map(String.init)
        let group = application.grouped(names.map { PathComponent.constant($0) })
        let mount = names.isEmpty ? "" : "/" + names.joined(separator: "/")
        group.get("health") { _ in Response(server.healthAnswer) }
        group.get("ready") { _ in Response(server.readyAnswer) }
        group.get("metrics") { _ in Response(server.metricsAnswer) }
        group.get("placeholder", ":kind", "**") { request in
            let kind = request.parameters.get("kind") ?? ""
            let path = ThumbnailServer.imagePath(request.url.path, mount: mount + "/placeholder/" + kind)
            return await ServiceContext.withValue(request.serviceContext) {
                Response(await server.placeholderAnswer(kind: PlaceholderKind(rawValue: kind), path: path, logger: request.logger))
            }
        }
        group.get("info", "**") { request in
            let path = ThumbnailServer.imagePath(request.url.path, mount: mount + "/info")
            return await ServiceContext.withValue(request.serviceContext) {
                Response(await server.infoAnswer(path: path, ifNoneMatch: request.headers.first(name: .ifNoneMatch), logger: request.logger))
            }
        }
        group.get("**") { request in
            let path = ThumbnailServer.imagePath(request.url.path, mount: mount)
            return await ServiceContext.withValue(request.serviceContext) {
                Response(await server.answer(
                    path: path, accept: request.headers.first(name: .accept), ifNoneMatch: request.headers.first(name: .ifNoneMatch),
                    logger: request.logger))
            }
        }
        application.lifecycle.use(DiskCacheFlush(pipeline: server.pipeline))
        return server
    }
}
