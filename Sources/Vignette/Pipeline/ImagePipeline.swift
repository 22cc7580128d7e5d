#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Tracing
import VignetteSupport

/// Loads, decodes, processes and caches images; equal work is done once.
///
/// A request goes: memory cache → disk cache (an encoded processed image) → the task graph:
/// load data (disk cache of originals, then the `DataLoading`) → decode (or thumbnail) → each
/// processor in turn. Every node of the graph is shared by the requests that need it
/// (`[resize, blur]` reuses a concurrent `[resize]`), runs at its most urgent subscriber's
/// priority, and is cancelled when its last subscriber leaves. CPU work runs on the pipeline's own
/// threads (`ThreadStage`), I/O on its loading stage; each stage has a concurrency limit and a
/// priority-ordered queue. Only final images enter the memory cache.
public final class ImagePipeline: Sendable {
    /// What the pipeline was made with.
    public let configuration: Configuration

    let loading: TaskStage
    let decoding: ThreadStage
    let processing: ThreadStage
    let encoding: ThreadStage
    /// Blocking disk-cache reads (and the JSON of their metadata), off Swift's cooperative pool.
    let disk: ThreadStage
    /// Blocking shared-cache lookups (`Configuration.sharedCache`), off Swift's cooperative pool.
    let shared: ThreadStage
    let metrics: PipelineMetrics
    /// Faces found in sources (`faces(for:)`), by source key: a few numbers each.
    let foundFaces = LRUCache<String, [Face]>(costLimit: 4096, countLimit: 4096)
    /// The tracer spans go to; nil when it is the no-op tracer, so untraced requests skip all tracing.
    let tracer: (any Tracer)?
    var logger: Logger { configuration.logger }

    struct Graph: Sendable {
        var loads: [GraphKey<String>: SharedWork<Data>] = [:]
        var images: [GraphKey<ImageKey>: SharedWork<ImageContainer>] = [:]
        var encodes: [GraphKey<EncodedImageKey>: SharedWork<EncodeResult>] = [:]
        var diskImages: [GraphKey<ImageKey>: SharedWork<ImageContainer?>] = [:]
        /// `/info` answers (`info(for:options:)`), by result key.
        var infos: [GraphKey<String>: SharedWork<String>] = [:]
        /// Faces in sources (`faces(for:)`), by source key.
        var faces: [GraphKey<String>: SharedWork<[Face]>] = [:]
        var tasks: [ObjectIdentifier: ImageTask] = [:]
        /// Disk keys of processed images being encoded for the disk cache.
        var storing: Set<String> = []
        /// Decodes stopped part-way because nobody waited for them any more.
        var decodesStopped = 0
        var isInvalidated = false
    }

    let graph = Locked(Graph())

    /// A pipeline with its own stages (threads for decoding, processing, encoding and disk reads,
    /// sized by `configuration`) and caches.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let metrics = PipelineMetrics(factory: configuration.metricsFactory, sharedLayer: configuration.sharedCache?.layerName ?? "shared")
        self.metrics = metrics
        let tracer = configuration.tracer ?? InstrumentationSystem.tracer
        self.tracer = tracer is NoOpTracer ? nil : tracer
        loading = TaskStage(name: "loading", maxConcurrent: configuration.loadingConcurrency, metrics: metrics.stage("loading"))
        decoding = ThreadStage(name: "decoding", maxConcurrent: configuration.decodingConcurrency, metrics: metrics.stage("decoding"))
        processing = ThreadStage(
            name: "processing", maxConcurrent: configuration.processingConcurrency, metrics: metrics.stage("processing"))
        encoding = ThreadStage(name: "encoding", maxConcurrent: configuration.encodingConcurrency, metrics: metrics.stage("encoding"))
        disk = ThreadStage(name: "disk", maxConcurrent: 2, metrics: metrics.stage("disk"))
        shared = ThreadStage(name: "shared", maxConcurrent: configuration.sharedCacheConcurrency, metrics: metrics.stage("shared"))
    }

    deinit {
        decoding.shutdown()
        processing.shutdown()
        encoding.shutdown()
        disk.shutdown()
        shared.shutdown()
        loading.shutdown()
    }

    // MARK: - Public API

    /// The image for `request`: from the memory cache without any task when it is there.
    public func image(for request: ImageRequest) async throws(ImagePipelineError) -> Image {
        // Traced, the lookup goes through `response(for:task:)`, which records it.
        if tracer == nil, let cached = cachedImage(for: request), !cached.isPreview {
            metrics.imageRequests.increment()
            metrics.memoryHits.increment()
            return cached.image
        }
        return try await response(for: request, task: nil).image
    }

    /// The response for `request`, with where it came from.
    public func response(for request: ImageRequest) async throws(ImagePipelineError) -> ImageResponse {
        try await response(for: request, task: nil)
    }

    /// The original bytes of `request`'s source (disk cache of originals, then the data loader).
    public func data(for request: ImageRequest) async throws(ImagePipelineError) -> Data {
        metrics.dataRequests.increment()
        return try await traced("vignette.data") { trace throws(ImagePipelineError) in
            do {
                try checkValid()
                return try await subscribe(to: { self.loadWork(for: request, trace: trace) }, priority: request.priority, task: nil)
            } catch {
                let failure = ImagePipelineError.wrapping(error)
                metrics.failed(failure)
                throw failure
            }
        }
    }

    /// A task for `request` that can be cancelled, re-prioritised and observed.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request)
        let registered = graph.withLock { graph -> Bool in
            guard !graph.isInvalidated else { return false }
            graph.tasks[ObjectIdentifier(task)] = task
            return true
        }
        guard registered else {
            task.start { () async throws(ImagePipelineError) -> ImageResponse in throw .pipelineInvalidated }
            return task
        }
        task.start { [self] () async throws(ImagePipelineError) -> ImageResponse in
            defer { _ = graph.withLock { $0.tasks.removeValue(forKey: ObjectIdentifier(task)) } }
            return try await response(for: request, task: task)
        }
        return task
    }

    /// The memory-cached image for `request`, if any (no I/O, no task); it may be a preview
    /// (`isPreview`) while the final image is on its way.
    public func cachedImage(for request: ImageRequest) -> ImageContainer? {
        guard let cache = configuration.imageCache, request.readsMemoryCache else { return nil }
        return cache[ImageCacheKey(request: request)]
    }

    /// Cancels everything in flight; later requests fail with `.pipelineInvalidated`.
    public func invalidate() {
        let (tasks, loads, images, encodes, diskImages) = graph.withLock { graph in
            graph.isInvalidated = true
            defer {
                graph.tasks.removeAll()
                graph.loads.removeAll()
                graph.images.removeAll()
                graph.encodes.removeAll()
                graph.diskImages.removeAll()
                graph.infos.removeAll()
            }
            return (Array(graph.tasks.values), Array(graph.loads.values), Array(graph.images.values),
                    Array(graph.encodes.values), Array(graph.diskImages.values))
        }
        logger.info("pipeline invalidated", metadata: ["tasks": "\(tasks.count)", "work": "\(loads.count + images.count)"])
        for task in tasks { task.cancel() }
        for work in loads { work.abort(with: ImagePipelineError.pipelineInvalidated) }
        for work in images { work.abort(with: ImagePipelineError.pipelineInvalidated) }
        for work in encodes { work.abort(with: ImagePipelineError.pipelineInvalidated) }
        for work in diskImages { work.abort(with: ImagePipelineError.pipelineInvalidated) }
        loading.shutdown()
        decoding.shutdown()
        processing.shutdown()
        encoding.shutdown()
        disk.shutdown()
    }

    // MARK: - A request, from cache to graph

    func response(for request: ImageRequest, task: ImageTask?) async throws(ImagePipelineError) -> ImageResponse {
        metrics.imageRequests.increment()
        guard tracer != nil else { return try await response(for: request, task: task, trace: nil) }
        return try await traced("vignette.image") { trace throws(ImagePipelineError) in
            try await response(for: request, task: task, trace: trace)
        }
    }

    func response(for request: ImageRequest, task: ImageTask?, trace: PipelineTrace?) async throws(ImagePipelineError) -> ImageResponse {
        do {
            try checkValid()
            try check(request)
            let cached = cachedImage(for: request)
            if let trace, configuration.imageCache != nil, request.readsMemoryCache {
                let hit = !(cached?.isPreview ?? true)
                trace.mark("vignette.cache.memory") { $0["vignette.cache.hit"] = hit }
            }
            if let cached {
                if !cached.isPreview {
                    metrics.memoryHits.increment()
                    return ImageResponse(container: cached, request: request, cacheType: .memory)
                }
                task?.reportPreview(cached)
            }
            if let fromDisk = try await processedImageFromDisk(for: request, task: task, trace: trace) {
                metrics.diskHits.increment()
                storeInMemory(fromDisk, for: request)
                return ImageResponse(container: fromDisk, request: request, cacheType: .disk)
            }
            var onPreview: (@Sendable (ImageContainer) -> Void)?
            if let task, configuration.isProgressiveDecodingEnabled {
                onPreview = { [self] preview in deliverPreview(preview, for: request, to: task) }
            }
            let container = try await subscribe(
                to: { self.imageWork(for: request, processorCount: request.processors.count, trace: trace) },
                priority: task?.priority ?? request.priority, task: task, onPreview: onPreview)
            storeInMemory(container, for: request)
            storeProcessedImageOnDisk(container, for: request)
            return ImageResponse(container: container, request: request, cacheType: nil)
        } catch {
            let failure: ImagePipelineError = Task.isCancelled && !(error is ImagePipelineError) ? .cancelled : .wrapping(error)
            if case .cancelled = failure {} else {
                logger.debug("request failed", metadata: ["image": "\(request.effectiveImageID)", "error": "\(failure)"])
            }
            metrics.failed(failure)
            throw failure
        }
    }

    /// Runs `body` inside the span `name` of one call, under the caller's task-local context,
    /// handing it the trace its work records under; with no tracer, just runs `body`.
    func traced<Value>(
        _ name: String, _ body: (PipelineTrace?) async throws(ImagePipelineError) -> Value
    ) async throws(ImagePipelineError) -> Value {
        guard let tracer else { return try await body(nil) }
        let span = tracer.startSpan(name, context: ServiceContext.current ?? .topLevel)
        defer { span.end() }
        do {
            return try await body(PipelineTrace(tracer: tracer, context: span.context))
        } catch {
            span.record(error)
            throw error
        }
    }

    func checkValid() throws(ImagePipelineError) {
        if graph.withLock({ $0.isInvalidated }) { throw .pipelineInvalidated }
    }

    /// Refuses, before any work, a request that cannot be made: its thumbnail's values out of range.
    func check(_ request: ImageRequest) throws(ImagePipelineError) {
        do throws(ImagingError) {
            try request.thumbnail?.validate()
        } catch {
            throw .invalidRequest(error)
        }
    }

    /// Waits for the work `make` finds or creates. A node cancelled by others just before this
    /// caller subscribed is replaced by a fresh one.
    func subscribe<Value: Sendable>(
        to make: () -> SharedWork<Value>, priority: ImageRequest.Priority, task: ImageTask?,
        onPreview: (@Sendable (Value) -> Void)? = nil
    ) async throws -> Value {
        while true {
            try checkValid()
            let work = make()
            let id = work.makeSubscriberID()
            task?.attach { priority in work.setPriority(priority, for: id) }
            do {
                return try await work.value(id: id, priority: task?.priority ?? priority, onProgress: { completed, total in
                    task?.report(completed: completed, total: total)
                }, onPreview: onPreview)
            } catch is CancellationError where !Task.isCancelled && !(task?.isCancelled ?? false) {
                try checkValid()
                continue
            }
        }
    }

    /// A preview for `task`: an event, and the memory cache's entry until the final image comes.
    func deliverPreview(_ preview: ImageContainer, for request: ImageRequest, to task: ImageTask) {
        if configuration.isStoringPreviewsInMemoryCache, cachedImage(for: request)?.isPreview ?? true {
            storeInMemory(preview, for: request)
        }
        task.reportPreview(preview)
    }

    func storeInMemory(_ container: ImageContainer, for request: ImageRequest) {
        guard let cache = configuration.imageCache, !request.options.contains(.disableMemoryCacheWrites) else { return }
        cache[ImageCacheKey(request: request)] = container
    }
}
