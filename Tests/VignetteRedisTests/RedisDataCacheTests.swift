import Foundation
import MetricsTestKit
import RedisTestServer
import Testing
import Vignette
@testable import VignetteRedis
import TestTiming

@Suite("RedisDataCache against a real redis-server")
struct RedisDataCacheTests {
    @Test func storesAndReadsEntriesUnderNamespacedVersionedKeys() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let cache = RedisDataCache(configuration: try .testing(server, namespace: "thumbs"))
        let entry = DataCache.Entry(data: Data([1, 2, 3, 0, 255]), metadata: Data("{\"etag\":\"x\"}".utf8))
        #expect(cache.entry(for: "a|thumbnail") == nil)
        cache.store(entry, for: "a|thumbnail")
        await cache.flush()
        #expect(cache.entry(for: "a|thumbnail") == entry)
        let key = cache.redisKey(for: "a|thumbnail")
        #expect(key == "thumbs:v1:" + DataCache.digest(of: Array("a|thumbnail".utf8)))
        #expect(try server.cli(["EXISTS", key]) == "1")
        // The time to live is set (7 days by default, in milliseconds).
        let ttl = try #require(Int(try server.cli(["PTTL", key])))
        #expect(ttl > 6 * 86_400_000 && ttl <= 7 * 86_400_000)
        // Another process's cache with the same namespace finds the same key.
        #expect(RedisDataCache(configuration: try .testing(server, namespace: "thumbs")).redisKey(for: "a|thumbnail") == key)
        #expect(RedisDataCache(configuration: try .testing(server, namespace: "other")).entry(for: "a|thumbnail") == nil)
    }

    @Test func valuesOverTheLimitAreNotStored() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let metrics = TestMetrics()
        var configuration = try RedisConfiguration.testing(server)
        configuration.maxValueBytes = 1000
        let cache = RedisDataCache(configuration: configuration, metricsFactory: metrics)
        cache.store(DataCache.Entry(data: Data(count: 2000)), for: "big")
        cache.store(DataCache.Entry(data: Data(count: 500)), for: "small")
        await cache.flush()
        #expect(try server.cli(["DBSIZE"]) == "1")
        #expect(cache.entry(for: "big") == nil)
        #expect(cache.entry(for: "small")?.data.count == 500)
        #expect(try metrics.expectCounter("vignette_redis_skipped_total", [("reason", "too_large")]).totalValue == 1)
    }

    @Test func aPasswordAndADatabaseAreUsed() async throws {
        let server = try RedisTestServer.start(password: "s3cret")
        defer { server.stop() }
        var onDatabase2 = try RedisConfiguration(url: server.url(database: 2))
        onDatabase2.commandTimeout = .seconds(2)
        onDatabase2.connectTimeout = .seconds(2)
        let cache = RedisDataCache(configuration: onDatabase2)
        cache.store(DataCache.Entry(data: Data("hello".utf8)), for: "k")
        await cache.flush()
        #expect(cache.entry(for: "k")?.data == Data("hello".utf8))
        #expect(try server.cli(["-n", "2", "DBSIZE"]) == "1")
        #expect(try server.cli(["-n", "0", "DBSIZE"]) == "0")

        let metrics = TestMetrics()
        var wrong = onDatabase2
        wrong.password = "wrong"
        let refused = RedisDataCache(configuration: wrong, metricsFactory: metrics)
        #expect(refused.entry(for: "k") == nil)
        #expect(try metrics.expectCounter("vignette_redis_errors_total", [("operation", "get")]).totalValue == 1)
    }

    @Test func aValueThatIsNotAnEntryIsAMiss() throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let cache = RedisDataCache(configuration: try .testing(server))
        _ = try server.cli(["SET", cache.redisKey(for: "foreign"), "not an entry"])
        #expect(cache.entry(for: "foreign") == nil)
    }

    @Test func aStoppedServerOpensTheBreakerAndARestartClosesIt() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let metrics = TestMetrics()
        let cache = RedisDataCache(configuration: try .testing(server), metricsFactory: metrics)
        cache.store(DataCache.Entry(data: Data("v".utf8)), for: "k")
        await cache.flush()
        #expect(cache.entry(for: "k") != nil)

        server.stop()
        // Three failures in a row (the threshold), then every call is skipped without trying.
        for _ in 0..<20 { #expect(cache.entry(for: "k") == nil) }
        #expect(try metrics.expectCounter("vignette_redis_errors_total", [("operation", "get")]).totalValue == 3)
        #expect(try metrics.expectCounter("vignette_redis_skipped_total", [("reason", "breaker_open")]).totalValue == 17)
        #expect(cache.isBreakerOpen)
        #expect(try metrics.expectGauge("vignette_redis_breaker_open").lastValue == 1)

        try server.restart()
        cache.store(DataCache.Entry(data: Data("w".utf8)), for: "k2")
        // After the cooldown one call tries again, succeeds and closes the breaker.
        #expect(await eventually { cache.entry(for: "k") == nil && !cache.isBreakerOpen })
        cache.store(DataCache.Entry(data: Data("w".utf8)), for: "k2")
        await cache.flush()
        #expect(cache.entry(for: "k2")?.data == Data("w".utf8))
        #expect(try metrics.expectGauge("vignette_redis_breaker_open").lastValue == 0)
    }

    @Test func aPausedServerCostsTheTimeoutOnlyUntilTheBreakerOpens() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let metrics = TestMetrics()
        var configuration = try RedisConfiguration.testing(server, timeout: .milliseconds(200))
        configuration.breakerCooldown = .seconds(60)
        let cache = RedisDataCache(configuration: configuration, metricsFactory: metrics)
        #expect(cache.entry(for: "k") == nil)
        server.pause()
        defer { server.resume() }
        for _ in 0..<50 { #expect(cache.entry(for: "k") == nil) }
        // Each of the threshold's calls waited for the command timeout (200 ms); the 47 after them did not try.
        #expect(try metrics.expectCounter("vignette_redis_errors_total", [("operation", "get")]).totalValue == 3)
        #expect(try metrics.expectCounter("vignette_redis_skipped_total", [("reason", "breaker_open")]).totalValue == 47)
        // Writes are dropped while it is open.
        cache.store(DataCache.Entry(data: Data("v".utf8)), for: "k")
        await cache.flush()
        #expect(try metrics.expectCounter("vignette_redis_skipped_total", [("reason", "breaker_open")]).totalValue == 48)
    }

    @Test func aServerThatIsNotThereIsAMiss() throws {
        let metrics = TestMetrics()
        let cache = RedisDataCache(configuration: RedisConfiguration(port: try RedisTestServer.freePort()), metricsFactory: metrics)
        #expect(cache.entry(for: "k") == nil)
        #expect(try metrics.expectCounter("vignette_redis_errors_total", [("operation", "get")]).totalValue == 1)
    }
}
