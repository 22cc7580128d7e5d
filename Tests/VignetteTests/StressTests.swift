import Foundation
import Testing
@testable import Vignette
import TestTiming
import VignetteSupport

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

extension StressTests {
    @Test("600 mixed requests (images and encoded bytes in three encodings; cache-only, reload, no disk reads or writes) over a disk cache, some cancelled: each ends once, as asked, nothing left behind")
    func mixedOptionsAndEncodings() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ["baseline.jpg", "alpha.png", "lossy.webp"].map(Files.fixture)
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.imageCache = ImageCache(costLimit: 4 << 20)
            $0.encodedImageCache = EncodedImageCache(costLimit: 1 << 20)
            $0.dataCache = try? DataCache(path: folder)
        }
        let encodings: [OutputEncoding] = [
            .jpegOrPNG(quality: 70), .fixed(.webp(WebPOptions(quality: 60))), .fixed(.png(PNGOptions())),
        ]
        let optionSets: [ImageRequest.Options] = [
            [], [.returnCacheDataDontLoad], [.reloadIgnoringCachedData], [.disableDiskCacheReads], [.disableDiskCacheWrites],
        ]
        let outcomes = Locked<[Int: String]>([:])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<600 {
                let source = index % 12
                var request = ImageRequest(
                    source: .data(id: "mixed-\(source)") { try Data(contentsOf: URL(fileURLWithPath: files[source % files.count])) },
                    thumbnail: ThumbnailOptions(size: 40 + source % 3 * 20))
                request.options = optionSets[index % optionSets.count]
                let encoding = index % 4 == 3 ? nil : encodings[index % encodings.count]
                let cancels = index % 7 == 0
                let side = 40 + source % 3 * 20
                let task = Task {
                    do {
                        if let encoding {
                            let result = try await pipeline.encodedImage(for: request, as: encoding)
                            let info = try ImageDecoder().probe(result.image.data)
                            return max(info.width, info.height) == side && info.width == result.image.width ? "ok" : "wrong size"
                        }
                        let image = try await pipeline.image(for: request)
                        return max(image.width, image.height) == side ? "ok" : "wrong size"
                    } catch let error as ImagePipelineError {
                        switch error {
                        case .dataMissingInCache where request.options.contains(.returnCacheDataDontLoad): return "missing"
                        case .cancelled where cancels: return "cancelled"
                        default: return "failed: \(error)"
                        }
                    } catch {
                        return "failed: \(error)"
                    }
                }
                group.addTask {
                    if cancels { task.cancel() }
                    let outcome = await task.value
                    outcomes.withLock { $0[index] = outcome }
                }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 600)
        let unexpected = all.filter { !["ok", "missing", "cancelled"].contains($0.value) }
        #expect(unexpected.isEmpty, "\(unexpected.sorted { $0.key < $1.key }.prefix(5))")
        #expect(all.values.filter { $0 == "ok" }.count > 300)
        #expect(await eventually { pipeline.inFlightCount == 0 })
    }
}

final class FinishCounter: Sendable {
    private let state = Locked<[Int: Int]>([:])
    func add(_ index: Int) { state.withLock { $0[index, default: 0] += 1 } }
    var counts: [Int: Int] { state.withLock { $0 } }
}
