/// The memory cache of final images: a cost-limited LRU (`LRUCache`) whose cost is what each
/// image keeps alive (`CacheEntryCost.image`: pixels, metadata, header, key and bookkeeping). Its default size is `MemoryBudget.defaultImageCacheCostLimit()`: a share of the
/// memory this process may really use (the cgroup limit when there is one), not the host's RAM.
public final class ImageCache: Sendable {
    let storage: LRUCache<ImageCacheKey, ImageContainer>

    /// A cache of at most `costLimit` bytes and `countLimit` images; entries older than `ttl`
    /// (nil: no age limit) are dropped; an image costing more than `entryCostLimit` of the limit is
    /// not kept.
    public init(costLimit: Int = MemoryBudget.defaultImageCacheCostLimit(), countLimit: Int = .max,
                ttl: Duration? = nil, entryCostLimit: Double = 0.1) {
        storage = LRUCache(costLimit: costLimit, countLimit: countLimit, ttl: ttl, entryCostLimit: entryCostLimit)
    }

    /// The image stored under `key` (a hit refreshes its place in the LRU order); setting nil removes it.
    public subscript(key: ImageCacheKey) -> ImageContainer? {
        get { storage.value(forKey: key) }
        set {
            if let newValue {
                storage.set(newValue, forKey: key, cost: CacheEntryCost.image(newValue.image, key: key))
            } else {
                _ = storage.removeValue(forKey: key)
            }
        }
    }

    /// The image stored for `request`'s key (`ImageCacheKey(request:)`).
    public subscript(request: ImageRequest) -> ImageContainer? {
        get { self[ImageCacheKey(request: request)] }
        set { self[ImageCacheKey(request: request)] = newValue }
    }

    /// Empties the cache.
    public func removeAll() { storage.removeAll() }
    /// Drops least recently used images until they cost at most `cost` bytes.
    public func trim(toCost cost: Int) { storage.trim(toCost: cost) }
    /// Bytes held (`CacheEntryCost.image` of each entry).
    public var totalCost: Int { storage.totalCost }
    /// Images held.
    public var totalCount: Int { storage.totalCount }
    /// The most bytes held (`totalCost` is kept at most this).
    public var costLimit: Int { storage.costLimit }
    /// Bytes, entries, evictions and the cost limit, read at once (`LRUCache.statistics`).
    public var statistics: CacheStatistics { storage.statistics }
}
