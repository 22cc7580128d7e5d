import Foundation
import Testing
@testable import Vignette
@testable import VignetteCodecs

/// Issue 53, item 1, on the progressive-preview route: a progressive greyscale JPEG carrying an
/// RGB profile gives previews of partial data (Vignette's own progressive decoder, which reads no
/// profile) and a final image that names the ignored profile.
@Suite("A progressive greyscale JPEG with an RGB profile: previews, then the final image")
struct IgnoredProfilePreviewTests {
    @Test("previews come, and the final image is made without the profile, saying why")
    func previews() async throws {
        let grey = try ImageDecoder().decode(fileAt: Files.fixture("baseline.jpg")).converted(to: .blackAndWhite)
        let jpeg = try ImageEncoder.encode(grey, as: .jpeg(JPEGOptions(quality: 85, progressive: true)))
        let data = ProfileEmbedding.jpeg(jpeg, profile: try BuiltInProfile.sRGB.data())
        let loader = PreviewTests.SteppingLoader(data: data, pause: data.count * 6 / 10)
        var configuration = ImagePipeline.Configuration(dataLoader: loader)
        configuration.isProgressiveDecodingEnabled = true
        configuration.progressiveDecodingInterval = .zero
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(
            url: URL(string: "http://127.0.0.1:1/never-contacted.jpg")!, thumbnail: ThumbnailOptions(width: 100, height: 100, fit: .cover))
        // The rest is sent at the first preview; without one, after 60 s (and the count below fails).
        let opener = Task { [gate = loader.gate] in
            try await Task.sleep(for: .seconds(60))
            gate.open()
        }
        defer { opener.cancel() }
        var previews = 0
        var final: ImageResponse?
        for await event in pipeline.imageTask(with: request).events {
            switch event {
            case .preview(let preview):
                previews += 1
                #expect(preview.isPreview && preview.image.width == 100 && preview.image.height == 100)
                if previews == 1 { loader.gate.open() }
            case .finished(let result): final = try result.get()
            case .progress: break
            }
        }
        #expect(previews >= 1)
        let image = try #require(final).image
        #expect(image.width == 100 && image.height == 100)
        #expect(image.ignoredProfile?.contains("does not fit an image of 1 colour band") == true, "\(image.ignoredProfile ?? "none")")
    }
}
