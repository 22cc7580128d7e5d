import Foundation
import Testing
@testable import VignetteCodecs

@Suite("JPEG XL: written through libvips' jxlsave, read through jxlload (libjxl)")
struct JXLFormatTests {
    static func fixture(_ name: String) throws -> Image { try ImageDecoder().decode(fileAt: TestFiles.fixture(name).path) }

    @Test("lossy JXL decodes back at its size, alpha kept, within dHash 5, and the vips tool reads it alike",
          .vipsCommand, arguments: ["baseline.jpg", "alpha.png", "grey-alpha.png"])
    func lossy(file: String) async throws {
        let image = try Self.fixture(file)
        let data = try ImageEncoder.encode(image, as: .jxl(JXLOptions()))
        #expect(ModuleSniffer.module(for: data) == "jxl")
        let info = try ImageDecoder().probe(data)
        #expect(info.format == .jxl && info.width == image.width && info.height == image.height)
        #expect(info.hasAlpha == image.hasAlpha)
        let back = try ImageDecoder().decode(data)
        #expect(try back.perceptualHash().distance(to: image.perceptualHash()) <= 5)
        #expect(try #require(try back.meanDifference(to: image)) < 4)
        let other = try await IndependentDecoder.image(data, ext: "jxl", with: .libvips)
        #expect(other.width == image.width && other.height == image.height && other.hasAlpha == image.hasAlpha)
        #expect(try other.perceptualHash().distance(to: image.perceptualHash()) <= 5)
    }

    @Test("lossless JXL is pixel-exact, alpha included", arguments: ["rgb8.png", "alpha.png"])
    func lossless(file: String) throws {
        let image = try Self.fixture(file)
        let data = try ImageEncoder.encode(image, as: .jxl(JXLOptions(lossless: true)))
        #expect(try ImageDecoder().decode(data).pixels() == image.pixels())
    }

    @Test("quality sets the size; out-of-range quality and effort are invalid arguments")
    func settings() throws {
        let image = try Self.fixture("baseline.jpg")
        let low = try ImageEncoder.encode(image, as: .jxl(JXLOptions(quality: 30)))
        let high = try ImageEncoder.encode(image, as: .jxl(JXLOptions(quality: 95)))
        #expect(low.count < high.count)
        for options in [JXLOptions(quality: 0), JXLOptions(quality: 101), JXLOptions(effort: 2), JXLOptions(effort: 10)] {
            let error = expectImagingError { () throws(ImagingError) in try ImageEncoder.encode(image, as: .jxl(options)) }
            #expect(error?.kind == .invalidArgument, "\(options)")
        }
    }

    @Test("a JXL input decodes at its size and thumbnails, looking like the TIFF it was made from")
    func input() throws {
        let data = try TestFiles.data(TestFiles.fixture("rgb.jxl"))
        let decoded = try ImageDecoder().decode(data)
        #expect(decoded.width == 320 && decoded.height == 240 && decoded.bands == 3)
        let original = try Self.fixture("rgb.tiff")
        #expect(try decoded.perceptualHash().distance(to: original.perceptualHash()) <= 5)
        let thumbnail = try Thumbnailer(options: ThumbnailOptions(size: 100)).thumbnail(data)
        #expect(thumbnail.image.width == 100 && thumbnail.image.height == 75)
    }

    @Test("the ISO BMFF container is sniffed and read like the bare codestream")
    func container() throws {
        let codestream = try TestFiles.data(TestFiles.fixture("rgb.jxl"))
        #expect(codestream.prefix(2) == Data([0xFF, 0x0A]))
        let wrapped = Self.container(around: codestream)
        #expect(ModuleSniffer.module(for: wrapped) == "jxl")
        #expect(try ImageDecoder().probe(wrapped).format == .jxl)
        #expect(try ImageDecoder().decode(wrapped).pixels() == ImageDecoder().decode(codestream).pixels())
    }

    @Test("a header claiming 100000×100000 is refused as limitExceeded from the header, in every mode",
          arguments: DecodeMode.allCases)
    func bomb(mode: DecodeMode) {
        let started = ContinuousClock.now
        let error = expectImagingError { () throws(ImagingError) in try mode.run(TestFiles.fixture("hostile-huge.jxl")) }
        let elapsed = ContinuousClock.now - started
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("100000x100000") == true, "\(String(describing: error))")
        // Not a speed claim: decoding 10 gigapixels would need 30 GB; a refusal from the header
        // takes milliseconds (the bound is loose for loaded machines and sanitizers).
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test("Vignette's own reading of the size header agrees with libvips', bare and in the container")
    func sizeHeader() throws {
        let codestream = try TestFiles.data(TestFiles.fixture("rgb.jxl"))
        let header = try ImageDecoder().probe(codestream)
        func size(_ data: Data) -> [Int]? { JXLSizeHeader(data).map { [$0.width, $0.height] } }
        #expect(size(codestream) == [header.width, header.height])
        #expect(size(Self.container(around: codestream)) == [header.width, header.height])
        #expect(size(try TestFiles.data(TestFiles.fixture("hostile-huge.jxl"))) == [100000, 100000])
        #expect(JXLSizeHeader(try TestFiles.data(TestFiles.fixture("hostile-huge.jxl")))?.defaultMetadata == true)
        for length in 0..<4 { #expect(size(codestream.prefix(length)) == nil) }
        // A box claiming 2^63 - 1 bytes (size 1, then a 64-bit size) before the codestream: no
        // codestream found, and no arithmetic overflow.
        let signature = Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        let huge = Data([0, 0, 0, 1]) + Data("free".utf8) + Data([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(size(signature + huge + codestream) == nil)
    }

    @Test("JXL cut anywhere gives a typed error in every mode, never a crash", arguments: DecodeMode.allCases)
    func truncated(mode: DecodeMode) throws {
        let data = try TestFiles.data(TestFiles.fixture("rgb.jxl"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-jxl-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for length in [1, 2, 5, 12, 40, data.count / 10, data.count / 2, data.count * 9 / 10, data.count - 1] {
            let file = folder.appendingPathComponent("cut-\(length).jxl")
            try data.prefix(length).write(to: file)
            let error = expectImagingError("\(length) bytes via \(mode)") { () throws(ImagingError) in try mode.run(file) }
            #expect(error?.kind.isBadInput == true, "\(length) bytes via \(mode): \(String(describing: error))")
        }
    }

    /// `codestream` in JPEG XL's container: the signature box, `ftyp` (brand "jxl "), `jxlc`.
    static func container(around codestream: Data) -> Data {
        func box(_ type: String, _ payload: Data) -> Data {
            let size = UInt32(8 + payload.count)
            return Data([UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)])
                + Data(type.utf8) + payload
        }
        let signature = Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        let ftyp = box("ftyp", Data("jxl ".utf8) + Data([0, 0, 0, 0]) + Data("jxl ".utf8))
        return signature + ftyp + box("jxlc", codestream)
    }
}
