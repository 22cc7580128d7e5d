import Foundation
import Testing
import VignetteCodecs

@Suite("Encoding: JPEG, PNG (libvips), WebP (libwebp), HEIC and AVIF (libheif)")
struct EncodingTests {
    static var source: Image {
        get throws { try ImageDecoder().decode(fileAt: TestFiles.fixture("baseline.jpg").path) }
    }

    func roundTrip(_ format: EncodingFormat, from image: Image? = nil) throws -> (Data, Image) {
        let encoded = try ImageEncoder.encode(image ?? Self.source, as: format)
        let decoded = try ImageDecoder().decode(encoded)
        return (encoded, decoded)
    }

    @Test("HEIC and AVIF decode back to the same size within dHash 5", arguments: [
        EncodingFormat.heic(HEIFOptions()), .avif(HEIFOptions()), .heic(HEIFOptions(quality: 80, chroma: .yuv444, speed: 9)),
        .avif(HEIFOptions(quality: 30, speed: 6)),
    ])
    func heif(format: EncodingFormat) throws {
        let (data, decoded) = try roundTrip(format)
        let info = try ImageDecoder().probe(data)
        #expect(info.format == format.format)
        #expect(decoded.width == 640 && decoded.height == 480)
        #expect(try decoded.perceptualHash().distance(to: Self.source.perceptualHash()) <= 5)
    }

    @Test("HEIC keeps alpha")
    func heifAlpha() throws {
        let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        let (_, decoded) = try roundTrip(.heic(HEIFOptions()), from: alpha)
        #expect(decoded.hasAlpha)
    }

    @Test("lossless WebP round-trips pixel-exact, alpha included", arguments: ["baseline.jpg", "alpha.png", "grey-alpha.png"])
    func webpLossless(file: String) throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture(file).path)
        let (data, decoded) = try roundTrip(.webp(WebPOptions(quality: 100, lossless: true)), from: image)
        #expect(try ImageDecoder().probe(data).format == .webp)
        let expected = try image.pixels().expandingGreyToRGB()
        #expect(try decoded.pixels() == expected)
    }

    @Test("lossy WebP keeps size and look; alpha survives")
    func webpLossy() throws {
        let (_, decoded) = try roundTrip(.webp(WebPOptions(quality: 75)))
        #expect(decoded.width == 640)
        #expect(try decoded.perceptualHash().distance(to: Self.source.perceptualHash()) <= 5)
        let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        #expect(try roundTrip(.webp(WebPOptions()), from: alpha).1.hasAlpha)
    }

    @Test("JPEG: quality changes size, progressive is progressive, alpha is flattened")
    func jpeg() throws {
        let small = try ImageEncoder.encode(Self.source, as: .jpeg(JPEGOptions(quality: 20)))
        let large = try ImageEncoder.encode(Self.source, as: .jpeg(JPEGOptions(quality: 95)))
        #expect(small.count < large.count)
        let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        let (_, flat) = try roundTrip(.jpeg(JPEGOptions()), from: alpha)
        #expect(!flat.hasAlpha && flat.bands == 3)
        let progressive = try ImageEncoder.encode(Self.source, as: .jpeg(JPEGOptions(progressive: true)))
        // SOF2 marks a progressive JPEG.
        #expect(progressive.windowsContain([0xFF, 0xC2]))
    }

    @Test("JPEG metadata is stripped by default and kept on request", .corpus)
    func jpegMetadata() throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.corpusFile("Landscape_9.jpg").path)
        let stripped = try ImageEncoder.encode(image, as: .jpeg(JPEGOptions()))
        let kept = try ImageEncoder.encode(image, as: .jpeg(JPEGOptions(keepMetadata: true)))
        #expect(!stripped.windowsContain(Array("Exif".utf8)))
        #expect(kept.windowsContain(Array("Exif".utf8)))
    }

    @Test("PNG is lossless and keeps alpha")
    func png() throws {
        let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        let (_, decoded) = try roundTrip(.png(PNGOptions(compression: 9)), from: alpha)
        #expect(try decoded.pixels() == alpha.pixels())
    }

    @Test("out-of-range settings are invalid arguments", arguments: [
        EncodingFormat.jpeg(JPEGOptions(quality: 0)), .png(PNGOptions(compression: 12)), .webp(WebPOptions(quality: 101)),
        .webp(WebPOptions(effort: 7)), .heic(HEIFOptions(quality: -1)), .avif(HEIFOptions(speed: 10)),
    ])
    func invalid(format: EncodingFormat) {
        let error = expectImagingError { () throws(ImagingError) in
            try ImageEncoder.encode(EncodingTests.sourceOrBlank(), as: format)
        }
        #expect(error?.kind == .invalidArgument)
    }
}

extension EncodingTests {
    /// The baseline fixture, or a 1×1 image when it cannot be read (the other tests report that).
    static func sourceOrBlank() throws(ImagingError) -> Image {
        if let image = try? source { return image }
        return try Image(pixels: PixelBuffer(width: 1, height: 1, bands: 3, bytes: [0, 0, 0]))
    }
}

extension PixelBuffer {
    /// libwebp stores colour: grey comes back as equal R, G and B.
    func expandingGreyToRGB() -> PixelBuffer {
        guard bands <= 2 else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(width * height * (bands + 2))
        for pixel in stride(from: 0, to: bytes.count, by: bands) {
            out += [bytes[pixel], bytes[pixel], bytes[pixel]]
            if bands == 2 { out.append(bytes[pixel + 1]) }
        }
        return PixelBuffer(width: width, height: height, bands: bands + 2, bytes: out)
    }
}

extension Data {
    func windowsContain(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        let bytes = [UInt8](self)
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
