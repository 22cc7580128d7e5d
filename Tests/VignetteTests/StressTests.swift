import Foundation
import Testing
@testable import Vignette

@Suite("Stress")
struct StressTests {
    @Test("1,000 requests over 50 sources with random cancellations and priority changes: every task ends exactly once, nothing left behind")
    func thousand() async throws {
        let files = ["baseline.jpg", "orientation-3.jpg", "rgb8.png", "lossy.webp", "still.gif"].map(Files.fixture)
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.imageCache = ImageCache(costLimit: 8 << 20)
        }
        var generator = SystemRandomNumberGenerator()
        let finished = FinishCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1000 {
                let source = index % 50
                var request = ImageRequest(
                    source: .data(id: "source-\(source)") { try Data(contentsOf: URL(fileURLWithPath: files[source % files.count])) },
                    processors: source % 3 == 0 ? [ImageProcessors.GaussianBlur(sigma: 1)] : [],
                    thumbnail: ThumbnailOptions(size: 32 + source % 4 * 16))
                request.priority = ImageRequest.Priority.allCases.randomElement(using: &generator) ?? .normal
                let task = pipeline.imageTask(with: request)
                let roll = Int.random(in: 0..<10, using: &generator)
                let counter = finished
                group.addTask { [task, roll, index] in
                    if roll < 2 { task.cancel() }
                    if roll == 3 { task.setPriority(.veryHigh) }
                    for await event in task.events {
                        if case .finished = event { counter.add(index) }
                    }
                    if roll == 4 { task.cancel() }
                }
            }
            try await group.waitForAll()
        }
        let counts = finished.counts
        #expect(counts.count == 1000)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(await eventually { pipeline.inFlightCount == 0 })
    }
}

final class FinishCounter: Sendable {
    private let state = Locked<[Int: Int]>([:])
    func add(_ index: Int) { state.withLock { $0[index, default: 0] += 1 } }
    var counts: [Int: Int] { state.withLock { $0 } }
}
