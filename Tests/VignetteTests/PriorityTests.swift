import Foundation
import Testing
@testable import Vignette
import TestTiming

@Suite("Priorities")
struct PriorityTests {
    let path = Files.fixture("baseline.jpg")

    @Test("shared work runs at its most urgent subscriber's priority, and drops back when it leaves")
    func highestSubscriber() async throws {
        let gate = Gate()
        let pipeline = ImagePipeline.testing(loader: CountingLoader(gate: gate))
        var low = ImageRequest(path: path)
        low.priority = .low
        let lowTask = pipeline.imageTask(with: low)
        #expect(await eventually { pipeline.loadNodePriority(for: low) == .low })
        var high = low
        high.priority = .veryHigh
        let highTask = pipeline.imageTask(with: high)
        #expect(await eventually { pipeline.loadNodePriority(for: low) == .veryHigh })
        highTask.cancel()
        #expect(await eventually { pipeline.loadNodePriority(for: low) == .low })
        lowTask.setPriority(.high)
        #expect(await eventually { pipeline.loadNodePriority(for: low) == .high })
        gate.open()
        _ = try await lowTask.image
    }

    @Test("raising a queued task's priority moves it ahead of lower ones")
    func reorder() async throws {
        let hold = DispatchSemaphore(value: 0)
        let log = RunLog()
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) { $0.processingConcurrency = 1 }
        // Occupy the only processing thread.
        let blocker = pipeline.imageTask(with: ImageRequest(path: path, processors: [CountingProcessor("blocker", hold: hold, log: log)]))
        #expect(await eventually { log.all == ["blocker"] })
        var tasks: [ImageTask] = []
        for name in ["a", "b", "c"] {
            var request = ImageRequest(path: Files.fixture("orientation-1.jpg"), processors: [CountingProcessor(name, log: log)])
            request.priority = .low
            tasks.append(pipeline.imageTask(with: request))
        }
        // All three processor runs wait behind the blocker.
        #expect(await eventually { pipeline.processing.queuedCount == 3 })
        tasks[2].setPriority(.high)
        hold.signal()
        _ = try await blocker.image
        for task in tasks { _ = try await task.image }
        // c, raised, goes first; a and b keep their (decode-completion) order behind it.
        #expect(Array(log.all.prefix(2)) == ["blocker", "c"])
        #expect(Set(log.all.dropFirst(2)) == ["a", "b"])
    }
}
