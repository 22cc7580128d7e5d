import Foundation
import Vignette
import VignetteRedis

/// The shared cache on Redis (issue 12): a Redis hit against a local disk hit and a miss for a
/// 256-px thumbnail; a second instance serving results the first made against making them; and
/// what an outage costs once the circuit breaker is open (Redis refusing, and Redis not answering).
enum SharedCacheBench {
    static let usage = "shared-cache --input FILE --redis redis://HOST:PORT [--runs N] [--distinct N]"

    static func run(_ arguments: ArraySlice<String>) async throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "redis", "runs", "distinct"])
        let input = try parsed.required("input")
        var redis = try RedisConfiguration(url: try parsed.required("redis"))
        redis.namespace = "bench-\(UUID().uuidString)"
        let runs = max(3, Int(try parsed.double("runs", default: 30)))
        let distinct = max(8, Int(try parsed.double("distinct", default: 64)))
        let encoding = OutputEncoding.fixed(.jpeg(JPEGOptions(quality: 80)))
        let request = ImageRequest(path: input, thumbnail: ThumbnailOptions(size: 256))
        let clock = ContinuousClock()
        var lines: [String] = []

        /// A pipeline with only the tiers asked for: no memory caches unless `memory`.
        func pipeline(disk: DataCache? = nil, shared: (any SharedDataCaching)? = nil) -> ImagePipeline {
            var configuration = ImagePipeline.Configuration(imageCache: nil, dataCache: disk)
            configuration.encodedImageCache = nil
            configuration.sharedCache = shared
            return ImagePipeline(configuration: configuration)
        }
        func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
            let start = clock.now
            try await body()
            return (clock.now - start).seconds * 1000
        }

        // 1. One 256-px thumbnail: Redis hit, disk hit, miss (interleaved, medians).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = pipeline(disk: try DataCache(path: folder))
        _ = try await disk.encodedImage(for: request, as: encoding)
        await disk.flushDiskCache()
        let cache = RedisDataCache(configuration: redis)
        let warm = pipeline(shared: cache)
        _ = try await warm.encodedImage(for: request, as: encoding)
        await warm.flushDiskCache()
        let fromRedis = pipeline(shared: cache)
        var redisTimes: [Double] = [], diskTimes: [Double] = [], missTimes: [Double] = []
        for _ in 0..<runs {
            redisTimes.append(try await milliseconds {
                guard try await fromRedis.encodedImage(for: request, as: encoding).cacheType == .shared else {
                    throw UsageError("expected a Redis hit")
                }
            })
            diskTimes.append(try await milliseconds {
                guard try await disk.encodedImage(for: request, as: encoding).cacheType == .disk else {
                    throw UsageError("expected a disk hit")
                }
            })
            missTimes.append(try await milliseconds { _ = try await pipeline().encodedImage(for: request, as: encoding) })
        }
        var line = JSONLine()
        line.add("case", "256-px JPEG thumbnail: Redis hit vs disk hit vs miss")
        line.add("redis_hit_ms", median(redisTimes))
        line.add("disk_hit_ms", median(diskTimes))
        line.add("miss_ms", median(missTimes))
        line.add("runs", runs)
        lines.append(line.text)

        // 2. A second instance on results the first made, against making them; 8 at a time.
        let sizes = (0..<distinct).map { 128 + $0 }
        func requests() -> [ImageRequest] { sizes.map { ImageRequest(path: input, thumbnail: ThumbnailOptions(size: $0)) } }
        func rate(_ pipeline: ImagePipeline, expecting cacheType: ImageResponse.CacheType?) async throws -> Double {
            let all = requests()
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func add() {
                    let request = all[next]
                    next += 1
                    group.addTask {
                        guard try await pipeline.encodedImage(for: request, as: encoding).cacheType == cacheType else {
                            throw UsageError("expected cache type \(String(describing: cacheType))")
                        }
                    }
                }
                for _ in 0..<min(8, all.count) { add() }
                while try await group.next() != nil { if next < all.count { add() } }
            }
            return Double(all.count) / (clock.now - start).seconds
        }
        let first = pipeline(shared: cache)
        _ = try await rate(first, expecting: nil)
        await first.flushDiskCache()
        let hits = try await rate(pipeline(shared: RedisDataCache(configuration: redis)), expecting: .shared)
        let made = try await rate(pipeline(), expecting: nil)
        line = JSONLine()
        line.add("case", "second instance: \(distinct) results the first made, 8 at a time")
        line.add("redis_hits_per_second", hits)
        line.add("made_per_second", made)
        line.add("ratio", hits / made)
        lines.append(line.text)

        // 3. Outage, once the breaker is open: p50/p99 of distinct thumbnails made one at a time,
        //    without Redis, with Redis refusing connections, and with Redis not answering.
        let silent = try SilentListener()
        var refusing = redis
        refusing.port = try SilentListener.freePort()
        var unanswering = redis
        unanswering.port = silent.port
        let variants: [(String, (any SharedDataCaching)?)] = [
            ("no_redis", nil),
            ("refusing", RedisDataCache(configuration: refusing)),
            ("not_answering", RedisDataCache(configuration: unanswering)),
        ]
        let outageRuns = max(100, runs * 4)
        var times: [String: [Double]] = [:]
        let outages = variants.map { ($0.0, pipeline(shared: $0.1)) }
        for (name, outage) in outages {
            for size in 0..<5 { _ = try await outage.encodedImage(for: ImageRequest(path: input, thumbnail: ThumbnailOptions(size: 64 + size)), as: encoding) }
            times[name] = []
        }
        for index in 0..<outageRuns {
            for (name, outage) in outages {
                let request = ImageRequest(path: input, thumbnail: ThumbnailOptions(size: 300 + index))
                times[name, default: []].append(try await milliseconds { _ = try await outage.encodedImage(for: request, as: encoding) })
            }
        }
        line = JSONLine()
        line.add("case", "outage with the breaker open: \(outageRuns) distinct thumbnails one at a time")
        for (name, _) in variants {
            let sorted = (times[name] ?? []).sorted()
            line.add("\(name)_p50_ms", percentile(sorted, 0.50))
            line.add("\(name)_p99_ms", percentile(sorted, 0.99))
        }
        lines.append(line.text)
        return lines.joined(separator: "\n")
    }

    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }
}

/// A TCP listener on 127.0.0.1 that never accepts: connections complete (the kernel's backlog) and
/// commands are never answered — a Redis that hangs.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw UsageError("socket failed") }
        var address = SilentListener.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 1024) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw UsageError("could not listen on 127.0.0.1")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// A port nothing listens on (bound, then closed).
    static func freePort() throws -> Int {
        let listener = try SilentListener()
        return listener.port
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}
