import Foundation
import Testing
@testable import Vignette

@Suite("ImageTask.events: a bounded stream per reader, the final event replayed")
struct ImageTaskEventsTests {
    let path = Files.fixture("baseline.jpg")

    func finished(_ stream: AsyncStream<ImageTask.Event>) async -> (events: Int, finished: Bool) {
        var count = 0
        var finished = false
        for await event in stream {
            count += 1
            if case .finished(let result) = event { finished = (try? result.get()) != nil }
        }
        return (count, finished)
    }

    @Test("two readers each get the finished event; a reader after the end gets it at once")
    func severalReaders() async throws {
        let gate = Gate()
        let pipeline = ImagePipeline.testing(loader: CountingLoader(gate: gate))
        let task = pipeline.imageTask(with: ImageRequest(path: path))
        let first = task.events
        let second = task.events
        gate.open()
        async let a = finished(first)
        async let b = finished(second)
        let (ra, rb) = await (a, b)
        #expect(ra.finished && rb.finished)
        _ = try await task.image
        let late = await finished(task.events)
        #expect(late.events == 1 && late.finished)
    }

    @Test("events nobody reads are not kept: a slow reader gets at most the buffer, ending with finished")
    func bounded() async throws {
        let gate = Gate()
        let pipeline = ImagePipeline.testing(loader: CountingLoader(gate: gate))
        let task = pipeline.imageTask(with: ImageRequest(path: path))
        let stream = task.events
        for index in 0..<1_000 { task.report(completed: Int64(index), total: 1_000) }
        gate.open()
        _ = try await task.image
        let read = await finished(stream)
        #expect(read.finished)
        #expect(read.events <= ImageTask.eventBufferSize)
    }
}
