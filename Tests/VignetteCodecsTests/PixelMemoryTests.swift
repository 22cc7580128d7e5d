import Foundation
import Testing

@testable import VignetteCodecs

/// An image's pixel memory is reached only through the image (`withUnsafePixels`), while the
/// image is alive, and holds what libvips' own `vips` command reads from the same file.
@Suite("Pixel memory: lent by the image while it lives, libvips' own pixels")
struct PixelMemoryTests {
    @Test(
        "A decoded image's pixels are the samples `vips rawsave` writes for the same file",
        .vipsCommand, arguments: ["baseline.jpg", "alpha.png", "palette.png", "rgb16.png", "grey-alpha.png"])
    func sameAsVipsCommand(_ name: String) async throws {
        let file = TestFiles.fixture(name)
        let image = try ImageDecoder(limits: .unlimited).decode(Data(contentsOf: file))
        let reference = try await ColourReference.raw(file)
        #expect(image.width == reference.width && image.height == reference.height && image.bands == reference.bands)
        let samples: [Double] = try image.withUnsafePixels { raw in
            #expect(raw.count == image.byteCount)
            switch image.bytesPerSample {
            case 1: return raw.map(Double.init)
            case 2: return raw.bindMemory(to: UInt16.self).map(Double.init)
            default: return []
            }
        }
        #expect(samples == reference.samples, "\(name)")
    }

    @Test("A lazy image is computed into memory for the closure: the bytes vips_image_write_to_memory gives")
    func lazyImage() throws {
        let source = try Image(pixels: PNGWriterTests.pixels(width: 97, height: 61, bands: 3))
        let lazy = try source.resized(toWidth: 40, height: 25, kernel: .lanczos3)
        #expect(!lazy.isInMemory && lazy.withPixelMemory { _ in true } == nil, "a lazy image lends no memory of its own")
        let bytes = try lazy.withUnsafePixels { Array($0) }
        #expect(bytes == (try lazy.pixels().bytes))
        #expect(!lazy.isInMemory, "the lazy image itself is left as it was")
    }

    @Test("The image lives while the closure runs, and not after: no pointer outlives its owner")
    func imageAliveWhileLent() throws {
        weak var lent: Image?
        let sum = try {
            let image = try Image(pixels: PNGWriterTests.pixels(width: 8, height: 8, bands: 1))
            lent = image
            return try image.withUnsafePixels { raw in
                #expect(lent != nil, "the owner is alive inside the closure")
                return raw.reduce(0) { $0 + Int($1) }
            }
        }()
        #expect(sum == PNGWriterTests.pixels(width: 8, height: 8, bands: 1).bytes.reduce(0) { $0 + Int($1) })
        #expect(lent == nil, "the image is gone once its last reference is")
    }

    @Test("An error thrown by the closure comes out as it was thrown")
    func closureErrors() throws {
        struct Stop: Error, Equatable {}
        let image = try Image(pixels: PNGWriterTests.pixels(width: 4, height: 4, bands: 3))
        #expect(throws: Stop()) { try image.withUnsafePixels { _ in throw Stop() } }
    }

    @Test("Images made from pixels are in memory, their bands grey or sRGB from the start, their pixels as given")
    func madeImages() throws {
        for bands in 1...4 {
            let pixels = PNGWriterTests.pixels(width: 5, height: 3, bands: bands)
            let image = try Image(pixels: pixels)
            #expect(image.isInMemory && image.hasAlpha == (bands == 2 || bands == 4))
            #expect(try image.pixels() == pixels, "\(bands) bands")
            #expect(try image.withUnsafePixels { Array($0) } == pixels.bytes)
        }
    }
}
