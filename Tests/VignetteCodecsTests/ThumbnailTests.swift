import Foundation
import Testing
import VignetteCodecs

/// The size a 256×256 "inside" thumbnail of an upright `size` image must have.
func expectedInside(_ size: PixelSize, box: Int = 256) -> PixelSize {
    let scale = min(1, min(Double(box) / Double(size.width), Double(box) / Double(size.height)))
    return PixelSize(width: max(1, Int((Double(size.width) * scale).rounded())),
                     height: max(1, Int((Double(size.height) * scale).rounded())))
}

@Suite("Thumbnails")
struct ThumbnailTests {
    static let box = Thumbnailer(options: ThumbnailOptions(size: 256))

    @Test("every loadable fixture: right size, alpha kept", arguments: FixtureEntry.loadable)
    func fixtures(entry: FixtureEntry) throws {
        let thumbnail = try Self.box.thumbnail(fileAt: entry.url.path)
        let upright = thumbnail.source.uprightSize
        #expect(PixelSize(width: thumbnail.image.width, height: thumbnail.image.height) == expectedInside(upright))
        #expect(thumbnail.image.hasAlpha == entry.alpha)
        #expect(thumbnail.image.orientation == 1)
    }

    @Test("every loadable corpus image: right size, alpha kept", .corpus, arguments: CorpusEntry.loadable)
    func corpus(entry: CorpusEntry) throws {
        guard let header = entry.header else { return }
        if entry.file == "65536-uint32-limit.png" { return }  // refused by the pixel budget: see LimitTests
        let thumbnail = try Self.box.thumbnail(fileAt: entry.url.path)
        let upright = thumbnail.source.uprightSize
        #expect(PixelSize(width: thumbnail.image.width, height: thumbnail.image.height) == expectedInside(upright))
        #expect(thumbnail.image.hasAlpha == thumbnail.source.hasAlpha)
        #expect(thumbnail.source.width == header.width && thumbnail.source.height == header.height)
    }

    @Test("corpus Landscape_1…8 come out upright, 4:3, and look like Landscape_1", .corpus)
    func corpusOrientation() throws {
        let reference = try Self.box.thumbnail(fileAt: TestFiles.corpusFile("Landscape_1.jpg").path).image.perceptualHash()
        for n in 1...8 {
            for method in ThumbnailOptions.Method.allCases {
                var options = ThumbnailOptions(size: 256)
                options.method = method
                let image = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.corpusFile("Landscape_\(n).jpg").path).image
                #expect(image.width == 256 && image.height == 192, "Landscape_\(n) via \(method)")
                let distance = try image.perceptualHash().distance(to: reference)
                #expect(distance <= 5, "Landscape_\(n) via \(method): dHash distance \(distance)")
            }
        }
    }

    @Test("fixture orientation-1…8 come out upright and look like orientation-1")
    func fixtureOrientation() throws {
        let reference = try Self.box.thumbnail(fileAt: TestFiles.fixture("orientation-1.jpg").path).image.perceptualHash()
        for n in 2...8 {
            let image = try Self.box.thumbnail(fileAt: TestFiles.fixture("orientation-\(n).jpg").path).image
            #expect(image.width == 256 && image.height == 192, "orientation-\(n)")
            #expect(try image.perceptualHash().distance(to: reference) <= 5, "orientation-\(n)")
        }
        // And with auto-orientation off, a transposed one stays transposed and tagged.
        var options = ThumbnailOptions(size: 256)
        options.autoOrient = false
        let raw = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("orientation-6.jpg").path).image
        #expect(raw.width == 192 && raw.height == 256)
        #expect(try raw.perceptualHash().distance(to: reference) > 5)
    }

    @Test("fit modes: inside, cover (centre and attention), fill; no upscaling unless asked")
    func fitModes() throws {
        let path = TestFiles.fixture("baseline.jpg").path  // 640×480
        func size(_ options: ThumbnailOptions) throws -> PixelSize {
            let image = try Thumbnailer(options: options).thumbnail(fileAt: path).image
            return PixelSize(width: image.width, height: image.height)
        }
        #expect(try size(ThumbnailOptions(width: 200, height: 200, fit: .inside)) == PixelSize(width: 200, height: 150))
        #expect(try size(ThumbnailOptions(width: 200, height: 200, fit: .cover)) == PixelSize(width: 200, height: 200))
        #expect(try size(ThumbnailOptions(width: 200, height: 200, fit: .cover, crop: .attention)) == PixelSize(width: 200, height: 200))
        #expect(try size(ThumbnailOptions(width: 200, height: 100, fit: .fill)) == PixelSize(width: 200, height: 100))
        #expect(try size(ThumbnailOptions(width: 1000, height: 1000)) == PixelSize(width: 640, height: 480))
        #expect(try size(ThumbnailOptions(width: 1280, height: 1280, allowUpscaling: true)) == PixelSize(width: 1280, height: 960))
        #expect(try size(ThumbnailOptions(width: 1000, height: 300, fit: .cover)) == PixelSize(width: 640, height: 300))
    }

    @Test("a zero-sized box is an invalid argument")
    func zeroBox() {
        let error = expectImagingError { () throws(ImagingError) in
            try Thumbnailer(options: ThumbnailOptions(width: 0, height: 10)).thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path)
        }
        #expect(error?.kind == .invalidArgument)
    }

    @Test("CMYK becomes 3-band sRGB; 16-bit becomes 8-bit")
    func colour() throws {
        let cmyk = try Self.box.thumbnail(fileAt: TestFiles.fixture("cmyk.jpg").path).image
        #expect(cmyk.bands == 3 && cmyk.bytesPerSample == 1)
        let sixteen = try Self.box.thumbnail(fileAt: TestFiles.fixture("rgb16.png").path).image
        #expect(sixteen.bands == 3 && sixteen.bytesPerSample == 1)
        let cmykHash = try cmyk.perceptualHash()
        let baseline = try Self.box.thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path).image.perceptualHash()
        #expect(cmykHash.distance(to: baseline) <= 5)
    }

    @Test("blurSigma softens the thumbnail: less detail, same picture")
    func blur() throws {
        func detail(_ image: Image) throws -> Int {
            let p = try image.pixels()
            var sum = 0
            for i in p.bands..<p.bytes.count { sum += abs(Int(p.bytes[i]) - Int(p.bytes[i - p.bands])) }
            return sum
        }
        var options = ThumbnailOptions(size: 256)
        let sharp = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path).image
        options.blurSigma = 3
        let soft = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path).image
        #expect(try detail(soft) * 2 < detail(sharp))
        #expect(try soft.perceptualHash().distance(to: sharp.perceptualHash()) <= 5)
        options.blurSigma = -1
        let error = expectImagingError { () throws(ImagingError) in
            try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path)
        }
        #expect(error?.kind == .invalidArgument)
    }
}
