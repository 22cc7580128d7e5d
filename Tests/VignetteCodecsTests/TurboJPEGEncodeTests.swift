import Foundation
import Testing

@testable import VignetteCodecs

/// Plain JPEGs of pixels in memory are written by libjpeg-turbo at once (`TurboJPEG.encode(pixels:…)`)
/// instead of through `vips_jpegsave`'s sink: the same pixels as libvips' saver gives, at the
/// same subsampling rule, and libvips' saver for everything else.
@Suite("JPEG from pixels in memory: libjpeg-turbo at once, the pixels vips_jpegsave writes")
struct TurboJPEGEncodeTests {
    @Test("RGB and grey at odd sizes, below and from quality 90: decoded, the same pixels as vips_jpegsave's",
          arguments: [1, 3], [(7, 5), (641, 479)])
    func sameAsLibvips(_ bands: Int, _ size: (Int, Int)) throws {
        let image = try Image(pixels: PNGWriterTests.pixels(width: size.0, height: size.1, bands: bands))
        for quality in [40, 80, 90, 97] {
            let options = JPEGOptions(quality: quality)
            #expect(ImageEncoder.encodesWithTurboJPEG(image, options), "pixels in memory take libjpeg-turbo")
            let fast = try ImageEncoder.encode(image, as: .jpeg(options))
            // keepMetadata sends the same pixels through libvips' saver.
            var viaVips = options
            viaVips.keepMetadata = true
            #expect(!ImageEncoder.encodesWithTurboJPEG(image, viaVips))
            let saved = try ImageEncoder.encode(image, as: .jpeg(viaVips))
            let a = try ImageDecoder().decode(fast), b = try ImageDecoder().decode(saved)
            #expect(a.width == size.0 && a.height == size.1 && a.bands == bands)
            #expect(try a.pixels().bytes == b.pixels().bytes, "\(bands) bands, quality \(quality)")
        }
    }

    @Test("A lazy image, progressive or optimised coding, and alpha go through libvips' saver")
    func libvipsForTheRest() throws {
        let image = try Image(pixels: PNGWriterTests.pixels(width: 64, height: 48, bands: 3))
        #expect(!ImageEncoder.encodesWithTurboJPEG(image, JPEGOptions(progressive: true)))
        #expect(!ImageEncoder.encodesWithTurboJPEG(image, JPEGOptions(optimizeCoding: true)))
        let lazy = try image.resized(toWidth: 32, height: 24, kernel: .lanczos3)
        #expect(!ImageEncoder.encodesWithTurboJPEG(lazy, JPEGOptions()))
        let rgba = try Image(pixels: PNGWriterTests.pixels(width: 64, height: 48, bands: 4))
        #expect(!ImageEncoder.encodesWithTurboJPEG(rgba, JPEGOptions()))
        // Each still encodes.
        #expect(try ImageDecoder().decode(ImageEncoder.encode(lazy, as: .jpeg(JPEGOptions()))).width == 32)
        #expect(try ImageDecoder().decode(ImageEncoder.encode(rgba, as: .jpeg(JPEGOptions()))).bands == 3)
    }
}
