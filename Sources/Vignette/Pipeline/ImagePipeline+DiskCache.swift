#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImagePipeline {
    /// An encoded processed image from the disk cache, decoded on a decoding thread: no original
    /// bytes, no processing. Concurrent hits for one key share the decode.
    func processedImageFromDisk(for request: ImageRequest, task: ImageTask?) async throws -> ImageContainer? {
        let options = request.options
        guard let dataCache = configuration.dataCache, request.hasProcessing,
            configuration.dataCachePolicy.storesEncodedImage(hasProcessors: true),
            !options.contains(.disableDiskCacheReads), !options.contains(.reloadIgnoringCachedData)
        else { return nil }
        let diskKey = DiskKeys.processed(request)
        guard let data = dataCache.data(for: diskKey) else { return nil }
        let key = ImageKey(imageID: "\u{0}disk|" + diskKey, thumbnail: nil, processors: [])
        let limits = configuration.decodingLimits
        return try await subscribe(to: {
            self.node(in: \.images, key: key, priority: request.priority) { [self] work in
                try await work.run(on: decoding) { try ImagePipeline.decode(data, thumbnail: nil, limits: limits) }
            }
        }, priority: request.priority, task: task)
    }

    /// Encodes a processed image on an encoding thread and hands it to the disk cache, when the
    /// policy stores processed images.
    func storeProcessedImageOnDisk(_ container: ImageContainer, for request: ImageRequest) async throws {
        guard let dataCache = configuration.dataCache, request.hasProcessing,
            configuration.dataCachePolicy.storesEncodedImage(hasProcessors: true),
            !request.options.contains(.disableDiskCacheWrites)
        else { return }
        let encode = configuration.processedImageEncoding
        let image = container.image
        let key = DiskKeys.processed(request)
        let limits = configuration.decodingLimits
        let work = SharedWork<Data>(priority: .low) { }
        work.start { work in
            try await work.run(on: self.encoding) { try ImageEncoder.encode(image, as: encode(image), limits: limits) }
        }
        let encoded = try await work.value(id: work.makeSubscriberID(), priority: .low)
        dataCache.storeData(encoded, for: key)
    }
}

extension ImagePipeline {
    /// The key of the metadata (validators, expiry) kept beside the original bytes under `key`.
    static func metadataKey(for key: String) -> String { key + "\u{0}metadata" }

    func storedMetadata(for key: String, in dataCache: DataCache) -> ResponseMetadata? {
        guard let data = dataCache.data(for: ImagePipeline.metadataKey(for: key)) else { return nil }
        return try? JSONDecoder().decode(ResponseMetadata.self, from: data)
    }

    /// Keeps `metadata` beside the bytes under `key`, or removes stale metadata when there is none.
    func storeMetadata(_ metadata: ResponseMetadata?, for key: String, in dataCache: DataCache) {
        let metadataKey = ImagePipeline.metadataKey(for: key)
        guard let metadata, let encoded = try? JSONEncoder().encode(metadata) else {
            if dataCache.containsData(for: metadataKey) { dataCache.removeData(for: metadataKey) }
            return
        }
        dataCache.storeData(encoded, for: metadataKey)
    }
}
