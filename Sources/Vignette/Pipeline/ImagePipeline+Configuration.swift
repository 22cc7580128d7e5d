#if canImport(Glibc)
import Glibc
#endif
import CoreMetrics
import Logging
import Tracing

extension ImagePipeline {
    /// What a pipeline is made of and how much it does at once.
    public struct Configuration: Sendable {
        /// Loads the bytes of requests (files and data closures by default; VignetteHTTP adds URLs).
        public var dataLoader: any DataLoading
        /// The memory cache of final images; nil for none.
        public var imageCache: ImageCache?
        /// The memory cache of encoded results (`encodedImage(for:as:)`); nil for none.
        public var encodedImageCache: EncodedImageCache?
        /// The disk cache; nil for none.
        public var dataCache: DataCache?
        /// What goes to the disk cache.
        public var dataCachePolicy: DataCachePolicy
        /// A cache shared with other processes (e.g. `RedisDataCache` from VignetteRedis), asked
        /// after the local disk cache and before the source; nil for none (the default).
        public var sharedCache: (any SharedDataCaching)?
        /// Whether original bytes (with their HTTP metadata) go to the shared cache as well as
        /// encoded results (off by default: results are what other instances can reuse at once).
        public var sharedCacheStoresOriginalData: Bool
        /// Shared-cache lookups at once, on threads of the pipeline's own (default 4): a lookup
        /// may block for the cache's timeout.
        public var sharedCacheConcurrency: Int
        /// How processed images are encoded for the disk cache: by default JPEG (quality 85) for
        /// opaque images and PNG for images with alpha.
        public var processedImageEncoding: @Sendable (Image) -> EncodingFormat
        /// Equal work is done once for concurrent requests (on by default).
        public var isCoalescingEnabled: Bool
        /// Loads at once (default 6): file reads and downloads.
        public var loadingConcurrency: Int
        /// Decodes at once, on the pipeline's decoding threads (default: the CPU budget, `CPUBudget`).
        public var decodingConcurrency: Int
        /// Processor steps at once, on the processing threads (default: the CPU budget).
        public var processingConcurrency: Int
        /// Encodes at once, on the encoding threads (default: half the CPU budget, at least 1).
        public var encodingConcurrency: Int
        /// Limits applied when decoding.
        public var decodingLimits: DecodingLimits
        /// Where the pipeline logs (swift-log): failures at debug level, disk-cache write failures
        /// as warnings, invalidation as info. `Logger(label: "vignette.pipeline")` by default; pass
        /// your service's logger (with its metadata, e.g. a request id) to see them in your logs.
        public var logger: Logger
        /// Where the pipeline's metrics go (see `PipelineMetrics` for their names): nil for the
        /// factory the application bootstrapped with `MetricsSystem.bootstrap`, which is no-op
        /// (and free) when it bootstrapped none.
        public var metricsFactory: (any MetricsFactory)?
        /// Where the pipeline's spans go (swift-distributed-tracing): a span for each call, under
        /// the caller's task-local `ServiceContext`, with a child for each stage the request passes
        /// (cache lookups, fetch, queue waits, decode, processing, encode; see the Vignette
        /// documentation for their names and attributes). nil for the tracer the application
        /// bootstrapped with `InstrumentationSystem.bootstrap` by the time the pipeline is made;
        /// when that is the no-op tracer (none was bootstrapped), the pipeline makes no span at all.
        public var tracer: (any Tracer)?
        /// Decode previews from partial data while it arrives (progressive JPEG, WebP) and deliver
        /// them as `ImageTask` preview events (off by default).
        public var isProgressiveDecodingEnabled: Bool
        /// At most one preview per this interval for a download (0.5 s by default).
        public var progressiveDecodingInterval: Duration
        /// Previews go to the memory cache until the final image replaces them (on by default);
        /// `image(for:)` never returns a preview as final.
        public var isStoringPreviewsInMemoryCache: Bool
        /// Finds the faces a `Gravity.faces` crop keeps (`ImagePipeline.faces(for:)`); nil by
        /// default, and then such crops are `attention` crops.
        public var faceDetector: FaceDetector?

        /// A configuration with `dataLoader`, the caches and policy given, coalescing on or off, and
        /// `decodingLimits` for every decode; the rest have the defaults their properties describe.
        public init(
            dataLoader: any DataLoading = FileDataLoader(), imageCache: ImageCache? = ImageCache(),
            dataCache: DataCache? = nil, dataCachePolicy: DataCachePolicy = .automatic,
            isCoalescingEnabled: Bool = true, decodingLimits: DecodingLimits = .untrusted
        ) {
            let cores = max(1, Configuration.activeProcessorCount)
            self.dataLoader = dataLoader
            self.imageCache = imageCache
            encodedImageCache = EncodedImageCache()
            self.dataCache = dataCache
            self.dataCachePolicy = dataCachePolicy
            sharedCache = nil
            sharedCacheStoresOriginalData = false
            sharedCacheConcurrency = 4
            processedImageEncoding = { image in
                image.hasAlpha ? .png(PNGOptions()) : .jpeg(JPEGOptions(quality: 85))
            }
            self.isCoalescingEnabled = isCoalescingEnabled
            loadingConcurrency = 6
            decodingConcurrency = cores
            processingConcurrency = cores
            encodingConcurrency = max(1, cores / 2)
            self.decodingLimits = decodingLimits
            logger = Logger(label: "vignette.pipeline")
            tracer = nil
            isProgressiveDecodingEnabled = false
            progressiveDecodingInterval = .milliseconds(500)
            isStoringPreviewsInMemoryCache = true
        }

        /// The CPUs this process may use: online CPUs, affinity and the cgroup quota (`CPUBudget`).
        static var activeProcessorCount: Int { CPUBudget.availableCores() }
    }
}
