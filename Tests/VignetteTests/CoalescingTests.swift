import Foundation
import Testing
@testable import Vignette
import TestTiming

@Suite("Coalescing: equal work is done once")
struct CoalescingTests {
    let path = Files.fixture("baseline.jpg")

    @Test("same source and processors: one load, one decode, one processor run")
    func sameRequest() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let blur = CountingProcessor("blur")
        let request = ImageRequest(path: path, processors: [blur])
        let first = pipeline.imageTask(with: request)
        let second = pipeline.imageTask(with: request)
        #expect(await eventually { pipeline.subscriberCount(for: request) == 2 })
        gate.open()
        let a = try await first.image
        let b = try await second.image
        #expect(a === b)
        #expect(loader.started == 1)
        #expect(pipeline.decoding.startedCount == 1)
        #expect(blur.count == 1)
    }

    @Test("same source, different processors: one load, one decode, each processor once")
    func differentProcessors() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let p1 = CountingProcessor("p1")
        let p2 = CountingProcessor("p2")
        let r1 = ImageRequest(path: path, processors: [p1])
        let r2 = ImageRequest(path: path, processors: [p2])
        let t1 = pipeline.imageTask(with: r1)
        let t2 = pipeline.imageTask(with: r2)
        #expect(await eventually { pipeline.subscriberCount(for: r1, processors: 0) == 2 })
        gate.open()
        _ = try await (t1.image, t2.image)
        #expect(loader.started == 1)
        #expect(pipeline.decoding.startedCount == 1)
        #expect(p1.count == 1 && p2.count == 1)
    }

    @Test("[resize] and [resize, blur] at once: resize runs once")
    func sharedPrefix() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let resize = CountingProcessor("resize")
        let blur = CountingProcessor("blur")
        let short = ImageRequest(path: path, processors: [resize])
        let long = ImageRequest(path: path, processors: [resize, blur])
        let t1 = pipeline.imageTask(with: short)
        let t2 = pipeline.imageTask(with: long)
        #expect(await eventually { pipeline.subscriberCount(for: short) == 2 })
        gate.open()
        _ = try await (t1.image, t2.image)
        #expect(resize.count == 1)
        #expect(blur.count == 1)
        #expect(loader.started == 1)
    }

    @Test("coalescing off: independent work")
    func off() async throws {
        let loader = CountingLoader()
        let pipeline = ImagePipeline.testing(loader: loader) {
            $0.isCoalescingEnabled = false
            $0.imageCache = nil
        }
        let blur = CountingProcessor("blur")
        let request = ImageRequest(path: path, processors: [blur])
        async let a = pipeline.image(for: request)
        async let b = pipeline.image(for: request)
        _ = try await (a, b)
        #expect(loader.started == 2)
        #expect(pipeline.decoding.startedCount == 2)
        #expect(blur.count == 2)
    }

    @Test("100 concurrent identical requests: one decode")
    func hundred() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 128))
        let tasks = (0..<100).map { _ in pipeline.imageTask(with: request) }
        #expect(await eventually { pipeline.subscriberCount(for: request) == 100 })
        gate.open()
        for task in tasks { _ = try await task.image }
        #expect(loader.started == 1)
        #expect(pipeline.decoding.startedCount == 1)
    }
}
