import Foundation
import MetricsTestKit
import RedisTestServer
import Testing
import Vignette
import VignetteCodecs
@testable import VignetteRedis
import TestTiming

@Suite("Pipelines sharing results on Redis")
struct SharedCachePipelineTests {
    /// A pipeline of its own (its own loader, memory and disk caches, metrics) on `redis`.
    struct Instance {
        let pipeline: ImagePipeline
        let loader: CountingFileLoader
        let metrics: TestMetrics
        let cache: RedisDataCache

        init(redis: RedisConfiguration, diskCache: DataCache? = nil, storesOriginals: Bool = false) {
            loader = CountingFileLoader()
            metrics = TestMetrics()
            cache = RedisDataCache(configuration: redis, metricsFactory: metrics)
            var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil, dataCache: diskCache)
            configuration.sharedCache = cache
            configuration.sharedCacheStoresOriginalData = storesOriginals
            configuration.metricsFactory = metrics
            pipeline = ImagePipeline(configuration: configuration)
        }

        func count(_ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
            (try? metrics.expectCounter(label, dimensions).totalValue) ?? 0
        }
    }

    static let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(size: 64))
    static let webp = OutputEncoding.fixed(.webp(WebPOptions()))

    @Test func aSecondInstanceServesWhatTheFirstMadeWithNoFetchDecodeOrEncode() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let redis = try RedisConfiguration.testing(server)
        let first = Instance(redis: redis)
        let made = try await first.pipeline.encodedImage(for: Self.request, as: Self.webp)
        #expect(made.cacheType == nil)
        await first.pipeline.flushDiskCache()
        #expect(first.loader.loads == 1)
        // The key in Redis is the pipeline's result key, hashed under the namespace.
        let key = first.cache.redisKey(for: first.pipeline.resultKey(for: Self.request, as: Self.webp))
        #expect(try server.cli(["EXISTS", key]) == "1")

        let disk = try DataCache(path: try Files.temporaryDirectory())
        let second = Instance(redis: redis, diskCache: disk)
        let shared = try await second.pipeline.encodedImage(for: Self.request, as: Self.webp)
        #expect(shared.cacheType == .shared)
        #expect(shared.image.data == made.image.data)
        #expect(shared.image.format == .webp && shared.image.width == made.image.width && shared.image.height == made.image.height)
        #expect(second.loader.loads == 0)
        #expect(second.count("vignette_source_fetches_total") == 0)
        #expect(second.count("vignette_decodes_total") == 0)
        #expect(second.count("vignette_encodes_total") == 0)
        #expect(second.count("vignette_cache_hits_total", [("layer", "redis")]) == 1)

        // The hit filled the local tiers: memory now, and the disk once memory is gone.
        #expect(try await second.pipeline.encodedImage(for: Self.request, as: Self.webp).cacheType == .memory)
        await second.pipeline.flushDiskCache()
        #expect(disk.data(for: second.pipeline.resultKey(for: Self.request, as: Self.webp)) == made.image.data)
    }

    @Test func originalBytesAreSharedWhenAsked() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let redis = try RedisConfiguration.testing(server)
        let first = Instance(redis: redis, storesOriginals: true)
        let original = try await first.pipeline.data(for: Self.request)
        await first.pipeline.flushDiskCache()
        let second = Instance(redis: redis, storesOriginals: true)
        #expect(try await second.pipeline.data(for: Self.request) == original)
        #expect(second.loader.loads == 0)
        // Without the switch only results go to Redis.
        let third = Instance(redis: try .testing(server, namespace: "results-only"))
        _ = try await third.pipeline.data(for: Self.request)
        await third.pipeline.flushDiskCache()
        #expect(try server.cli(["KEYS", "results-only:*"]) == "")
    }

    @Test func requestsSucceedFromTheSourceWhileRedisIsDownAndUseItAgainWhenItIsBack() async throws {
        let server = try RedisTestServer.start()
        defer { server.stop() }
        let instance = Instance(redis: try .testing(server))
        let sizes = Array(40..<80)
        // Half the load with Redis up, then Redis stops in the middle.
        for size in sizes.prefix(20) {
            let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(size: size))
            #expect(try await instance.pipeline.encodedImage(for: request, as: Self.webp).image.width == size)
        }
        await instance.pipeline.flushDiskCache()
        #expect(try server.cli(["DBSIZE"]) == "20")
        server.stop()
        let outcomes = await withTaskGroup(of: Bool.self) { group -> [Bool] in
            for size in sizes.suffix(20) {
                group.addTask {
                    let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(size: size))
                    return (try? await instance.pipeline.encodedImage(for: request, as: Self.webp).image.width) == size
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 20 && outcomes.allSatisfy { $0 })
        // Every thumbnail was made from the source (the concurrent ones share one read of the file).
        #expect(instance.count("vignette_decodes_total") == 40)
        #expect(instance.count("vignette_cache_hits_total", [("layer", "redis")]) == 0)
        // Failures are counted, and once the breaker is open the rest do not try Redis.
        let errors = instance.count("vignette_redis_errors_total", [("operation", "get")])
            + instance.count("vignette_redis_errors_total", [("operation", "set")])
        #expect(errors >= 3 && errors <= 3 + RedisConfiguration().maxIdleConnections)
        #expect(instance.count("vignette_redis_skipped_total", [("reason", "breaker_open")]) >= 20)

        try server.restart()
        let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(size: 90))
        #expect(await eventually {
            _ = instance.cache.entry(for: "probe")
            return !instance.cache.isBreakerOpen
        })
        _ = try await instance.pipeline.encodedImage(for: request, as: Self.webp)
        await instance.pipeline.flushDiskCache()
        #expect(try server.cli(["DBSIZE"]) == "1")
    }
}
