#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImagePipeline {
    /// An encoded processed image from the disk cache: read on the disk stage (blocking I/O stays
    /// off Swift's cooperative pool), decoded on a decoding thread: no original bytes, no
    /// processing. Concurrent requests for one key share the read and the decode.
    func processedImageFromDisk(for request: ImageRequest, task: ImageTask?, trace: PipelineTrace?) async throws -> ImageContainer? {
        let options = request.options
        guard let dataCache = configuration.dataCache, request.hasProcessing,
            configuration.dataCachePolicy.storesEncodedImage(hasProcessing: true),
            !options.contains(.disableDiskCacheReads), !options.contains(.reloadIgnoringCachedData)
        else { return nil }
        let diskKey = DiskKeys.processed(request)
        let key = GraphKey(ImageKey(imageID: "\u{0}disk|" + diskKey, thumbnail: nil, processors: []), request)
        let limits = request.limits(within: configuration.decodingLimits)
        return try await subscribe(to: {
            self.node(in: \.diskImages, key: key, priority: request.priority, trace: trace, kind: "disk") { [self] work in
                let found = try await work.run(on: disk, span: "vignette.cache.disk") { span in
                    let data = dataCache.data(for: diskKey)
                    span?.setLookup(hit: data != nil, content: "processed")
                    return data
                }
                guard let data = found else { return nil }
                return try await work.run(on: decoding, span: "vignette.decode") { span in
                    try ImagePipeline.decode(data, thumbnail: nil, limits: limits, span: span)
                }
            }
        }, priority: request.priority, task: task)
    }

    /// Encodes a processed image on an encoding thread and hands it to the disk cache, when the
    /// policy stores processed images: once for all the requests that share the image (a key
    /// already being stored, or already on disk, is skipped), off the response path (the caller
    /// does not wait), and a failure is logged, never a failed request.
    func storeProcessedImageOnDisk(_ container: ImageContainer, for request: ImageRequest) {
        guard let dataCache = configuration.dataCache, request.hasProcessing,
            configuration.dataCachePolicy.storesEncodedImage(hasProcessing: true),
            !request.options.contains(.disableDiskCacheWrites)
        else { return }
        let key = DiskKeys.processed(request)
        guard graph.withLock({ $0.storing.insert(key).inserted }) else { return }
        let encode = configuration.processedImageEncoding
        let limits = request.limits(within: configuration.decodingLimits)
        let image = container.image
        let logger = logger
        let metrics = metrics
        _ = encoding.enqueue(priority: .low, onCancelledBeforeStart: { [weak self] in
            self?.graph.withLock { _ = $0.storing.remove(key) }
        }) { [weak self] in
            defer { self?.graph.withLock { _ = $0.storing.remove(key) } }
            guard !dataCache.containsData(for: key) else { return }
            metrics.encodes.increment()
            do {
                dataCache.storeData(try ImageEncoder.encode(image, as: encode(image), limits: limits), for: key)
            } catch {
                logger.warning("could not store a processed image on disk", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }
}

extension ImagePipeline {
    /// Waits until the processed images being encoded for the disk cache are stored, then until
    /// the disk cache has written everything it was given (`DataCache.flush()`) and the shared
    /// cache has made or dropped its writes (`SharedDataCaching.flush()`). For an orderly
    /// shutdown, and for tests.
    public func flushDiskCache() async {
        while graph.withLock({ !$0.storing.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(1))
        }
        if let dataCache = configuration.dataCache { await dataCache.flush() }
        if let sharedCache = configuration.sharedCache { await sharedCache.flush() }
    }

    /// The response metadata (validators, expiry) stored in an entry of original bytes.
    static func responseMetadata(in entry: DataCache.Entry) -> ResponseMetadata? {
        guard let metadata = entry.metadata else { return nil }
        return try? JSONDecoder().decode(ResponseMetadata.self, from: metadata)
    }

    /// `metadata` as stored in the entry of its bytes; nil for none.
    static func encoded(_ metadata: ResponseMetadata?) -> Data? {
        metadata.flatMap { try? JSONEncoder().encode($0) }
    }
}
