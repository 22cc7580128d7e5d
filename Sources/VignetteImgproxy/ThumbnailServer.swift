#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteHTTP
import VignetteRedis
import VignetteResponses
import VignetteSupport

/// An imgproxy-compatible thumbnail server on Vignette's pipeline: image URLs in imgproxy's
/// format, `/health`, `/ready` and Prometheus text at `/metrics`. This module holds what it does
/// with no web framework in it; VignetteServer runs it on Hummingbird 2 (`application()`,
/// `run()`, `addRoutes(to:prefix:)`) and VignetteVapor mounts it in a Vapor application.
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
    package let admission: Admission
    package let underWay = ResultsUnderWay()
    package let sources: SourceResolver
    package let urls: ImageURLReader
    package let logger: Logger
    /// The configured watermark, decoded once.
    package let watermark: ImageRecipe.WatermarkImage?

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
}
