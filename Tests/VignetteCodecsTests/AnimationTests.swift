import Foundation
import Testing
@testable import VignetteCodecs

/// Animated thumbnails: every frame kept and resized the same way, delays and loop count kept,
/// written as animated WebP (libwebp's WebPAnimEncoder) or GIF (libvips' gifsave), read back by
/// libvips and compared frame by frame with the source's frames resized by libvips.
@Suite("Animation")
struct AnimationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let url: URL
        let fromCorpus: Bool
        var testDescription: String { url.lastPathComponent }
    }

    static let fixtures: [Case] = ["animated.gif", "animated.webp", "animated-loop3.gif", "animated-loop3.webp"]
        .map { Case(url: TestFiles.fixture($0), fromCorpus: false) }
    static let corpus: [Case] = ["rotating-squares.gif", "rotating-squares.webp", "animated-loop-3.gif", "animated-loop-3.webp"]
        .map { Case(url: TestFiles.corpusFile($0), fromCorpus: true) }

    enum Output: String, CaseIterable, Sendable {
        case webp, gif
        var encoding: EncodingFormat {
            switch self {
            case .webp: .webp(WebPOptions(quality: 90))
            case .gif: .gif(GIFOptions())
            }
        }
    }

    /// Checks the encoded thumbnail of `source` against the source decoded by libvips: as many
    /// frames, the same delays (to GIF's 10 ms), the same loop count, every frame the box's size,
    /// frame k within dHash 5 of the source's frame k resized by libvips (`vips_resize`).
    func check(_ item: Case, _ output: Output, box: Int) throws {
        let data = try TestFiles.data(item.url)
        let source = try ImageDecoder(limits: .unlimited).decodeAnimation(data)
        #expect(source.frameCount > 1, "\(item.url.lastPathComponent) is not animated")
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(width: box, height: box), limits: .untrusted)
        let (encoded, made) = try thumbnailer.encodedAnimatedThumbnail(data, as: output.encoding)
        let expectedSize = thumbnailer.outputSize(for: made.source)
        #expect(max(expectedSize.width, expectedSize.height) == min(box, max(source.width, source.height)))

        let written = try ImageDecoder(limits: .unlimited).decodeAnimation(encoded)
        #expect(try ImageDecoder().probe(encoded).format == output.rawValue.asFormat)
        #expect(written.loopCount == source.loopCount, "loop count of \(item.url.lastPathComponent) as \(output)")
        let tolerance = output == .gif ? 10 : 0
        if output == .gif, Self.gifSaverMergesFrames, written.frameCount < source.frameCount {
            // libvips 8.16's GIF saver (cgif) merges consecutive frames that are equal once
            // quantised, adding up their delays: the same animation in fewer frames, which 8.16
            // offers no option against. The length stays; each frame is checked below at its time.
            #expect(abs(written.delays.reduce(0, +) - source.delays.reduce(0, +)) <= tolerance * source.frameCount)
        } else {
            #expect(written.frameCount == source.frameCount, "frames of \(item.url.lastPathComponent) as \(output)")
            #expect(written.delays.count == source.delays.count)
            for (got, want) in zip(written.delays, source.delays) {
                #expect(abs(got - want) <= tolerance, "delays \(written.delays) vs \(source.delays)")
            }
        }
        for (index, frame) in written.frames.enumerated() {
            #expect(frame.width == expectedSize.width && frame.height == expectedSize.height, "frame \(index)")
        }
        // Source frame k against the written frame on show when k starts.
        let writtenStarts = written.delays.reduce(into: [0]) { $0.append($0.last! + $1) }.dropLast()
        var start = 0
        for index in 0..<source.frameCount {
            let shown = writtenStarts.lastIndex { $0 <= start + tolerance / 2 } ?? 0
            start += index < source.delays.count ? source.delays[index] : 0
            guard shown < written.frameCount else { continue }
            let reference = try source.frames[index].resized(toWidth: expectedSize.width, height: expectedSize.height)
            let distance = try written.frames[shown].perceptualHash().distance(to: reference.perceptualHash())
            #expect(distance <= 5, "frame \(index) of \(item.url.lastPathComponent) as \(output) (written frame \(shown)): dHash distance \(distance)")
        }
    }

    /// Whether libvips' GIF saver merges equal consecutive frames: cgif in libvips 8.16 does.
    static let gifSaverMergesFrames: Bool = {
        let parts = (ImagingRuntime.libraryVersions["libvips"] ?? "").split(separator: ".").compactMap { Int($0) }
        return parts.count >= 2 && parts[0] == 8 && parts[1] == 16
    }()

    @Test("fixtures: frames, delays, loop count, sizes and content kept", arguments: fixtures, Output.allCases)
    func fixture(item: Case, output: Output) throws {
        try check(item, output, box: 80)
    }

    @Test("corpus animations: frames, delays, loop count, sizes and content kept", .corpus, arguments: corpus, Output.allCases)
    func corpusFile(item: Case, output: Output) throws {
        try check(item, output, box: 64)
    }

    @Test("the loop-3 fixtures carry what the checks rely on: 5 frames, loop 3, delays 100…500 ms")
    func fixtureTiming() throws {
        for name in ["animated-loop3.gif", "animated-loop3.webp"] {
            let info = try #require(try ImageDecoder().animationInfo(TestFiles.data(TestFiles.fixture(name))))
            #expect(info.frameCount == 5)
            #expect(info.loopCount == 3)
            #expect(info.delays == [100, 200, 300, 400, 500])
            #expect(info.durationMilliseconds == 1500)
        }
        #expect(try ImageDecoder().animationInfo(TestFiles.data(TestFiles.fixture("still.gif"))) == nil)
        #expect(try ImageDecoder().animationInfo(TestFiles.data(TestFiles.fixture("baseline.jpg"))) == nil)
    }

    @Test("consecutive frames differ, so a dropped or repeated frame would be seen", arguments: ["animated-loop3.gif", "animated-loop3.webp"])
    func framesDiffer(name: String) throws {
        let source = try ImageDecoder().decodeAnimation(TestFiles.data(TestFiles.fixture(name)))
        for index in 1..<source.frameCount {
            let distance = try source.frames[index].perceptualHash().distance(to: source.frames[index - 1].perceptualHash())
            #expect(distance > 5, "frames \(index - 1) and \(index) of \(name) look alike (\(distance))")
        }
    }

    @Test("the still thumbnail (frames: first) is one frame: the source's first, resized")
    func firstFrame() throws {
        let data = try TestFiles.data(TestFiles.fixture("animated-loop3.webp"))
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(width: 80, height: 80))
        let still = try thumbnailer.encodedThumbnail(data, as: .webp(WebPOptions()))
        let decoded = try ImageDecoder().decodeAnimation(still.data)
        #expect(decoded.frameCount == 1)
        #expect(try ImageDecoder().probe(still.data).pages == 1)
        let source = try ImageDecoder().decodeAnimation(data)
        let reference = try source.frames[0].resized(toWidth: 80, height: 60)
        #expect(try decoded.frames[0].perceptualHash().distance(to: reference.perceptualHash()) <= 5)
        // As GIF too.
        let gif = try thumbnailer.encodedThumbnail(data, as: .gif(GIFOptions())).data
        #expect(try ImageDecoder().probe(gif).pages == 1)
    }

    @Test("the cheap look at the first bytes: GIF, animated WebP yes; still WebP, JPEG no")
    func sniff() throws {
        func head(_ name: String) throws -> Data { try TestFiles.data(TestFiles.fixture(name)).prefix(21) }
        #expect(Animation.mightBeAnimated(prefix: try head("animated.webp")))
        #expect(Animation.mightBeAnimated(prefix: try head("animated.gif")))
        #expect(!Animation.mightBeAnimated(prefix: try head("alpha.webp")))
        #expect(!Animation.mightBeAnimated(prefix: try head("lossy.webp")))
        #expect(!Animation.mightBeAnimated(prefix: try head("baseline.jpg")))
        #expect(!Animation.mightBeAnimated(prefix: Data()))
    }

    @Test("cover crops every frame to the box")
    func cover() throws {
        let data = try TestFiles.data(TestFiles.fixture("animated-loop3.gif"))
        let options = ThumbnailOptions(width: 50, height: 50, fit: .cover)
        let made = try Thumbnailer(options: options).animatedThumbnail(data).animation
        #expect(made.frameCount == 5)
        #expect(made.frames.allSatisfy { $0.width == 50 && $0.height == 50 })
    }

    @Test("the budget counts every frame: frames × canvas pixels, and the frame limit")
    func budget() throws {
        let data = try TestFiles.data(TestFiles.fixture("animated-loop3.webp"))
        // 5 frames of 160×120 = 96 000 pixels: one frame's worth passes, all of them do not.
        var limits = DecodingLimits.untrusted
        limits.maxPixels = 160 * 120 * 2
        let options = ThumbnailOptions(width: 80, height: 80)
        #expect(throws: ImagingError.self) { try Thumbnailer(options: options, limits: limits).animatedThumbnail(data) }
        do {
            _ = try Thumbnailer(options: options, limits: limits).animatedThumbnail(data)
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.message.contains("5 frames"), "\(error.message)")
        }
        limits.maxPixels = 160 * 120 * 5
        #expect(try Thumbnailer(options: options, limits: limits).animatedThumbnail(data).animation.frameCount == 5)

        // Frames past the frame limit are dropped, as imgproxy drops them; the others keep their delays.
        var frameLimit = DecodingLimits.untrusted
        frameLimit.maxFrames = 4
        let cut = try Thumbnailer(options: options, limits: frameLimit).animatedThumbnail(data).animation
        #expect(cut.frameCount == 4 && cut.delays == [100, 200, 300, 400])
        #expect(try ImageDecoder(limits: frameLimit).decodeAnimation(data).frameCount == 4)
        // A frame over the frame-resolution limit is refused.
        var frameSize = DecodingLimits.untrusted
        frameSize.maxAnimationFramePixels = 160 * 120 - 1
        #expect(throws: ImagingError.self) { try Thumbnailer(options: options, limits: frameSize).animatedThumbnail(data) }
    }

    @Test("Animation refuses frames of different sizes and mismatched delays")
    func validation() throws {
        let source = try ImageDecoder().decodeAnimation(TestFiles.data(TestFiles.fixture("animated.gif")))
        let small = try source.frames[1].resized(toWidth: 10, height: 10)
        #expect(throws: ImagingError.self) { try Animation(frames: [source.frames[0], small], delays: [10, 10], loopCount: 0) }
        #expect(throws: ImagingError.self) { try Animation(frames: source.frames, delays: [10], loopCount: 0) }
        #expect(throws: ImagingError.self) { try Animation(frames: [], delays: [], loopCount: 0) }
    }

    @Test("an animation made in code round-trips through both encoders with its timing")
    func madeInCode() throws {
        let source = try ImageDecoder().decodeAnimation(TestFiles.data(TestFiles.fixture("animated.webp")))
        let animation = try Animation(frames: source.frames, delays: [40, 80, 120, 160], loopCount: 7)
        for output in Output.allCases {
            let back = try ImageDecoder().decodeAnimation(ImageEncoder.encode(animation, as: output.encoding))
            #expect(back.frameCount == 4)
            #expect(back.delays == [40, 80, 120, 160])
            #expect(back.loopCount == 7)
        }
        // A format without animation gets the first frame.
        let jpeg = try ImageEncoder.encode(animation, as: .jpeg(JPEGOptions()))
        #expect(try ImageDecoder().probe(jpeg).pages == 1)
    }
}

private extension String {
    var asFormat: ImageFormat { ImageFormat(rawValue: self) }
}
