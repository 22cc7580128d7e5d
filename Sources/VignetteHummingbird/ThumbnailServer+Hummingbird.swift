#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import Logging
import ServiceLifecycle
import Tracing
import Vignette
import VignetteServer

extension ThumbnailServer {
    /// The Hummingbird application: bind it and run it (`runService()`), or hand it to your own
    /// `ServiceGroup`. `onRunning` receives the bound port (useful with port 0). When a tracer is
    /// bootstrapped (`InstrumentationSystem`), each request is a span (Hummingbird's
    /// `TracingMiddleware`, continuing a `traceparent` the client sent) with the pipeline's spans
    /// under it.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self)
        if !(InstrumentationSystem.tracer is NoOpTracer) {
            router.middlewares.add(TracingMiddleware())
        }
        addRoutes(to: router)
        return Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ClientDisconnectHandler()], idleTimeout: .init(configuration.keepAliveTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "vignette"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Mounts the server on `router` (a Hummingbird `Router` or `RouterGroup` of your application)
    /// under `prefix` (e.g. "images": `/images/health`, `/images/<imgproxy URL>`,
    /// `/images/info/<imgproxy info URL>`): every request under it is answered by
    /// `answer(to:mountedAt:logger:)`, so every setting of the configuration applies as in
    /// `vignette serve` (its `pathPrefix` under `prefix`, the secret, CORS and preflights, the
    /// health path; `/metrics` unless `metricsPort` is set, which only `run()` serves). The
    /// prefix's own path and everything under it are the server's, for GET, HEAD, `OPTIONS`,
    /// POST, PUT, PATCH and DELETE; a route of the router's own for a longer constant path
    /// under it is matched first, and one for the prefix's own path and method conflicts.
    public func addRoutes<Methods: RouterMethods>(to router: Methods, prefix: String = "") {
        let mount = Self.mountPath(prefix)
        let group = router.group(RouterPath(String(mount.dropFirst())))
        for method in Self.doorMethods {
            for path in ["", "**"] {
                group.on(RouterPath(path), method: method) { [self] request, context in
                    await respond(
                        to: request, mount: mount, logger: context.logger, disconnect: (context as? ServerRequestContext)?.disconnect)
                }
            }
        }
    }

    /// The application that serves `/metrics` alone on `metricsHost`:`metricsPort`, when the
    /// configuration sets a port for it; `onRunning` receives the bound port.
    func metricsApplication(port: Int, onRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { [self] _, _ in Response(metricsAnswer) }
        return Application(
            router: router, configuration: .init(address: .hostname(configuration.metricsHost, port: port), serverName: "vignette"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }, logger: logger)
    }

    /// Runs until SIGTERM or SIGINT: then stops accepting, lets the requests in flight finish (up
    /// to `shutdownTimeout`), writes the disk cache's staged entries, and returns. `services` run
    /// in the same group (a trace exporter, say) and are shut down after the server, so they
    /// still see the last requests' work. With a `metricsPort` in the configuration `/metrics`
    /// is served there, and `onMetricsRunning` receives that listener's port.
    public func run(
        shutdownTimeout: Duration = .seconds(ServerConfiguration.Defaults.shutdownTimeoutSeconds), alongside services: [any Service] = [],
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }, onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        // A group shuts its services down in reverse order: the server first.
        var all = services
        if let port = configuration.metricsPort { all.append(metricsApplication(port: port, onRunning: onMetricsRunning)) }
        all.append(application(onRunning: onRunning))
        var groupConfiguration = ServiceGroupConfiguration(services: all, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = shutdownTimeout
        try await ServiceGroup(configuration: groupConfiguration).run()
        await pipeline.flushDiskCache()
    }
}
