internal import CVignetteVips

/// What libvips holds now, process-wide: the memory it tracks (its pixel buffers and caches,
/// not what its loaders' own libraries allocate), the files it has open and its operation cache.
package struct LibvipsMemory: Sendable, Equatable {
    /// Bytes libvips has allocated and not freed (`vips_tracked_get_mem`).
    public var trackedBytes: Int
    /// The most `trackedBytes` has been since libvips started (`vips_tracked_get_mem_highwater`).
    public var highWaterBytes: Int
    /// Allocations libvips tracks that are live (`vips_tracked_get_allocs`).
    public var allocations: Int
    /// Files libvips has open (`vips_tracked_get_files`).
    public var openFiles: Int
    /// Operations in libvips' operation cache (`vips_cache_get_size`); the pipeline turns the
    /// cache off, so anything here was cached by other code in the process.
    public var operationCacheEntries: Int
    /// The most operations that cache keeps (`vips_cache_get_max`).
    public var operationCacheLimit: Int
}

extension ImagingRuntime {
    /// libvips' memory and files now (`vips_tracked_get_mem`, `vips_tracked_get_mem_highwater`,
    /// `vips_tracked_get_allocs`, `vips_tracked_get_files`, `vips_cache_get_size`,
    /// `vips_cache_get_max`); all zero when libvips cannot start.
    package static var libvipsMemory: LibvipsMemory {
        guard (try? ensureInitialised()) != nil else {
            return LibvipsMemory(trackedBytes: 0, highWaterBytes: 0, allocations: 0, openFiles: 0, operationCacheEntries: 0, operationCacheLimit: 0)
        }
        return LibvipsMemory(
            trackedBytes: Int(clamping: vips_tracked_get_mem()), highWaterBytes: Int(clamping: vips_tracked_get_mem_highwater()),
            allocations: Int(vips_tracked_get_allocs()), openFiles: Int(vips_tracked_get_files()),
            operationCacheEntries: Int(vips_cache_get_size()), operationCacheLimit: Int(vips_cache_get_max()))
    }
}
