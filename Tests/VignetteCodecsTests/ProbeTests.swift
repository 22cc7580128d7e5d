import Foundation
import Testing
import VignetteCodecs

@Suite("Probe: the header, without decoding pixels")
struct ProbeTests {
    @Test("agrees with the Fixtures manifest", arguments: FixtureEntry.all.filter { $0.expect != "error" })
    func fixtureHeaders(entry: FixtureEntry) throws {
        var limits = DecodingLimits.untrusted
        limits.maxPixels = .max
        let info = try ImageDecoder(limits: limits).probe(fileAt: entry.url.path)
        #expect(info.width == entry.width)
        #expect(info.height == entry.height)
        #expect(info.bands == entry.bands)
        #expect(info.hasAlpha == entry.alpha)
        #expect(info.orientation == entry.orientation)
        #expect(info.pages == entry.pages)
        let expectedFormat = entry.format == "heif" ? (entry.file.hasSuffix(".avif") ? "avif" : "heic") : entry.format
        #expect(info.format.rawValue == expectedFormat)
        #expect((info.embeddedThumbnail?.description ?? "-") == entry.thumbnail)
    }

    @Test("agrees with libvips 8.14's header in the corpus manifest", .corpus, arguments: CorpusEntry.loadable)
    func corpusHeaders(entry: CorpusEntry) throws {
        guard let header = entry.header else { return }
        let info = try ImageDecoder().probe(fileAt: entry.url.path)
        #expect(info.width == header.width)
        #expect(info.height == header.height)
        #expect(info.bands == header.bands)
        let loaderFormat = header.loader.replacingOccurrences(of: "load", with: "")
        let expected = loaderFormat == "heif" ? ["heic", "avif"] : [loaderFormat]
        #expect(expected.contains(info.format.rawValue))
    }

    @Test("reads EXIF orientation 1–8 of the corpus landscapes", .corpus)
    func corpusOrientations() throws {
        for n in 1...8 {
            let info = try ImageDecoder().probe(fileAt: TestFiles.corpusFile("Landscape_\(n).jpg").path)
            #expect(info.orientation == n)
            #expect(info.uprightSize == PixelSize(width: 600, height: 450))
        }
    }

    @Test("refuses a missing file with an I/O error")
    func missingFile() {
        let error = expectImagingError { () throws(ImagingError) in
            try ImageDecoder().probe(fileAt: "/nonexistent/photo.jpg")
        }
        #expect(error?.kind == .io)
    }
}
