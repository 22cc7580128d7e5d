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

    /// Mounts the server's routes on `router` (a Hummingbird `Router` or `RouterGroup` of your
    /// application) under `prefix` (e.g. "images": `/images/health`, `/images/<imgproxy URL>`,
    /// `/images/info/<imgproxy info URL>`):
    /// embed the server in your own application with this server's pipeline and configuration.
    public func addRoutes<Methods: RouterMethods>(to router: Methods, prefix: String = "") {
        let trimmed = prefix.split(separator: "/").joined(separator: "/")
        let group = router.group(RouterPath(trimmed))
        let mount = trimmed.isEmpty ? "" : "/" + trimmed
        group.get("health") { [self] _, _ in Response(healthAnswer) }
        group.get("ready") { [self] _, _ in Response(readyAnswer) }
        group.get("metrics") { [self] _, _ in Response(metricsAnswer) }
        group.get("placeholder/:kind/**") { [self] request, context in
            let kindName = context.parameters.get("kind") ?? ""
            let imagePath = ThumbnailServer.imagePath(request.uri.path, mount: mount + "/placeholder/" + kindName)
            return Response(await placeholderAnswer(
                kind: PlaceholderKind(rawValue: kindName), path: imagePath, logger: context.logger,
                disconnect: (context as? ServerRequestContext)?.disconnect))
        }
        group.get("info/**") { [self] request, context in
            Response(await infoAnswer(
                path: ThumbnailServer.imagePath(request.uri.path, mount: mount + "/info"), ifNoneMatch: request.headers[.ifNoneMatch],
                logger: context.logger, disconnect: (context as? ServerRequestContext)?.disconnect))
        }
        group.get("**") { [self] request, context in
            await respond(
                to: request, path: ThumbnailServer.imagePath(request.uri.path, mount: mount), logger: context.logger,
                disconnect: (context as? ServerRequestContext)?.disconnect)
        }
    }

    /// Runs until SIGTERM or SIGINT: then stops accepting, lets the requests in flight finish (up
    /// to `shutdownTimeout`), writes the disk cache's staged entries, and returns. `services` run
    /// in the same group (a trace exporter, say) and are shut down after the server, so they
    /// still see the last requests' work.
    public func run(
        shutdownTimeout: Duration = .seconds(ServerConfiguration.Defaults.shutdownTimeoutSeconds), alongside services: [any Service] = [],
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        // A group shuts its services down in reverse order: the server first.
        var all = services
        all.append(application(onRunning: onRunning))
        var groupConfiguration = ServiceGroupConfiguration(services: all, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = shutdownTimeout
        try await ServiceGroup(configuration: groupConfiguration).run()
        await pipeline.flushDiskCache()
    }
}
