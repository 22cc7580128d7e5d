#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics
import Logging
import Vignette
import VignetteCodecs
import VignetteSupport

/// A result cache on Redis that several pipelines, in several processes or machines, share: the
/// tier between the local disk cache and the source (`ImagePipeline.Configuration.sharedCache`).
///
/// Values are disk-cache entries (`DataCache.Entry.serialized()`: the bytes and their metadata)
/// under `<namespace>:v1:<SHA-256 of the pipeline's key>` with a time to live (`SET … PX`). Calls
/// go through hiredis (`redisCommandArgv`) on blocking connections with connect and command
/// timeouts: lookups on the pipeline's shared-cache threads, writes on a thread of this cache's
/// own (`store(_:for:)` returns at once; at most `maxPendingWriteBytes` wait), never on Swift's
/// cooperative pool, Dispatch's shared pool or an event loop.
///
/// Redis down, slow or refusing: a lookup is a miss and a write is dropped, the failure is logged
/// and counted (`RedisMetrics`), and after `failureThreshold` failures in a row a circuit breaker
/// skips Redis for `breakerCooldown`; then one call in the background (a `PING`, or a write) tries
/// it again, and a success closes the breaker: the cache recovers by itself when Redis comes back,
/// and no request waits for a timeout while the breaker is open.
public final class RedisDataCache: SharedDataCaching {
    /// Where Redis is and the cache's settings.
    public let configuration: RedisConfiguration
    private let pool: RedisConnectionPool
    private let breaker: CircuitBreaker
    private let metrics: RedisMetrics
    private let logger: Logger
    private let writer = SerialWorker(name: "vignette.redis.writer")
    private let pendingWriteBytes = Locked(0)
    private let timeToLiveMilliseconds: Data

    /// A cache on the Redis server `configuration` names. Nothing is connected until the first
    /// call; a server that is not there yet is a miss until it is. Its writer thread ends with it.
    /// - Parameters:
    ///   - configuration: where Redis is, its timeouts, and how entries are kept there.
    ///   - logger: where failures go (the breaker opening and closing as warnings and notices,
    ///     each failure at debug level).
    ///   - metricsFactory: where the `vignette_redis_*` metrics go; nil for the application's
    ///     bootstrapped factory (no-op when none).
    public init(configuration: RedisConfiguration, logger: Logger = Logger(label: "vignette.redis"),
                metricsFactory: (any MetricsFactory)? = nil) {
        self.configuration = configuration
        self.logger = logger
        pool = RedisConnectionPool(configuration: configuration)
        breaker = CircuitBreaker(failureThreshold: configuration.failureThreshold, cooldown: configuration.breakerCooldown)
        metrics = RedisMetrics(factory: metricsFactory)
        let ttl = configuration.timeToLive.components
        let milliseconds = max(1, ttl.seconds * 1000 + ttl.attoseconds / 1_000_000_000_000_000)
        timeToLiveMilliseconds = Data(String(milliseconds).utf8)
    }

    deinit {
        writer.stop()
    }

    /// "redis".
    public var layerName: String { "redis" }

    /// The Redis key of the pipeline's `key`: `<namespace>:v1:<lowercase hex SHA-256 of key>`.
    /// Equal in every process with the same namespace.
    public func redisKey(for key: String) -> String {
        configuration.namespace + ":v1:" + DataCache.digest(of: Array(key.utf8))
    }

    /// Whether the circuit breaker is skipping Redis now.
    public var isBreakerOpen: Bool { breaker.isOpen }

    /// The entry under `key` (`GET`); nil for a miss, a value that is not an entry, a failure, or
    /// while the breaker is open. Blocks for at most about the connect and command timeouts.
    public func entry(for key: String) -> DataCache.Entry? {
        switch breaker.decide() {
        case .call: break
        case .skip:
            metrics.skippedBreakerOpen.increment()
            return nil
        case .trial:
            // The trial after the cooldown is a PING in the background: no request waits for it.
            metrics.skippedBreakerOpen.increment()
            writer.async { [self] in
                do throws(RedisError) {
                    _ = try pool.run([Data("PING".utf8)])
                    succeeded()
                } catch {
                    failed(error, operation: "ping", counter: metrics.pingErrors)
                }
            }
            return nil
        }
        do {
            let reply = try pool.run([Data("GET".utf8), Data(redisKey(for: key).utf8)])
            succeeded()
            guard case .bytes(let blob) = reply else { return nil }
            return DataCache.Entry(serialized: blob)
        } catch {
            failed(error, operation: "get", counter: metrics.getErrors)
            return nil
        }
    }

    /// Stores `entry` under `key` (`SET … PX`) in the background and returns at once. Dropped (and
    /// counted) when larger than `maxValueBytes`, when `maxPendingWriteBytes` are already waiting,
    /// or while the breaker is open.
    public func store(_ entry: DataCache.Entry, for key: String) {
        let blob = entry.serialized()
        guard blob.count <= configuration.maxValueBytes else {
            metrics.skippedTooLarge.increment()
            return
        }
        guard !breaker.isOpen else {
            metrics.skippedBreakerOpen.increment()
            return
        }
        let limit = configuration.maxPendingWriteBytes
        guard pendingWriteBytes.withLock({ pending -> Bool in
            guard pending + blob.count <= limit else { return false }
            pending += blob.count
            return true
        }) else {
            metrics.skippedQueueFull.increment()
            return
        }
        let arguments = [Data("SET".utf8), Data(redisKey(for: key).utf8), blob, Data("PX".utf8), timeToLiveMilliseconds]
        writer.async { [self] in
            defer { pendingWriteBytes.withLock { $0 -= blob.count } }
            // In the background already: a write may be the trial after the cooldown.
            guard breaker.decide() != .skip else {
                metrics.skippedBreakerOpen.increment()
                return
            }
            do throws(RedisError) {
                _ = try pool.run(arguments)
                succeeded()
            } catch {
                failed(error, operation: "set", counter: metrics.setErrors)
            }
        }
    }

    /// Returns when every write handed to `store(_:for:)` before the call has been made or dropped.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writer.async { continuation.resume() }
        }
    }

    private func succeeded() {
        if breaker.recordSuccess() == .closed {
            metrics.breakerOpen.record(0)
            logger.notice("redis is reachable again; using it", metadata: ["redis": "\(configuration.host):\(configuration.port)"])
        }
    }

    private func failed(_ error: RedisError, operation: String, counter: Counter) {
        counter.increment()
        logger.debug("redis call failed", metadata: ["operation": "\(operation)", "error": "\(error.message)"])
        guard breaker.recordFailure() == .opened else { return }
        metrics.breakerOpen.record(1)
        pool.closeIdle()
        logger.warning("redis unavailable; serving without it", metadata: [
            "redis": "\(configuration.host):\(configuration.port)", "error": "\(error.message)",
            "retry_after_seconds": "\(configuration.breakerCooldown.components.seconds)",
        ])
    }
}
