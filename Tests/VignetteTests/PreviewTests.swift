import Foundation
import Testing
@testable import Vignette

/// Previews through the pipeline's graph, from a loader double that hands over a progressive
/// JPEG in pieces and holds the rest until the test opens a gate (no network: the HTTP tests
/// cover the real loader).
@Suite("Previews from partial data")
struct PreviewTests {
    /// Streams `data` in 2-KB pieces up to `pause` bytes, waits for `gate`, then sends the rest.
    final class SteppingLoader: DataLoading {
        let data: Data
        let pause: Int
        let gate = Gate()

        init(data: Data, pause: Int) {
            self.data = data
            self.pause = pause
        }

        func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
            data
        }

        func loadData(for request: ImageRequest, context: DataLoadingContext) async throws -> LoadedData {
            var sent = 0
            while sent < data.count {
                if sent >= pause { try await gate.wait() }
                sent = min(data.count, sent + 2048, sent < pause ? pause : data.count)
                context.received(data.prefix(sent), Int64(data.count))
                try await Task.sleep(for: .milliseconds(2))
            }
            return LoadedData(data: data)
        }
    }

    static func progressiveJPEG() throws -> Data {
        let photo = try ImageDecoder().decode(fileAt: Files.fixture("baseline.jpg"))
        return try ImageEncoder.encode(photo, as: .jpeg(JPEGOptions(quality: 85, progressive: true)))
    }

    @Test("previews go through the thumbnail and the processors, sit in the memory cache, and the final image replaces them")
    func processedPreviews() async throws {
        let data = try Self.progressiveJPEG()
        let loader = SteppingLoader(data: data, pause: data.count * 6 / 10)
        var configuration = ImagePipeline.Configuration(dataLoader: loader)
        configuration.isProgressiveDecodingEnabled = true
        configuration.progressiveDecodingInterval = .zero
        let pipeline = ImagePipeline(configuration: configuration)
        let blur = CountingProcessor("blur")
        let request = ImageRequest(
            url: URL(string: "http://127.0.0.1:1/never-contacted.jpg")!, processors: [ImageProcessors.Circle(), blur],
            thumbnail: ThumbnailOptions(width: 100, height: 100, fit: .cover))
        let task = pipeline.imageTask(with: request)
        var previews = 0
        var final: ImageResponse?
        for await event in task.events {
            switch event {
            case .preview(let preview):
                previews += 1
                #expect(preview.isPreview && preview.image.width == 100 && preview.image.height == 100 && preview.image.hasAlpha)
                if previews == 1 {
                    // Held at 60 %: the cache has the preview, and image(for:) does not take it as final.
                    #expect(pipeline.cachedImage(for: request)?.isPreview == true)
                    loader.gate.open()
                }
            case .finished(let result): final = try result.get()
            case .progress: break
            }
        }
        #expect(previews >= 1)
        let image = try #require(final).image
        #expect(image.width == 100 && image.height == 100)
        #expect(pipeline.cachedImage(for: request)?.isPreview == false)
        #expect(blur.count >= previews + 1)
    }

    @Test("without the switch, or without a task to watch, no preview is decoded")
    func noPreviewsUnlessAsked() async throws {
        let data = try Self.progressiveJPEG()
        for progressive in [false, true] {
            let loader = SteppingLoader(data: data, pause: 0)
            var configuration = ImagePipeline.Configuration(dataLoader: loader, imageCache: nil)
            configuration.isProgressiveDecodingEnabled = progressive
            configuration.progressiveDecodingInterval = .zero
            let pipeline = ImagePipeline(configuration: configuration)
            let blur = CountingProcessor("blur")
            let request = ImageRequest(url: URL(string: "http://127.0.0.1:1/x.jpg")!, processors: [blur])
            loader.gate.open()
            if progressive {
                _ = try await pipeline.image(for: request)
            } else {
                var previews = 0
                for await event in pipeline.imageTask(with: request).events {
                    if case .preview = event { previews += 1 }
                }
                #expect(previews == 0)
            }
            #expect(blur.count == 1)
        }
    }
}
