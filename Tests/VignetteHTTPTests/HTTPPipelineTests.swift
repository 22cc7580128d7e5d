import Foundation
import InMemoryTracing
import LoopbackHTTPServer
import TestTiming
import Testing
import Tracing
import Vignette
import VignetteHTTP

/// The pipeline over the HTTP loader and a real server on 127.0.0.1: coalescing, revalidation of
/// the disk cache, previews from partial data.
@Suite struct HTTPPipelineTests {
    @Test("two concurrent requests for one URL make one HTTP request")
    func concurrentRequestsCoalesce() async throws {
        let original = try Files.fixture("baseline.jpg")
        try await withServer { server in
            server.setRoute("/a.jpg", Route(body: original, delivery: .dribble(chunkSize: 1024, interval: .milliseconds(30))))
            let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader(), imageCache: nil))
            let url = URL(string: server.url("/a.jpg"))!
            async let first = pipeline.image(for: ImageRequest(url: url))
            async let second = pipeline.image(for: ImageRequest(url: url, thumbnail: ThumbnailOptions(width: 64, height: 64)))
            let (a, b) = try await (first, second)
            #expect(a.width == 640 && max(b.width, b.height) == 64)
            #expect(server.requests(for: "/a.jpg").count == 1)
        }
    }

    @Test("the fetch's span carries the bytes and the response's status: 200, then 304 when the expired entry is revalidated")
    func fetchSpans() async throws {
        let original = try Files.fixture("baseline.jpg")
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withServer { server in
            server.setRoute("/stale.jpg", Route(body: original, headers: [("Cache-Control", "max-age=0")], etag: "\"e1\""))
            var statuses: [SpanAttribute?] = []
            for _ in 0..<2 {
                let tracer = InMemoryTracer()
                let cache = try DataCache(path: folder)
                var configuration = ImagePipeline.Configuration(dataLoader: makeLoader(), imageCache: nil, dataCache: cache)
                configuration.tracer = tracer
                _ = try await ImagePipeline(configuration: configuration).data(for: ImageRequest(url: URL(string: server.url("/stale.jpg"))!))
                await cache.flush()
                let fetch = try #require(tracer.finishedSpans.first { $0.operationName == "vignette.fetch" })
                #expect(fetch.attributes.get("vignette.fetch.bytes") == .int64(Int64(original.count)))
                statuses.append(fetch.attributes.get("http.response.status_code"))
            }
            #expect(statuses == [.int64(200), .int64(304)])
        }
    }

    @Test("an expired disk-cache entry with an ETag is revalidated: 304 reuses the cached bytes; no-store is never kept")
    func revalidation() async throws {
        let original = try Files.fixture("baseline.jpg")
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withServer { server in
            server.setRoute("/stale.jpg", Route(body: original, headers: [("Cache-Control", "max-age=0")], etag: "\"e1\""))
            server.setRoute("/fresh.jpg", Route(body: original, headers: [("Cache-Control", "max-age=3600")], etag: "\"e2\""))
            server.setRoute("/private.jpg", Route(body: original, headers: [("Cache-Control", "no-store")], etag: "\"e3\""))
            for round in 0..<2 {
                let cache = try DataCache(path: folder)
                let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader(), imageCache: nil, dataCache: cache))
                for path in ["/stale.jpg", "/fresh.jpg", "/private.jpg"] {
                    let data = try await pipeline.data(for: ImageRequest(url: URL(string: server.url(path))!))
                    #expect(data == Data(original), "round \(round) \(path)")
                }
                await cache.flush()
            }
            let stale = server.requests(for: "/stale.jpg")
            #expect(stale.count == 2)
            #expect(stale.last?.header("If-None-Match") == "\"e1\"")
            #expect(server.requests(for: "/fresh.jpg").count == 1)
            // no-store: never kept, so fetched afresh, unconditionally.
            #expect(server.requests(for: "/private.jpg").map { $0.header("If-None-Match") } == [nil, nil])
            // Each kept URL is one entry: its validators and expiry are in the bytes' own file, so
            // no sweep can keep the bytes and lose their expiry (which would make them fresh forever).
            let cache = try DataCache(path: folder)
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.count == 64 }
            #expect(entries.count == 2)
            let stored = try #require(cache.entry(for: server.url("/stale.jpg")))
            #expect(stored.data == Data(original))
            let metadata = try JSONDecoder().decode(ResponseMetadata.self, from: try #require(stored.metadata))
            #expect(metadata.etag == "\"e1\"")
        }
    }

    @Test("a dribbled progressive JPEG and WebP give previews before the final image, which equals a direct decode",
          arguments: ["progressive.jpg", "lossy.webp"])
    func previews(fixture: String) async throws {
        let original = try Files.fixture(fixture)
        try await withServer { server in
            // Three quarters of the file in small chunks, then nothing until the first preview has
            // come (or a minute has passed, and the test fails), then the rest: however long a
            // loaded machine takes to start a preview, the data is not complete before it.
            let gate = Gate()
            server.setRoute("/" + fixture, Route(body: original, delivery: .dribbleHeld(
                chunkSize: 500, interval: .milliseconds(20), holdAt: original.count * 3 / 4, gate: gate)))
            let watchdog = Task {
                try? await Task.sleep(for: .seconds(60 * testTimeScale))
                gate.open()
            }
            defer { watchdog.cancel() }
            var configuration = ImagePipeline.Configuration(dataLoader: makeLoader())
            configuration.isProgressiveDecodingEnabled = true
            configuration.progressiveDecodingInterval = .milliseconds(10)
            let pipeline = ImagePipeline(configuration: configuration)
            let request = ImageRequest(url: URL(string: server.url("/" + fixture))!)
            let task = pipeline.imageTask(with: request)
            var previews: [ImageContainer] = []
            var progress: [(completed: Int64, total: Int64)] = []
            var final: Image?
            for await event in task.events {
                switch event {
                case .preview(let preview):
                    previews.append(preview)
                    gate.open()
                case .finished(let result): final = try result.get().image
                case .progress(let completed, let total): progress.append((completed, total))
                }
            }
            // Progress as the bytes arrived, against the Content-Length, up to all of them (how many
            // reports depends on how the reads coalesce: under ThreadSanitizer fewer, larger ones).
            #expect(progress.count >= 2)
            #expect((progress.first?.completed ?? 0) < Int64(original.count))
            #expect(progress.allSatisfy { $0.total == Int64(original.count) })
            #expect(progress.last?.completed == Int64(original.count))
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed <= $1.completed })
            let image = try #require(final)
            #expect(!previews.isEmpty)
            #expect(previews.allSatisfy { $0.isPreview && $0.image.width == 640 && $0.image.height == 480 })
            let direct = try ImageDecoder().decode(Data(original))
            #expect(image.width == direct.width && image.height == direct.height)
            #expect(try image.perceptualHash().distance(to: direct.perceptualHash()) == 0)
            #expect(pipeline.cachedImage(for: request)?.isPreview == false)
        }
    }
}
