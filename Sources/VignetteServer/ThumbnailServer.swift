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
import VignetteHTTP
import VignetteRedis
import VignetteSupport

/// An imgproxy-compatible thumbnail server on Vignette's pipeline (Hummingbird 2): image URLs in
/// imgproxy's format, `/health`, `/ready` and Prometheus text at `/metrics`.
///
/// Every image request goes through one `ImagePipeline` (equal concurrent requests share one
/// source fetch, one decode and one encode; results are cached in memory as encoded bytes, on
/// disk when a cache folder is configured, and on Redis, shared between instances, when one is).
/// Results in the memory cache are answered at once, and a request for a result being made in a
/// slot joins that work; other requests go through an `Admission`: at most
/// `maxConcurrentRequests` with work under way, and a queue of those expected to get a slot within
/// `maxQueueWait`; a request that would not be served in time is answered 503 at once.
public final class ThumbnailServer: Sendable {
    /// What it was made with.
    public let configuration: ServerConfiguration
    /// The pipeline every image request goes through.
    public let pipeline: ImagePipeline
    /// The metrics served at `/metrics`.
    public let metrics: ServerMetrics
    let admission: Admission
    let underWay = ResultsUnderWay()
    let sources: SourceResolver
    let urls: ImageURLReader
    let logger: Logger
    /// The configured watermark, decoded once.
    let watermark: ImageRecipe.WatermarkImage?

    /// A server for `configuration`, logging to `logger`.
    /// - Throws: `ImagingError` when the cache folder cannot be created, the local root is not a
    ///   folder, or the signing key or salt is not hex.
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "vignette.server")) throws {
        if ImageURLReader.hasBadKey(configuration) {
            throw ImagingError(.invalidArgument, "the signing key and salt must be hex, and the key not empty")
        }
        if let root = configuration.localRoot, LocalSourceResolver(root: root) == nil {
            throw ImagingError(.invalidArgument, "the local root \(root) is not a folder")
        }
        self.configuration = configuration
        self.logger = logger
        watermark = try configuration.watermarkPath.map { path throws(ImagingError) in
            try ImageRecipe.WatermarkImage(data: InputFile.read(path, limits: configuration.decodingLimits), limits: configuration.decodingLimits)
        }
        let metrics = ServerMetrics()
        self.metrics = metrics
        admission = Admission(
            slots: configuration.maxConcurrentRequests, maxQueueWait: configuration.queueWaitTarget,
            timeout: configuration.requestTimeout, maxWaiting: configuration.waitingLimit, onRefusal: { metrics.shed() })
        sources = SourceResolver(configuration: configuration)
        urls = ImageURLReader(configuration: configuration)
        // No redirects: each hop would need its own address check (server-side request forgery).
        let loaderConfiguration = HTTPDataLoader.Configuration(maximumRedirects: 0, s3: configuration.s3)
        var pipelineConfiguration = ImagePipeline.Configuration(
            dataLoader: HTTPDataLoader(limits: configuration.decodingLimits, configuration: loaderConfiguration), imageCache: nil,
            dataCache: try configuration.cacheFolder.map { try DataCache(path: $0, sizeLimit: configuration.cacheSizeLimit) },
            dataCachePolicy: .storeEncodedImages, decodingLimits: configuration.decodingLimits)
        pipelineConfiguration.logger = logger
        pipelineConfiguration.metricsFactory = metrics.metricsFactory
        if let limit = configuration.memoryCacheSizeLimit {
            pipelineConfiguration.encodedImageCache = limit > 0 ? EncodedImageCache(costLimit: limit) : nil
        }
        if let redis = configuration.redis {
            // Tiers: memory → disk → Redis → source; Redis' metrics go to /metrics too.
            pipelineConfiguration.sharedCache = RedisDataCache(configuration: redis, logger: logger, metricsFactory: metrics.metricsFactory)
        }
        pipeline = ImagePipeline(configuration: pipelineConfiguration)
    }

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
    /// application) under `prefix` (e.g. "images": `/images/health`, `/images/<imgproxy URL>`):
    /// embed the server in your own application with this server's pipeline and configuration.
    public func addRoutes<Methods: RouterMethods>(to router: Methods, prefix: String = "") {
        let trimmed = prefix.split(separator: "/").joined(separator: "/")
        let group = router.group(RouterPath(trimmed))
        let mount = trimmed.isEmpty ? "" : "/" + trimmed
        group.get("health") { _, _ in "ok\n" }
        group.get("ready") { [admission] _, _ -> Response in
            let ready = !admission.snapshot.refusesNow
            return ThumbnailServer.text(ready ? 200 : 503, ready ? "ready" : "overloaded")
        }
        group.get("metrics") { [metrics, admission] _, _ -> Response in
            metrics.record(admission.snapshot)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        group.get("placeholder/:kind/**") { [self] request, context in
            let path = request.uri.path
            let kindName = context.parameters.get("kind") ?? ""
            let marker = mount + "/placeholder/" + kindName
            let imagePath = path.hasPrefix(marker) ? String(path.dropFirst(marker.count)) : path
            return await placeholder(
                kind: PlaceholderKind(rawValue: kindName), path: imagePath, logger: context.logger,
                disconnect: (context as? ServerRequestContext)?.disconnect)
        }
        group.get("**") { [self] request, context in
            let path = request.uri.path
            // The imgproxy path is what follows the mount point (it is what the signature covers).
            let imagePath = mount.isEmpty || !path.hasPrefix(mount) ? path : String(path.dropFirst(mount.count))
            return await respond(
                to: request, path: imagePath, logger: context.logger, disconnect: (context as? ServerRequestContext)?.disconnect)
        }
    }

    /// Runs until SIGTERM or SIGINT: then stops accepting, lets the requests in flight finish (up
    /// to `shutdownTimeout`), writes the disk cache's staged entries, and returns. `services` run
    /// in the same group (a trace exporter, say) and are shut down after the server, so they
    /// still see the last requests' work.
    public func run(
        shutdownTimeout: Duration = .seconds(10), alongside services: [any Service] = [],
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

    /// A short text response (errors, health), never cached long (`ImageAnswer.text`).
    static func text(_ status: Int, _ body: String, maxAge: Int = 0) -> Response {
        Response(ImageAnswer.text(status, body, maxAge: maxAge))
    }
}
