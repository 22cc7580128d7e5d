import Foundation
import Testing
import VignetteCodecs

@Suite("BMP and ICO: Vignette's own writers, read by ImageMagick")
struct BMPAndICOFormatTests {
    static func fixture(_ name: String) throws -> Image { try ImageDecoder().decode(fileAt: TestFiles.fixture(name).path) }

    static func uint32(_ data: Data, at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(data[data.startIndex + offset + $1]) << (8 * $1) }
    }

    static func uint16(_ data: Data, at offset: Int) -> Int {
        Int(data[data.startIndex + offset]) | Int(data[data.startIndex + offset + 1]) << 8
    }

    @Test("BMP: 24-bit for opaque images, 32-bit BGRA with a V4 header for alpha, rows padded; ImageMagick reads the same pixels",
          .vipsCommand, arguments: ["rgb8.png", "alpha.png", "grey-alpha.png", "line-1000x1.jpg"])
    func bmp(file: String) async throws {
        // An odd width (317) makes every 24-bit row need padding.
        var image = try Self.fixture(file)
        if image.width == 320 { image = try image.cropped(x: 0, y: 0, width: 317, height: image.height) }
        let data = try ImageEncoder.encode(image, as: .bmp)
        #expect(data.prefix(2) == Data("BM".utf8))
        #expect(Self.uint32(data, at: 2) == data.count)
        let alpha = image.hasAlpha
        #expect(Self.uint32(data, at: 14) == (alpha ? 108 : 40))
        #expect(Self.uint32(data, at: 18) == image.width && Self.uint32(data, at: 22) == image.height)
        #expect(Self.uint16(data, at: 28) == (alpha ? 32 : 24))
        let rowBytes = (image.width * (alpha ? 4 : 3) + 3) / 4 * 4
        #expect(data.count == Self.uint32(data, at: 10) + rowBytes * image.height)

        let other = try await IndependentDecoder.image(data, ext: "bmp", with: .imageMagick)
        #expect(other.width == image.width && other.height == image.height && other.hasAlpha == alpha)
        // BMP holds grey as RGB, and ImageMagick may read an all-grey file back as grey.
        #expect(try other.colourPixels() == image.colourPixels(), "\(file)")
    }

    @Test("ICO: ICONDIR, one entry and an RGBA PNG; ImageMagick reads it with the same pixels",
          .vipsCommand, arguments: ["alpha.png", "rgb8.png", "grey-alpha.png"])
    func ico(file: String) async throws {
        let image = try Self.fixture(file).resized(toWidth: 64, height: 48)
        let data = try ImageEncoder.encode(image, as: .ico)
        #expect(data.prefix(6) == Data([0, 0, 1, 0, 1, 0]))
        #expect(data[6] == 64 && data[7] == 48 && Self.uint16(data, at: 12) == 32)
        #expect(Self.uint32(data, at: 14) == data.count - 22 && Self.uint32(data, at: 18) == 22)
        let png = data.dropFirst(22)
        let inner = try ImageDecoder().decode(Data(png))
        #expect(inner.bands == 4 && inner.width == 64 && inner.height == 48)

        let other = try await IndependentDecoder.image(data, ext: "ico", with: .imageMagick)
        #expect(other.width == 64 && other.height == 48 && other.hasAlpha)
        #expect(try other.colourPixels() == inner.colourPixels())
        if image.hasAlpha, image.bands == 4 { #expect(try inner.pixels() == image.pixels()) }
    }

    @Test("ICO: 256 a side is written as 0 in the entry; 257 is refused as an invalid argument naming the limit", .vipsCommand)
    func icoSizes() async throws {
        let image = try Self.fixture("baseline.jpg")
        let largest = try ImageEncoder.encode(image.resized(toWidth: 256, height: 256), as: .ico)
        #expect(largest[6] == 0 && largest[7] == 0)
        let other = try await IndependentDecoder.image(largest, ext: "ico", with: .imageMagick)
        #expect(other.width == 256 && other.height == 256)
        for (width, height) in [(257, 10), (10, 257), (640, 480)] {
            let error = expectImagingError { () throws(ImagingError) in
                try ImageEncoder.encode(image.resized(toWidth: width, height: height), as: .ico)
            }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.message.contains("256x256") == true, "\(String(describing: error))")
        }
        // Before the memory budget: a 20000×20000 image is refused for its size, not its cost.
        let huge = expectImagingError { () throws(ImagingError) in
            try ImageEncoder.encode(image.resized(toWidth: 20000, height: 20000), as: .ico)
        }
        #expect(huge?.kind == .invalidArgument, "\(String(describing: huge))")
    }
}
