import CoreMetrics
import Prometheus

/// The server's metrics, in one Prometheus registry served at `/metrics`: its own
/// (`vignette_http_requests_total{status}`, `vignette_http_request_duration_seconds`, a histogram,
/// and `vignette_in_flight`) and the pipeline's (`vignette_source_fetches_total`,
/// `vignette_decodes_total`, `vignette_encodes_total`, `vignette_cache_hits_total{layer}`, …,
/// through `metricsFactory`).
public final class ServerMetrics: Sendable {
    /// Where every metric is kept.
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory over `registry`, for the pipeline (`Configuration.metricsFactory`).
    public let metricsFactory: any MetricsFactory
    private let duration: DurationHistogram
    private let inFlightGauge: Prometheus.Gauge

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
        duration = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "vignette", metricName: "http_request_duration", unitName: "seconds", helpText: "Time from request to response"),
            buckets: Self.buckets)
        inFlightGauge = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "vignette", metricName: "in", unitName: "flight", helpText: "Image requests being answered"))
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
