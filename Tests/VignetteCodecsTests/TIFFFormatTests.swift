import Foundation
import Testing
import VignetteCodecs

@Suite("TIFF: written through libvips' tiffsave (libtiff)")
struct TIFFFormatTests {
    @Test("lossless TIFF is pixel-exact, alpha and grey kept, read back by libtiff and by ImageMagick",
          .vipsCommand, arguments: [TIFFOptions.Compression.deflate, .lzw, .none], ["rgb8.png", "alpha.png", "grey-alpha.png"])
    func lossless(compression: TIFFOptions.Compression, file: String) async throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture(file).path)
        let data = try ImageEncoder.encode(image, as: .tiff(TIFFOptions(compression: compression)))
        let info = try ImageDecoder().probe(data)
        #expect(info.format == .tiff && info.width == image.width && info.height == image.height && info.bands == image.bands)
        #expect(try ImageDecoder().decode(data).pixels() == image.pixels())
        let other = try await IndependentDecoder.image(data, ext: "tif", with: .imageMagick)
        #expect(other.width == image.width && other.height == image.height && other.hasAlpha == image.hasAlpha)
        #expect(try other.colourPixels() == image.colourPixels(), "\(file) as \(compression)")
    }

    @Test("deflate is smaller than none; JPEG compression is lossy, flattens alpha and follows quality")
    func compressions() throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        let none = try ImageEncoder.encode(image, as: .tiff(TIFFOptions(compression: .none)))
        let deflate = try ImageEncoder.encode(image, as: .tiff(TIFFOptions()))
        #expect(deflate.count < none.count)
        let low = try ImageEncoder.encode(image, as: .tiff(TIFFOptions(compression: .jpeg, quality: 30)))
        let high = try ImageEncoder.encode(image, as: .tiff(TIFFOptions(compression: .jpeg, quality: 95)))
        #expect(low.count < high.count)
        let back = try ImageDecoder().decode(high)
        #expect(!back.hasAlpha && back.width == image.width)
        #expect(try back.perceptualHash().distance(to: image.flattened().perceptualHash()) <= 5)
        let error = expectImagingError { () throws(ImagingError) in
            try ImageEncoder.encode(image, as: .tiff(TIFFOptions(compression: .jpeg, quality: 0)))
        }
        #expect(error?.kind == .invalidArgument)
    }

    @Test("the ICC profile is written with metadata stripped")
    func profile() throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture("p3-alpha.png").path)
        let data = try ImageEncoder.encode(image, as: .tiff(TIFFOptions()))
        #expect(try ImageDecoder().decode(data).iccProfile == image.iccProfile)
    }
}
