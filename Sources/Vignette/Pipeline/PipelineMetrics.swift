import CoreMetrics

/// The pipeline's metrics, through swift-metrics: they go to the backend the application
/// bootstrapped (`MetricsSystem.bootstrap`, e.g. swift-prometheus), or to
/// `Configuration.metricsFactory`; with neither, swift-metrics' no-op handler makes them free.
/// Each metric is made once, when the pipeline is.
///
/// | name | kind | dimensions | counts |
/// |---|---|---|---|
/// | `vignette_requests_total` | counter | `kind`: image, data, encoded | calls of `image(for:)`/`response(for:)`/tasks, `data(for:)`, `encodedImage(for:as:)` |
/// | `vignette_cache_hits_total` | counter | `layer`: memory, disk, encoded_memory, encoded_disk, and the shared cache's `layerName` (e.g. redis) | hits by cache layer |
/// | `vignette_source_fetches_total` | counter | | loads through the `DataLoading` (not the disk cache) |
/// | `vignette_bytes_loaded_total` | counter | | bytes those loads returned |
/// | `vignette_decodes_total` | counter | | decodes and thumbnails that started |
/// | `vignette_decodes_stopped_total` | counter | | decodes stopped part-way because nobody waited |
/// | `vignette_encodes_total` | counter | | encodes of results (`encodedImage(for:as:)`) and of processed images for the disk cache |
/// | `vignette_autoquality_formats_total` | counter | | formats an autoquality or best-format search tried (`EncodingChoice.formatsTried`) |
/// | `vignette_autoquality_encodes_total` | counter | | encodes those searches made: divided by the formats, the encodes per format |
/// | `vignette_autoquality_scorings_total` | counter | | SSIMULACRA2 scorings (each after a decode) those searches made |
/// | `vignette_failures_total` | counter | `kind`: an `ImagingError.Kind`, or cancelled, invalidated, missing_in_cache, loading | failed requests |
/// | `vignette_stage_queue_depth` | gauge | `stage`: loading, decoding, processing, encoding, disk, shared | items waiting in the stage's queue |
/// | `vignette_stage_wait_seconds` | timer | `stage` | time items waited in the queue before starting |
struct PipelineMetrics: Sendable {
    let factory: (any MetricsFactory)?

    let imageRequests: Counter
    let dataRequests: Counter
    let encodedRequests: Counter
    let memoryHits: Counter
    let diskHits: Counter
    let encodedMemoryHits: Counter
    let encodedDiskHits: Counter
    /// Hits in the shared cache (`Configuration.sharedCache`), under its layer name.
    let sharedHits: Counter
    let sourceFetches: Counter
    let bytesLoaded: Counter
    let decodes: Counter
    let decodesStopped: Counter
    let encodes: Counter
    let faceDetections: Counter
    let searchFormats: Counter
    let searchEncodes: Counter
    let searchScorings: Counter

    init(factory: (any MetricsFactory)?, sharedLayer: String = "shared") {
        self.factory = factory
        func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
            if let factory { return Counter(label: label, dimensions: dimensions, factory: factory) }
            return Counter(label: label, dimensions: dimensions)
        }
        imageRequests = counter("vignette_requests_total", [("kind", "image")])
        dataRequests = counter("vignette_requests_total", [("kind", "data")])
        encodedRequests = counter("vignette_requests_total", [("kind", "encoded")])
        memoryHits = counter("vignette_cache_hits_total", [("layer", "memory")])
        diskHits = counter("vignette_cache_hits_total", [("layer", "disk")])
        encodedMemoryHits = counter("vignette_cache_hits_total", [("layer", "encoded_memory")])
        encodedDiskHits = counter("vignette_cache_hits_total", [("layer", "encoded_disk")])
        sharedHits = counter("vignette_cache_hits_total", [("layer", sharedLayer)])
        sourceFetches = counter("vignette_source_fetches_total")
        bytesLoaded = counter("vignette_bytes_loaded_total")
        decodes = counter("vignette_decodes_total")
        decodesStopped = counter("vignette_decodes_stopped_total")
        encodes = counter("vignette_encodes_total")
        faceDetections = counter("vignette_face_detections_total")
        searchFormats = counter("vignette_autoquality_formats_total")
        searchEncodes = counter("vignette_autoquality_encodes_total")
        searchScorings = counter("vignette_autoquality_scorings_total")
    }

    /// What an autoquality or best-format search cost.
    func searched(_ choice: EncodingChoice) {
        searchFormats.increment(by: Int64(choice.formatsTried))
        searchEncodes.increment(by: Int64(choice.encodes))
        searchScorings.increment(by: Int64(choice.scorings))
    }

    /// A failed request, by kind.
    func failed(_ error: ImagePipelineError) {
        let kind: String
        switch error {
        case .cancelled: kind = "cancelled"
        case .pipelineInvalidated: kind = "invalidated"
        case .dataMissingInCache: kind = "missing_in_cache"
        default: kind = error.imagingError?.kind.rawValue ?? "loading"
        }
        let dimensions = [("kind", kind)]
        if let factory {
            Counter(label: "vignette_failures_total", dimensions: dimensions, factory: factory).increment()
        } else {
            Counter(label: "vignette_failures_total", dimensions: dimensions).increment()
        }
    }

    /// The queue-depth gauge and wait timer of a stage.
    func stage(_ name: String) -> StageMetrics {
        let dimensions = [("stage", name)]
        if let factory {
            return StageMetrics(
                depth: Gauge(label: "vignette_stage_queue_depth", dimensions: dimensions, factory: factory),
                wait: Timer(label: "vignette_stage_wait_seconds", dimensions: dimensions, factory: factory))
        }
        return StageMetrics(
            depth: Gauge(label: "vignette_stage_queue_depth", dimensions: dimensions),
            wait: Timer(label: "vignette_stage_wait_seconds", dimensions: dimensions))
    }
}

/// A stage's queue depth and queue wait.
struct StageMetrics: Sendable {
    let depth: Gauge
    let wait: Timer
}

extension CoreMetrics.Timer {
    /// Records the time from `start` to now.
    func recordInterval(since start: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
