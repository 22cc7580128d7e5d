import Logging
import Vignette
import VignetteHummingbird
import VignetteServer

extension ServeCommand {
    /// Where a setting came from: its flag, its environment variable, or the default.
    static func origin(flag: (some Any)?, _ name: String, variable: String) -> String {
        if flag != nil { return "flag --\(name)" }
        return environment(variable) != nil ? "environment \(variable)" : "default"
    }

    /// Logs once, at start, the memory caps in force and where each came from: the memory the
    /// process may use (`MemoryBudget.processLimit()`: physical memory or a cgroup file), the
    /// encoded-result cache, the disk cache and its in-memory staging, and glibc's malloc arenas.
    func logCaps(of server: ThumbnailServer, arenasCapped: Bool) {
        let process = MemoryBudget.processLimit()
        let configuration = server.pipeline.configuration
        var memoryOrigin = Self.origin(flag: memoryCacheSize, "memory-cache-size", variable: "VIGNETTE_MEMORY_CACHE_SIZE")
        if memoryOrigin == "default" {
            memoryOrigin = "default: 1/\(MemoryBudget.defaultEncodedCacheDivisor) of the process' memory, at most \(MemoryBudget.defaultEncodedCacheCap >> 20) MiB"
        }
        var metadata: Logger.Metadata = [
            "process_memory_bytes": "\(process.bytes)", "process_memory_from": "\(process.source)",
            "memory_cache_bytes": "\(configuration.encodedImageCache?.costLimit ?? 0)", "memory_cache_from": "\(memoryOrigin)",
            "malloc_arenas": "\(arenasCapped ? "2 (serve's default)" : "MALLOC_ARENA_MAX or glibc's default")",
        ]
        if let disk = configuration.dataCache {
            metadata["disk_cache_bytes"] = "\(disk.sizeLimit)"
            metadata["disk_cache_from"] = "\(Self.origin(flag: cacheSize, "cache-size", variable: "VIGNETTE_CACHE_SIZE"))"
            metadata["disk_cache_staging_bytes"] = "\(disk.stagingLimit)"
        }
        server.logger.info("memory caps", metadata: metadata)
    }
}
