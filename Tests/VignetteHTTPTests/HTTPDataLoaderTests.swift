import Foundation
import LoopbackHTTPServer
import Testing
import Vignette
@testable import VignetteHTTP
import TestTiming
import VignetteSupport

/// The HTTP loader against a real server on 127.0.0.1: resumes, limits, statuses, timeouts,
/// redirects and the rate limiter.
@Suite struct HTTPDataLoaderTests {
    @Test("a download cut off at 60 % resumes with Range + If-Range and ends with the original bytes",
          arguments: [(etag: "\"v1\"", lastModified: nil), (etag: nil, lastModified: "Sat, 21 Nov 2026 10:00:00 GMT")] as [(String?, String?)])
    func resumesAfterACutOff(validators: (etag: String?, lastModified: String?)) async throws {
        let original = try Files.fixture("baseline.jpg")
        try await withServer { server in
            server.setRoute("/photo.jpg", Route(
                body: original, etag: validators.etag, lastModified: validators.lastModified, acceptsRanges: true,
                cutOffResponses: 1, cutOffFraction: 0.6))
            let loader = makeLoader()
            let first = await httpError { _ = try await loader.load(server.url("/photo.jpg")) }
            #expect(first?.kind == .connectionFailed)
            #expect(loader.resumableDownloads.count == 1)

            let loaded = try await loader.load(server.url("/photo.jpg"))
            #expect(loaded.data == Data(original))
            let requests = server.requests(for: "/photo.jpg")
            #expect(requests.count == 2)
            let range = try #require(requests.last?.header("Range"))
            let start = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
            #expect(start > 0 && start <= Int(Double(original.count) * 0.6))
            #expect(requests.last?.header("If-Range") == validators.etag ?? validators.lastModified)
            #expect(requests.first?.header("Range") == nil)
        }
    }

    @Test("without a validator a broken download starts over")
    func startsOverWithoutValidator() async throws {
        let original = try Files.fixture("baseline.jpg")
        try await withServer { server in
            server.setRoute("/photo.jpg", Route(body: original, acceptsRanges: true, cutOffResponses: 1))
            let loader = makeLoader()
            #expect(await httpError { _ = try await loader.load(server.url("/photo.jpg")) } != nil)
            let loaded = try await loader.load(server.url("/photo.jpg"))
            #expect(loaded.data == Data(original))
            #expect(server.requests(for: "/photo.jpg").map { $0.header("Range") } == [nil, nil])
        }
    }

    @Test("a server that answers a Range request with 200 is taken from the start")
    func rangeIgnoredMeansStartOver() async throws {
        let original = try Files.fixture("baseline.jpg")
        try await withServer { server in
            server.setRoute("/photo.jpg", Route(body: original, etag: "\"a\"", acceptsRanges: true, cutOffResponses: 1))
            let loader = makeLoader()
            _ = await httpError { _ = try await loader.load(server.url("/photo.jpg")) }
            // The file changed on the server: If-Range no longer matches, the server sends all of it.
            server.setRoute("/photo.jpg", Route(body: original.reversed(), etag: "\"b\"", acceptsRanges: true))
            let loaded = try await loader.load(server.url("/photo.jpg"))
            #expect(loaded.data == Data(original.reversed()))
            #expect(server.requests(for: "/photo.jpg").last?.header("If-Range") == "\"a\"")
        }
    }

    @Test("a response over the size limit is refused from its Content-Length, or aborted without one",
          arguments: [Route.Delivery.whole, .chunkedWithoutLength])
    func sizeLimit(delivery: Route.Delivery) async throws {
        try await withServer { server in
            server.setRoute("/big", Route(body: [UInt8](repeating: 7, count: 200_000), delivery: delivery))
            let loader = makeLoader(maximumResponseSize: 50_000)
            let received = Locked(0)
            let error = await httpError {
                _ = try await loader.load(server.url("/big"), context: DataLoadingContext(
                    received: { data, _ in received.withLock { $0 = max($0, data.count) } }, progress: { _, _ in }))
            }
            #expect(error?.kind == .responseTooLarge)
            #expect(received.withLock { $0 } <= 50_000)
        }
    }

    @Test("HTTPDataLoader(limits:) holds a download and a local file (its fallback) to the same byte limit")
    func limitsReachTheFileFallback() async throws {
        let fixture = try Files.fixture("baseline.jpg")
        let path = Files.repository.appendingPathComponent("Fixtures/baseline.jpg").path
        try await withServer { server in
            server.setRoute("/photo.jpg", Route(body: fixture))
            for (limit, accepted) in [(fixture.count - 1, false), (fixture.count, true)] {
                var limits = DecodingLimits.untrusted
                limits.maxInputBytes = limit
                let loader = HTTPDataLoader(limits: limits)
                #expect(loader.configuration.maximumResponseSize == limit)
                let file = try? await loader.loadData(for: ImageRequest(path: path), progress: { _, _ in })
                #expect((file == Data(fixture)) == accepted, "file, limit \(limit)")
                let download = try? await loader.load(server.url("/photo.jpg"))
                #expect((download?.data == Data(fixture)) == accepted, "download, limit \(limit)")
            }
        }
    }

    @Test("404 and 500 are typed errors with the status", arguments: [404, 500])
    func badStatus(code: Int) async throws {
        try await withServer { server in
            server.setRoute("/x", .status(code))
            let error = await httpError { _ = try await makeLoader().load(server.url("/x")) }
            #expect(error?.kind == .badStatus)
            #expect(error?.statusCode == code)
            #expect(error?.description.contains(server.url("/x")) == true)
        }
    }

    @Test("a server that stalls gives a timeout within the read timeout")
    func stallTimesOut() async throws {
        try await withServer { server in
            server.setRoute("/slow", Route(body: [UInt8](repeating: 1, count: 1000), delivery: .stall))
            let started = ContinuousClock.now
            let error = await httpError { _ = try await makeLoader(readTimeout: .milliseconds(300)).load(server.url("/slow")) }
            #expect(error?.kind == .timedOut)
            // The read timeout fired, not the 60-s request deadline (the bound is loose: this test
            // shares Swift's pool with CPU-bound ones and may wait for it after the timeout).
            #expect(error?.message.contains("readTimeout") == true, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("a server that is gone gives .connectionFailed; a URL that is not http(s) gives .invalidURL")
    func connectionRefused() async throws {
        let server = try await LoopbackHTTPServer.start()
        let url = server.url("/gone.jpg")
        await server.stop()
        // AsyncHTTPClient retries a refused connection until the connect timeout.
        let loader = makeLoader(connectTimeout: .milliseconds(500))
        #expect(await httpError { _ = try await loader.load(url) }?.kind == .connectionFailed)
        #expect(await httpError { _ = try await loader.load("ftp://127.0.0.1/x.jpg") }?.kind == .invalidURL)
    }

    @Test("redirects are followed up to the limit, then refused")
    func redirects() async throws {
        try await withServer { server in
            server.setRoute("/final", Route(body: [1, 2, 3]))
            server.setRoute("/hop1", .redirect(to: server.url("/final")))
            for index in 0..<10 { server.setRoute("/loop\(index)", .redirect(to: server.url("/loop\(index + 1)"))) }
            let loader = makeLoader(maximumRedirects: 3)
            let followed = try await loader.load(server.url("/hop1"))
            #expect(followed.data == Data([1, 2, 3]))
            let error = await httpError { _ = try await loader.load(server.url("/loop0")) }
            #expect(error?.kind == .tooManyRedirects)
            #expect(server.requests(for: "/loop4").isEmpty)
        }
    }

    @Test("requests waiting for the rate limiter that are cancelled never reach the server")
    func rateLimiterAbsorbsCancelledBursts() async throws {
        try await withServer { server in
            server.setRoute("/a", Route(body: [1]))
            let loader = makeLoader(rateLimiter: RateLimiter(rate: 1, burst: 2))
            let tasks = (0..<8).map { _ in Task { try await loader.load(server.url("/a")) } }
            #expect(await eventually { server.requests(for: "/a").count == 2 })
            for task in tasks { task.cancel() }
            var cancelled = 0
            for task in tasks {
                if case .failure(let error) = await task.result, error is CancellationError { cancelled += 1 }
            }
            #expect(cancelled >= 6)
            #expect(server.requests(for: "/a").count == 2)
        }
    }

    @Test("a token bucket lets a burst through, then paces")
    func tokenBucketPaces() async throws {
        let limiter = RateLimiter(rate: 20, burst: 3)
        let started = ContinuousClock.now
        for _ in 0..<7 { try await limiter.acquire() }
        // Three from the burst, then four at 20 a second: at least 200 ms, however fast the machine.
        #expect(ContinuousClock.now - started >= .milliseconds(195))
    }
}

@Suite struct HostHeaderTests {
    @Test("a request carrying a Host in its userInfo is sent to the URL's address with that Host")
    func pinnedAddress() async throws {
        let original = try Files.fixture("baseline.jpg")
        try await withServer { server in
            server.setRoute("/photo.jpg", Route(body: original))
            let loader = makeLoader()
            let url = try #require(URL(string: server.url("/photo.jpg")))
            let request = ImageRequest(source: .url(url, host: "images.example.com:8080"))
            let loaded = try await loader.loadData(for: request, context: DataLoadingContext(received: { _, _ in }, progress: { _, _ in }))
            #expect(loaded.data == Data(original))
            #expect(server.requests(for: "/photo.jpg").first?.header("Host") == "images.example.com:8080")
            _ = try await loader.load(server.url("/photo.jpg"))
            #expect(server.requests(for: "/photo.jpg").last?.header("Host")?.hasPrefix("127.0.0.1") == true)
        }
    }
}
