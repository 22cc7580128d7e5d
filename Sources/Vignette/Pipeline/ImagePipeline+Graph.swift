#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Tracing

extension ImagePipeline {
    /// The shared work that loads `request`'s bytes: disk cache of originals, then the shared
    /// cache when it stores originals (either revalidated with the loader when they have expired
    /// and carry validators), else the data loader, storing the
    /// bytes and their metadata when the policy says so. The bytes so far go to subscribers that
    /// asked for previews. A new node's spans go under `trace`.
    func loadWork(for request: ImageRequest, trace: PipelineTrace?) -> SharedWork<Data> {
        let key = DiskKeys.original(request)
        return node(in: \.loads, key: GraphKey(key, request), priority: request.priority, trace: trace, kind: "load") { [self] work in
            let options = request.options
            let dataCache = configuration.dataCache
            let readsDisk = !options.contains(.disableDiskCacheReads) && !options.contains(.reloadIgnoringCachedData)
            var expired: CachedData?
            // Blocking I/O and JSON decoding: on the disk stage, off Swift's cooperative pool; with
            // no disk cache, no trip there (a thread hand-over each way for nothing).
            var stored = readsDisk && dataCache != nil
                ? try await work.run(on: disk, span: "vignette.cache.disk") { span -> (Data, ResponseMetadata?)? in
                    let entry = dataCache?.entry(for: key)
                    span?.setLookup(hit: entry != nil, content: "original")
                    return entry.map { ($0.data, ImagePipeline.responseMetadata(in: $0)) }
                } : nil
            let sharedCache = configuration.sharedCacheStoresOriginalData ? configuration.sharedCache : nil
            if stored == nil, readsDisk, let sharedCache {
                // The shared tier: its entry fills the local disk cache as a download would.
                stored = try await work.run(on: shared, span: "vignette.cache.shared") { span -> (Data, ResponseMetadata?)? in
                    let entry = sharedCache.entry(for: key)
                    span?.setSharedLookup(hit: entry != nil, content: "original", layer: sharedCache.layerName)
                    guard let entry else { return nil }
                    if let dataCache, !options.contains(.disableDiskCacheWrites) {
                        dataCache.storeData(entry.data, metadata: entry.metadata, for: key)
                    }
                    return (entry.data, ImagePipeline.responseMetadata(in: entry))
                }
                if stored != nil { metrics.sharedHits.increment() }
            }
            if let (cached, metadata) = stored {
                if let metadata, metadata.needsRevalidation(), !options.contains(.returnCacheDataDontLoad) {
                    expired = CachedData(data: cached, metadata: metadata)
                } else {
                    work.reportProgress(completed: Int64(cached.count), total: Int64(cached.count))
                    return cached
                }
            }
            if options.contains(.returnCacheDataDontLoad) { throw ImagePipelineError.dataMissingInCache }
            let loader = configuration.dataLoader
            let context = DataLoadingContext(cached: expired, received: { data, total in
                work.reportProgress(completed: Int64(data.count), total: total)
                work.publishPreview(data)
            }, progress: { completed, total in
                work.reportProgress(completed: completed, total: total)
            })
            let loaded: LoadedData
            metrics.sourceFetches.increment()
            do {
                loaded = try await work.run(on: loading, span: "vignette.fetch") { span in
                    guard let span else { return try await loader.loadData(for: request, context: context) }
                    // The loader runs under the fetch's span: an instrumented HTTP client's spans go there.
                    let loaded = try await ServiceContext.withValue(span.context) { try await loader.loadData(for: request, context: context) }
                    span.setFetched(loaded)
                    return loaded
                }
                metrics.bytesLoaded.increment(by: loaded.data.count)
            } catch let error as CancellationError {
                throw error
            } catch {
                throw ImagePipelineError.dataLoadingFailed(error)
            }
            if let dataCache, !options.contains(.disableDiskCacheWrites) {
                // The metadata is stored in the bytes' own entry: they are kept and dropped together.
                if !loaded.mayBeStored {
                    if dataCache.containsData(for: key) { dataCache.removeData(for: key) }
                } else if loaded.isNotModified || expired != nil
                    || configuration.dataCachePolicy.storesOriginalData(hasProcessing: request.hasProcessing)
                {
                    dataCache.storeData(loaded.data, metadata: ImagePipeline.encoded(loaded.metadata), for: key)
                }
            }
            if let sharedCache, loaded.mayBeStored, !options.contains(.disableDiskCacheWrites) {
                sharedCache.store(DataCache.Entry(data: loaded.data, metadata: ImagePipeline.encoded(loaded.metadata)), for: key)
            }
            return loaded.data
        }
    }

    /// The shared work that makes the image of `request` with its first `processorCount`
    /// processors applied: decode for 0, else the previous node's image through one processor.
    /// `loaded`: the source's bytes when the caller has them already (so a pipe or a download is
    /// not read twice); else the decode takes them from `loadWork`. A new node's spans go under `trace`.
    func imageWork(
        for request: ImageRequest, processorCount: Int, loaded: Data? = nil, trace: PipelineTrace?
    ) -> SharedWork<ImageContainer> {
        let key = GraphKey(ImageKey(request).prefix(processorCount), request)
        let kind = processorCount == 0 ? "decode" : "process"
        return node(in: \.images, key: key, priority: request.priority, trace: trace, kind: kind) { [self] work in
            if processorCount == 0 {
                var previews: PreviewDecoding?
                var onPreview: (@Sendable (Data) -> Void)?
                if configuration.isProgressiveDecodingEnabled {
                    let decoding = PreviewDecoding(pipeline: self, work: work, thumbnail: request.thumbnail)
                    previews = decoding
                    onPreview = { prefix in decoding.offer(prefix) }
                }
                let data = if let loaded { loaded } else {
                    try await work.value(of: loadWork(for: request, trace: work.trace), onProgress: { completed, total in
                        work.reportProgress(completed: completed, total: total)
                    }, onPreview: onPreview)
                }
                previews?.dataComplete()
                let thumbnail: ThumbnailOptions? =
                    if let given = request.thumbnail { try await keepingFaces(given, request: request, data: data, work: work) } else { nil }
                let picture = request.picture
                let limits = request.limits(within: configuration.decodingLimits)
                return try await work.run(on: decoding, span: "vignette.decode") { [self] cancellation, span in
                    metrics.decodes.increment()
                    do {
                        return try ImagePipeline.decode(
                            data, thumbnail: thumbnail, picture: picture, limits: limits, cancellation: cancellation, span: span,
                            warnings: warnings(for: request))
                    } catch let error as ImagingError where error.kind == .cancelled {
                        graph.withLock { $0.decodesStopped += 1 }
                        metrics.decodesStopped.increment()
                        throw CancellationError()
                    }
                }
            }
            let processor = request.processors[processorCount - 1]
            var onPreview: (@Sendable (ImageContainer) -> Void)?
            if configuration.isProgressiveDecodingEnabled {
                let previews = PreviewProcessing(pipeline: self, work: work, processor: processor)
                onPreview = { preview in previews.offer(preview) }
            }
            let input = try await work.value(
                of: imageWork(for: request, processorCount: processorCount - 1, loaded: loaded, trace: work.trace), onPreview: onPreview)
            return try await work.run(on: processing, span: "vignette.process") { [self] span in
                span?.attributes["vignette.processor"] = processor.identifier
                do {
                    let placed = try keepingFaces(processor, input: input.image)
                    return ImageContainer(image: try placed.process(input.image).materialized())
                } catch {
                    throw ImagePipelineError.processingFailed(processor: processor.identifier, error)
                }
            }
        }
    }

    /// Finds the node for `key` or makes and starts one (a fresh one every time when coalescing is
    /// off). A new node records its spans under `trace`; joining a node already under way is a
    /// `vignette.coalesced` span there, naming the work joined (`kind`) and linked to its request.
    func node<Key: Hashable & Sendable, Value: Sendable>(
        in path: WritableKeyPath<Graph, [Key: SharedWork<Value>]>, key: Key, priority: ImageRequest.Priority,
        trace: PipelineTrace?, kind: String, body: @escaping @Sendable (SharedWork<Value>) async throws -> Value
    ) -> SharedWork<Value> {
        let coalescing = configuration.isCoalescingEnabled
        let table = GraphTable(path: path)
        let (work, isNew) = graph.withLock { graph -> (SharedWork<Value>, Bool) in
            if coalescing, let existing = graph[keyPath: path][key], !existing.isCancelled { return (existing, false) }
            let box = WeakWorkBox<Value>()
            let work = SharedWork<Value>(priority: priority, trace: trace) { [weak self] in
                self?.graph.withLock { graph in
                    if let current = graph[keyPath: table.path][key], current === box.work {
                        graph[keyPath: table.path][key] = nil
                    }
                }
            }
            box.work = work
            if coalescing { graph[keyPath: path][key] = work }
            return (work, true)
        }
        if isNew {
            work.start(body)
        } else if let trace {
            work.join(from: trace, kind: kind)
        }
        return work
    }

    /// Decodes on a decoding thread: a thumbnail when asked, else the whole image (its `picture`), upright.
    /// With `cancellation`, libvips stops at its next tile once the work is abandoned. `span`
    /// receives the decode's attributes.
    static func decode(
        _ data: Data, thumbnail: ThumbnailOptions?, picture: SourcePicture = .first, limits: DecodingLimits,
        cancellation: ImagingCancellation? = nil,
        span: (any Span)? = nil, warnings: DecodeWarnings? = nil
    ) throws -> ImageContainer {
        if let thumbnail {
            let made = try Thumbnailer(options: thumbnail, limits: limits).thumbnail(data, cancellation: cancellation)
            span?.setDecoded(source: made.source, bytes: data.count, image: made.image, route: made.route)
            warnings?.ignoredProfile(made.source.ignoredProfile)
            return ImageContainer(image: made.image)
        }
        var decoder = ImageDecoder(limits: limits)
        decoder.picture = picture
        let decoded = try decoder.decode(data, cancellation: cancellation)
        warnings?.ignoredProfile(decoded.ignoredProfile)
        let image = decoded.orientation == 1 ? decoded : try decoded.autoOriented().materialized()
        if let span {
            // The source's format and stored size: a header read, only for a traced decode.
            span.setDecoded(source: try? ImageDecoder(limits: .unlimited).probe(data), bytes: data.count, image: image, route: nil)
        }
        return ImageContainer(image: image)
    }
}

/// Which dictionary of the graph a node lives in. `@unchecked Sendable`: key paths to stored
/// properties are immutable values.
struct GraphTable<Key: Hashable, Value: Sendable>: @unchecked Sendable {
    let path: WritableKeyPath<ImagePipeline.Graph, [Key: SharedWork<Value>]>
}

/// Lets a node's end-of-work callback recognise its own node in the graph.
final class WeakWorkBox<Value: Sendable>: @unchecked Sendable {
    // Set once, right after the node is made and before it starts; read only afterwards.
    weak var work: SharedWork<Value>?
}
