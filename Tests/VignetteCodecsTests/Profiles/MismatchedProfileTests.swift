import Foundation
import Testing
@testable import VignetteCodecs

/// Issue 53, item 1: an embedded ICC profile that cannot describe the pixels (for another colour
/// space than the image's bands, or damaged) is ignored, as libvips ignores it, on every route:
/// never an error, the reason on `ImageInfo.ignoredProfile` and on the decoded image, and the
/// thumbnail as libvips' `vipsthumbnail` makes it (dHash within 2, mean difference within 2 levels).
@Suite("Mismatched and damaged ICC profiles are ignored, as libvips ignores them")
struct MismatchedProfileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// The pixels: "grey", "rgb" or "cmyk" (baseline.jpg made so by `vips`).
        let pixels: String
        let profile: @Sendable () throws -> Data
        /// Whether Vignette ignores it (and says why).
        let ignored: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "grey JPEG with an RGB profile", pixels: "grey", profile: TestProfiles.sRGB, ignored: true),
        Case(name: "grey JPEG with a CMYK profile", pixels: "grey", profile: TestProfiles.cmyk, ignored: true),
        Case(name: "RGB JPEG with a CMYK profile", pixels: "rgb", profile: TestProfiles.cmyk, ignored: true),
        Case(name: "RGB JPEG with a grey profile", pixels: "rgb", profile: TestProfiles.grey, ignored: true),
        Case(name: "CMYK JPEG with an RGB profile", pixels: "cmyk", profile: TestProfiles.sRGB, ignored: true),
        Case(name: "CMYK JPEG with a grey profile", pixels: "cmyk", profile: TestProfiles.grey, ignored: true),
        Case(name: "RGB JPEG with bytes that are no profile", pixels: "rgb", profile: TestProfiles.junk, ignored: true),
        Case(
            name: "RGB JPEG with a profile cut short", pixels: "rgb",
            profile: { TestProfiles.truncated(try TestProfiles.sRGB(), to: 200) }, ignored: true),
        Case(
            name: "RGB JPEG with a zero-size tag", pixels: "rgb",
            profile: { TestProfiles.zeroSizedTag(of: try TestProfiles.sRGB()) }, ignored: false),
        Case(name: "grey JPEG with a grey profile (fits)", pixels: "grey", profile: TestProfiles.grey, ignored: false),
    ]

    /// Fixtures/baseline.jpg as `pixels` says, made by libvips' `vips` command, with no profile.
    static func source(_ pixels: String) async throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg").path, baseline = TestFiles.fixture("baseline.jpg").path
        switch pixels {
        case "grey": _ = try await ColourReference.run("vips", ["colourspace", baseline, output + "[strip]", "b-w"])
        case "cmyk": _ = try await ColourReference.run("vips", ["icc_transform", baseline, output + "[strip]", "cmyk"])
        default: _ = try await ColourReference.run("vips", ["copy", baseline, output + "[strip]"])
        }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// `vipsthumbnail`'s thumbnail of `data` in a 160-pixel box, as a PNG read back; CMYK through
    /// `--export-profile srgb`, as libvips makes CMYK sRGB in its thumbnail.
    static func vipsThumbnail(_ data: Data, cmyk: Bool) async throws -> Image {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-vipsthumb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg")
        try data.write(to: input)
        let output = folder.appendingPathComponent("out.png").path
        _ = try await ColourReference.run("vipsthumbnail", [input.path, "-s", "160"] + (cmyk ? ["--export-profile", "srgb"] : []) + ["-o", output + "[strip]"])
        return try ImageDecoder(limits: .unlimited).decode(Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test("Every route makes the thumbnail, the profile ignored where it does not fit", .vipsCommand, arguments: cases)
    func everyRoute(_ testCase: Case) async throws {
        let bare = try await Self.source(testCase.pixels)
        let data = ProfileEmbedding.jpeg(bare, profile: try testCase.profile())
        let info = try ImageDecoder().probe(data)
        #expect((info.ignoredProfile != nil) == testCase.ignored, "\(info.ignoredProfile ?? "used")")
        let decoded = try ImageDecoder().decode(data)
        #expect((decoded.ignoredProfile != nil) == testCase.ignored)
        if testCase.ignored { #expect(decoded.iccProfile == nil) }

        let reference = try await Self.vipsThumbnail(data, cmyk: testCase.pixels == "cmyk")
        for method in ThumbnailOptions.Method.allCases {
            for keepProfile in [false, true] {
                var options = ThumbnailOptions(size: 160)
                options.method = method
                options.keepProfile = keepProfile
                let thumbnailer = Thumbnailer(options: options)
                let label = "\(method), keepProfile \(keepProfile)"
                let made = try thumbnailer.thumbnail(data)
                #expect(made.image.width == 160 && made.image.height == 120, "\(label)")
                if testCase.ignored {
                    // Nothing of the ignored profile reaches an output, kept or not, and the pixels
                    // are those of the same file without it.
                    #expect(made.image.iccProfile == nil, "\(label)")
                    #expect(made.source.ignoredProfile != nil, "\(label)")
                    let withoutProfile = try thumbnailer.thumbnail(bare).image
                    #expect(try made.image.pixels() == withoutProfile.pixels(), "\(label): as the file without its profile")
                    let distance = try made.image.perceptualHash().distance(to: reference.perceptualHash())
                    #expect(distance <= 2, "\(label): dHash \(distance) from vipsthumbnail")
                    // CMYK goes through Vignette's own CMYK reduction and transform grid
                    // (CMYKAfterResizeTests bounds them against libvips'): a little further.
                    let bound = testCase.pixels == "cmyk" ? 3.0 : 2.0
                    let difference = try #require(try made.image.colourPixelsImage().meanDifference(to: reference.colourPixelsImage()))
                    #expect(difference <= bound, "\(label): mean difference \(difference) from vipsthumbnail")
                }
                // The planar JPEG route (a JPEG written from the planes) takes the same profile.
                let (jpeg, _) = try thumbnailer.encodedThumbnail(data, as: .jpeg(JPEGOptions(quality: 90)))
                let written = try ImageDecoder().decode(jpeg)
                #expect(written.width == 160, "\(label)")
                if testCase.ignored { #expect(written.iccProfile == nil, "\(label): the written JPEG has no profile") }
            }
        }
    }
}

extension Image {
    /// The image with grey repeated into R, G and B (`colourPixels`), as an image to compare.
    func colourPixelsImage() throws -> Image {
        let pixels = try colourPixels()
        return try Image(pixels: pixels)
    }
}
