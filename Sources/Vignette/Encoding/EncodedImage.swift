#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encoded bytes the pipeline made (or found in a cache) for a request.
public struct EncodedImage: Sendable, Hashable {
    /// The file's bytes.
    public let data: Data
    /// The format they are in.
    public let format: ImageFormat
    /// The encoded image's width in pixels.
    public let width: Int
    /// The encoded image's height in pixels.
    public let height: Int
    /// What an autoquality or best-format search chose (nil without one, and for results read
    /// from the disk or shared cache, which keep bytes alone).
    public var choice: EncodingChoice?
    /// Why the source's embedded ICC profile was ignored when it was decoded
    /// (`ImageInfo.ignoredProfile`, libvips' `vips_icc_is_compatible_profile`): the pixels were
    /// read as if it had none. nil when it was used or there was none, and for results read from
    /// the disk or shared cache, which keep bytes alone.
    public var ignoredProfile: String?

    /// Encoded bytes with their format and size.
    public init(
        data: Data, format: ImageFormat, width: Int, height: Int, choice: EncodingChoice? = nil, ignoredProfile: String? = nil
    ) {
        self.data = data
        self.format = format
        self.width = width
        self.height = height
        self.choice = choice
        self.ignoredProfile = ignoredProfile
    }
}

/// Where an encoded result came from.
public struct EncodedResponse: Sendable {
    /// The bytes, their format and size.
    public let image: EncodedImage
    /// nil when it was made for this request (or shared with a concurrent one).
    public let cacheType: ImageResponse.CacheType?
}

/// The memory cache of encoded results: a byte-cost LRU (`LRUCache`), apart from the cache of
/// decoded images. A hit hands the stored bytes out with no decode and no encode.
public final class EncodedImageCache: Sendable {
    let storage: LRUCache<EncodedImageKey, EncodedImage>

    /// `costLimit` in bytes of what the entries keep alive (`CacheEntryCost.encoded`; default:
    /// `MemoryBudget.defaultEncodedCacheCostLimit()`, a twentieth of what the process may use, at
    /// most 256 MiB).
    public init(costLimit: Int = MemoryBudget.defaultEncodedCacheCostLimit(), countLimit: Int = .max,
                ttl: Duration? = nil, entryCostLimit: Double = 0.1) {
        storage = LRUCache(costLimit: costLimit, countLimit: countLimit, ttl: ttl, entryCostLimit: entryCostLimit)
    }

    /// The bytes stored for `request` encoded as `encoding` (a hit refreshes its place in the LRU order);
    /// setting nil removes them.
    public subscript(request: ImageRequest, encoding: OutputEncoding) -> EncodedImage? {
        get { storage.value(forKey: EncodedImageKey(request, encoding)) }
        set {
            let key = EncodedImageKey(request, encoding)
            if let newValue {
                // The stored copy lives in pages of its own (`PageBackedData`): entries replaced all
                // the time would otherwise fragment the heap.
                let kept = EncodedImage(
                    data: PageBackedData.copy(newValue.data), format: newValue.format, width: newValue.width, height: newValue.height,
                    choice: newValue.choice)
                storage.set(kept, forKey: key, cost: CacheEntryCost.encoded(newValue.data, key: key))
            } else {
                _ = storage.removeValue(forKey: key)
            }
        }
    }

    /// Empties the cache.
    public func removeAll() { storage.removeAll() }
    /// Bytes held: each entry's encoded bytes in whole pages, its key and its bookkeeping
    /// (`CacheEntryCost.encoded`).
    public var totalCost: Int { storage.totalCost }
    /// Entries held.
    public var totalCount: Int { storage.totalCount }
    /// The most bytes held (`totalCost` is kept at most this).
    public var costLimit: Int { storage.costLimit }
    /// Bytes, entries, evictions and the cost limit, read at once (`LRUCache.statistics`).
    public var statistics: CacheStatistics { storage.statistics }
}

/// An encoded result's key: the image's key and the encoding's id.
struct EncodedImageKey: Hashable, Sendable {
    let image: ImageKey
    let encoding: String

    init(_ request: ImageRequest, _ encoding: OutputEncoding) {
        image = ImageKey(request)
        self.encoding = encoding.id
    }
}
