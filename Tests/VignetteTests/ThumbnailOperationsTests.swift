import Foundation
import Testing
@testable import Vignette

/// `ThumbnailOperations`, the plan `vignette thumbnail` and the server share, and the Flip and
/// Flatten processors it adds.
@Suite("Thumbnail operations: dpr, rotate, flip, flop, sharpen, flatten, extend")
struct ThumbnailOperationsTests {
    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * buffer.width + x) * buffer.bands
        return Array(buffer.bytes[start..<start + buffer.bands])
    }

    @Test("a plan: the box × dpr, turned back for a quarter turn, the processors in the documented order")
    func plan() throws {
        let operations = ThumbnailOperations(
            dpr: 2, rotation: 90, flip: true, flop: true, sharpenSigma: 0.5,
            background: ThumbnailOperations.Colour(red: 1, green: 2, blue: 3), extend: true, extendGravity: .south)
        let plan = try operations.plan(for: ThumbnailOptions(width: 150, height: 100, fit: .cover, crop: .north))
        #expect(plan.box == PixelSize(width: 300, height: 200))
        #expect(plan.thumbnail.width == 200 && plan.thumbnail.height == 300 && plan.thumbnail.fit == .cover)
        #expect(plan.processors.map(\.identifier) == [
            "rotate(90)", "flip", "flop", "sharpen(0.5)", "flatten(1.0,2.0,3.0)", "extend(300x200,south,1.0,2.0,3.0)",
        ])
        #expect(plan.outputSize(forThumbnailOf: PixelSize(width: 200, height: 150)) == PixelSize(width: 300, height: 200))
        let plain = try ThumbnailOperations(rotation: 270).plan(for: ThumbnailOptions(width: 150, height: 100))
        #expect(plain.outputSize(forThumbnailOf: PixelSize(width: 100, height: 75)) == PixelSize(width: 75, height: 100))
        #expect(try ThumbnailOperations().plan(for: ThumbnailOptions(size: 64)).processors.isEmpty)
    }

    @Test("dpr rounds to the nearest pixel, keeps a side at least 1, and leaves 0 (a side left to the aspect ratio) alone")
    func dpr() {
        #expect(ThumbnailOperations(dpr: 1.5).scaled(101) == 152)
        #expect(ThumbnailOperations(dpr: 0.01).scaled(10) == 1)
        #expect(ThumbnailOperations(dpr: 3).scaled(0) == 0)
        #expect(ThumbnailOperations(dpr: .nan).scaled(10) == 10)
    }

    @Test("a cover crop's anchor is moved to where the turn and mirrors take it from", arguments: [
        (0, false, false, CropAnchor.north, CropAnchor.north), (90, false, false, .north, .west), (180, false, false, .north, .south),
        (270, false, false, .north, .east), (90, false, false, .northEast, .northWest), (0, true, false, .north, .south),
        (0, false, true, .east, .west), (90, false, true, .east, .south), (90, false, false, .attention, .attention),
        (-90, false, false, .north, .east),
    ])
    func anchors(rotation: Int, flip: Bool, flop: Bool, asked: CropAnchor, made: CropAnchor) {
        let options = ThumbnailOptions(width: 10, height: 10, fit: .cover, crop: asked)
        #expect(ThumbnailOperations(rotation: rotation, flip: flip, flop: flop).turned(options).crop == made)
    }

    @Test("the anchor moved back gives the window asked for: north after a quarter turn keeps the source's left edge on top")
    func anchorThroughPipeline() async throws {
        // baseline.jpg has a dark square at its top left: kept by a west crop, it ends up on top after a clockwise turn.
        let plan = try ThumbnailOperations(rotation: 90).plan(for: ThumbnailOptions(width: 60, height: 20, fit: .cover, crop: .north))
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let image = try await pipeline.image(for: ImageRequest(path: Files.fixture("baseline.jpg"), processors: plan.processors, thumbnail: plan.thumbnail))
        #expect(image.width == 60 && image.height == 20)
        let direct = try ImageDecoder().decode(fileAt: Files.fixture("baseline.jpg")).rotated(degrees: 90)
        let expected = try direct.resized(toFit: ThumbnailOptions(width: 60, height: 20, fit: .cover, crop: .north))
        #expect(try image.perceptualHash().distance(to: expected.perceptualHash()) <= 5)
    }

    @Test("validate refuses dpr 0, above 8 or not a number, angles off the quarter turns, sharpen out of 0–100")
    func validation() {
        for bad in [
            ThumbnailOperations(dpr: 0), ThumbnailOperations(dpr: 8.5), ThumbnailOperations(dpr: .infinity), ThumbnailOperations(rotation: 45),
            ThumbnailOperations(sharpenSigma: -1), ThumbnailOperations(sharpenSigma: 101),
        ] {
            #expect(throws: ImagingError.self) { try bad.validate() }
            #expect(throws: ImagingError.self) { try bad.plan(for: ThumbnailOptions(size: 10)) }
        }
        #expect(throws: Never.self) { try ThumbnailOperations(dpr: 8, rotation: -270, sharpenSigma: 100).validate() }
    }

    @Test("colours: RRGGBB, #RRGGBB and R,G,B; anything else is nil")
    func colours() {
        #expect(ThumbnailOperations.Colour(parsing: "ff8000") == .init(red: 255, green: 128, blue: 0))
        #expect(ThumbnailOperations.Colour(parsing: "#0A0b0C") == .init(red: 10, green: 11, blue: 12))
        #expect(ThumbnailOperations.Colour(parsing: "1,2,255") == .init(red: 1, green: 2, blue: 255))
        for bad in ["", "ff80", "ff80000", "gg0000", "+f0000", "1,2", "1,2,256", "1,,2", "-1,2,3", "1, 2, 3", "٣,1,1", "ff 000"] {
            #expect(ThumbnailOperations.Colour(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("Flip and Flop mirror the pixels; Flatten removes alpha onto the colour, making a grey image colour when the colour is")
    func processors() throws {
        let image = try ImageDecoder().decode(fileAt: Files.fixture("baseline.jpg")).resized(scale: 0.125).materialized()
        let source = try image.pixels()
        let flop = try ImageProcessors.Flip(horizontally: true).process(image).pixels()
        #expect(pixel(flop, 0, 0) == pixel(source, source.width - 1, 0))
        let flip = try ImageProcessors.Flip(horizontally: false).process(image).pixels()
        #expect(pixel(flip, 0, 0) == pixel(source, 0, source.height - 1))

        let alpha = try ImageDecoder().decode(fileAt: Files.fixture("alpha.png"))
        let flat = try ImageProcessors.Flatten(red: 255, green: 0, blue: 0).process(alpha)
        #expect(!flat.hasAlpha && flat.bands == 3)
        let flatPixels = try flat.pixels()
        #expect(pixel(flatPixels, flatPixels.width - 1, 10) == [255, 0, 0])  // transparent at the right edge
        let grey = try ImageDecoder().decode(fileAt: Files.fixture("grey-alpha.png"))
        let onRed = try ImageProcessors.Flatten(red: 255, green: 0, blue: 0).process(grey)
        #expect(!onRed.hasAlpha && onRed.bands == 3)
        let onWhite = try ImageProcessors.Flatten().process(grey)
        #expect(!onWhite.hasAlpha && onWhite.bands == 1)
        #expect(try ImageProcessors.Flatten().process(image).pixels() == source)  // no alpha: as it is
        #expect(ImageProcessors.Flatten(red: 1, green: 2, blue: 3).identifier != ImageProcessors.Flatten().identifier)
    }

    @Test("a grey image padded with a colour that is not grey becomes colour, so the padding is that colour")
    func greyExtend() throws {
        let grey = try ImageDecoder().decode(fileAt: Files.fixture("line-1000x1.jpg"))
        let padded = try ImageProcessors.Extend(width: 1000, height: 3, red: 255, green: 0, blue: 0).process(grey).pixels()
        #expect(padded.bands == 3 && pixel(padded, 0, 0) == [255, 0, 0])
        let greyPadded = try ImageProcessors.Extend(width: 1000, height: 3, red: 9, green: 9, blue: 9).process(grey).pixels()
        #expect(greyPadded.bands == 1 && pixel(greyPadded, 0, 0) == [9])
    }

    @Test("an animation through processors: every frame the same way, delays and loop kept; a padding too large for the budget is refused")
    func animation() throws {
        let animation = try ImageDecoder().decodeAnimation(try Data(contentsOf: URL(fileURLWithPath: Files.fixture("animated.gif"))))
        let turned = try animation.processed(by: [ImageProcessors.Rotate(degrees: 90), ImageProcessors.Flip(horizontally: true)])
        #expect(turned.frameCount == animation.frameCount && turned.delays == animation.delays && turned.loopCount == animation.loopCount)
        #expect(turned.width == animation.height && turned.height == animation.width)
        let firstSource = try animation.frames[0].rotated(degrees: 90).flipped(horizontally: true).pixels()
        #expect(try turned.frames[0].pixels() == firstSource)
        var limits = DecodingLimits.untrusted
        limits.maxPixels = 4 * 1000 * 1000 - 1
        #expect(throws: ImagingError.self) {
            try animation.processed(by: [ImageProcessors.Extend(width: 1000, height: 1000)], limits: limits)
        }
    }
}
