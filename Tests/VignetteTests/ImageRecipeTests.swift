import Foundation
import Testing
@testable import Vignette

/// `ImageRecipe`, the one description of a result that the library, `vignette thumbnail` and the
/// server share: its plan, ranges, encoding, and the Flip and Flatten processors it adds.
@Suite("Image recipe: plan, ranges, encoding; dpr, rotate, flip, flop, sharpen, flatten, extend")
struct ImageRecipeTests {
    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * buffer.width + x) * buffer.bands
        return Array(buffer.bytes[start..<start + buffer.bands])
    }

    func recipe(_ width: Int = 10, _ height: Int = 10, _ type: ImageRecipe.ResizingType = .fit, _ change: (inout ImageRecipe) -> Void = { _ in }) -> ImageRecipe {
        var recipe = ImageRecipe(width: width, height: height, resizingType: type)
        change(&recipe)
        return recipe
    }

    @Test("a plan: the box × dpr, turned back for a quarter turn, the processors in the documented order")
    func plan() throws {
        let plan = try recipe(150, 100, .fill) {
            $0.dpr = 2
            $0.rotation = 90
            $0.flipVertically = true
            $0.flipHorizontally = true
            $0.sharpen = 0.5
            $0.background = ImageRecipe.Colour(red: 1, green: 2, blue: 3)
            $0.extend = true
            $0.extendGravity = .south
            $0.gravity = .north
        }.plan()
        // The box before dpr, turned back; dpr and the canvas go with it (the thumbnail works out
        // what they make of the source); the extend canvas is multiplied by the dpr that applied.
        #expect(plan.thumbnail.width == 100 && plan.thumbnail.height == 150 && plan.thumbnail.fit == .cover)
        #expect(plan.thumbnail.dpr == 2 && plan.thumbnail.canvas.extendsToBox && plan.thumbnail.allowsZeroSides)
        #expect(plan.processors.map(\.identifier) == [
            "rotate(90)", "flip", "flop", "sharpen(0.5)", "flatten(1.0,2.0,3.0)", "extend(150x100 dpr(1.0,1.0,2.0),south,1.0,2.0,3.0)",
        ])
        let padded = try recipe(150, 100) {
            $0.rotation = 270
            $0.padding = ResultCanvas.Padding(top: 1, right: 2, bottom: 3, left: 4)
        }.plan()
        // The padding's sides across become the sides down for the turned box.
        #expect(padded.thumbnail.canvas.padding.top + padded.thumbnail.canvas.padding.bottom == 6)
        #expect(padded.thumbnail.canvas.padding.left + padded.thumbnail.canvas.padding.right == 4)
        #expect(try recipe(64, 64).plan().processors.isEmpty)
    }

    @Test("dpr rounds to the nearest pixel, keeps a side at least 1, and leaves 0 (a side left to the aspect ratio) alone")
    func dpr() {
        #expect(recipe { $0.dpr = 1.5 }.scaled(101) == 152)
        #expect(recipe { $0.dpr = 0.01 }.scaled(10) == 1)
        #expect(recipe { $0.dpr = 3 }.scaled(0) == 0)
        #expect(recipe { $0.dpr = .nan }.scaled(10) == 10)
    }

    @Test("a fill's anchor is moved to where the turn and mirrors take it from", arguments: [
        (0, false, false, Gravity.north, Gravity.north), (90, false, false, .north, .west), (180, false, false, .north, .south),
        (270, false, false, .north, .east), (90, false, false, .northEast, .northWest), (0, true, false, .north, .south),
        (0, false, true, .east, .west), (90, false, true, .east, .south), (90, false, false, .attention, .attention),
        (-90, false, false, .north, .east),
    ])
    func anchors(rotation: Int, flip: Bool, flop: Bool, asked: Gravity, made: Gravity) {
        let options = ThumbnailOptions(width: 10, height: 10, fit: .cover, crop: asked)
        let turned = recipe {
            $0.rotation = Double(rotation)
            $0.flipVertically = flip
            $0.flipHorizontally = flop
        }.turned(options)
        #expect(turned.crop == made)
    }

    @Test("the anchor moved back gives the window asked for: north after a quarter turn keeps the source's left edge on top")
    func anchorThroughPipeline() async throws {
        // baseline.jpg has a dark square at its top left: kept by a west crop, it ends up on top after a clockwise turn.
        let request = try recipe(60, 20, .fill) {
            $0.rotation = 90
            $0.gravity = .north
        }.request(for: .file(Files.fixture("baseline.jpg")))
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let image = try await pipeline.image(for: request)
        #expect(image.width == 60 && image.height == 20)
        let direct = try ImageDecoder().decode(fileAt: Files.fixture("baseline.jpg")).rotated(degrees: 90)
        let expected = try direct.resized(toFit: ThumbnailOptions(width: 60, height: 20, fit: .cover, crop: .north))
        #expect(try image.perceptualHash().distance(to: expected.perceptualHash()) <= 5)
    }

    @Test("validate refuses dpr 0, above 8 or not a number, angles off the quarter turns, sharpen, blur and quality out of range")
    func validation() {
        let bad: [(inout ImageRecipe) -> Void] = [
            { $0.dpr = 0 }, { $0.dpr = 8.5 }, { $0.dpr = .infinity }, { $0.rotation = .nan }, { $0.sharpen = -1 }, { $0.sharpen = 101 },
            { $0.blur = 1001 }, { $0.quality = 0 }, { $0.formatQuality[.webp] = 101 }, { $0.width = -1 }, { $0.height = 100_001 },
            { $0.width = 60_000; $0.dpr = 2 },
        ]
        for change in bad {
            let made = recipe(10, 10, .fit, change)
            #expect(throws: ImagingError.self, "\(made)") { try made.validate() }
            #expect(throws: ImagingError.self, "\(made)") { try made.plan() }
        }
        #expect(throws: Never.self) {
            try recipe {
                $0.dpr = 8
                $0.rotation = -270
                $0.sharpen = 100
            }.validate()
        }
    }

    @Test("an enlarged or padded box over the budget is refused before any pixel is made (limitExceeded)")
    func budget() {
        var limits = DecodingLimits.untrusted
        limits.maxPixels = 1_000_000
        for change: (inout ImageRecipe) -> Void in [{ $0.extend = true }, { $0.enlarge = true }] {
            do {
                try recipe(2000, 2000, .fit, change).validate(limits: limits)
                Issue.record("a 2000x2000 result passed a 1000000-pixel budget")
            } catch {
                #expect(error.kind == .limitExceeded && error.message.hasSuffix("the result would be 2000x2000, over the limit of 1000000 pixels"))
            }
        }
        #expect(throws: Never.self) { try recipe(2000, 2000).validate(limits: limits) }
    }

    @Test("one place for format and quality: the defaults, quality, per-format quality, and the choice from Accept")
    func encoding() throws {
        #expect(ImageRecipe.defaultQuality(for: .jpeg) == 80 && ImageRecipe.defaultQuality(for: .avif) == 50)
        let plain = ImageRecipe()
        #expect(try plain.encodingFormat(.jpeg) == .jpeg(JPEGOptions(quality: 80)))
        #expect(try plain.encodingFormat(.heic) == .heic(HEIFOptions(quality: 50)))
        let tuned = recipe {
            $0.quality = 60
            $0.formatQuality[.webp] = 70
        }
        #expect(try tuned.encodingFormat(.jpeg) == .jpeg(JPEGOptions(quality: 60)))
        #expect(try tuned.encodingFormat(.webp) == .webp(WebPOptions(quality: 70)))
        #expect(try tuned.encoding(accepting: [.webp, .avif]) == .fixed(.avif(HEIFOptions(quality: 60))))
        #expect(try tuned.encoding(accepting: [.webp]) == .fixed(.webp(WebPOptions(quality: 70))))
        #expect(try plain.encoding() == .jpegOrPNG())
        #expect(plain.negotiatesFormat && !recipe { $0.format = .png }.negotiatesFormat)
        #expect(recipe { $0.alphaFormat = .webp }.outputFormat(hasAlpha: true) == .webp)
        #expect(plain.outputFormat(hasAlpha: true) == .png && plain.outputFormat(hasAlpha: false) == .jpeg)
        #expect(throws: ImagingError.self) { try recipe { $0.format = ImageFormat(rawValue: "pcx") }.encoding() }
        #expect(try recipe { $0.format = .jxl }.encoding() == .fixed(.jxl(JXLOptions(quality: 80))))
        #expect(try recipe { $0.format = .tiff }.encoding() == .fixed(.tiff(TIFFOptions())))
        #expect(try recipe { $0.format = .ico }.encoding() == .fixed(.ico))
        #expect(try plain.encoding(accepting: [.jxl, .tiff, .bmp]) == .jpegOrPNG())  // JXL only when asked for
        let kept = recipe { $0.stripMetadata = false }
        #expect(try kept.encodingFormat(.jpeg) == .jpeg(JPEGOptions(quality: 80, keepMetadata: true)))
    }

    @Test("the cache buster goes into the image id, so keys and coalescing tell it apart")
    func cacheBuster() throws {
        let plain = try recipe().request(for: .file("/a.jpg"), imageID: "a")
        let busted = try recipe { $0.cacheBuster = "v2" }.request(for: .file("/a.jpg"), imageID: "a")
        #expect(plain.effectiveImageID == "a" && busted.effectiveImageID == "a#cachebuster=v2")
    }

    @Test("colours: RRGGBB, #RRGGBB and R,G,B; anything else is nil")
    func colours() {
        #expect(ImageRecipe.Colour(parsing: "ff8000") == .init(red: 255, green: 128, blue: 0))
        #expect(ImageRecipe.Colour(parsing: "#0A0b0C") == .init(red: 10, green: 11, blue: 12))
        #expect(ImageRecipe.Colour(parsing: "1,2,255") == .init(red: 1, green: 2, blue: 255))
        for bad in ["", "ff80", "ff80000", "gg0000", "+f0000", "1,2", "1,2,256", "1,,2", "-1,2,3", "1, 2, 3", "٣,1,1", "ff 000"] {
            #expect(ImageRecipe.Colour(parsing: bad) == nil, "\(bad)")
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
