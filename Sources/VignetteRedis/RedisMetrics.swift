import CoreMetrics

/// `RedisDataCache`'s metrics, through swift-metrics (the pipeline counts its hits as
/// `vignette_cache_hits_total{layer="redis"}`):
///
/// | name | kind | dimensions | counts |
/// |---|---|---|---|
/// | `vignette_redis_errors_total` | counter | `operation`: get, set, ping (the breaker's trial) | failed calls (timeouts, refused or lost connections, error replies) |
/// | `vignette_redis_skipped_total` | counter | `reason`: breaker_open, too_large, queue_full | calls not made |
/// | `vignette_redis_breaker_open` | gauge | | 1 while the circuit breaker skips Redis, else 0 |
struct RedisMetrics: Sendable {
    let getErrors: Counter
    let setErrors: Counter
    let pingErrors: Counter
    let skippedBreakerOpen: Counter
    let skippedTooLarge: Counter
    let skippedQueueFull: Counter
    let breakerOpen: Gauge

    init(factory: (any MetricsFactory)?) {
        func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            if let factory { return Counter(label: label, dimensions: dimensions, factory: factory) }
            return Counter(label: label, dimensions: dimensions)
        }
        getErrors = counter("vignette_redis_errors_total", [("operation", "get")])
        setErrors = counter("vignette_redis_errors_total", [("operation", "set")])
        pingErrors = counter("vignette_redis_errors_total", [("operation", "ping")])
        skippedBreakerOpen = counter("vignette_redis_skipped_total", [("reason", "breaker_open")])
        skippedTooLarge = counter("vignette_redis_skipped_total", [("reason", "too_large")])
        skippedQueueFull = counter("vignette_redis_skipped_total", [("reason", "queue_full")])
        if let factory {
            breakerOpen = Gauge(label: "vignette_redis_breaker_open", dimensions: [], factory: factory)
        } else {
            breakerOpen = Gauge(label: "vignette_redis_breaker_open", dimensions: [])
        }
        breakerOpen.record(0)
    }
}
