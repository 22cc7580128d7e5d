import Foundation
import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// `/metrics` of a real server shows what its caches, libvips and the process hold.
@Suite("Memory gauges on /metrics, over loopback")
struct MemoryMetricsServerTests {
    static let gauges = [
        "vignette_memory_cache_bytes", "vignette_memory_cache_entries", "vignette_memory_cache_limit_bytes",
        "vignette_disk_cache_bytes", "vignette_disk_cache_entries", "vignette_disk_cache_limit_bytes", "vignette_disk_cache_staged_bytes",
        "vignette_vips_tracked_memory_bytes", "vignette_vips_tracked_memory_highwater_bytes", "vignette_vips_tracked_allocations",
        "vignette_vips_open_files", "vignette_vips_operation_cache_entries", "vignette_vips_operation_cache_limit",
        "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
        "process_start_time_seconds", "process_threads",
    ]
    static let counters = ["vignette_memory_cache_evictions_total", "vignette_disk_cache_evictions_total", "process_cpu_seconds_total"]

    @Test("every cache, libvips and process gauge is there; the result cache counts the results served, within its cap")
    func everyGauge() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await RunningServer.with({
            $0.memoryCacheSizeLimit = 8 << 20
            $0.cacheFolder = folder
        }) { running in
            for size in 40..<52 {
                let reply = try await running.get("/insecure/rs:fit:\(size):\(size)/plain/local:///baseline.jpg@webp")
                #expect(reply.status == 200)
            }
            let metrics = try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
            for name in Self.gauges { #expect(metrics.types[name] == "gauge", "\(name)") }
            for name in Self.counters { #expect(metrics.types[name] == "counter", "\(name)") }
            let encoded = ["cache": "encoded"]
            #expect(metrics.values("vignette_memory_cache_entries", encoded) == [12])
            #expect(metrics.values("vignette_memory_cache_limit_bytes", encoded) == [Double(8 << 20)])
            let bytes = metrics.values("vignette_memory_cache_bytes", encoded).first ?? 0
            #expect(bytes > 12 * 100 && bytes <= Double(8 << 20))
            #expect(metrics.values("vignette_memory_cache_entries", ["cache": "image"]) == [0])
            #expect(metrics.values("vignette_disk_cache_limit_bytes") == [Double(ServerConfiguration().cacheSizeLimit)])
            #expect((metrics.values("process_resident_memory_bytes").first ?? 0) > Double(10 << 20))
            #expect((metrics.values("process_threads").first ?? 0) >= 2)
            #expect((metrics.values("process_open_fds").first ?? 0) > 3)
            #expect((metrics.values("vignette_vips_tracked_memory_highwater_bytes").first ?? 0) > 0)
        }
    }
}
