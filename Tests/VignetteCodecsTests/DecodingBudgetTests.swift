import Foundation
import Testing
@testable import VignetteCodecs

/// The files of Fixtures/ that lie about what decoding costs (made by make-fixtures.sh).
private let hostileFixtures = FixtureEntry.all.filter { $0.file.hasPrefix("hostile-") }

@Suite("The decoding budget")
struct DecodingBudgetTests {
    @Test("the hostile fixtures are there")
    func hostileFixturesExist() {
        #expect(hostileFixtures.count == 7)
    }

    @Test("every hostile fixture is refused from its header in every mode, with the same verdict",
          arguments: hostileFixtures, DecodeMode.allCases)
    func hostileRefused(entry: FixtureEntry, mode: DecodeMode) {
        let started = ContinuousClock.now
        let error = expectImagingError("\(entry.file) via \(mode)") { () throws(ImagingError) in try mode.run(entry.url) }
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .limitExceeded, "\(entry.file) via \(mode): \(String(describing: error))")
        // Not a speed claim: decoding any of these takes minutes and gigabytes; a refusal from the
        // header takes milliseconds (seconds under ThreadSanitizer), so the bound is loose.
        #expect(elapsed < .seconds(20), "\(entry.file) via \(mode) took \(elapsed)")
    }

    @Test("the message says what decoding would cost, and why",
          arguments: [
            ("hostile-progressive.jpg", "goes through 1630092716 pixels"),
            ("hostile-coefficients.jpg", "coefficients of the whole image"),
            ("hostile-missing-data.jpg", "goes through 4290250000 pixels"),
            ("hostile-wide16.png", "of memory"),
            ("hostile-canvas.webp", "makes 268402689 pixels"),
            ("hostile-coded-size.avif", "makes 289000000 pixels"),
            ("hostile-huge.jxl", "goes through 10000000000 pixels"),
          ])
    func messages(file: String, phrase: String) {
        let error = expectImagingError { () throws(ImagingError) in try DecodeMode.thumbnailShrinkOnLoad.run(TestFiles.fixture(file)) }
        #expect(error?.message.contains(phrase) == true, "\(String(describing: error))")
    }

    @Test("progressive previews of a hostile JPEG never decode", arguments: ["hostile-progressive.jpg", "hostile-coefficients.jpg"])
    func noPreviews(file: String) throws {
        let data = try TestFiles.data(TestFiles.fixture(file))
        let decoder = ProgressiveDecoder()
        for length in stride(from: 64, through: data.count, by: max(1, data.count / 40)) {
            #expect(decoder.preview(from: data.prefix(length)) == nil)
        }
        #expect(decoder.preview(from: data) == nil)
    }

    @Test("the 15000×15000 progressive JPEG passes once the memory budget allows its coefficients")
    func coefficientsAreTheCost() throws {
        let data = try TestFiles.data(TestFiles.fixture("hostile-coefficients.jpg"))
        let source = try LoadedSource(data: data, limits: .untrusted)
        let header = try source.load(failOn: .none)
        let plan = DecodePlan.covering(PixelSize(width: 256, height: 256), source, header)
        #expect(plan.loadOptions == ["shrink=8"])
        #expect(plan.cost.decodedPixels == 1875 * 1875)
        // 4:2:0: Y 1875×1876 blocks (rounded to the 2×2 sampling), Cb and Cr 938×938, 128 bytes each.
        #expect(plan.cost.memoryBytes >= (1876 * 1876 + 2 * 938 * 938) * 128)
        var limits = DecodingLimits.untrusted
        limits.maxMemoryBytes = 1 << 30
        #expect(throws: Never.self) { try limits.check(plan.cost) }
        #expect(throws: ImagingError.self) { try DecodingLimits.untrusted.check(plan.cost) }
    }

    @Test("JPEG frame headers: progressive vs baseline, sampling, coefficient bytes")
    func jpegFrameHeaders() throws {
        let progressive = try #require(JPEGFrameHeader(TestFiles.data(TestFiles.fixture("progressive.jpg"))))
        #expect(progressive.isProgressive && progressive.keepsWholeImageCoefficients)
        #expect(progressive.width == 640 && progressive.height == 480)
        #expect(progressive.components.map(\.horizontalSampling) == [2, 1, 1])
        // Y 80×60 blocks, Cb and Cr 40×30, 64 coefficients of 2 bytes: 640 × 480 × 3.
        #expect(progressive.coefficientBytes == 921_600)
        let baseline = try #require(JPEGFrameHeader(TestFiles.data(TestFiles.fixture("baseline.jpg"))))
        #expect(!baseline.isProgressive && !baseline.keepsWholeImageCoefficients)
        #expect(JPEGFrameHeader(Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00])) == nil)
        #expect(JPEGFrameHeader(Data("not a jpeg".utf8)) == nil)
    }

    @Test("HEIF coded sizes: HEVC SPS, AV1 sequence header from the item data, the lie in hostile-coded-size.avif")
    func heifCodedSizes() throws {
        #expect(HEIFCodedSize.largest(in: try TestFiles.data(TestFiles.fixture("thumbnail.heic"))) == PixelSize(width: 1280, height: 960))
        #expect(HEIFCodedSize.largest(in: try TestFiles.data(TestFiles.fixture("avif.avif"))) == PixelSize(width: 640, height: 480))
        #expect(HEIFCodedSize.largest(in: try TestFiles.data(TestFiles.fixture("hostile-coded-size.avif"))) == PixelSize(width: 17000, height: 17000))
        #expect(HEIFCodedSize.largest(in: Data("ftypheic".utf8)) == nil)
    }

    @Test("a grid AVIF counts its grid's output size", .corpus)
    func gridSize() throws {
        let size = HEIFCodedSize.largest(in: try TestFiles.data(TestFiles.corpusFile("pitm.avif")))
        #expect(size == PixelSize(width: 4096, height: 800))
        #expect(throws: Never.self) { try DecodeMode.thumbnailShrinkOnLoad.run(TestFiles.corpusFile("pitm.avif")) }
    }

    @Test("each budget refuses on its own, and the defaults pass every loadable fixture")
    func eachBudget() throws {
        let url = TestFiles.fixture("rgb16.png")  // 320×240, 3 bands of 16 bits
        var limits = DecodingLimits.unlimited
        limits.maxSourcePixels = 320 * 240 - 1
        #expect(expectImagingError { () throws(ImagingError) in try DecodeMode.decodeBytes.run(url, limits: limits) }?.kind == .limitExceeded)
        limits = .unlimited
        limits.maxPixels = 320 * 240 - 1
        #expect(expectImagingError { () throws(ImagingError) in try DecodeMode.decodeBytes.run(url, limits: limits) }?.kind == .limitExceeded)
        limits = .unlimited
        // Pixels × 3 bands × 2 bytes, plus 32 lines in flight at 4 bytes a band.
        let memory = 320 * 240 * 3 * 2 + 320 * 3 * 4 * 32
        limits.maxMemoryBytes = memory - 1
        #expect(expectImagingError { () throws(ImagingError) in try DecodeMode.decodeBytes.run(url, limits: limits) }?.kind == .limitExceeded)
        limits.maxMemoryBytes = memory
        #expect(throws: Never.self) { try DecodeMode.decodeBytes.run(url, limits: limits) }
        for entry in FixtureEntry.loadable {
            #expect(throws: Never.self, "\(entry.file)") { try DecodeMode.decodeBytes.run(entry.url) }
        }
    }

    @Test("an upscaled result counts against the budget")
    func upscaledResult() {
        var options = ThumbnailOptions(width: 100_000, height: 100_000, fit: .cover, allowUpscaling: true)
        options.useEmbeddedThumbnail = false
        let error = expectImagingError { () throws(ImagingError) in
            try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("baseline.jpg").path)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("the result would be") == true)
    }

    @Test("corrupt-header.jpg is corrupt, truncated.jpg truncated, in every mode", .corpus, arguments: DecodeMode.allCases)
    func truncatedVersusCorrupt(mode: DecodeMode) {
        let corrupt = expectImagingError { () throws(ImagingError) in try mode.run(TestFiles.corpusFile("corrupt-header.jpg")) }
        #expect(corrupt?.kind == .corruptData, "\(String(describing: corrupt))")
        let truncated = expectImagingError { () throws(ImagingError) in try mode.run(TestFiles.corpusFile("truncated.jpg")) }
        #expect(truncated?.kind == .truncatedData, "\(String(describing: truncated))")
    }

    @Test("a failed decode reports the loader's message, not the saver's")
    func loaderMessage() throws {
        let data = try TestFiles.data(TestFiles.fixture("cut-short.jpg"))
        let error = expectImagingError { () throws(ImagingError) in
            try DecodeMode.encodedThumbnail.run(TestFiles.fixture("cut-short.jpg"))
        }
        #expect(error?.kind == .truncatedData)
        #expect(error?.message.contains("save") == false, "\(String(describing: error))")
        let jpeg = expectImagingError { () throws(ImagingError) in
            try Thumbnailer(options: ThumbnailOptions(size: 128)).encodedThumbnail(data, as: .jpeg(JPEGOptions()))
        }
        #expect(jpeg?.message.contains("jpegsave") == false, "\(String(describing: jpeg))")
    }
}

@Suite("The encoding side of the budget")
struct EncodingBudgetTests {
    @Test("encoding counts the encoder's own buffers: a full-size AVIF of 100 MP is refused, JPEG is not")
    func encoderMemory() throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture("baseline.jpg").path)  // 640×480
        var limits = DecodingLimits.untrusted
        // The pixels (3 bytes) plus 20 bytes a pixel for libheif and x265/aom, 6 for libwebp.
        limits.maxMemoryBytes = 640 * 480 * (3 + 20) - 1
        let avif = expectImagingError { () throws(ImagingError) in try ImageEncoder.encode(image, as: .avif(HEIFOptions()), limits: limits) }
        #expect(avif?.kind == .limitExceeded)
        #expect(avif?.message.contains("encoding 640x480 as avif") == true)
        #expect(throws: Never.self) { try ImageEncoder.encode(image, as: .webp(WebPOptions()), limits: limits) }
        limits.maxMemoryBytes = 640 * 480 * (3 + 6) - 1
        #expect(throws: ImagingError.self) { try ImageEncoder.encode(image, as: .webp(WebPOptions()), limits: limits) }
        #expect(throws: Never.self) { try ImageEncoder.encode(image, as: .jpeg(JPEGOptions()), limits: limits) }
    }
}
