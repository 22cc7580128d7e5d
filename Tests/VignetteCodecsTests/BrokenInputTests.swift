import Foundation
import Testing
import VignetteCodecs

/// Every way bytes can be decoded, so broken input is checked against each.
enum DecodeMode: String, CaseIterable, CustomTestStringConvertible {
    case decodeBytes, decodeFile, thumbnailShrinkOnLoad, thumbnailVips, encodedThumbnail

    var testDescription: String { rawValue }

    func run(_ url: URL, limits: DecodingLimits = .untrusted) throws(ImagingError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ImagingError(.io, "\(error)") }
        switch self {
        case .decodeBytes:
            _ = try ImageDecoder(limits: limits).decode(data)
        case .decodeFile:
            _ = try ImageDecoder(limits: limits).decode(fileAt: url.path)
        case .thumbnailShrinkOnLoad:
            _ = try Thumbnailer(options: ThumbnailOptions(size: 128), limits: limits).thumbnail(data)
        case .thumbnailVips:
            var options = ThumbnailOptions(size: 128)
            options.method = .vipsThumbnail
            _ = try Thumbnailer(options: options, limits: limits).thumbnail(data)
        case .encodedThumbnail:
            _ = try Thumbnailer(options: ThumbnailOptions(size: 128), limits: limits)
                .encodedThumbnail(data, as: .webp(WebPOptions()))
        }
    }
}

@Suite("Broken, unsupported and hostile input")
struct BrokenInputTests {
    @Test("broken fixtures give a typed error in every mode", arguments: FixtureEntry.broken, DecodeMode.allCases)
    func brokenFixtures(entry: FixtureEntry, mode: DecodeMode) {
        let error = expectImagingError("\(entry.file) via \(mode)") { () throws(ImagingError) in try mode.run(entry.url) }
        #expect(error?.kind.isBadInput == true, "\(entry.file) via \(mode): \(String(describing: error))")
        #expect(error?.message.isEmpty == false)
    }

    @Test("broken corpus files give a typed error in every mode", .corpus,
          arguments: ["corrupt-header.jpg", "truncated.jpg", "truncated.png", "testimgl.jpg", "MANIFEST.tsv"], DecodeMode.allCases)
    func brokenCorpus(file: String, mode: DecodeMode) {
        let error = expectImagingError("\(file) via \(mode)") { () throws(ImagingError) in
            try mode.run(TestFiles.corpusFile(file))
        }
        #expect(error?.kind.isBadInput == true, "\(file) via \(mode): \(String(describing: error))")
    }

    @Test("the kinds say what happened")
    func kinds() {
        let kind = { (file: String) -> ImagingError.Kind? in
            expectImagingError(Comment(rawValue: file)) { () throws(ImagingError) in
                try ImageDecoder().decode(fileAt: TestFiles.fixture(file).path)
            }?.kind
        }
        #expect(kind("not-an-image.txt") == .unsupportedFormat)
        #expect(kind("empty.jpg") == .unsupportedFormat)
        #expect(kind("cut-short.jpg") == .truncatedData)
        #expect(kind("huge-declared.png") == .limitExceeded)
        #expect(kind("cut-short.png") == .truncatedData)
    }

    @Test("a truncated JPEG decodes with fail-on none, and fails with truncated")
    func failOnLevels() throws {
        var limits = DecodingLimits.untrusted
        limits.failOn = .none
        let image = try ImageDecoder(limits: limits).decode(fileAt: TestFiles.fixture("cut-short.jpg").path)
        #expect(image.width == 640)
        limits.failOn = .truncated
        let error = expectImagingError { () throws(ImagingError) in
            try ImageDecoder(limits: limits).decode(fileAt: TestFiles.fixture("cut-short.jpg").path)
        }
        #expect(error?.kind == .truncatedData)
    }
}

@Suite("Limits, checked from the header")
struct LimitTests {
    @Test("the 65536×65536 PNG bomb is refused before decoding, well under 100 ms", .corpus, arguments: DecodeMode.allCases)
    func pngBomb(mode: DecodeMode) throws {
        let url = TestFiles.corpusFile("65536-uint32-limit.png")
        let started = ContinuousClock.now
        let error = expectImagingError { () throws(ImagingError) in try mode.run(url) }
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .limitExceeded)
        // Not a timing assertion on speed: a decode of 4.29 gigapixels takes tens of seconds, so this
        // tells "refused from the header" from "decoded, then refused".
        #expect(elapsed < .milliseconds(100), "took \(elapsed)")
    }

    @Test("a tiny file declaring 100000×100000 is refused in every mode", arguments: DecodeMode.allCases)
    func declaredHuge(mode: DecodeMode) {
        let error = expectImagingError { () throws(ImagingError) in try mode.run(TestFiles.fixture("huge-declared.png")) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("100000x100000") == true)
    }

    @Test("giant-image.jpg (280 MP) thumbnails through shrink-on-load within the 100 MP budget", .corpus)
    func giantImage() throws {
        let thumbnail = try Thumbnailer(options: ThumbnailOptions(size: 256)).thumbnail(fileAt: TestFiles.corpusFile("giant-image.jpg").path)
        #expect(thumbnail.route == .shrinkOnLoad(scale: 0.125))
        #expect(thumbnail.image.width == 256 && thumbnail.image.height == 179)
        // A full decode is over budget.
        let error = expectImagingError { () throws(ImagingError) in
            try ImageDecoder().decode(fileAt: TestFiles.corpusFile("giant-image.jpg").path)
        }
        #expect(error?.kind == .limitExceeded)
    }

    @Test("byte and frame budgets")
    func bytesAndFrames() {
        var limits = DecodingLimits.untrusted
        limits.maxInputBytes = 1000
        let bytes = expectImagingError { () throws(ImagingError) in try DecodeMode.decodeFile.run(TestFiles.fixture("baseline.jpg"), limits: limits) }
        #expect(bytes?.kind == .limitExceeded)
        limits = .untrusted
        // A still decodes one frame, whatever the file declares: the frame limit drops frames, it refuses none.
        limits.maxFrames = 2
        #expect(throws: Never.self) { try DecodeMode.thumbnailShrinkOnLoad.run(TestFiles.fixture("animated.gif"), limits: limits) }
    }
}
