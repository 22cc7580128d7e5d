import Foundation
import Testing

@testable import VignetteCodecs

/// The PNG writer (`PNGWriter`, libdeflate): files libpng reads back pixel for pixel, at every
/// band count, odd size and level, and taken by `ImageEncoder` only for plain pixels.
@Suite("PNG writer: libdeflate-compressed PNGs that libvips' libpng reads back exactly")
struct PNGWriterTests {
    /// Pixels with structure and noise, deterministic.
    static func pixels(width: Int, height: Int, bands: Int) -> PixelBuffer {
        var state: UInt32 = 2_463_534_242
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for index in bytes.indices {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            let pixel = index / bands, x = pixel % width, y = pixel / width
            bytes[index] = UInt8(truncatingIfNeeded: (x * 3 + y * 5 + index % bands * 70) + Int(state & 15))
        }
        return PixelBuffer(width: width, height: height, bands: bands, bytes: bytes)
    }

    /// The chunk types of a PNG file, in order.
    static func chunkTypes(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        var types: [String] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    @Test("Grey, grey + alpha, RGB and RGBA at odd sizes and every kind of level round-trip exactly",
          arguments: [1, 2, 3, 4], [(1, 1), (7, 3), (33, 17), (640, 480)])
    func roundTrip(_ bands: Int, _ size: (Int, Int)) throws {
        let original = Self.pixels(width: size.0, height: size.1, bands: bands)
        for level in [0, 1, 6, 9] {
            let data = try PNGWriter.encode(original, compression: level)
            #expect(Self.chunkTypes(data) == ["IHDR", "IDAT", "IEND"])
            // libpng checks every chunk's CRC and the zlib stream's Adler-32 as it reads.
            let decoded = try ImageDecoder(limits: .unlimited).decode(data).pixels()
            #expect(decoded == original, "\(bands) bands, \(size), level \(level)")
        }
    }

    @Test("Higher levels give smaller files of the same pixels")
    func levels() throws {
        let image = try ImageDecoder().decode(fileAt: TestFiles.fixture("baseline.jpg").path).pixels()
        let fast = try PNGWriter.encode(image, compression: 1).count
        let small = try PNGWriter.encode(image, compression: 9).count
        let stored = try PNGWriter.encode(image, compression: 0).count
        #expect(small < fast && fast < stored && stored > image.bytes.count)
    }

    @Test("ImageEncoder writes plain pixels here, and through libvips what carries a profile or metadata")
    func routing() throws {
        let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
        let plain = try ImageEncoder.encode(alpha, as: .png(PNGOptions()))
        #expect(Self.chunkTypes(plain) == ["IHDR", "IDAT", "IEND"])
        #expect(try ImageDecoder().decode(plain).pixels() == alpha.standardizedToSRGB8().pixels())
        // A kept profile goes in an iCCP chunk, which libvips' saver writes.
        let profiled = try ImageDecoder().decode(fileAt: TestFiles.fixture("p3-alpha.png").path)
        #expect(profiled.iccProfile != nil)
        let withProfile = try ImageEncoder.encode(profiled, as: .png(PNGOptions()))
        #expect(Self.chunkTypes(withProfile).contains("iCCP"))
        #expect(try ImageDecoder().decode(withProfile).iccProfile == profiled.iccProfile)
    }

    @Test("Levels outside 0-9 and band counts outside 1-4 are invalid arguments")
    func refusals() {
        let pixels = Self.pixels(width: 4, height: 4, bands: 3)
        #expect { try PNGWriter.encode(pixels, compression: 10) } throws: { ($0 as? ImagingError)?.kind == .invalidArgument }
        let five = PixelBuffer(width: 2, height: 2, bands: 5, bytes: [UInt8](repeating: 0, count: 20))
        #expect { try PNGWriter.encode(five, compression: 6) } throws: { ($0 as? ImagingError)?.kind == .invalidArgument }
        #expect(!PNGWriter.applies(width: 10_000, height: 10_000, bands: 4))
    }
}
