import Foundation
import Testing
@testable import Vignette
import Logging
import TestTiming
import VignetteSupport

/// What a service's load exposed: stages that leave threads idle under a burst, nodes shared by
/// requests whose options differ, processed-image stores done once per caller on the response path.
@Suite("The pipeline under load")
struct LoadTests {
    let path = Files.fixture("baseline.jpg")

    @Test("a burst uses every thread of a stage, even with one thread already idle")
    func burst() async throws {
        let stage = ThreadStage(name: "test", maxConcurrent: 4)
        defer { stage.shutdown() }
        // One warm thread, idle.
        let warm = DispatchSemaphore(value: 0)
        _ = stage.enqueue(priority: .normal) { warm.signal() }
        warm.wait()
        #expect(await eventually { stage.queuedCount == 0 })
        try await Task.sleep(for: .milliseconds(20))
        let running = Locked((now: 0, peak: 0))
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            _ = stage.enqueue(priority: .normal) {
                running.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                Thread.sleep(forTimeInterval: 0.2)
                running.withLock { $0.now -= 1 }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(running.withLock { $0.peak } == 4)
    }

    /// Two concurrent requests for one uncached image, the second with `options`.
    func concurrent(_ options: ImageRequest.Options) async throws -> (first: Result<Image, ImagePipelineError>, second: Result<Image, ImagePipelineError>, loads: Int) {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader) {
            $0.dataCache = try? DataCache(path: folder)
            $0.imageCache = nil
            $0.dataCachePolicy = .storeOriginalData
        }
        let plain = ImageRequest(path: path)
        var other = plain
        other.options = options
        let first = pipeline.imageTask(with: plain)
        let second = pipeline.imageTask(with: other)
        #expect(await eventually { loader.started >= 1 })
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        return (await outcome(first), await outcome(second), loader.started)
    }

    func outcome(_ task: ImageTask) async -> Result<Image, ImagePipelineError> {
        do { return .success(try await task.image) } catch { return .failure(error) }
    }

    @Test("a cache-only request never receives another request's network load, nor fails it")
    func cacheOnlyIsApart() async throws {
        let (first, second, loads) = try await concurrent([.returnCacheDataDontLoad])
        #expect((try? first.get()) != nil)
        guard case .failure(.dataMissingInCache) = second else {
            Issue.record("the cache-only request got \(second)")
            return
        }
        #expect(loads == 1)
    }

    @Test("requests that reload, or skip disk reads or writes, get loads of their own",
          arguments: [ImageRequest.Options.reloadIgnoringCachedData, .disableDiskCacheReads, .disableDiskCacheWrites])
    func optionsAreApart(option: ImageRequest.Options) async throws {
        let (first, second, loads) = try await concurrent([option])
        #expect((try? first.get()) != nil && (try? second.get()) != nil)
        #expect(loads == 2)
    }

    @Test("equal options still coalesce")
    func equalOptionsCoalesce() async throws {
        let (first, second, loads) = try await concurrent([])
        #expect((try? first.get()) != nil && (try? second.get()) != nil)
        #expect(loads == 1)
    }

    @Test("ten coalesced requests store their processed image on disk once, off the response path")
    func oneStore() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encodes = Locked(0)
        let gate = Gate()
        let pipeline = ImagePipeline.testing(loader: CountingLoader(gate: gate)) {
            $0.dataCache = try? DataCache(path: folder)
            $0.imageCache = nil
            $0.processedImageEncoding = { _ in
                encodes.withLock { $0 += 1 }
                return .jpeg(JPEGOptions(quality: 80))
            }
        }
        let request = ImageRequest(path: path, processors: [ImageProcessors.Resize(size: 64)])
        let tasks = (0..<10).map { _ in pipeline.imageTask(with: request) }
        #expect(await eventually { pipeline.subscriberCount(for: request) == 10 })
        gate.open()
        for task in tasks { _ = try await task.image }
        await pipeline.flushDiskCache()
        #expect(encodes.withLock { $0 } == 1)
        #expect(pipeline.configuration.dataCache?.containsData(for: DiskKeys.processed(request)) == true)
    }

    @Test("an encoder that fails for the disk cache does not fail a request whose image is made")
    func storeFailureIsNotARequestFailure() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.dataCache = try? DataCache(path: folder)
            $0.processedImageEncoding = { _ in .jpeg(JPEGOptions(quality: 500)) }
        }
        let request = ImageRequest(path: path, processors: [ImageProcessors.Resize(size: 64)])
        let image = try await pipeline.image(for: request)
        #expect(image.width == 64)
        await pipeline.flushDiskCache()
        #expect(pipeline.configuration.dataCache?.containsData(for: DiskKeys.processed(request)) == false)
    }
}

@Suite("File identity")
struct FileIdentityTests {
    @Test("a file edited in place is served fresh from every cache")
    func editedFile() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/photo.jpg"
        try FileManager.default.copyItem(atPath: Files.fixture("baseline.jpg"), toPath: file)  // 640×480
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.dataCache = try? DataCache(path: folder + "/cache")
            $0.dataCachePolicy = .storeAll
        }
        let request = ImageRequest(path: file, processors: [ImageProcessors.Resize(size: 100)])
        let before = try await pipeline.image(for: request)
        #expect(before.width == 100 && before.height == 75)
        await pipeline.flushDiskCache()
        // The same name, other content (1000×1) and another modification time.
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: Files.fixture("line-1000x1.jpg"), toPath: file)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        // A request made now sees the new identity (one kept from before keeps the old one).
        let after = try await pipeline.image(for: ImageRequest(path: file, processors: [ImageProcessors.Resize(size: 100)]))
        #expect(after.width == 100 && after.height == 1)
    }
}

@Suite("Abandoned work stops")
struct AbandonedWorkTests {
    static let giant = Files.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/giant-image.jpg").path

    @Test("a full decode of a 280-MP JPEG stops part-way when cancelled (libvips' kill flag)",
          .enabled(if: FileManager.default.fileExists(atPath: giant), "../shared/corpus is absent"))
    func codecLevel() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.giant))
        let cancellation = ImagingCancellation()
        // A thread of its own: Dispatch's global queues share threads with the cooperative pool,
        // which the suite's CPU-bound tests may hold for seconds. It cancels once the computation
        // has begun, whatever the machine's speed, so the kill flag is what stops it.
        Thread.detachNewThread {
            let deadline = Date() + 120
            while !cancellation.didStartComputation, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            cancellation.cancel()
        }
        do {
            _ = try ImageDecoder(limits: .unlimited).decode(data, cancellation: cancellation)
            Issue.record("the decode ran to its end")
        } catch {
            #expect(error.kind == .cancelled, "\(error)")
        }
        #expect(cancellation.didStopComputation)
    }

    @Test("the pipeline stops a decode whose last subscriber left",
          .enabled(if: FileManager.default.fileExists(atPath: giant), "../shared/corpus is absent"))
    func pipelineLevel() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.giant))
        let pipeline = ImagePipeline.testing(loader: FileDataLoader()) { $0.decodingLimits = .unlimited }
        let request = ImageRequest(source: .data(id: "giant", load: { data }))
        let task = pipeline.imageTask(with: request)
        // Cancelled 100 ms into the decode from a thread of its own: a test task's sleep can
        // outlast the whole decode when the suite's other tests hold Swift's two pool threads.
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + .seconds(120 * testTimeScale)
            while pipeline.decoding.startedCount == 0, ContinuousClock.now < deadline { usleep(1_000) }
            usleep(100_000)
            task.cancel()
        }
        #expect(await eventually { pipeline.decoding.startedCount == 1 })
        #expect(await eventually { pipeline.graph.withLock { $0.decodesStopped } == 1 })
        #expect(await eventually { pipeline.inFlightCount == 0 })
    }
}

/// Collects what is logged, for tests.
struct CapturingLogHandler: LogHandler {
    let messages: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        messages.withLock { $0.append("\(event.level) \(event.message)") }
    }
}

@Suite("The logger is the application's")
struct InjectedLoggerTests {
    @Test("a disk-cache write failure is logged as a warning on the configured logger")
    func warningReachesTheLogger() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let messages = Locked<[String]>([])
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.dataCache = try? DataCache(path: folder)
            $0.processedImageEncoding = { _ in .jpeg(JPEGOptions(quality: 500)) }
            $0.logger = Logger(label: "test") { _ in CapturingLogHandler(messages: messages) }
        }
        _ = try await pipeline.image(for: ImageRequest(path: Files.fixture("baseline.jpg"), processors: [ImageProcessors.Resize(size: 32)]))
        await pipeline.flushDiskCache()
        #expect(messages.withLock { $0 }.contains { $0.hasPrefix("warning could not store a processed image on disk") })
    }
}

@Suite("Disk-cache staging is bounded")
struct StagingLimitTests {
    @Test("writes waiting for the disk never hold more than the staging limit; past it they are dropped")
    func bounded() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try DataCache(path: folder, sweepInterval: .zero, stagingLimit: 50_000)
        var stored = 0
        for index in 0..<200 {
            cache.storeData(Data(repeating: UInt8(index % 251), count: 10_000), for: "key-\(index)")
            #expect(cache.stagedBytes <= 50_000)
            if cache.containsData(for: "key-\(index)") { stored += 1 }
        }
        // Too big for the staging area at all: never staged.
        cache.storeData(Data(count: 60_000), for: "big")
        #expect(!cache.containsData(for: "big"))
        await cache.flush()
        #expect(cache.stagedBytes == 0)
        #expect(stored >= 5)
        for index in 0..<200 where cache.containsData(for: "key-\(index)") {
            #expect(cache.data(for: "key-\(index)") == Data(repeating: UInt8(index % 251), count: 10_000))
        }
    }
}
