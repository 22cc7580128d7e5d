import Foundation
import Testing
import VignetteCodecs

/// Vignette's own BMP decoder on Jason Summers' BMP Suite (Fixtures/bmpsuite: good, questionable
/// and bad files), compared with Pillow's decode of the same files.
@Suite("BMP: the BMP Suite's files, decoded as Pillow decodes them; bad ones refused cleanly")
struct BMPSuiteTests {
    static let good = BitmapReference.files(in: "g")
    static let questionable = BitmapReference.files(in: "q")
    static let bad = BitmapReference.files(in: "b")

    /// Questionable files Vignette refuses as a format it does not read (embedded JPEG or PNG,
    /// OS/2 Huffman and RLE24, 64 bits a pixel).
    static let unsupported: Set<String> = ["q/pal1huffmsb.bmp", "q/rgb24jpeg.bmp", "q/rgb24png.bmp", "q/rgb24rle24.bmp", "q/rgba64.bmp"]
    static func data(_ file: String) throws -> Data { try Data(contentsOf: BitmapReference.suite.appendingPathComponent(file)) }

    @Test("The suite is here: 27 good, 41 questionable and 20 bad files")
    func suite() {
        #expect(Self.good.count == 27 && Self.questionable.count == 41 && Self.bad.count == 20)
    }

    @Test("Good and questionable files decode with Pillow's pixels (within 1 of 255 for scaled bit fields)", .pillow)
    func matchesPillow() async throws {
        let files = (Self.good + Self.questionable).filter { !Self.unsupported.contains($0) }
        let references = try await BitmapReference.pillow(files.map { BitmapReference.suite.appendingPathComponent($0).path })
        var compared = 0
        for file in files {
            let image = try ImageDecoder().decode(Self.data(file))
            let info = try ImageDecoder().probe(Self.data(file))
            #expect(info.format == .bmp && info.width == image.width && info.height == image.height && info.bands == image.bands, "\(file)")
            guard let reference = references[BitmapReference.suite.appendingPathComponent(file).path] ?? nil else {
                // Pillow reads every good file but rgb32bf.bmp (bit fields in an order it does not know).
                #expect(file.hasPrefix("q/") || file == "g/rgb32bf.bmp", "Pillow does not read \(file)")
                continue
            }
            let result = try #require(try BitmapReference.compare(image, reference), "\(file): size differs from Pillow's")
            // Pillow widens 5- and 6-bit channels by repeating bits, Vignette rounds value × 255 / max.
            #expect(result.colour <= 2, "\(file): a colour differs from Pillow's by \(result.colour)")
            #expect(result.alphaAgrees, "\(file): alpha differs from Pillow's")
            compared += 1
        }
        // Pillow reads 26 good files, and 20 of the questionable ones Vignette reads.
        #expect(compared >= 45, "only \(compared) files compared")
    }

    @Test("Every good file thumbnails; a 32-bit file's unused fourth byte is not alpha; RLE's skipped pixels are transparent")
    func thumbnails() throws {
        for file in Self.good {
            let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: 48, height: 48)).thumbnail(Self.data(file))
            #expect(max(thumbnail.image.width, thumbnail.image.height) == 48, "\(file)")
            #expect(thumbnail.source.format == .bmp)
        }
        #expect(try ImageDecoder().decode(Self.data("q/rgb32fakealpha.bmp")).bands == 3)
        #expect(try ImageDecoder().decode(Self.data("g/rgb32.bmp")).bands == 3)
        #expect(try ImageDecoder().decode(Self.data("q/rgba32abf.bmp")).bands == 4)
        #expect(try ImageDecoder().decode(Self.data("g/pal8rle.bmp")).bands == 3)
        let transparent = try ImageDecoder().decode(Self.data("q/pal8rletrns.bmp")).pixels()
        #expect(transparent.bands == 4 && transparent.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }

    @Test("Questionable files Vignette does not read are refused as unsupported, naming what they hold")
    func unsupportedVariants() throws {
        for file in Self.unsupported.sorted() {
            let data = try Self.data(file)
            let error = expectImagingError(Comment(rawValue: file)) { () throws(ImagingError) in try ImageDecoder().decode(data) }
            #expect(error?.kind == .unsupportedFormat, "\(file): \(String(describing: error))")
            #expect(error?.message.contains("BMP") == true, "\(file): \(String(describing: error))")
        }
    }

    @Test("Every bad file is refused with a typed error naming the fault")
    func badFiles() throws {
        for file in Self.bad {
            let data = try Self.data(file)
            let error = expectImagingError(Comment(rawValue: file)) { () throws(ImagingError) in try ImageDecoder().decode(data) }
            #expect([.corruptData, .truncatedData, .limitExceeded].contains(error?.kind), "\(file): \(String(describing: error))")
            #expect(error?.message.contains("BMP") == true || error?.kind == .limitExceeded, "\(file): \(String(describing: error))")
            // The thumbnail path reaches the same verdict.
            let thumbnail = expectImagingError(Comment(rawValue: file)) { () throws(ImagingError) in
                try Thumbnailer(options: ThumbnailOptions(width: 32, height: 32)).thumbnail(data)
            }
            #expect(thumbnail?.kind == error?.kind, "\(file)")
        }
    }

    @Test("A file cut short is truncated data, and decodes with fail-on none (its missing rows black)")
    func shortFile() throws {
        let data = try Self.data("b/shortfile.bmp")
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder().decode(data) }
        #expect(error?.kind == .truncatedData)
        var lenient = DecodingLimits.untrusted
        lenient.failOn = .none
        let image = try ImageDecoder(limits: lenient).decode(data)
        #expect(image.width == 127 && image.height == 64)
    }
}
