import Foundation
import MetricsTestKit
import Testing
@testable import Vignette
import TestTiming

@Suite("Metrics through swift-metrics")
struct PipelineMetricsTests {
    @Test("coalesced encoded requests count one fetch, one decode, one encode; hits and failures by kind")
    func counts() async throws {
        let metrics = TestMetrics()
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader) { $0.metricsFactory = metrics }
        let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(size: 64))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try? await pipeline.encodedImage(for: request, as: .fixed(.webp(WebPOptions()))) } }
            #expect(await eventually { loader.started == 1 })
            try? await Task.sleep(for: .milliseconds(50))
            gate.open()
        }
        _ = try await pipeline.encodedImage(for: request, as: .fixed(.webp(WebPOptions())))
        #expect(try metrics.expectCounter("vignette_requests_total", [("kind", "encoded")]).totalValue == 21)
        #expect(try metrics.expectCounter("vignette_source_fetches_total").totalValue == 1)
        #expect(try metrics.expectCounter("vignette_decodes_total").totalValue == 1)
        #expect(try metrics.expectCounter("vignette_encodes_total").totalValue == 1)
        #expect(try metrics.expectCounter("vignette_cache_hits_total", [("layer", "encoded_memory")]).totalValue == 1)
        #expect(try metrics.expectCounter("vignette_bytes_loaded_total").totalValue == Int64(try Data(contentsOf: URL(fileURLWithPath: Files.fixture("baseline.jpg"))).count))
        #expect(try metrics.expectTimer("vignette_stage_wait_seconds", [("stage", "decoding")]).values.count == 1)

        let hostile = ImageRequest(path: Files.fixture("hostile-wide16.png"), thumbnail: ThumbnailOptions(size: 64))
        _ = try? await pipeline.encodedImage(for: hostile, as: .jpegOrPNG())
        #expect(try metrics.expectCounter("vignette_failures_total", [("kind", "limitExceeded")]).totalValue == 1)
    }
}
