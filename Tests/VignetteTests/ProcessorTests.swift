import Foundation
import Testing
@testable import Vignette

@Suite("Built-in processors")
struct ProcessorTests {
    static func image(_ name: String = "baseline.jpg") throws -> Image {
        try ImageDecoder().decode(fileAt: Files.fixture(name))
    }

    @Test("resize: inside, cover, fill; identifiers name the parameters")
    func resize() throws {
        let source = try Self.image()  // 640×480
        let inside = try ImageProcessors.Resize(width: 100, height: 100).process(source)
        #expect(inside.width == 100 && inside.height == 75)
        let cover = try ImageProcessors.Resize(width: 100, height: 100, fit: .cover).process(source)
        #expect(cover.width == 100 && cover.height == 100)
        let fill = try ImageProcessors.Resize(width: 100, height: 30, fit: .fill).process(source)
        #expect(fill.width == 100 && fill.height == 30)
        #expect(ImageProcessors.Resize(size: 10).identifier != ImageProcessors.Resize(size: 10, fit: .cover).identifier)
    }

    @Test("circle: square, transparent corners, opaque centre")
    func circle() throws {
        let circle = try ImageProcessors.Circle().process(try Self.image())
        #expect(circle.width == 480 && circle.height == 480 && circle.hasAlpha)
        let pixels = try circle.pixels()
        let alpha = { (x: Int, y: Int) in pixels.bytes[(y * pixels.width + x) * pixels.bands + pixels.bands - 1] }
        #expect(alpha(0, 0) == 0)
        #expect(alpha(479, 479) == 0)
        #expect(alpha(240, 240) == 255)
        #expect(alpha(240, 0) > 100)  // the top of the circle touches the edge
    }

    @Test("rounded corners keep the size and clear only the corners; existing alpha is kept")
    func roundedCorners() throws {
        let rounded = try ImageProcessors.RoundedCorners(radius: 40).process(try Self.image("alpha.png"))
        #expect(rounded.width == 320 && rounded.height == 240 && rounded.hasAlpha)
        let pixels = try rounded.pixels()
        let original = try Self.image("alpha.png").pixels()
        let alpha = { (p: PixelBuffer, x: Int, y: Int) in p.bytes[(y * p.width + x) * p.bands + p.bands - 1] }
        #expect(alpha(pixels, 1, 1) == 0)
        #expect(alpha(pixels, 160, 120) == alpha(original, 160, 120))
        #expect(alpha(pixels, 160, 1) == alpha(original, 160, 1))
    }

    @Test("composition draws the overlay where asked")
    func composition() throws {
        let base = try Self.image()
        let overlay = try Image(pixels: PixelBuffer(width: 10, height: 10, bands: 3, bytes: [UInt8](repeating: 255, count: 300)))
        let composed = try ImageProcessors.Composition(overlay: overlay, overlayID: "white", x: 600, y: 20).process(base)
        #expect(composed.width == 640 && composed.height == 480 && !composed.hasAlpha)
        let pixels = try composed.pixels()
        let at = (25 * 640 + 605) * 3
        #expect(Array(pixels.bytes[at..<at + 3]) == [255, 255, 255])
    }

    @Test("auto-orient, crop, blur and a closure processor through the pipeline")
    func throughPipeline() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let request = ImageRequest(path: Files.fixture("orientation-6.jpg"), processors: [
            ImageProcessors.Crop(x: 0, y: 0, width: 320, height: 240),
            ImageProcessors.GaussianBlur(sigma: 1),
            ImageProcessors.Anonymous(id: "half") { image throws(ImagingError) in try image.resized(scale: 0.5) },
        ])
        let image = try await pipeline.image(for: request)
        #expect(image.width == 160 && image.height == 120)
    }

    @Test("a failing processor fails the task with its identifier")
    func failing() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let request = ImageRequest(path: Files.fixture("baseline.jpg"), processors: [ImageProcessors.Crop(x: 600, y: 0, width: 100, height: 10)])
        do {
            _ = try await pipeline.image(for: request)
            Issue.record("expected a failure")
        } catch {
            guard case .processingFailed(let processor, let underlying) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(processor == "crop(600,0,100x10)")
            #expect((underlying as? ImagingError)?.kind == .invalidArgument)
            #expect(error.imagingError?.kind == .invalidArgument)
        }
    }

    struct Refusal: Error, Equatable { let reason: String }

    @Test("a custom processor's own error reaches the caller as thrown")
    func customError() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let refuse = ImageProcessors.Anonymous(id: "refuse") { _ in throw Refusal(reason: "too bright") }
        do {
            _ = try await pipeline.image(for: ImageRequest(path: Files.fixture("baseline.jpg"), processors: [refuse]))
            Issue.record("expected a failure")
        } catch {
            guard case .processingFailed(let processor, let underlying) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(processor == "refuse")
            #expect(underlying as? Refusal == Refusal(reason: "too bright"))
            #expect(error.imagingError == nil)
        }
    }

    @Test("bad bytes fail the task with the decoding error")
    func badBytes() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        do {
            _ = try await pipeline.image(for: ImageRequest(path: Files.fixture("corrupt.png")))
            Issue.record("expected a failure")
        } catch {
            guard case .decodingFailed(let underlying) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(underlying.kind.isBadInput)
        }
    }
}

extension ImagingError.Kind {
    var isBadInput: Bool { [.unsupportedFormat, .corruptData, .truncatedData, .limitExceeded].contains(self) }
}
