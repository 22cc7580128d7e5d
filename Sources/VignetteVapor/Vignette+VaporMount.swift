import Logging
import Tracing
import Vapor
import Vignette
import VignetteServer

extension VignetteVaporApplication {
    /// Mounts an imgproxy-compatible image server in the application under `prefix` (e.g.
    /// "img"): every request under it is answered by `ThumbnailServer.answer(to:mountedAt:logger:)`,
    /// as `vignette serve` answers it with the same configuration: `/img/<imgproxy URL>`,
    /// `/img/placeholder/<thumbhash|blurhash>/<imgproxy URL>`, `/img/info/<imgproxy info URL>`,
    /// `/img/health` (and the configured health path), `/img/ready` and `/img/metrics` (unless
    /// `metricsPort` is set: no listener of its own is started here), with the configuration's
    /// `pathPrefix` under `prefix`, its secret, CORS headers and preflights, signatures, presets,
    /// source rules, fallback image, formats, limits, admission and metrics. The configuration's
    /// host, port and keep-alive timeout are not used (the application listens). Vapor does not
    /// tell a handler that its client left: work for a client that has gone runs on until it
    /// ends or the configuration's `requestTimeout` ends it (504), and what it made is cached.
    /// Vapor collects a request body (up to the routes' `defaultMaxBodySize`, 413 beyond)
    /// before the server sees the request. Each request's work continues the request's trace
    /// (`Request.serviceContext`; Vapor's `TracingMiddleware` makes the request's span). At the
    /// application's shutdown the pipeline's disk cache writes what it has staged.
    /// - Returns: the server, for its pipeline and metrics.
    /// - Throws: `ImagingError` when the configuration is refused (a cache folder that cannot be
    ///   made, a local root that is not a folder, a key or salt that is not hex).
    @discardableResult
    public func mount(at prefix: String, configuration: ServerConfiguration) throws -> ThumbnailServer {
        let server = try ThumbnailServer(configuration: configuration, logger: application.logger)
        let mount = ThumbnailServer.mountPath(prefix)
        let group = application.grouped(mount.split(separator: "/").map { PathComponent.constant(String($0)) })
        // Every method the server answers or refuses, at the mount and under it.
        for method: HTTPMethod in [.GET, .HEAD, .OPTIONS, .POST, .PUT, .PATCH, .DELETE] {
            for path: [PathComponent] in [[], [.catchall]] {
                group.on(method, path) { request in
                    let asked = ServerRequest(method: request.method.rawValue, path: request.url.path, headers: request.headers.map { ($0.name, $0.value) })
                    return await ServiceContext.withValue(request.serviceContext) {
                        Response(await server.answer(to: asked, mountedAt: mount, logger: request.logger))
                    }
                }
            }
        }
        application.lifecycle.use(DiskCacheFlush(pipeline: server.pipeline))
        return server
    }
}
