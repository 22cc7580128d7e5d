import CoreMetrics
import Prometheus

/// The server's metrics, in one Prometheus registry served at `/metrics`: its own
/// (`vignette_http_requests_total{status}`, `vignette_http_request_duration_seconds`, a histogram,
/// `vignette_in_flight`, and the admission's: `vignette_admission_running_requests`,
/// `vignette_admission_queue_length`, `vignette_admission_expected_wait_seconds`,
/// `vignette_admission_service_time_seconds` and `vignette_admission_shed_total`) and the
/// pipeline's (`vignette_source_fetches_total`, `vignette_decodes_total`, `vignette_encodes_total`,
/// `vignette_cache_hits_total{layer}`, …, through `metricsFactory`), and what the caches, libvips
/// and the process hold (`MemoryGauges`: `vignette_memory_cache_bytes{cache}`, …,
/// `process_resident_memory_bytes`, …), read when `/metrics` is scraped.
package final class ServerMetrics: Sendable {
    /// Where every metric is kept.
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory over `registry`, for the pipeline (`Configuration.metricsFactory`).
    public let metricsFactory: any MetricsFactory
    /// The caches', libvips' and the process' figures.
    let memory: MemoryGauges
    private let duration: DurationHistogram
    private let inFlightGauge: Prometheus.Gauge
    private let shedCounter: Prometheus.Counter
    private let admissionGauges: (running: Prometheus.Gauge, queue: Prometheus.Gauge, wait: Prometheus.Gauge, service: Prometheus.Gauge)

    /// Response-time buckets, 5 ms to 30 s.
    static let buckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
    ]

    /// `vignette_http_requests_total` (a computed value: the descriptor type is not `Sendable`).
    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "vignette", subsystem: "http", metricName: "requests", unitName: "total", helpText: "HTTP responses by status")
    }

    /// Metrics in a registry of their own.
    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        metricsFactory = PrometheusMetricsFactory(registry: registry)
        memory = MemoryGauges(registry: registry)
        duration = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "vignette", metricName: "http_request_duration", unitName: "seconds", helpText: "Time from request to response"),
            buckets: Self.buckets)
        inFlightGauge = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "vignette", metricName: "in", unitName: "flight", helpText: "Image requests being answered"))
        func admission(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "vignette", subsystem: "admission", metricName: name, unitName: unit, helpText: help)
        }
        shedCounter = registry.makeCounter(descriptor: admission("shed", "total", "Requests refused with 503: they would not have been served in time, or the queue was at its bound"))
        admissionGauges = (
            registry.makeGauge(descriptor: admission("running", "requests", "Requests holding a processing slot")),
            registry.makeGauge(descriptor: admission("queue", "length", "Requests waiting for a processing slot")),
            registry.makeGauge(descriptor: admission("expected_wait", "seconds", "Expected wait for a slot of a request arriving now")),
            registry.makeGauge(descriptor: admission("service_time", "seconds", "Recent time a request holds its slot")))
    }

    /// A request refused by the admission.
    func shed() { shedCounter.increment() }

    /// The admission's state, read when `/metrics` is asked for.
    func record(_ admission: Admission.Snapshot) {
        admissionGauges.running.set(Double(admission.running))
        admissionGauges.queue.set(Double(admission.waiting))
        admissionGauges.wait.set(admission.expectedWait.seconds)
        admissionGauges.service.set(admission.serviceTime?.seconds ?? 0)
    }

    /// A response with `status`, `elapsed` after its request came in.
    func responded(status: Int, after elapsed: Duration) {
        registry.makeCounter(descriptor: Self.requests, labels: [("status", String(status))]).increment()
        duration.record(elapsed)
    }

    /// A request started (+1) or ended (-1).
    func inFlight(_ change: Double) {
        if change > 0 { inFlightGauge.increment(by: change) } else { inFlightGauge.decrement(by: -change) }
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}
