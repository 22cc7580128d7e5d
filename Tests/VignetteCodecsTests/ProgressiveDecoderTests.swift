import Foundation
import Testing
import VignetteCodecs

/// An input for the preview tests: encoded by the project's own encoders from a fixture.
enum PreviewInput: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case progressiveJPEG, lossyWebP, losslessWebP, alphaWebP

    var testDescription: String { rawValue }

    /// The encoded bytes: the 640×480 baseline fixture (320×240 alpha fixture for alpha WebP).
    func data() throws -> Data {
        switch self {
        case .progressiveJPEG:
            return try ImageEncoder.encode(Self.photo(), as: .jpeg(JPEGOptions(quality: 85, progressive: true)))
        case .lossyWebP:
            return try ImageEncoder.encode(Self.photo(), as: .webp(WebPOptions(quality: 80)))
        case .losslessWebP:
            return try ImageEncoder.encode(Self.photo(), as: .webp(WebPOptions(quality: 50, lossless: true)))
        case .alphaWebP:
            let alpha = try ImageDecoder().decode(fileAt: TestFiles.fixture("alpha.png").path)
            return try ImageEncoder.encode(alpha, as: .webp(WebPOptions(quality: 80)))
        }
    }

    var hasAlpha: Bool { self == .alphaWebP }

    static func photo() throws -> Image {
        try ImageDecoder().decode(fileAt: TestFiles.fixture("baseline.jpg").path)
    }
}

@Suite("Progressive previews from partial data: libwebp incremental decoding, progressive JPEG via libvips")
struct ProgressiveDecoderTests {
    @Test("growing prefixes give full-size previews before the end, and the last one looks like the image",
          arguments: PreviewInput.allCases)
    func growingPrefixes(input: PreviewInput) throws {
        let data = try input.data()
        let reference = try ImageDecoder().decode(data)
        let decoder = ProgressiveDecoder()
        #expect(ProgressiveDecoder.isProgressive(data) == true)
        let previews = decoder.previews(feeding: data)

        let partial = previews.filter { $0.bytes < data.count }
        #expect(!partial.isEmpty, "no preview before the whole \(data.count) bytes arrived")
        for preview in previews {
            #expect(preview.image.width == reference.width && preview.image.height == reference.height,
                    "preview at \(preview.bytes) bytes is \(preview.image.width)x\(preview.image.height)")
            #expect(preview.image.hasAlpha == input.hasAlpha)
        }
        let last = try #require(previews.last)
        #expect(last.bytes == data.count, "no preview for the whole file")
        let distance = try last.image.perceptualHash().distance(to: reference.perceptualHash())
        #expect(distance <= 5, "last preview is dHash \(distance) from the decoded image")
        // The first preview is really partial: its pixels differ from the complete image's.
        let first = try #require(partial.first)
        #expect(try first.image.pixels() != last.image.pixels())
        #expect(decoder.isFinished)
        #expect(decoder.preview(from: data) == nil)
    }

    @Test("WebP: rows not decoded yet are zero (black, or transparent with alpha)",
          arguments: [PreviewInput.lossyWebP, .alphaWebP])
    func webpUndecodedRows(input: PreviewInput) throws {
        let data = try input.data()
        let first = try #require(ProgressiveDecoder().previews(feeding: data, every: 2).first)
        let pixels = try first.image.pixels()
        let rowBytes = pixels.width * pixels.bands
        let lastRow = pixels.bytes[((pixels.height - 1) * rowBytes)...]
        #expect(lastRow.allSatisfy { $0 == 0 }, "the bottom row of the first preview (\(first.bytes) bytes) is not empty")
        #expect(pixels.bytes[..<rowBytes].contains { $0 != 0 }, "the top row of the first preview is empty")
    }

    @Test("progressive JPEG: one preview per new complete scan, several before the end")
    func jpegScans() throws {
        let data = try PreviewInput.progressiveJPEG.data()
        let previews = ProgressiveDecoder().previews(feeding: data, every: 1)
        #expect(previews.filter { $0.bytes < data.count }.count >= 3)
        // Each preview comes from more data than the one before.
        #expect(zip(previews, previews.dropFirst()).allSatisfy { $0.bytes < $1.bytes })
    }

    @Test("the same prefix twice gives no new preview", arguments: PreviewInput.allCases)
    func samePrefixTwice(input: PreviewInput) throws {
        let data = try input.data()
        let decoder = ProgressiveDecoder()
        var length = data.count / 20
        while length < data.count, decoder.preview(from: data.prefix(length)) == nil { length += data.count / 20 }
        try #require(length < data.count, "no preview before the end")
        #expect(decoder.preview(from: data.prefix(length)) == nil)
        // A few more bytes than that may not add a row or a scan either; the whole file does.
        #expect(decoder.preview(from: data) != nil)
        #expect(decoder.preview(from: data) == nil)
    }

    @Test("a download that starts over gives previews again", arguments: [PreviewInput.progressiveJPEG, .lossyWebP])
    func startOver(input: PreviewInput) throws {
        let data = try input.data()
        let decoder = ProgressiveDecoder()
        #expect(!decoder.previews(feeding: data).isEmpty)
        #expect(decoder.isFinished)
        #expect(!decoder.previews(feeding: data).isEmpty, "no previews after starting over from fewer bytes")
    }

    @Test("baseline JPEG, PNG and animated WebP give no previews")
    func notProgressive() throws {
        let photo = try PreviewInput.photo()
        let inputs: [(String, Data)] = [
            ("baseline JPEG", try ImageEncoder.encode(photo, as: .jpeg(JPEGOptions(quality: 85)))),
            ("PNG", try ImageEncoder.encode(photo, as: .png(PNGOptions()))),
            ("animated WebP", try TestFiles.data(TestFiles.fixture("animated.webp"))),
            ("GIF", try TestFiles.data(TestFiles.fixture("still.gif"))),
        ]
        for (name, data) in inputs {
            let decoder = ProgressiveDecoder()
            #expect(decoder.previews(feeding: data, every: 2).isEmpty, "\(name) gave a preview")
            #expect(decoder.isFinished, "\(name)")
            #expect(ProgressiveDecoder.isProgressive(data) == false, "\(name)")
        }
    }

    @Test("isProgressive waits for the header, then tells")
    func isProgressive() throws {
        let jpeg = try PreviewInput.progressiveJPEG.data()
        let webp = try PreviewInput.lossyWebP.data()
        #expect(ProgressiveDecoder.isProgressive(Data()) == nil)
        #expect(ProgressiveDecoder.isProgressive(jpeg.prefix(1)) == nil)
        #expect(ProgressiveDecoder.isProgressive(jpeg.prefix(20)) == nil)
        #expect(ProgressiveDecoder.isProgressive(webp.prefix(6)) == nil)
        #expect(ProgressiveDecoder.isProgressive(webp.prefix(14)) == nil)
        #expect(ProgressiveDecoder.isProgressive(jpeg.prefix(jpeg.count / 4)) == true)
        #expect(ProgressiveDecoder.isProgressive(webp.prefix(64)) == true)
        #expect(ProgressiveDecoder.isProgressive(Data("GIF89a".utf8)) == false)
        #expect(ProgressiveDecoder.isProgressive(Data([0x89, 0x50])) == false)
    }

    @Test("garbage, cut-off headers and corrupt files give nil at every prefix")
    func garbage() throws {
        var generator = ProgressiveDecoderTests.Noise(seed: 7)
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let webp = try PreviewInput.lossyWebP.data()
        let jpeg = try PreviewInput.progressiveJPEG.data()
        let inputs: [(String, Data)] = [
            ("noise", noise),
            ("SOI then noise", Data([0xFF, 0xD8]) + noise),
            ("RIFF/WEBP then noise", Data("RIFF".utf8) + Data([0x00, 0x10, 0x00, 0x00]) + Data("WEBP".utf8) + noise),
            ("WebP header cut off", webp.prefix(30)),
            ("JPEG header cut off", jpeg.prefix(200)),
            ("empty", Data()),
            ("corrupt.jpg", try TestFiles.data(TestFiles.fixture("corrupt.jpg"))),
            ("corrupt.png", try TestFiles.data(TestFiles.fixture("corrupt.png"))),
            ("not-an-image.txt", try TestFiles.data(TestFiles.fixture("not-an-image.txt"))),
        ]
        for (name, data) in inputs {
            let decoder = ProgressiveDecoder()
            for length in 0...data.count {
                #expect(decoder.preview(from: data.prefix(length)) == nil, "\(name) at \(length) bytes")
            }
        }
    }

    @Test("damaged progressive files, fed a few bytes at a time, never crash and only give full-size previews",
          arguments: [PreviewInput.progressiveJPEG, .lossyWebP, .losslessWebP])
    func damagedByteByByte(input: PreviewInput) throws {
        let original = try input.data()
        let reference = try ImageDecoder().decode(original)
        var generator = ProgressiveDecoderTests.Noise(seed: 11)
        for _ in 0..<3 {
            var data = original
            // Scramble a run of bytes past the headers.
            let start = Int.random(in: 200..<(data.count - 64), using: &generator)
            for index in start..<(start + 48) { data[index] = UInt8.random(in: 0...255, using: &generator) }
            let decoder = ProgressiveDecoder()
            // Byte by byte for the small files; ~20,000 calls for the 220 KB lossless WebP.
            for length in stride(from: 1, through: data.count, by: max(1, data.count / 20_000)) {
                if let preview = decoder.preview(from: data.prefix(length)) {
                    #expect(preview.width == reference.width && preview.height == reference.height)
                }
            }
        }
    }

    @Test("a WebP or JPEG over the pixel limit gives no previews", arguments: PreviewInput.allCases)
    func pixelLimit(input: PreviewInput) throws {
        let data = try input.data()
        var limits = DecodingLimits.untrusted
        limits.maxPixels = 10_000
        let decoder = ProgressiveDecoder(limits: limits)
        #expect(decoder.previews(feeding: data, every: 2).isEmpty)
        #expect(decoder.isFinished)
    }

    @Test("a WebP header declaring 16383×16383 is refused from the header, before any pixels")
    func declaredTooBig() throws {
        // A lossless (VP8L) header: signature 0x2f, then 14-bit width-1 and height-1, alpha bit, version.
        let size = UInt32(16382) | UInt32(16382) << 14
        var vp8l = Data([0x2F])
        vp8l.append(contentsOf: withUnsafeBytes(of: size.littleEndian, Array.init))
        vp8l.append(Data(repeating: 0, count: 64))
        var riff = Data("WEBP".utf8) + Data("VP8L".utf8)
        riff.append(contentsOf: withUnsafeBytes(of: UInt32(vp8l.count).littleEndian, Array.init))
        riff.append(vp8l)
        let file = Data("RIFF".utf8) + withUnsafeBytes(of: UInt32(riff.count).littleEndian, { Data($0) }) + riff
        #expect(ProgressiveDecoder.isProgressive(file) == true)
        let decoder = ProgressiveDecoder()  // 100 megapixels; this declares 268
        #expect(decoder.preview(from: file) == nil)
        #expect(decoder.isFinished)
    }

    @Test("input over the byte limit gives no previews")
    func byteLimit() throws {
        let data = try PreviewInput.progressiveJPEG.data()
        var limits = DecodingLimits.untrusted
        limits.maxInputBytes = data.count / 3
        let decoder = ProgressiveDecoder(limits: limits)
        let previews = decoder.previews(feeding: data)
        #expect(previews.allSatisfy { $0.bytes <= data.count / 3 })
        #expect(decoder.isFinished)
    }

    @Test("concurrent calls on one decoder are serialised")
    func concurrentCalls() async throws {
        let data = try PreviewInput.lossyWebP.data()
        let decoder = ProgressiveDecoder()
        let sizes = await withTaskGroup(of: [Int].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var sizes: [Int] = []
                    for step in stride(from: task + 1, through: 100, by: 8) {
                        if let preview = decoder.preview(from: data.prefix(data.count * step / 100)) {
                            sizes.append(preview.width * preview.height)
                        }
                    }
                    return sizes
                }
            }
            return await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(!sizes.isEmpty)
        #expect(sizes.allSatisfy { $0 == 640 * 480 })
    }

    @Test("with a minimum preview side, JPEG previews shrink on load (1/2 for 200 px of 640×480) and still look like the image")
    func shrunkJPEGPreviews() throws {
        let data = try PreviewInput.progressiveJPEG.data()
        let previews = ProgressiveDecoder(minimumPreviewSide: 200).previews(feeding: data)
        #expect(previews.contains { $0.bytes < data.count })
        #expect(previews.allSatisfy { $0.image.width == 320 && $0.image.height == 240 })
        let last = try #require(previews.last)
        #expect(try last.image.perceptualHash().distance(to: PreviewInput.photo().perceptualHash()) <= 5)
        // WebP has no shrink-on-load: full size whatever the minimum.
        let webp = try PreviewInput.lossyWebP.data()
        #expect(ProgressiveDecoder(minimumPreviewSide: 100).previews(feeding: webp).allSatisfy { $0.image.width == 640 })
    }

    @Test("a progressive JPEG of a corpus photo gives previews", .corpus)
    func corpusPhoto() throws {
        let photo = try ImageDecoder().decode(fileAt: TestFiles.corpusFile("Landscape_1.jpg").path)
        let data = try ImageEncoder.encode(photo, as: .jpeg(JPEGOptions(quality: 90, progressive: true)))
        let previews = ProgressiveDecoder().previews(feeding: data)
        #expect(previews.contains { $0.bytes < data.count })
        let last = try #require(previews.last)
        #expect(last.image.width == 600 && last.image.height == 450)
        #expect(try last.image.perceptualHash().distance(to: photo.perceptualHash()) <= 5)
    }
}

extension ProgressiveDecoderTests {
    /// A preview and the number of bytes it was decoded from.
    struct FedPreview {
        let bytes: Int
        let image: Image
    }

    /// A small deterministic generator (SplitMix64), so the garbage is the same on every run.
    struct Noise: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension ProgressiveDecoder {
    /// Hands the decoder the prefixes of `data` at every `percent` % of its length, then the whole,
    /// and returns the previews it gave.
    func previews(feeding data: Data, every percent: Int = 5) -> [ProgressiveDecoderTests.FedPreview] {
        var lengths = stride(from: percent, to: 100, by: percent).map { data.count * $0 / 100 }
        lengths.append(data.count)
        return lengths.compactMap { length in
            preview(from: data.prefix(length)).map { ProgressiveDecoderTests.FedPreview(bytes: length, image: $0) }
        }
    }
}
