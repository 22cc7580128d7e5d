/// What a cache holds at one moment, as its own accounting counts it: what the server's
/// `/metrics` exports for each cache (`ImageCache.statistics`, `EncodedImageCache.statistics`,
/// `DataCache.statistics`).
public struct CacheStatistics: Sendable, Equatable {
    /// Bytes held: for the memory caches, the sum of their entries' costs (the bytes each keeps
    /// alive, bookkeeping included: `CacheEntryCost`); for the disk cache, the entries' file sizes.
    public var bytes: Int
    /// Entries held.
    public var entries: Int
    /// Entries evicted to stay within the limits since the cache was made.
    public var evictions: Int
    /// The most bytes the cache holds (the disk cache sweeps down to 70 % of it once past it).
    public var byteLimit: Int

    /// Figures of a cache.
    public init(bytes: Int, entries: Int, evictions: Int, byteLimit: Int) {
        self.bytes = bytes
        self.entries = entries
        self.evictions = evictions
        self.byteLimit = byteLimit
    }
}
