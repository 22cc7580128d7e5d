import Foundation
import Testing
@testable import Vignette
import VignetteImgproxy
import VignetteSupport

/// imgproxy's options through the recipe and the pipeline, on generated geometry fixtures whose
/// regions have distinct colours, so a wrong crop, gravity or offset shows in the pixels, not
/// only in the size. Expected sizes are imgproxy's for its documented semantics.
@Suite("imgproxy options on the recipe: sizes and pixels")
struct RecipeOptionsTests {
    /// Cells of 100×100 (each `cells` colour), `columns` across: 4×2 makes a 400×200 image.
    static let palette: [[UInt8]] = [
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255], [255, 255, 255], [0, 0, 0],
    ]

    static func cells(columns: Int, rows: Int, cell: Int = 100) throws -> Data {
        let width = columns * cell, height = rows * cell
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = palette[(y / cell) * columns + x / cell]
                bytes.replaceSubrange((y * width + x) * 3..<(y * width + x) * 3 + 3, with: colour)
            }
        }
        let image = try Image(pixels: PixelBuffer(width: width, height: height, bands: 3, bytes: bytes))
        return try ImageEncoder.encode(image, as: .png(PNGOptions()))
    }

    static let wide = Result { try cells(columns: 4, rows: 2) }  // 400×200
    static let small = Result { try cells(columns: 2, rows: 1) }  // 200×100: red, green

    /// The image the options make of `source` through a pipeline.
    func made(_ options: String, from source: Result<Data, any Error> = wide) async throws -> Image {
        let data = try source.get()
        let recipe = try ImgproxyOptions().recipe(options)
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        return try await pipeline.image(for: recipe.request(for: .data(id: "fixture-\(data.count)", load: { data })))
    }

    func size(_ image: Image) -> [Int] { [image.width, image.height] }

    /// The colour at (x, y), within a few levels (PNG in, resampled).
    func colour(_ image: Image, _ x: Int, _ y: Int) throws -> [UInt8] {
        let pixels = try image.pixels()
        let start = (y * pixels.width + x) * pixels.bands
        return Array(pixels.bytes[start..<start + 3])
    }

    func near(_ a: [UInt8], _ b: [UInt8]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 24 } }

    @Test("sizes imgproxy gives on a 200×100 image", arguments: [
        ("rs:fill-down:300:300", [100, 100]), ("rs:fill:300:300", [200, 100]), ("rs:fit:0:200/ex:1", [200, 200]),
        ("rs:fit:300:300/ex:1", [300, 300]), ("rs:force:100:100", [100, 100]), ("rs:force:400:50", [200, 25]),
        ("rs:fit:100:100/z:0.5", [50, 25]), ("rs:fit:100:100/z:0.5:1", [50, 50]), ("rs:fit:50:50/mw:100", [50, 50]),
        ("rs:fit:50:50/mh:50", [50, 50]), ("rs:fit:100:0/mh:100", [100, 100]), ("rs:fit:100:100/exar:1", [100, 100]),
        ("rs:fit:100:100/exar:1:no", [100, 100]), ("rs:fit:100:100/pd:10", [120, 70]), ("rs:fit:100:100/pd:10:20", [140, 70]),
        ("rs:fit:100:100/pd:1:2:3:4", [106, 54]), ("rs:fit:50:50/dpr:2", [100, 50]), ("rs:fill:100:100/el:1", [100, 100]),
        ("rs:auto:100:200", [100, 50]), ("rs:auto:200:50", [200, 50]), ("rs:fit:100:100/rot:90", [50, 100]),
        ("rs:fit:400:400:1", [400, 200]), ("rs:fit:400:400", [200, 100]), ("mrd:50", [50, 25]), ("pix:10", [200, 100]),
        ("rs:fit:100:100/pd:5/dpr:2", [220, 120]), ("rs:fill-down:100:50", [100, 50]), ("rs:fill-down:50:100", [50, 100]),
        ("rs:fit:0:0", [200, 100]), ("w:50", [50, 25]), ("h:50", [100, 50]), ("s:60:60:0:1", [60, 60]),
    ])
    func sizes(options: String, expected: [Int]) async throws {
        #expect(size(try await made(options, from: Self.small)) == expected, "\(options)")
    }

    @Test("gravity picks the window of a fill, with offsets inward from an edge or forward from the centre, and focus points", arguments: [
        // 400×200 → 200×100 (cells 50 px: red, green, blue, yellow on top), a 100×100 window.
        ("g:we", 10, [255, 0, 0]), ("g:ea", 10, [0, 0, 255]), ("g:ea", 90, [255, 255, 0]), ("g:ce", 10, [0, 255, 0]),
        ("g:we:60:0", 10, [0, 255, 0]), ("g:ea:60", 5, [255, 0, 0]), ("g:fp:0.75:0.5", 10, [0, 0, 255]),
        ("g:fp:0:0", 10, [255, 0, 0]), ("g:fp:1:1", 90, [255, 255, 0]), ("g:ce:0.25", 10, [0, 0, 255]),
        ("g:ce:-50", 10, [255, 0, 0]), ("g:nowe:10:10", 5, [255, 0, 0]),
    ])
    func gravity(gravity: String, x: Int, expected: [UInt8]) async throws {
        let image = try await made("rs:fill:100:100/\(gravity)")
        #expect(size(image) == [100, 100])
        let found = try colour(image, x, 10)
        #expect(near(found, expected), "\(gravity) at \(x): \(found)")
    }

    @Test("north and south keep the top and the bottom row; a turn keeps the window asked for")
    func edges() async throws {
        let north = try await made("rs:fill:200:50/g:no"), south = try await made("rs:fill:200:50/g:so")
        #expect(size(north) == [200, 50] && size(south) == [200, 50])
        let (top, bottom) = (try colour(north, 10, 10), try colour(south, 10, 40))
        #expect(near(top, [255, 0, 0]) && near(bottom, [0, 255, 255]))
        // Turned a quarter clockwise, the west of the source is on top: a north window keeps it.
        let turned = try await made("rs:fill:100:100/g:no/rot:90")
        let corner = try colour(turned, 90, 10)
        #expect(size(turned) == [100, 100] && near(corner, [255, 0, 0]))
    }

    @Test("flip mirrors across and down; auto_rotate:0 leaves EXIF orientation alone")
    func flips() async throws {
        let across = try await made("fl:1", from: Self.small), down = try await made("fl:0:1", from: Self.small)
        let (left, kept) = (try colour(across, 10, 10), try colour(down, 10, 10))
        #expect(near(left, [0, 255, 0]) && near(kept, [255, 0, 0]))
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let path = Files.fixture("orientation-6.jpg")
        let upright = try await pipeline.image(for: ImgproxyOptions().recipe("w:0").request(for: .file(path)))
        let stored = try await pipeline.image(for: ImgproxyOptions().recipe("ar:0").request(for: .file(path)))
        #expect(upright.width == stored.height && upright.height == stored.width && upright.width != stored.width)
    }

    @Test("padding is filled with the background; pixelate makes uniform blocks of the size given")
    func paddingAndPixelate() async throws {
        let padded = try await made("rs:fit:100:100/pd:10/bg:0:0:255", from: Self.small)
        let (edge, inside) = (try colour(padded, 2, 2), try colour(padded, 15, 30))
        #expect(near(edge, [0, 0, 255]) && near(inside, [255, 0, 0]))
        let blocks = try await made("pix:20", from: Self.wide)
        let pixels = try blocks.pixels()
        // Every pixel of a 20×20 block is the same.
        for (x, y) in [(0, 0), (40, 20), (380, 180)] {
            let (first, last) = (try colour(blocks, x, y), try colour(blocks, x + 19, y + 19))
            #expect(last == first && pixels.width == 400)
        }
    }

    @Test("max_bytes lowers the quality until the result fits, or gives the smallest it can")
    func maxBytes() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let path = Files.fixture("baseline.jpg")
        func bytes(_ options: String) async throws -> Int {
            let recipe = try ImgproxyOptions().recipe(options)
            return try await pipeline.encodedImage(for: recipe.request(for: .file(path)), as: recipe.encoding()).image.data.count
        }
        let full = try await bytes("rs:fit:300:300/f:jpg/q:95")
        let limited = try await bytes("rs:fit:300:300/f:jpg/q:95/mb:\(full / 3)")
        #expect(limited <= full / 3 && limited > 0)
        // Below what quality 1 gives: the smallest result (a limit it meets takes the same route).
        let floor = try await bytes("rs:fit:300:300/f:jpg/q:1/mb:100000000")
        #expect(try await bytes("rs:fit:300:300/f:jpg/q:95/mb:10") == floor)
        // PNG has no quality: written as it is.
        #expect(try await bytes("rs:fit:300:300/f:png/mb:10") == (try await bytes("rs:fit:300:300/f:png")))
    }

    @Test("a padding, extend or zoom over the budget is refused before any pixel is made; per-request limits only lower")
    func budgets() throws {
        var limits = DecodingLimits.untrusted
        limits.maxPixels = 1_000_000
        for options in ["rs:fit:2000:2000/ex:1", "rs:fit:100:100/pd:2000", "rs:fit:1000:1000/z:2", "rs:fit:100:100/mw:5000/mh:5000"] {
            let recipe = try ImgproxyOptions().recipe(options)
            #expect(throws: ImagingError.self, "\(options)") { try recipe.plan(limits: limits) }
        }
        let lowered = try ImgproxyOptions().recipe("msr:1/msfs:1000/maf:2").limits.lowering(.untrusted)
        #expect(lowered.maxSourcePixels == 1_000_000 && lowered.maxInputBytes == 1000 && lowered.maxFrames == 2)
        let raised = try ImgproxyOptions().recipe("msr:100000/maf:100000").limits.lowering(.untrusted)
        #expect(raised.maxSourcePixels == DecodingLimits.untrusted.maxSourcePixels && raised.maxFrames == DecodingLimits.untrusted.maxFrames)
    }

    @Test("a request's own source-size limit refuses a source the pipeline's would take")
    func requestLimits() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let recipe = try ImgproxyOptions().recipe("rs:fit:50:50/msr:0.01")
        await #expect(throws: ImagePipelineError.self) { try await pipeline.image(for: recipe.request(for: .file(Files.fixture("baseline.jpg")))) }
        #expect(try await pipeline.image(for: ImgproxyOptions().recipe("rs:fit:50:50").request(for: .file(Files.fixture("baseline.jpg")))).width == 50)
    }

    @Test("every imgproxy option name is read (none is refused as unknown)", arguments: [
        "rs:fit:10:10", "s:10:10", "rt:fill", "w:10", "h:10", "mw:10", "mh:10", "z:2", "dpr:2", "el:1", "ex:1:ce", "exar:1:no",
        "g:sm", "pd:1", "ar:0", "rot:90", "fl:1:0", "bg:ffffff", "bl:1", "sh:1", "pix:2", "sm:0", "kcr:1", "scp:0", "ph:1", "eth:1",
        "q:80", "fq:jpg:70:webp:60", "mb:1000", "f:png", "skp:jpg", "raw:1", "cb:x", "exp:99999999999", "fn:photo", "att:1",
        "pr:p", "msr:10", "msfs:1000000", "maf:10", "mafr:5", "mrd:1000",
    ])
    func everyName(option: String) throws {
        var recipe = ImageRecipe(), delivery = ImgproxyOptions.Delivery()
        try ImgproxyOptions(presets: ["p": "q:50"]).apply(option[...], to: &recipe, delivery: &delivery)
    }

    @Test("delivery options: expiry, file names (escaped or base64), attachment, raw and skipped formats")
    func delivery() throws {
        func read(_ text: String) throws -> ImgproxyOptions.Delivery {
            var recipe = ImageRecipe(), delivery = ImgproxyOptions.Delivery()
            for segment in text.split(separator: "/") { try ImgproxyOptions().apply(segment, to: &recipe, delivery: &delivery) }
            return delivery
        }
        #expect(try read("exp:100").hasExpired(now: 101) && !(try read("exp:100").hasExpired(now: 100)))
        #expect(try read("fn:my%20photo").filename == "my photo")
        #expect(try read("fn:\(Base64URL.encode(Array("été".utf8))):1").filename == "été")
        #expect(throws: ImagingError.self) { try read("fn:a%2Fb") }
        #expect(throws: ImagingError.self) { try read("fn:a%0Ab") }
        #expect(try read("att:1/raw:t").returnAttachment && (try read("raw:1").raw))
        #expect(try read("skp:jpg:png").skipProcessing == [.jpeg, .png])
    }
}

extension RecipeOptionsTests {
    /// A 300×200 image: a 100×50 red block at (120, 80) on white, so a trim keeps exactly the block.
    static let bordered = Result { () throws -> Data in
        var bytes = [UInt8](repeating: 255, count: 300 * 200 * 3)
        for y in 80..<130 {
            for x in 120..<220 { bytes.replaceSubrange((y * 300 + x) * 3..<(y * 300 + x) * 3 + 3, with: [255, 0, 0]) }
        }
        let image = try Image(pixels: PixelBuffer(width: 300, height: 200, bands: 3, bytes: bytes))
        return try ImageEncoder.encode(image, as: .png(PNGOptions()))
    }

    @Test("trim cuts the background around a bordered image; equal cuts keep it centred; a one-colour image stays whole")
    func trim() async throws {
        #expect(size(try await made("t:10", from: Self.bordered)) == [100, 50])
        #expect(size(try await made("t:10:ffffff", from: Self.bordered)) == [100, 50])
        // Cut 120 left, 80 right: equal cuts take 80 from each side; 80 above, 70 below: 70 each.
        #expect(size(try await made("t:10:ffffff:1:0", from: Self.bordered)) == [140, 50])
        #expect(size(try await made("t:10:ffffff:0:1", from: Self.bordered)) == [100, 60])
        let blank = Result { () throws -> Data in
            let image = try Image(pixels: PixelBuffer(width: 64, height: 32, bands: 3, bytes: [UInt8](repeating: 200, count: 64 * 32 * 3)))
            return try ImageEncoder.encode(image, as: .png(PNGOptions()))
        }
        #expect(size(try await made("t:10/rs:fit:32:32", from: blank)) == [32, 16])
    }

    @Test("crop before the resize: absolute, relative and whole sides at a gravity, then the resize")
    func cropBeforeResize() async throws {
        // 400×200 grid of 100-px cells: the top-left cell alone is red.
        let corner = try await made("c:100:100:nowe", from: Self.wide)
        let cornerColour = try colour(corner, 50, 50)
        #expect(size(corner) == [100, 100] && near(cornerColour, [255, 0, 0]))
        let half = try await made("c:0.5:0:ea/rs:fit:100:100", from: Self.wide)
        let halfColour = try colour(half, 75, 25)
        #expect(size(half) == [100, 100] && near(halfColour, [255, 255, 0]))
        let offset = try await made("c:100:100:nowe:100:100", from: Self.wide)
        #expect(near(try colour(offset, 50, 50), [255, 0, 255]))
        let focus = try await made("c:100:100:fp:0.625:0.25", from: Self.wide)
        #expect(near(try colour(focus, 50, 50), [0, 0, 255]))
    }
}
