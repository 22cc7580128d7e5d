import Foundation
import Testing
@testable import Vignette

/// The pipeline decodes through the same `Thumbnailer` and `ImageDecoder`, so it reaches the same
/// verdict on hostile input as the commands: a typed error, never a crash.
@Suite("Hostile input through the pipeline")
struct HostileInputPipelineTests {
    static let hostile = [
        "hostile-progressive.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg",
        "hostile-wide16.png", "hostile-canvas.webp", "hostile-coded-size.avif", "huge-declared.png",
    ]

    @Test("every hostile fixture fails with limitExceeded, as a thumbnail and as a full decode", arguments: hostile)
    func refused(file: String) async {
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration())
        for thumbnail in [ThumbnailOptions(size: 256), nil] {
            do {
                _ = try await pipeline.image(for: ImageRequest(path: Files.fixture(file), thumbnail: thumbnail))
                Issue.record("\(file) decoded")
            } catch {
                guard case .decodingFailed(let imaging) = error else {
                    Issue.record("\(file): \(error)")
                    continue
                }
                #expect(imaging.kind == .limitExceeded, "\(file): \(imaging)")
            }
        }
    }

    @Test("the 191-byte 1000×1 JPEG gives a 256×1 thumbnail")
    func lineJPEG() async throws {
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration())
        let image = try await pipeline.image(for: ImageRequest(path: Files.fixture("line-1000x1.jpg"), thumbnail: ThumbnailOptions(size: 256)))
        #expect(image.width == 256 && image.height == 1)
    }
}
