import Prometheus
import Vignette
import VignetteSupport

/// The gauges of what the server holds in memory and on disk, brought up to date when `/metrics`
/// is scraped (`record(pipeline:)`), never on a request:
///
/// - each memory cache (`cache` label: `encoded`, the results; `image`, decoded images):
///   `vignette_memory_cache_bytes`, `_entries`, `_evictions_total`, `_limit_bytes`
///   (`EncodedImageCache.statistics`, `ImageCache.statistics`; zero when the cache is off);
/// - the disk cache: `vignette_disk_cache_bytes`, `_entries`, `_evictions_total`, `_limit_bytes`
///   (`DataCache.statistics`) and `vignette_disk_cache_staged_bytes`, the writes still in memory;
/// - libvips (`ImagingRuntime.libvipsMemory`): `vignette_vips_tracked_memory_bytes`,
///   `vignette_vips_tracked_memory_highwater_bytes`, `vignette_vips_tracked_allocations`,
///   `vignette_vips_open_files`, `vignette_vips_operation_cache_entries`, `_limit`;
/// - the process (`ProcessStatistics.current()`, from `/proc`), named as Prometheus' client
///   libraries name them: `process_resident_memory_bytes`, `process_virtual_memory_bytes`,
///   `process_cpu_seconds_total`, `process_open_fds`, `process_max_fds`,
///   `process_start_time_seconds`, `process_threads`.
///
/// The `_total` figures are counters, advanced by what their source counted since the last scrape.
final class MemoryGauges: Sendable {
    /// The four figures of a cache.
    struct CacheSeries: Sendable {
        let bytes: Gauge
        let entries: Gauge
        let evictions: Counter
        let limit: Gauge
    }

    private let encoded: CacheSeries
    private let image: CacheSeries
    private let disk: CacheSeries
    private let staged: Gauge
    private let vips: (tracked: Gauge, highWater: Gauge, allocations: Gauge, files: Gauge, operations: Gauge, operationLimit: Gauge)
    private let process: (resident: Gauge, virtual: Gauge, cpu: Counter, fds: Gauge, maxFDs: Gauge, start: Gauge, threads: Gauge)
    /// What each counter's source said at the last scrape, by counter name and label.
    private let lastCounts = Locked<[String: Double]>([:])

    /// The gauges, made in `registry`.
    init(registry: PrometheusCollectorRegistry) {
        // The full name as the descriptor's metric name: an empty unit is left out of it.
        func named(_ name: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        }
        func memoryCache(_ name: String) -> CacheSeries {
            let labels = [("cache", name)]
            return CacheSeries(
                bytes: registry.makeGauge(descriptor: named("vignette_memory_cache_bytes", "Bytes a memory cache's entries keep alive, as it counts them"), labels: labels),
                entries: registry.makeGauge(descriptor: named("vignette_memory_cache_entries", "Entries in a memory cache"), labels: labels),
                evictions: registry.makeCounter(descriptor: named("vignette_memory_cache_evictions_total", "Entries a memory cache evicted to stay within its limit"), labels: labels),
                limit: registry.makeGauge(descriptor: named("vignette_memory_cache_limit_bytes", "The most bytes a memory cache holds (0: off)"), labels: labels))
        }
        encoded = memoryCache("encoded")
        image = memoryCache("image")
        disk = CacheSeries(
            bytes: registry.makeGauge(descriptor: named("vignette_disk_cache_bytes", "Bytes of the disk cache's entries (exact after each sweep)")),
            entries: registry.makeGauge(descriptor: named("vignette_disk_cache_entries", "Entries in the disk cache")),
            evictions: registry.makeCounter(descriptor: named("vignette_disk_cache_evictions_total", "Entries the disk cache's sweeps deleted to keep its size limit")),
            limit: registry.makeGauge(descriptor: named("vignette_disk_cache_limit_bytes", "The disk cache's size limit (0: no disk cache)")))
        staged = registry.makeGauge(descriptor: named("vignette_disk_cache_staged_bytes", "Bytes of disk cache writes still in memory"))
        vips = (
            registry.makeGauge(descriptor: named("vignette_vips_tracked_memory_bytes", "Bytes libvips has allocated and not freed (vips_tracked_get_mem)")),
            registry.makeGauge(descriptor: named("vignette_vips_tracked_memory_highwater_bytes", "The most bytes libvips has held at once (vips_tracked_get_mem_highwater)")),
            registry.makeGauge(descriptor: named("vignette_vips_tracked_allocations", "Live allocations libvips tracks (vips_tracked_get_allocs)")),
            registry.makeGauge(descriptor: named("vignette_vips_open_files", "Files libvips has open (vips_tracked_get_files)")),
            registry.makeGauge(descriptor: named("vignette_vips_operation_cache_entries", "Operations in libvips' operation cache (vips_cache_get_size)")),
            registry.makeGauge(descriptor: named("vignette_vips_operation_cache_limit", "The most operations libvips' operation cache keeps (vips_cache_get_max)")))
        process = (
            registry.makeGauge(descriptor: named("process_resident_memory_bytes", "Resident memory size in bytes.")),
            registry.makeGauge(descriptor: named("process_virtual_memory_bytes", "Virtual memory size in bytes.")),
            registry.makeCounter(descriptor: named("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.")),
            registry.makeGauge(descriptor: named("process_open_fds", "Number of open file descriptors.")),
            registry.makeGauge(descriptor: named("process_max_fds", "Maximum number of open file descriptors.")),
            registry.makeGauge(descriptor: named("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")),
            registry.makeGauge(descriptor: named("process_threads", "Number of OS threads in the process.")))
    }

    /// Reads every figure now: the pipeline's caches, libvips, the process.
    func record(pipeline: ImagePipeline) {
        let configuration = pipeline.configuration
        record(configuration.encodedImageCache?.statistics, into: encoded, key: "encoded")
        record(configuration.imageCache?.statistics, into: image, key: "image")
        record(configuration.dataCache?.statistics, into: disk, key: "disk")
        staged.set(Double(configuration.dataCache?.stagedBytes ?? 0))

        let libvips = ImagingRuntime.libvipsMemory
        vips.tracked.set(Double(libvips.trackedBytes))
        vips.highWater.set(Double(libvips.highWaterBytes))
        vips.allocations.set(Double(libvips.allocations))
        vips.files.set(Double(libvips.openFiles))
        vips.operations.set(Double(libvips.operationCacheEntries))
        vips.operationLimit.set(Double(libvips.operationCacheLimit))

        guard let statistics = ProcessStatistics.current() else { return }
        process.resident.set(Double(statistics.residentBytes))
        process.virtual.set(Double(statistics.virtualBytes))
        advance(process.cpu, key: "cpu", to: statistics.cpuSeconds)
        process.fds.set(Double(statistics.openDescriptors))
        process.maxFDs.set(statistics.maxDescriptors == .max ? Double.infinity : Double(statistics.maxDescriptors))
        process.start.set(statistics.startTime)
        process.threads.set(Double(statistics.threads))
    }

    private func record(_ statistics: CacheStatistics?, into series: CacheSeries, key: String) {
        let statistics = statistics ?? CacheStatistics(bytes: 0, entries: 0, evictions: 0, byteLimit: 0)
        series.bytes.set(Double(statistics.bytes))
        series.entries.set(Double(statistics.entries))
        series.limit.set(Double(statistics.byteLimit))
        advance(series.evictions, key: key, to: Double(statistics.evictions))
    }

    /// Advances `counter` by what its source counted since the last scrape (`total` now).
    private func advance(_ counter: Counter, key: String, to total: Double) {
        let step = lastCounts.withLock { last -> Double in
            let step = total - (last[key] ?? 0)
            if step > 0 { last[key] = total }
            return step
        }
        if step > 0 { counter.increment(by: step) }
    }
}
