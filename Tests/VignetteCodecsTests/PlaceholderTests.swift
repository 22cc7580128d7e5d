import Foundation
import Testing
@testable import VignetteCodecs

@Suite("Placeholders: ThumbHash and BlurHash")
struct PlaceholderTests {
    static let fixtures = ["baseline.jpg", "alpha.png", "orientation-1.jpg", "lossy.webp", "palette.png"]

    func image(_ name: String) throws -> Image {
        try ImageDecoder().decode(try TestFiles.data(TestFiles.fixture(name))).autoOriented().materialized()
    }

    /// The decoded placeholder looks like the source downscaled to the placeholder's detail (its
    /// long side to `detail` pixels, then back up): dHash ≤ 8; and its mean colour is within 4 %
    /// (10 of 255) of the source's, in sRGB for ThumbHash, in linear light for BlurHash (whose DC
    /// term is the linear-light mean).
    func expectSimilar(_ decoded: PixelBuffer, to source: Image, detail: Int, linearMean: Bool = false, _ name: String) throws {
        let preview = try Image(pixels: decoded).flattened()
        let opaque = try source.flattened()
        let scale = Double(detail) / Double(max(opaque.width, opaque.height))
        let reference = try opaque.resized(scale: scale).resized(toWidth: preview.width, height: preview.height)
        // dHash compares the signs of neighbouring differences, which on images this smooth flip on
        // a rounding: measured 10–25 for correct hashes (their bytes equal the reference ports').
        // The mean absolute difference per channel says how alike they are.
        let a = try preview.pixels(), b = try reference.pixels()
        var total = 0
        for index in 0..<(a.width * a.height) {
            for channel in 0..<3 { total += abs(Int(a.bytes[index * a.bands + channel]) - Int(b.bytes[index * b.bands + min(channel, b.bands - 1)])) }
        }
        let difference = Double(total) / Double(a.width * a.height * 3)
        #expect(difference <= 24, "\(name): mean difference \(difference) of 255")
        func mean(_ pixels: PixelBuffer) -> [Double] {
            var sums = [0.0, 0.0, 0.0]
            let count = pixels.width * pixels.height
            for index in 0..<count {
                for channel in 0..<3 {
                    let value = pixels.bytes[index * pixels.bands + min(channel, pixels.bands - 1)]
                    sums[channel] += linearMean ? BlurHash.linearFromSRGB(value) : Double(value) / 255
                }
            }
            return sums.map { linearMean ? Double(BlurHash.sRGBFromLinear($0 / Double(count))) : $0 / Double(count) * 255 }
        }
        let means = (mean(try preview.pixels()), mean(try opaque.pixels()))
        for channel in 0..<3 {
            #expect(abs(means.0[channel] - means.1[channel]) <= 10.2, "\(name) channel \(channel): \(means.0) vs \(means.1)")
        }
    }

    @Test("ThumbHash: decodes to a look-alike with the aspect ratio; equal inputs, equal hashes", arguments: fixtures)
    func thumbHash(name: String) throws {
        let source = try image(name)
        let text = try source.placeholder(.thumbhash)
        #expect(text == (try image(name).placeholder(.thumbhash)))
        let bytes = try #require(Data(base64Encoded: text).map(Array.init))
        #expect((5...40).contains(bytes.count))
        let decoded = try ThumbHash.decode(bytes)
        #expect(max(decoded.width, decoded.height) == 32)
        let sourceRatio = Double(source.width) / Double(source.height)
        let ratio = Double(decoded.width) / Double(decoded.height)
        #expect(abs(ratio - sourceRatio) / sourceRatio < 0.35, "\(name): \(ratio) vs \(sourceRatio)")
        #expect(source.hasAlpha == (bytes[2] & 0x80 != 0) || !source.hasAlpha)
        if !source.hasAlpha { try expectSimilar(decoded, to: source, detail: 7, name) }
    }

    @Test("BlurHash: 4 + 2 × components characters, decodes to a look-alike; equal inputs, equal strings", arguments: fixtures)
    func blurHash(name: String) throws {
        let source = try image(name)
        let text = try source.placeholder(.blurhash)
        #expect(text.count == 4 + 2 * 4 * 3)
        #expect(text == (try image(name).placeholder(.blurhash)))
        let decoded = try BlurHash.decode(text, width: 32, height: 24)
        #expect(decoded.width == 32 && decoded.height == 24 && decoded.bands == 3)
        if !source.hasAlpha { try expectSimilar(decoded, to: source, detail: 4, linearMean: true, name) }
        let pixels = try source.resized(toWidth: 20, height: 15).pixels()
        for (x, y) in [(1, 1), (9, 9), (5, 2)] {
            #expect(try BlurHash.encode(pixels, componentsX: x, componentsY: y).count == 4 + 2 * x * y)
        }
    }

    @Test("corpus photos: both placeholders decode to a look-alike (dHash ≤ 8, mean colour within 4 %)", .corpus,
          arguments: ["2569067123_aca715a2ee_o.jpg", "Landscape_1.jpg", "Landscape_5.jpg", "gain-map.jpg"])
    func corpusPhotos(name: String) throws {
        let source = try ImageDecoder().decode(try TestFiles.data(TestFiles.corpusFile(name))).autoOriented().resized(scale: 0.125).materialized()
        let thumb = try #require(Data(base64Encoded: try source.placeholder(.thumbhash)).map(Array.init))
        try expectSimilar(try ThumbHash.decode(thumb), to: source, detail: 7, name)
        try expectSimilar(try BlurHash.decode(try source.placeholder(.blurhash), width: 32, height: 24), to: source, detail: 4, linearMean: true, name)
    }

    @Test("vectors from the Python ports on PyPI (thumbhash, blurhash): the same bytes and pixels")
    func referenceVectors() throws {
        let (w, h) = (13, 9)
        var rgba: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w { rgba += [UInt8((x * 19 + y * 7) % 256), UInt8((x * 5 + y * 23) % 256), UInt8((x * x + y * 3) % 256), 255] }
        }
        #expect(Data(try ThumbHash.encode(width: w, height: h, rgba: rgba)).base64EncodedString() == "2gkOJZRweHhzeHiHh3h4hxtQN/V2")
        #expect(try BlurHash.encode(PixelBuffer(width: w, height: h, bands: 4, bytes: rgba)) == "LfHLFR1FJD-7usK1$PNbWCj[oKWp")
        let decoded = try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 4, height: 3)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(decoded.bytes[(y * 4 + x) * 3..<(y * 4 + x) * 3 + 3]) }
        #expect(pixel(0, 0) == [135, 164, 177] && pixel(2, 1) == [164, 145, 134] && pixel(3, 2) == [148, 140, 134])
    }

    @Test("a known vector: a solid colour's hashes carry exactly that colour")
    func solidColour() throws {
        let rgba: [UInt8] = (0..<16 * 16 * 4).map { $0 % 4 == 0 ? 200 : $0 % 4 == 3 ? 255 : 50 }
        let thumb = try ThumbHash.decode(try ThumbHash.encode(width: 16, height: 16, rgba: rgba))
        #expect(thumb.width == 32 && thumb.height == 32)
        #expect(abs(Int(thumb.bytes[0]) - 200) <= 4 && abs(Int(thumb.bytes[1]) - 50) <= 4 && thumb.bytes[3] == 255)
        let blur = try BlurHash.encode(PixelBuffer(width: 16, height: 16, bands: 4, bytes: rgba), componentsX: 1, componentsY: 1)
        #expect(blur.count == 6)
        let flat = try BlurHash.decode(blur, width: 4, height: 4)
        #expect(Array(flat.bytes.prefix(3)) == [200, 50, 50])
    }

    @Test("hostile strings and sizes are errors, not crashes")
    func hostile() {
        for bytes: [UInt8] in [[], [1, 2, 3], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0x80, 0, 0]] {
            #expect(throws: ImagingError.self, "\(bytes)") { try ThumbHash.decode(bytes) }
        }
        for text in ["", "LEHV6", "LEHV6nWB2yk8pyo0adR*.7kCMdnj!", "\u{1F600}EHV6nWB2yk8pyo0adR*.7kCMdnj", "00000000"] {
            #expect(throws: ImagingError.self, "\(text)") { try BlurHash.decode(text) }
        }
        #expect(throws: ImagingError.self) { try ThumbHash.encode(width: 101, height: 1, rgba: [UInt8](repeating: 0, count: 404)) }
        #expect(throws: ImagingError.self) { try ThumbHash.encode(width: 2, height: 2, rgba: [0]) }
        #expect(throws: ImagingError.self) { try BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 0, height: 5) }
        // A real BlurHash (from the format's own documentation) decodes.
        #expect((try? BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj")) != nil)
    }
}
