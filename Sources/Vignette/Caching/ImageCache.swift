/// The memory cache of final images: a cost-limited LRU (`LRUCache`) whose cost is each image's
/// byte size. Its default size is `MemoryBudget.defaultImageCacheCostLimit()`: a share of the
/// memory this process may really use (the cgroup limit when there is one), not the host's RAM.
public final class ImageCache: Sendable {
    let storage: LRUCache<ImageCacheKey, ImageContainer>

    public init(costLimit: Int = MemoryBudget.defaultImageCacheCostLimit(), countLimit: Int = .max,
                ttl: Duration? = nil, entryCostLimit: Double = 0.1) {
        storage = LRUCache(costLimit: costLimit, countLimit: countLimit, ttl: ttl, entryCostLimit: entryCostLimit)
    }

    public subscript(key: ImageCacheKey) -> ImageContainer? {
        get { storage.value(forKey: key) }
        set {
            if let newValue {
                storage.set(newValue, forKey: key, cost: max(1, newValue.image.byteCount))
            } else {
                _ = storage.removeValue(forKey: key)
            }
        }
    }

    public subscript(request: ImageRequest) -> ImageContainer? {
        get { self[ImageCacheKey(request: request)] }
        set { self[ImageCacheKey(request: request)] = newValue }
    }

    public func removeAll() { storage.removeAll() }
    public func trim(toCost cost: Int) { storage.trim(toCost: cost) }
    public var totalCost: Int { storage.totalCost }
    public var totalCount: Int { storage.totalCount }
}
