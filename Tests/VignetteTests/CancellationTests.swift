import Foundation
import Testing
@testable import Vignette
import TestTiming

@Suite("Cancellation")
struct CancellationTests {
    let path = Files.fixture("baseline.jpg")

    @Test("cancelling one of two subscribers lets the other finish")
    func oneOfTwo() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: path, processors: [CountingProcessor("p")])
        let leaving = pipeline.imageTask(with: request)
        let staying = pipeline.imageTask(with: request)
        #expect(await eventually { pipeline.subscriberCount(for: request) == 2 })
        leaving.cancel()
        #expect(await eventually { pipeline.subscriberCount(for: request) == 1 })
        gate.open()
        let image = try await staying.image
        #expect(image.width == 640)
        await #expect(throws: ImagePipelineError.self) { try await leaving.image }
        #expect(loader.cancelled == 0)
    }

    @Test("cancelling every subscriber cancels the load, and no decode starts; the task ends promptly with .cancelled")
    func all() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: path, processors: [CountingProcessor("p")])
        let tasks = (0..<3).map { _ in pipeline.imageTask(with: request) }
        #expect(await eventually { loader.started == 1 && pipeline.subscriberCount(for: request) == 3 })
        for task in tasks { task.cancel() }
        for task in tasks {
            do {
                _ = try await task.image
                Issue.record("a cancelled task produced an image")
            } catch {
                #expect(error.isCancelled)
            }
        }
        #expect(await eventually { loader.cancelled == 1 })
        #expect(pipeline.decoding.startedCount == 0)
        #expect(await eventually { pipeline.inFlightCount == 0 })
    }

    @Test("a Swift task cancelled while awaiting image(for:) gets .cancelled")
    func structured() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let waiting = Task { try await pipeline.image(for: ImageRequest(path: path)) }
        #expect(await eventually { loader.started == 1 })
        waiting.cancel()
        let result = await waiting.result
        #expect((try? result.get()) == nil)
        #expect(await eventually { loader.cancelled == 1 })
    }

    @Test("invalidate cancels what runs and fails later requests")
    func invalidate() async throws {
        let gate = Gate()
        let pipeline = ImagePipeline.testing(loader: CountingLoader(gate: gate))
        let task = pipeline.imageTask(with: ImageRequest(path: path))
        #expect(await eventually { pipeline.inFlightCount >= 2 })
        pipeline.invalidate()
        await #expect(throws: ImagePipelineError.self) { try await task.image }
        do {
            _ = try await pipeline.image(for: ImageRequest(path: path))
            Issue.record("an invalidated pipeline produced an image")
        } catch {
            if case .pipelineInvalidated = error {} else { Issue.record("expected .pipelineInvalidated, got \(error)") }
        }
    }
}

extension ImagePipelineError {
    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
