#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteHTTP
import VignetteImgproxy
import VignetteRedis
import VignetteSupport

/// An imgproxy-compatible thumbnail server on Vignette's pipeline: image URLs in imgproxy's
/// format, `/health`, `/ready` and Prometheus text at `/metrics`. This module holds what it does
/// with no web framework in it; VignetteHummingbird runs it on Hummingbird 2 (`application()`,
/// `run()`, `addRoutes(to:prefix:)`) and VignetteVapor mounts it in a Vapor application. Every
/// image is answered through its `responder`, the one answer path a route of a user's own takes
/// too.
///
/// Every image request goes through one `ImagePipeline` (equal concurrent requests share one
/// source fetch, one decode and one encode; results are cached in memory as encoded bytes, on
/// disk when a cache folder is configured, and on Redis, shared between instances, when one is).
/// Results in the memory cache are answered at once, and a request for a result the pipeline is
/// making already joins that work (the pipeline says which: `hasEncodedImageInMemory(for:as:)`,
/// `isEncodedImageUnderWay(for:as:)`); other requests go through an `Admission`: at most
/// `maxConcurrentRequests` with work under way, and a queue of those expected to get a slot within
/// `maxQueueWait`; a request that would not be served in time is answered 503 at once.
public final class ThumbnailServer: Sendable {
    /// What it was made with.
    public let configuration: ServerConfiguration
    /// The pipeline every image request goes through.
    public let pipeline: ImagePipeline
    /// The metrics served at `/metrics`.
    package let metrics: ServerMetrics
    /// The one answer path every image request takes, with the server's caching ages and watermark.
    public let responder: ImageResponder
    package let admission: Admission
    package let sources: SourceResolver
    package let urls: ImageURLReader
    package let logger: Logger

    /// A server for `configuration`, logging to `logger`.
    /// - Throws: `ImagingError` when the cache folder cannot be created, the local root is not a
    ///   folder, the signing key or salt is not hex, or the face model does not load.
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "vignette.server")) throws {
        urls = try ImageURLReader(
            signatureKey: configuration.signatureKey, signatureSalt: configuration.signatureSalt, signatureSize: configuration.signatureSize,
            trustedSignatures: configuration.trustedSignatures, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
            limits: configuration.decodingLimits)
        if let root = configuration.localRoot, LocalSourceResolver(root: root) == nil {
            throw ImagingError(.invalidArgument, "the local root \(root) is not a folder")
        }
        self.configuration = configuration
        self.logger = logger
        let watermark = try configuration.watermarkPath.map { path throws(ImagingError) in
            try ImageRecipe.WatermarkImage(data: InputFile.read(path, limits: configuration.decodingLimits), limits: configuration.decodingLimits)
        }
        let metrics = ServerMetrics()
        self.metrics = metrics
        admission = Admission(
            slots: configuration.maxConcurrentRequests, maxQueueWait: configuration.queueWaitTarget,
            timeout: configuration.requestTimeout, maxWaiting: configuration.waitingLimit, onRefusal: { metrics.shed() })
        sources = SourceResolver(configuration: configuration)
        // No redirects: each hop would need its own address check (server-side request forgery).
        var loaderConfiguration = HTTPDataLoader.Configuration(maximumRedirects: 0, s3: configuration.s3)
        if let timeout = configuration.downloadTimeout {
            loaderConfiguration.requestTimeout = timeout
            loaderConfiguration.readTimeout = min(loaderConfiguration.readTimeout, timeout)
        }
        if let agent = configuration.userAgent { loaderConfiguration.userAgent = agent }
        var pipelineConfiguration = ImagePipeline.Configuration(
            dataLoader: HTTPDataLoader(limits: configuration.decodingLimits, configuration: loaderConfiguration), imageCache: nil,
            dataCache: try configuration.cacheFolder.map { try DataCache(path: $0, sizeLimit: configuration.cacheSizeLimit) },
            dataCachePolicy: .storeEncodedImages, decodingLimits: configuration.decodingLimits)
        pipelineConfiguration.logger = logger
        pipelineConfiguration.metricsFactory = metrics.metricsFactory
        pipelineConfiguration.faceDetector = try configuration.faceModelPath.map { path throws(ImagingError) in try FaceDetector(modelPath: path) }
        if let limit = configuration.memoryCacheSizeLimit {
            pipelineConfiguration.encodedImageCache = limit > 0 ? EncodedImageCache(costLimit: limit) : nil
        }
        if let redis = configuration.redis {
            // Tiers: memory → disk → Redis → source; Redis' metrics go to /metrics too.
            pipelineConfiguration.sharedCache = RedisDataCache(configuration: redis, logger: logger, metricsFactory: metrics.metricsFactory)
        }
        pipeline = ImagePipeline(configuration: pipelineConfiguration)
        responder = ImageResponder(
            pipeline: pipeline, maxAge: configuration.cacheMaxAge, failureMaxAge: configuration.errorCacheMaxAge, watermark: watermark)
    }
}
