import Foundation
import Testing
import CVignetteLcms2
@testable import VignetteCodecs

/// Colour (issue 13, item 3): images with ICC profiles come out as sRGB with the colours their
/// profile means, within CIE76 ΔE 3 on average of littleCMS' conversion (`ColourReference`);
/// `keepProfile` keeps the profile, and its bytes reach every output format; every route handles
/// colour alike. The ΔE figures are printed: `.build/debug/VignettePackageTests.xctest
/// --testing-library swift-testing --filter ColourTests 2>&1 | grep ΔE`.
@Suite("Colour: ICC profiles to sRGB, kept profiles")
struct ColourTests {
    /// A source image: a fixture (always there) or a corpus file (skipped when the corpus is absent).
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let corpus: Bool
        var url: URL { corpus ? TestFiles.corpusFile(file) : TestFiles.fixture(file) }
        var testDescription: String { corpus ? "corpus/\(file)" : file }
        var available: Bool { FileManager.default.fileExists(atPath: url.path) }
    }

    static let fixtureCases = [
        "adobergb.jpg", "p3-alpha.png", "prophoto16.png", "cmyk-alpha.tif", "cmyk.jpg", "grey-alpha.png", "rgb16.png",
    ].map { Case(file: $0, corpus: false) }
    static let corpusCases = [
        "p3.png", "prophoto.png", "Channel_digital_image_CMYK_color.jpg", "Channel_digital_image_CMYK_color_no_profile.jpg",
        "fogra-0-100-100-0.tif", "tifftag-photoshop.tiff", "tbgn2c16.png", "Flag_of_the_Netherlands-16bit.png",
        "bggn4a16.png", "bgbn4a08.png",
    ].map { Case(file: $0, corpus: true) }

    /// littleCMS' sRGB colours of `raw`'s pixels at `indices`: through `profile`, or the one assumed
    /// without it (sRGB for RGB and grey, libvips' built-in CMYK profile for CMYK).
    static func reference(_ raw: ColourReference.RawImage, profile: Data?, at indices: [Int]) async throws -> [[Double]] {
        let cmyk = raw.interpretation == "cmyk"
        let sixteen = raw.interpretation == "rgb16" || raw.interpretation == "grey16"
        let scale = sixteen ? 255.0 / 65535.0 : 1
        let grey = !cmyk && raw.bands <= 2
        var assumed = profile
        if cmyk, assumed == nil { assumed = try BuiltInProfile.cmyk.data() }
        let profileURL = try assumed.map(ColourReference.profileFile)
        defer { if let profileURL { try? FileManager.default.removeItem(at: profileURL) } }
        let colours: [[Double]] = indices.map { index in
            let pixel = Array(raw.pixel(index))
            if cmyk { return pixel.prefix(4).map { $0 / 255 * 100 } }
            // Grey with no profile is taken as sRGB grey: R = G = B.
            if grey { return profile == nil ? Array(repeating: pixel[0] * scale, count: 3) : [pixel[0] * scale] }
            return pixel.prefix(3).map { $0 * scale }
        }
        return try await ColourReference.transicc(colours, profile: profileURL)
    }

    static func checkAgainstLittleCMS(_ source: Case) async throws {
        let data = try Data(contentsOf: source.url)
        let raw = try await ColourReference.raw(source.url)
        let profile = try ImageDecoder().decode(data).iccProfile
        // A box as big as the image: nothing is resized, every pixel can be compared.
        let box = max(raw.width, raw.height)
        let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: box, height: box)).thumbnail(data)
        #expect(thumbnail.image.width == raw.width && thumbnail.image.height == raw.height)
        #expect(thumbnail.image.iccProfile == nil, "a converted thumbnail carries no profile")
        let indices = ColourReference.sample(raw.width * raw.height)
        let expected = try await reference(raw, profile: profile, at: indices)
        let distance = try ColourReference.deltaE(of: thumbnail.image, reference: expected, at: indices)
        print("ΔE76 \(source.testDescription) (\(raw.interpretation), \(profile.map { "\($0.count)-byte profile" } ?? "no profile")):"
            + " mean \(String(format: "%.2f", distance.mean)), max \(String(format: "%.2f", distance.max)) over \(indices.count) pixels")
        #expect(distance.mean <= 3, "mean ΔE \(distance.mean) of \(source.testDescription) against transicc")
    }

    @Test("fixtures (Adobe RGB, P3 + alpha, 16-bit ProPhoto, CMYK + alpha, CMYK, grey + alpha, 16-bit) match littleCMS within ΔE 3",
          arguments: fixtureCases)
    func fixtures(_ source: Case) async throws {
        try await Self.checkAgainstLittleCMS(source)
    }

    @Test("corpus images (P3, ProPhoto, CMYK with and without a profile, CMYK TIFF, 16-bit, grey + alpha) match littleCMS within ΔE 3",
          .enabled(if: TestFiles.corpusAvailable, "../shared/corpus is not there"), arguments: corpusCases)
    func corpus(_ source: Case) async throws {
        try #require(source.available, "\(source.file) is missing from ../shared/corpus")
        try await Self.checkAgainstLittleCMS(source)
    }

    /// How a thumbnail is made, for the route comparisons.
    enum Route: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case shrinkOnLoad, vipsThumbnail, libvipsResize, embedded
        var testDescription: String { rawValue }

        func thumbnailer(keepProfile: Bool) -> Thumbnailer {
            var options = ThumbnailOptions(width: 120, height: 120)
            if self == .vipsThumbnail { options.method = .vipsThumbnail }
            options.keepProfile = keepProfile
            var thumbnailer = Thumbnailer(options: options)
            if self == .libvipsResize { thumbnailer.resampler = .libvips }
            return thumbnailer
        }
    }

    /// exif-thumbnail.jpg (with a 160x120 EXIF thumbnail) given adobergb.jpg's Adobe RGB profile:
    /// its EXIF thumbnail, which has no profile of its own, is read with the main image's.
    static func adobeRGBWithExifThumbnail() throws -> Data {
        let profile = try #require(try ImageDecoder().decode(Data(contentsOf: TestFiles.fixture("adobergb.jpg"))).iccProfile)
        return ProfileEmbedding.jpeg(try Data(contentsOf: TestFiles.fixture("exif-thumbnail.jpg")), profile: profile)
    }

    @Test("every route converts alike: its sRGB thumbnail is littleCMS' conversion of its kept-profile one",
          arguments: Route.allCases, ["adobergb.jpg", "p3-alpha.png", "prophoto16.png"])
    func routes(_ route: Route, file: String) async throws {
        if route == .embedded, file != "adobergb.jpg" { return }
        let data = route == .embedded ? try Self.adobeRGBWithExifThumbnail() : try Data(contentsOf: TestFiles.fixture(file))
        let profile = try #require(try ImageDecoder().decode(data).iccProfile)
        let converted = try route.thumbnailer(keepProfile: false).thumbnail(data)
        let kept = try route.thumbnailer(keepProfile: true).thumbnail(data)
        if route == .embedded {
            #expect(converted.route == .embeddedThumbnail(kind: "exif") && kept.route == converted.route)
        }
        #expect(converted.image.iccProfile == nil)
        #expect(kept.image.iccProfile == profile, "the kept thumbnail carries the source's profile")
        #expect(converted.image.width == kept.image.width && converted.image.height == kept.image.height)

        let keptPixels = try kept.image.pixels()
        let raw = ColourReference.RawImage(
            width: keptPixels.width, height: keptPixels.height, bands: keptPixels.bands, interpretation: "srgb",
            samples: keptPixels.bytes.map(Double.init))
        let indices = Array(0..<(raw.width * raw.height))
        let expected = try await Self.reference(raw, profile: profile, at: indices)
        let distance = try ColourReference.deltaE(of: converted.image, reference: expected, at: indices)
        // Not a vacuous match: the kept pixels, read as sRGB, are visibly off.
        let unmanaged = try ColourReference.deltaE(
            of: kept.image, reference: try await Self.reference(raw, profile: nil, at: indices), at: indices)
        let converse = try ColourReference.deltaE(of: kept.image, reference: expected, at: indices)
        print("ΔE76 route \(route) \(file): mean \(String(format: "%.2f", distance.mean)) (the kept pixels read as sRGB: \(String(format: "%.2f", converse.mean)))")
        #expect(distance.mean <= 3, "mean ΔE \(distance.mean) on the \(route) route")
        #expect(unmanaged.mean < 0.5 && converse.mean > 1, "the profile changes the colours of \(file)")
    }

    @Test("CMYK becomes sRGB without a profile on every route, kept profile or not, and the routes agree",
          arguments: ["cmyk.jpg", "cmyk-alpha.tif"])
    func cmykRoutes(file: String) throws {
        let data = try Data(contentsOf: TestFiles.fixture(file))
        let ours = try Route.shrinkOnLoad.thumbnailer(keepProfile: false).thumbnail(data).image
        for route in [Route.vipsThumbnail, .libvipsResize] {
            for keep in [false, true] {
                let image = try route.thumbnailer(keepProfile: keep).thumbnail(data).image
                #expect(image.iccProfile == nil && image.bands == ours.bands, "\(route), keepProfile \(keep)")
                #expect(image.width == ours.width && image.height == ours.height)
                let reference = try ours.pixels()
                let colours = stride(from: 0, to: reference.bytes.count, by: reference.bands).map { base in
                    (0..<3).map { Double(reference.bytes[base + $0]) }
                }
                let distance = try ColourReference.deltaE(of: image, reference: colours, at: Array(colours.indices))
                #expect(distance.mean <= 3, "\(route): mean ΔE \(distance.mean) from the shrink-on-load route")
            }
        }
    }

    @Test("a kept profile is written into JPEG, PNG, WebP, AVIF and HEIC outputs, metadata stripped or not; a converted thumbnail gets none",
          arguments: ["adobergb.jpg", "p3-alpha.png", "prophoto16.png"])
    func keptProfileIsWritten(file: String) throws {
        let data = try Data(contentsOf: TestFiles.fixture(file))
        let profile = try #require(try ImageDecoder().decode(data).iccProfile)
        let formats: [EncodingFormat] = [
            .jpeg(JPEGOptions()), .jpeg(JPEGOptions(keepMetadata: true)), .png(PNGOptions()), .png(PNGOptions(keepMetadata: true)),
            .webp(WebPOptions()), .avif(HEIFOptions()), .heic(HEIFOptions()),
        ]
        for format in formats {
            var options = ThumbnailOptions(width: 64, height: 64)
            options.keepProfile = true
            let kept = try ImageDecoder().decode(try Thumbnailer(options: options).encodedThumbnail(data, as: format).data)
            #expect(kept.iccProfile == profile, "\(format): the source's profile, byte for byte")
            if case .png(let png) = format, !png.keepMetadata {
                #expect(kept.blob(named: "exif-data") == nil && kept.blob(named: "xmp-data") == nil, "stripped but for the profile")
            }
            options.keepProfile = false
            let converted = try ImageDecoder().decode(try Thumbnailer(options: options).encodedThumbnail(data, as: format).data)
            if case .jpeg(let jpeg) = format, jpeg.keepMetadata { continue }
            if case .png(let png) = format, png.keepMetadata { continue }
            #expect(converted.iccProfile == nil, "\(format): no profile once converted to sRGB")
        }
    }

    @Test("a GIF, which holds no profile, of a kept-profile thumbnail is converted to sRGB")
    func gifConverts() throws {
        let data = try Data(contentsOf: TestFiles.fixture("p3-alpha.png"))
        var options = ThumbnailOptions(width: 64, height: 64)
        let converted = try Thumbnailer(options: options).thumbnail(data).image
        options.keepProfile = true
        let gif = try Thumbnailer(options: options).encodedThumbnail(data, as: .gif(GIFOptions())).data
        let decoded = try ImageDecoder().decode(gif)
        let reference = try converted.pixels()
        let colours = stride(from: 0, to: reference.bytes.count, by: reference.bands).map { base in
            (0..<3).map { Double(reference.bytes[base + $0]) }
        }
        // GIF quantises to 256 colours: a looser bound, but the unconverted P3 values would be further off.
        let distance = try ColourReference.deltaE(of: decoded, reference: colours, at: Array(colours.indices))
        #expect(distance.mean <= 4, "mean ΔE \(distance.mean) from the sRGB thumbnail")
    }

    @Test("resizing a decoded image to fit (the resize processor, previews) handles colour as the thumbnailer does")
    func resizedToFit() throws {
        let data = try Data(contentsOf: TestFiles.fixture("adobergb.jpg"))
        let decoded = try ImageDecoder().decode(data)
        var options = ThumbnailOptions(width: 64, height: 64)
        let fitted = try decoded.resized(toFit: options)
        #expect(fitted.iccProfile == nil)
        let thumbnail = try Thumbnailer(options: options).thumbnail(data).image
        let reference = try thumbnail.pixels()
        let colours = stride(from: 0, to: reference.bytes.count, by: reference.bands).map { base in
            (0..<3).map { Double(reference.bytes[base + $0]) }
        }
        let distance = try ColourReference.deltaE(of: fitted, reference: colours, at: Array(colours.indices))
        #expect(distance.mean <= 1.5, "mean ΔE \(distance.mean) from the thumbnailer's")
        options.keepProfile = true
        #expect(try decoded.resized(toFit: options).iccProfile == decoded.iccProfile)
    }

    @Test("a profile longer than one JPEG segment is split over numbered APP2 segments that libjpeg reads back whole")
    func longProfileSegments() throws {
        // libvips' sRGB profile, padded to 200,000 bytes (its header's size says so): a profile
        // that fits the image, or it would be ignored on load.
        var bytes = [UInt8](try BuiltInProfile.sRGB.data())
        bytes += (bytes.count..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        bytes.replaceSubrange(0..<4, with: [0x00, 0x03, 0x0D, 0x40])  // 200,000
        let profile = Data(bytes)
        let jpeg = ProfileEmbedding.jpeg(try Data(contentsOf: TestFiles.fixture("baseline.jpg")), profile: profile)
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.iccProfile == profile)
        #expect(decoded.width == 640 && decoded.height == 480)
    }

    @Test("the planar JPEG route takes a JPEG with an sRGB profile when the profile is converted away, and no other profile")
    func planarGate() throws {
        let adobe = try Data(contentsOf: TestFiles.fixture("adobergb.jpg"))
        let srgb = try Data(contentsOf: TestFiles.fixture("srgb-profile.jpg"))
        let without = try Data(contentsOf: TestFiles.fixture("baseline.jpg"))
        let jpeg = EncodingFormat.jpeg(JPEGOptions())
        for keep in [false, true] {
            var options = ThumbnailOptions(width: 100, height: 100)
            options.keepProfile = keep
            let thumbnailer = Thumbnailer(options: options)
            #expect(try thumbnailer.lazyThumbnail(adobe) { _ in jpeg }.planes == nil)
            // Kept, the profile has to be written: libjpeg-turbo's encoder cannot.
            #expect((try thumbnailer.lazyThumbnail(srgb) { _ in jpeg }.planes != nil) == !keep, "keep: \(keep)")
            #expect(try thumbnailer.lazyThumbnail(without) { _ in jpeg }.planes != nil)
        }
        #expect(SRGBProfiles.isSRGB(try #require(try ImageDecoder().decode(srgb).iccProfile)))
        #expect(!SRGBProfiles.isSRGB(try #require(try ImageDecoder().decode(adobe).iccProfile)))
        // Bytes that are no profile are read as sRGB on every route (libvips falls back to its sRGB
        // profile), so the planar route may take them too.
        #expect(SRGBProfiles.isSRGB(Data("not a profile".utf8)))
    }

    @Test("an sRGB-profile JPEG made by the planar route: no profile, the colours of the converting route")
    func planarSRGBProfile() throws {
        let data = try Data(contentsOf: TestFiles.fixture("srgb-profile.jpg"))
        let options = ThumbnailOptions(width: 160, height: 160)
        let jpeg = EncodingFormat.jpeg(JPEGOptions(quality: 90))
        let (bytes, made) = try Thumbnailer(options: options).encodedThumbnail(data, as: jpeg)
        #expect(made.planes != nil)
        var former = Thumbnailer(options: options)
        former.resampler = .libvips
        let (formerBytes, before) = try former.encodedThumbnail(data, as: jpeg)
        #expect(before.planes == nil)
        let own = try ImageDecoder(limits: .unlimited).decode(bytes)
        let converted = try ImageDecoder(limits: .unlimited).decode(formerBytes)
        #expect(own.iccProfile == nil && converted.iccProfile == nil)
        #expect(own.width == 160 && own.height == 120 && converted.width == 160 && converted.height == 120)
        // Mean colour of each channel within 1 level: nothing was shifted by skipping the conversion.
        let (a, b) = (try own.pixels().bytes, try converted.pixels().bytes)
        for channel in 0..<3 {
            let mean = { (bytes: [UInt8]) in stride(from: channel, to: bytes.count, by: 3).reduce(0.0) { $0 + Double(bytes[$1]) } / Double(bytes.count / 3) }
            #expect(abs(mean(a) - mean(b)) < 1, "channel \(channel): \(mean(a)) vs \(mean(b))")
        }
        #expect(try own.perceptualHash().distance(to: converted.perceptualHash()) <= 3)
    }

    @Test("8-bit CMYK converts through a littleCMS transform kept per profile: its own, or libvips' CMYK profile when it has none")
    func keptCMYKTransforms() throws {
        let cmyk = try ImageDecoder().decode(fileAt: TestFiles.fixture("cmyk.jpg").path)
        #expect(cmyk.bands == 4 && !cmyk.hasAlpha && cmyk.iccProfile == nil)
        let builtIn = try #require(BuiltInProfile.cmykData)
        let first = try #require(SRGBTransforms.transform(from: builtIn, layout: .cmyk))
        #expect(SRGBTransforms.transform(from: builtIn, layout: .cmyk) === first)
        #expect(SRGBTransforms.transform(from: builtIn, layout: .rgb) == nil, "a CMYK profile makes no RGB transform")
        let kept = try #require(try cmyk.convertedWithKeptTransform(profile: builtIn, cancellation: nil))
        #expect(kept.bands == 3 && kept.iccProfile == nil)
        #expect(kept.width == cmyk.width && kept.height == cmyk.height)
        // The standard conversion takes that route: the same bytes.
        let standard = try cmyk.standardizedToSRGB8()
        #expect(try standard.pixels().bytes == kept.pixels().bytes)
        if TestFiles.corpusAvailable {
            let profiled = try ImageDecoder().decode(fileAt: TestFiles.corpusFile("Channel_digital_image_CMYK_color.jpg").path)
            let profile = try #require(profiled.iccProfile)
            let own = try #require(SRGBTransforms.transform(from: profile, layout: .cmyk))
            #expect(own !== first, "the embedded profile, not the built-in one")
            let converted = try #require(try profiled.convertedWithKeptTransform(profile: profile, cancellation: nil))
            #expect(try profiled.standardizedToSRGB8().pixels().bytes == converted.pixels().bytes)
        }
    }

    @Test("8-bit RGB converts through a littleCMS transform built once per profile; other profiles and bytes get none")
    func keptTransforms() throws {
        let adobe = try ImageDecoder().decode(fileAt: TestFiles.fixture("adobergb.jpg").path)
        let profile = try #require(adobe.iccProfile)
        let first = try #require(SRGBTransforms.transform(from: profile, layout: .rgb))
        #expect(SRGBTransforms.transform(from: profile, layout: .rgb) === first)
        #expect(SRGBTransforms.transform(from: profile, layout: .rgba) !== first)
        #expect(SRGBTransforms.transform(from: Data("not a profile".utf8), layout: .rgb) == nil)
        if TestFiles.corpusAvailable {
            let cmyk = try ImageDecoder().decode(fileAt: TestFiles.corpusFile("Channel_digital_image_CMYK_color.jpg").path)
            #expect(SRGBTransforms.transform(from: try #require(cmyk.iccProfile), layout: .rgb) == nil)
        }

        let converted = try #require(try adobe.convertedWithKeptTransform(profile: profile, cancellation: nil))
        #expect(converted.iccProfile == nil && converted.width == adobe.width && converted.height == adobe.height)
        // Adobe RGB's saturated colours move: the conversion did something.
        let (before, after) = (try adobe.withoutProfile().pixels().bytes, try converted.pixels().bytes)
        #expect(zip(before, after).map { abs(Int($0) - Int($1)) }.max() ?? 0 > 10)
        // Past the size limit the conversion streams through libvips instead.
        let big = try adobe.resized(toWidth: 2400, height: 1800, kernel: .lanczos3)
        #expect(big.width * big.height > Image.keptTransformMaximumPixels)
        #expect(try big.convertedWithKeptTransform(profile: profile, cancellation: nil) == nil)
    }

    @Test("a matrix-shaper RGB profile (Adobe RGB, Apple's Generic RGB) converts through Vignette's tables within 1 of transicc on a grid of colours")
    func matrixShaperTables() async throws {
        var sources = [TestFiles.fixture("adobergb.jpg")]
        if TestFiles.corpusAvailable { sources.append(TestFiles.corpusFile("Landscape_2.jpg")) }
        let levels: [UInt8] = [0, 1, 16, 32, 64, 96, 128, 160, 192, 224, 254, 255]
        var colours: [UInt8] = []
        for red in levels { for green in levels { for blue in levels { colours += [red, green, blue] } } }
        for grey in 0...255 { colours += [UInt8(grey), UInt8(grey), UInt8(grey)] }
        let count = colours.count / 3
        for source in sources {
            let profile = try #require(try ImageDecoder().decode(fileAt: source.path).iccProfile)
            let transform = try #require(SRGBTransforms.transform(from: profile, layout: .rgb))
            #expect(transform.isMatrixShaper, "\(source.lastPathComponent) takes the tables, not a littleCMS transform")
            var converted = [UInt8](repeating: 0, count: colours.count)
            colours.withUnsafeBytes { input in
                converted.withUnsafeMutableBytes { output in
                    if let input = input.baseAddress, let output = output.baseAddress { transform.convert(input, into: output, count: count) }
                }
            }
            let file = try ColourReference.profileFile(profile)
            defer { try? FileManager.default.removeItem(at: file) }
            let rows = (0..<count).map { index in (0..<3).map { Double(colours[index * 3 + $0]) } }
            let expected = try await ColourReference.transicc(rows, profile: file)
            let differences = (0..<colours.count).map { abs(Double(converted[$0]) - expected[$0 / 3][$0 % 3]) }
            let mean = differences.reduce(0, +) / Double(differences.count)
            #expect(differences.max() ?? 0 <= 1.5, "\(source.lastPathComponent): largest difference \(differences.max() ?? 0)")
            #expect(mean <= 0.5, "\(source.lastPathComponent): mean difference \(mean)")
        }
        // A profile with lookup tables is no matrix-shaper.
        let cmyk = try #require(BuiltInProfile.cmykData)
        #expect(SRGBTransforms.transform(from: cmyk, layout: .cmyk)?.isMatrixShaper == false)
    }

    @Test("8-bit CMYK through Vignette's grid of littleCMS' nodes gives littleCMS' own 8-bit transform's bytes (libvips' CMYK profile, a 557-KB one)")
    func cmykGridIsLittleCMS() throws {
        var profiles = [try #require(BuiltInProfile.cmykData)]
        if TestFiles.corpusAvailable {
            let image = try ImageDecoder().decode(fileAt: TestFiles.corpusFile("Channel_digital_image_CMYK_color.jpg").path)
            profiles.append(try #require(image.iccProfile))
        }
        // Every combination of 9 levels, and 20,000 pseudo-random colours.
        let levels: [UInt8] = [0, 1, 16, 64, 128, 191, 200, 254, 255]
        var colours: [UInt8] = []
        for c in levels { for m in levels { for y in levels { for k in levels { colours += [c, m, y, k] } } } }
        var state: UInt32 = 12345
        for _ in 0..<(20_000 * 4) {
            state = state &* 1_664_525 &+ 1_013_904_223
            colours.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        let count = colours.count / 4
        for profile in profiles {
            let transform = try #require(SRGBTransforms.transform(from: profile, layout: .cmyk))
            #expect(transform.isCMYKGrid)
            var ours = [UInt8](repeating: 0, count: count * 3)
            var reference = [UInt8](repeating: 0, count: count * 3)
            colours.withUnsafeBytes { input in
                ours.withUnsafeMutableBytes { output in
                    if let input = input.baseAddress, let output = output.baseAddress { transform.convert(input, into: output, count: count) }
                }
            }
            let input = try #require(profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
            defer { cmsCloseProfile(input) }
            let output = try #require(cmsCreate_sRGBProfile())
            defer { cmsCloseProfile(output) }
            let littleCMS = try #require(cmsCreateTransform(
                input, vgn_lcms_cmyk8(), output, vgn_lcms_rgb8(), cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOCACHE)))
            defer { cmsDeleteTransform(littleCMS) }
            colours.withUnsafeBytes { input in
                reference.withUnsafeMutableBytes { output in cmsDoTransform(littleCMS, input.baseAddress, output.baseAddress, cmsUInt32Number(count)) }
            }
            let differences = zip(ours, reference).map { abs(Int($0) - Int($1)) }
            #expect(differences.max() ?? 0 <= 1, "\(profile.count)-byte profile: largest difference \(differences.max() ?? 0)")
            #expect(differences.filter { $0 > 0 }.count * 1000 <= differences.count, "more than 0.1 % of the samples differ")
        }
    }
}
