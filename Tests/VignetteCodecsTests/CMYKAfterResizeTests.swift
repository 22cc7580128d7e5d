import Foundation
import Testing
@testable import VignetteCodecs

/// 8-bit CMYK thumbnails are reduced in CMYK and converted to sRGB at their own size
/// (`Image+CMYKThumbnail`). Three comparisons bound what that changes, in CIE76 ΔE
/// (`ColourReference`): against the thumbnail converted before the resize (what Vignette made
/// until then); against littleCMS' `transicc` converting the reduced CMYK pixels (the conversion
/// step itself, through the right profile); and against `transicc` converting the source's own
/// pixels where the source is flat, so that the reduction cannot have mixed colours. Each bound
/// is checked to be one that a thumbnail whose conversion was skipped would break. Embedded
/// thumbnails are off: the EXIF thumbnail of a CMYK JPEG is RGB and would stand in for it.
@Suite("CMYK converted after the resize")
struct CMYKAfterResizeTests {
    static let cases = [
        ColourTests.Case(file: "cmyk.jpg", corpus: false),
        ColourTests.Case(file: "Channel_digital_image_CMYK_color.jpg", corpus: true),
        ColourTests.Case(file: "Channel_digital_image_CMYK_color_no_profile.jpg", corpus: true),
        ColourTests.Case(file: "fogra-0-100-100-0.tif", corpus: true),
    ]

    /// The files with flat regions wide enough for a thumbnail pixel's whole footprint.
    static let flatFiles: Set = ["cmyk.jpg", "fogra-0-100-100-0.tif"]

    /// Largest mean and single-pixel ΔE from the thumbnail converted before the resize: the mean
    /// is the bound; single pixels differ most on sharp edges, where a reduction in CMYK mixes
    /// other colours than one in sRGB.
    static let meanFromBefore = 1.0, maxFromBefore = 15.0
    /// Largest ΔE from transicc, on the reduced pixels or at a flat point (8-bit rounding and
    /// littleCMS' 8-bit interpolation against its float pipeline).
    static let maxFromTransicc = 2.0

    /// The thumbnail as Vignette made it before: the same decode (`DecodePlan.covering`, the
    /// thumbnailer's shrink-on-load), made sRGB whole (`standardizedToSRGB8`), then reduced.
    static func convertedFirst(_ data: Data, to target: PixelSize) throws -> Image {
        let source = try LoadedSource(data: data, limits: .untrusted)
        let header = try source.load(failOn: .none)
        let plan = DecodePlan.covering(target, source, header)
        let decoded = plan.loadOptions.isEmpty ? header : try source.load(failOn: .none, extra: plan.loadOptions)
        try #require(decoded.bands == 4 && decoded.isReducibleCMYK(to: target), "8-bit CMYK, reduced")
        return try LanczosReducer.resize(decoded.standardizedToSRGB8(), toWidth: target.width, height: target.height)
    }

    /// Every pixel of an 8-bit sRGB image as [R, G, B], 0–255.
    static func rgbColours(_ image: Image) throws -> [[Double]] {
        let pixels = try image.pixels()
        try #require(pixels.bands == 3, "\(pixels.bands) bands")
        return stride(from: 0, to: pixels.bytes.count, by: 3).map { base in (0..<3).map { Double(pixels.bytes[base + $0]) } }
    }

    /// What the thumbnails are made with: a `box`-pixel square, no embedded thumbnail.
    static func thumbnailer(box: Int) -> Thumbnailer {
        Thumbnailer(options: ThumbnailOptions(width: box, height: box, useEmbeddedThumbnail: false))
    }

    /// The thumbnail of `data` in a `box`-pixel square, checked to be decoded from the CMYK image
    /// and to come out 8-bit sRGB without a profile.
    static func thumbnail(_ data: Data, box: Int) throws -> Image {
        let thumbnail = try thumbnailer(box: box).thumbnail(data)
        let image = thumbnail.image
        #expect(image.bands == 3 && !image.hasAlpha && image.iccProfile == nil, "\(image.bands) bands, profile \(image.iccProfile != nil)")
        switch thumbnail.route {
        case .fullDecode, .shrinkOnLoad: break
        default: Issue.record("route \(thumbnail.route)")
        }
        return image
    }

    @Test("a CMYK thumbnail stays close to the one converted before the resize", arguments: cases)
    func againstConvertedFirst(_ source: ColourTests.Case) throws {
        guard source.available else { return }
        let data = try Data(contentsOf: source.url)
        for box in [120, 400] {
            let ours = try Self.thumbnail(data, box: box)
            let target = PixelSize(width: ours.width, height: ours.height)
            let info = try ImageDecoder().probe(data)
            #expect(target == Self.thumbnailer(box: box).outputSize(for: info))
            let before = try Self.convertedFirst(data, to: target)
            let indices = Array(0..<(target.width * target.height))
            let distance = try ColourReference.deltaE(of: ours, reference: Self.rgbColours(before), at: indices)
            print("ΔE76 \(source.testDescription) \(target.width)x\(target.height) after vs before the resize: mean "
                + String(format: "%.3f max %.2f", distance.mean, distance.max))
            #expect(distance.mean <= Self.meanFromBefore && distance.max <= Self.maxFromBefore, "ΔE \(distance)")

            // The bound holds something: the reduced CMYK read as RGB (no conversion) breaks it.
            let reduced = try Self.reducedCMYK(data, to: target)
            let unconverted = stride(from: 0, to: reduced.count, by: 4).map { base in (0..<3).map { Double(reduced[base + $0]) } }
            let skipped = try ColourReference.deltaE(of: before, reference: unconverted, at: indices)
            #expect(skipped.mean > 4 * Self.meanFromBefore, "unconverted ΔE \(skipped)")
        }
    }

    /// The thumbnail's CMYK samples before the conversion (the same decode and reducer), row after row.
    static func reducedCMYK(_ data: Data, to target: PixelSize) throws -> [UInt8] {
        let source = try LoadedSource(data: data, limits: .untrusted)
        let header = try source.load(failOn: .none)
        let plan = DecodePlan.covering(target, source, header)
        let decoded = plan.loadOptions.isEmpty ? header : try source.load(failOn: .none, extra: plan.loadOptions)
        let reduced = try LanczosReducer.resize(decoded, toWidth: target.width, height: target.height)
        // `Image.pixels()` would convert to sRGB: the CMYK bytes are read from memory as they are.
        let bytes = reduced.withPixelMemory { [UInt8]($0.bindMemory(to: UInt8.self)) }
        try #require(bytes?.count == target.width * target.height * 4, "CMYK bytes \(bytes?.count ?? -1)")
        return bytes ?? []
    }

    /// The profile the source's CMYK means (its own, or libvips' CMYK one), in a temporary file.
    static func profileFile(_ data: Data) throws -> URL {
        let image = try LoadedSource(data: data, limits: .untrusted).load(failOn: .none)
        return try ColourReference.profileFile(try image.iccProfile ?? BuiltInProfile.cmyk.data())
    }

    @Test("a CMYK thumbnail is transicc's conversion of its reduced CMYK pixels", arguments: cases)
    func reducedAgainstTransicc(_ source: ColourTests.Case) async throws {
        guard source.available else { return }
        let data = try Data(contentsOf: source.url)
        let ours = try Self.thumbnail(data, box: 120)
        let reduced = try Self.reducedCMYK(data, to: PixelSize(width: ours.width, height: ours.height))
        let profileURL = try Self.profileFile(data)
        defer { try? FileManager.default.removeItem(at: profileURL) }
        let sampled = ColourReference.sample(ours.width * ours.height, limit: 3000)
        let cmyk = sampled.map { index in (0..<4).map { Double(reduced[index * 4 + $0]) / 255 * 100 } }
        let expected = try await ColourReference.transicc(cmyk, profile: profileURL)
        let distance = try ColourReference.deltaE(of: ours, reference: expected, at: sampled)
        print("ΔE76 \(source.testDescription) \(ours.width)x\(ours.height) against transicc on its \(sampled.count) reduced pixels: mean "
            + String(format: "%.3f max %.2f", distance.mean, distance.max))
        #expect(distance.max <= Self.maxFromTransicc, "ΔE \(distance)")

        // The bound holds something: the CMYK values taken as RGB are far off.
        let naive = try ColourReference.deltaE(of: ours, reference: cmyk.map { $0.prefix(3).map { $0 / 100 * 255 } }, at: sampled)
        #expect(naive.mean > 4 * Self.maxFromTransicc, "unconverted ΔE \(naive)")
    }

    @Test("a CMYK thumbnail matches transicc on the source's flat colours", arguments: cases)
    func flatAgainstTransicc(_ source: ColourTests.Case) async throws {
        guard source.available, Self.flatFiles.contains(source.file) else { return }
        let data = try Data(contentsOf: source.url)
        let raw = try await ColourReference.raw(source.url)
        try #require(raw.interpretation == "cmyk" && raw.bands == 4, "\(raw.interpretation), \(raw.bands) bands")
        let ours = try Self.thumbnail(data, box: 120)
        let flat = Self.flatPoints(raw, thumbnail: PixelSize(width: ours.width, height: ours.height), limit: 12)
        try #require(flat.count >= 3, "only \(flat.count) flat points in \(source.file)")

        let profileURL = try Self.profileFile(data)
        defer { try? FileManager.default.removeItem(at: profileURL) }
        let expected = try await ColourReference.transicc(flat.map { $0.cmyk.map { $0 / 255 * 100 } }, profile: profileURL)
        let distance = try ColourReference.deltaE(of: ours, reference: expected, at: flat.map(\.index))
        print("ΔE76 \(source.testDescription) \(ours.width)x\(ours.height) against transicc at \(flat.count) flat points: mean "
            + String(format: "%.3f max %.2f", distance.mean, distance.max))
        #expect(distance.max <= Self.maxFromTransicc, "ΔE \(distance)")

        // The bound holds something: the CMYK values taken as RGB are far off.
        let naive = try ColourReference.deltaE(of: ours, reference: flat.map { Array($0.cmyk.prefix(3)) }, at: flat.map(\.index))
        #expect(naive.mean > 4 * Self.maxFromTransicc, "unconverted ΔE \(naive)")
    }

    /// Up to `limit` pixels of a thumbnail of size `thumbnail` whose whole Lanczos-3 footprint in the
    /// source (three source pixels per thumbnail pixel each side, and one more) is one colour, each
    /// side within 2 levels per band, with that colour's mean CMYK (0–255).
    static func flatPoints(_ raw: ColourReference.RawImage, thumbnail: PixelSize, limit: Int) -> [(index: Int, cmyk: [Double])] {
        let scaleX = Double(raw.width) / Double(thumbnail.width), scaleY = Double(raw.height) / Double(thumbnail.height)
        let reachX = Int((3 * scaleX).rounded(.up)) + 1, reachY = Int((3 * scaleY).rounded(.up)) + 1
        var found: [(index: Int, cmyk: [Double])] = []
        for index in ColourReference.sample(thumbnail.width * thumbnail.height, limit: 2000) where found.count < limit {
            let centreX = Int((Double(index % thumbnail.width) + 0.5) * scaleX)
            let centreY = Int((Double(index / thumbnail.width) + 0.5) * scaleY)
            guard centreX - reachX >= 0, centreY - reachY >= 0, centreX + reachX < raw.width, centreY + reachY < raw.height
            else { continue }
            var low = [Double](repeating: 255, count: 4), high = [Double](repeating: 0, count: 4)
            var sum = [Double](repeating: 0, count: 4)
            var isFlat = true
            scan: for y in (centreY - reachY)...(centreY + reachY) {
                for x in (centreX - reachX)...(centreX + reachX) {
                    let pixel = raw.pixel(y * raw.width + x)
                    for band in 0..<4 {
                        let value = pixel[pixel.startIndex + band]
                        low[band] = min(low[band], value)
                        high[band] = max(high[band], value)
                        sum[band] += value
                        if high[band] - low[band] > 2 { isFlat = false; break scan }
                    }
                }
            }
            guard isFlat else { continue }
            let count = Double((2 * reachX + 1) * (2 * reachY + 1))
            found.append((index, sum.map { $0 / count }))
        }
        return found
    }

    /// The corpus' benchmark photo (2725×2225) made CMYK with libvips' CMYK profile (`vips
    /// icc_transform`, then `jpegsave`, which embeds the profile): a CMYK photo of a size a
    /// thumbnail service meets, and the workload of the figures in docs/performance.md.
    static func cmykPhoto() async throws -> Data? {
        let photo = TestFiles.corpusFile("2569067123_aca715a2ee_o.jpg")
        guard FileManager.default.fileExists(atPath: photo.path) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-cmyk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cmyk = folder.appendingPathComponent("cmyk.v"), jpeg = folder.appendingPathComponent("cmyk.jpg")
        _ = try await ColourReference.run("vips", ["icc_transform", photo.path, cmyk.path, "cmyk"])
        _ = try await ColourReference.run("vips", ["jpegsave", cmyk.path, jpeg.path, "--Q", "85"])
        return try Data(contentsOf: jpeg)
    }

    @Test("a CMYK photo's 720-px thumbnail stays close to the one converted before the resize")
    func photoAgainstConvertedFirst() async throws {
        guard let data = try await Self.cmykPhoto() else { return }
        let ours = try Self.thumbnail(data, box: 720)
        let target = PixelSize(width: ours.width, height: ours.height)
        #expect(target == PixelSize(width: 720, height: 588))
        let before = try Self.convertedFirst(data, to: target)
        let sampled = ColourReference.sample(target.width * target.height, limit: 6000)
        let colours = try Self.rgbColours(before)
        let distance = try ColourReference.deltaE(of: ours, reference: sampled.map { colours[$0] }, at: sampled)
        print("ΔE76 CMYK photo \(target.width)x\(target.height) after vs before the resize: mean "
            + String(format: "%.3f max %.2f", distance.mean, distance.max))
        #expect(distance.mean <= Self.meanFromBefore && distance.max <= Self.maxFromBefore, "ΔE \(distance)")
    }

    /// The next two tests each make one of the two thumbnails compared above, alone, so that each
    /// can be timed in a process of its own (docs/performance.md, "CMYK after the resize").
    @Test("a CMYK photo's 720-px thumbnail is 8-bit sRGB of the box's size")
    func photoThumbnail() async throws {
        guard let data = try await Self.cmykPhoto() else { return }
        let ours = try Self.thumbnail(data, box: 720)
        #expect(ours.width == 720 && ours.height == 588)
    }

    @Test("the CMYK photo converted before the resize, as Vignette did before, has the same size")
    func photoConvertedFirst() async throws {
        guard let data = try await Self.cmykPhoto() else { return }
        let before = try Self.convertedFirst(data, to: PixelSize(width: 720, height: 588))
        #expect(before.width == 720 && before.height == 588 && before.bands == 3)
    }

    @Test("CMYK reduced by vips_resize or cropped by attention comes out sRGB, close to Vignette's reducer")
    func otherSteps() throws {
        let data = try Data(contentsOf: TestFiles.fixture("cmyk.jpg"))
        let reference = try Self.thumbnail(data, box: 200)
        var libvips = Self.thumbnailer(box: 200)
        libvips.resampler = .libvips
        let resized = try libvips.thumbnail(data).image
        #expect(resized.bands == 3 && resized.iccProfile == nil)
        try #require(resized.width == reference.width && resized.height == reference.height)
        let indices = Array(0..<(resized.width * resized.height))
        let distance = try ColourReference.deltaE(of: resized, reference: Self.rgbColours(reference), at: indices)
        #expect(distance.mean <= 1.5, "vips_resize against LanczosReducer ΔE \(distance)")

        let cropped = try Thumbnailer(options: ThumbnailOptions(width: 100, height: 100, fit: .cover, crop: .attention)).thumbnail(data).image
        #expect(cropped.width == 100 && cropped.height == 100 && cropped.bands == 3 && cropped.iccProfile == nil)
    }

    @Test("an enlarged CMYK image is converted before the resize, as it was, and comes out sRGB")
    func enlargedConvertsFirst() throws {
        let data = try Data(contentsOf: TestFiles.fixture("cmyk.jpg"))
        let image = try LoadedSource(data: data, limits: .untrusted).load(failOn: .none)
        #expect(!image.isReducibleCMYK(to: PixelSize(width: image.width * 2, height: image.height * 2)))
        #expect(!image.isReducibleCMYK(to: PixelSize(width: image.width, height: image.height)))
        #expect(image.isReducibleCMYK(to: PixelSize(width: image.width / 2, height: image.height / 2)))
        var options = ThumbnailOptions(width: image.width * 2, height: image.height * 2)
        options.allowUpscaling = true
        let enlarged = try Thumbnailer(options: options).thumbnail(data).image
        #expect(enlarged.width == image.width * 2 && enlarged.bands == 3 && enlarged.iccProfile == nil)
    }
}
