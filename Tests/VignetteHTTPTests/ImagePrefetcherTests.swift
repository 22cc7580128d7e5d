import Foundation
import LoopbackHTTPServer
import Testing
@testable import Vignette
import VignetteHTTP
import TestTiming
import VignetteSupport

/// The prefetcher over the HTTP loader and a real server on 127.0.0.1.
@Suite struct ImagePrefetcherTests {
    let photo: [UInt8]

    init() throws { photo = try Files.fixture("baseline.jpg") }

    func urls(_ server: LoopbackHTTPServer, count: Int, delivery: Route.Delivery = .whole) -> [URL] {
        (0..<count).map { index in
            server.setRoute("/\(index).jpg", Route(body: photo, delivery: delivery))
            return URL(string: server.url("/\(index).jpg"))!
        }
    }

    @Test("ten URLs prefetched into memory, then loaded: no second request, served from memory")
    func prefetchThenLoad() async throws {
        try await withServer { server in
            let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader()))
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            let done = Locked(0)
            prefetcher.didComplete = { done.withLock { $0 += 1 } }
            let urls = urls(server, count: 10)
            prefetcher.startPrefetching(with: urls + urls)
            #expect(await eventually { done.withLock { $0 } == 1 })
            for url in urls {
                let response = try await pipeline.response(for: ImageRequest(url: url))
                #expect(response.cacheType == .memory)
            }
            #expect(server.allRequests.count == 10)
            prefetcher.startPrefetching(with: urls)
            #expect(prefetcher.counts == (0, 0))
        }
    }

    @Test("prefetched to disk, then loaded after the server has stopped: served from the disk cache")
    func prefetchToDisk() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await LoopbackHTTPServer.start()
        let urls = urls(server, count: 4)
        let cache = try DataCache(path: folder)
        let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader(), imageCache: nil, dataCache: cache))
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache)
        let thumbnail = ThumbnailOptions(width: 100, height: 100)
        prefetcher.startPrefetching(with: urls.map { ImageRequest(url: $0, thumbnail: thumbnail) })
        #expect(await eventually { urls.allSatisfy { cache.containsData(for: $0.absoluteString) } })
        await server.stop()
        await cache.flush()

        let offline = ImagePipeline(configuration: .init(dataLoader: makeLoader(), imageCache: nil, dataCache: try DataCache(path: folder)))
        for url in urls {
            let image = try await offline.image(for: ImageRequest(url: url, thumbnail: thumbnail))
            #expect(max(image.width, image.height) == 100)
        }
        #expect(server.allRequests.count == 4)
    }

    @Test("paused, it starts nothing; resumed, at most maxConcurrentRequestCount run at a time")
    func pauseAndConcurrency() async throws {
        try await withServer { server in
            let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader()))
            let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrentRequestCount: 2)
            prefetcher.isPaused = true
            prefetcher.startPrefetching(with: urls(server, count: 6, delivery: .dribble(chunkSize: 8192, interval: .milliseconds(40))))
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.allRequests.isEmpty)
            #expect(prefetcher.counts == (0, 6))

            prefetcher.isPaused = false
            var most = 0
            while server.allRequests.count < 6 || prefetcher.counts.running > 0 {
                most = max(most, prefetcher.counts.running)
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(most == 2)
            #expect(server.allRequests.count == 6)
        }
    }

    @Test("a normal request made while 50 prefetches wait starts before them")
    func normalRequestsGoFirst() async throws {
        try await withServer { server in
            let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader()))
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            prefetcher.startPrefetching(with: urls(server, count: 52, delivery: .stall))
            #expect(await eventually { server.allRequests.count == 2 })
            #expect(prefetcher.counts == (2, 50))
            server.setRoute("/normal.jpg", Route(body: photo))
            let image = try await pipeline.image(for: ImageRequest(url: URL(string: server.url("/normal.jpg"))!))
            #expect(image.width == 640)
            #expect(server.allRequests.map(\.path).firstIndex(of: "/normal.jpg") == 2)
            prefetcher.stopPrefetching()
            #expect(prefetcher.counts == (0, 0))
        }
    }

    @Test("stopping a request, and the prefetcher going away, cancel what runs")
    func stopAndDeinitCancel() async throws {
        try await withServer { server in
            let pipeline = ImagePipeline(configuration: .init(dataLoader: makeLoader()))
            var prefetcher: ImagePrefetcher? = ImagePrefetcher(pipeline: pipeline)
            let urls = urls(server, count: 3, delivery: .stall)
            prefetcher?.startPrefetching(with: urls)
            #expect(await eventually { server.allRequests.count == 2 })
            prefetcher?.stopPrefetching(with: [urls[0]])
            #expect(await eventually { server.allRequests.count == 3 })
            #expect(prefetcher.map { $0.counts == (2, 0) } == true)
            prefetcher = nil
            #expect(await eventually { pipeline.graph.withLock { $0.tasks.isEmpty && $0.loads.isEmpty } })
        }
    }
}
