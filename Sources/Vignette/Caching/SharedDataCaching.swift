#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cache that several processes share (e.g. `RedisDataCache` in VignetteRedis, on Redis): the
/// tier after the local caches and before the source.
///
/// The pipeline asks it in this order: memory → local disk (`DataCache`) → this cache → the
/// source. A hit fills the local tiers. It holds encoded results of
/// `ImagePipeline.encodedImage(for:as:)` under the same keys as the disk cache
/// (`ImagePipeline.resultKey(for:as:)`), and original bytes (with their HTTP metadata) when
/// `Configuration.sharedCacheStoresOriginalData` is on. The request options that turn disk reads
/// and writes off (`disableDiskCacheReads`, `disableDiskCacheWrites`, `reloadIgnoringCachedData`)
/// apply to it too.
///
/// An implementation is an optimisation that may fail at any time: a lookup that fails is a miss,
/// a store that fails is dropped, and neither throws.
public protocol SharedDataCaching: Sendable {
    /// The cache layer's name in metrics: `vignette_cache_hits_total{layer="<name>"}` (e.g. "redis").
    var layerName: String { get }

    /// The entry stored under `key`, or nil for a miss or when the cache cannot be reached.
    /// It may block for as long as the implementation's timeouts allow: the pipeline calls it on
    /// threads of its own (`Configuration.sharedCacheConcurrency` at once), never on Swift's
    /// cooperative pool.
    func entry(for key: String) -> DataCache.Entry?

    /// Stores `entry` under `key` and returns at once: the write happens in the background and
    /// never delays a response; an entry the cache will not take (too large, unreachable) is dropped.
    func store(_ entry: DataCache.Entry, for key: String)

    /// Returns when the writes handed to `store(_:for:)` so far have been made or dropped (for an
    /// orderly shutdown, and for tests).
    func flush() async
}

extension SharedDataCaching {
    /// Nothing to wait for.
    public func flush() async {}
}
