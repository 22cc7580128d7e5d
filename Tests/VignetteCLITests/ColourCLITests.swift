import Foundation
import Testing
import VignetteCodecs

/// `vignette thumbnail --keep-profile`: the input's ICC profile, byte for byte, in the output even
/// with metadata stripped (the default); without it the output is sRGB with no profile.
@Suite("CLI colour: --keep-profile")
struct ColourCLITests {
    @Test("--keep-profile keeps the Adobe RGB profile in JPEG, PNG and WebP outputs; the default converts and writes none",
          arguments: ["jpeg", "png", "webp"])
    func keepProfile(format: String) async throws {
        let input = CLI.fixtures.appendingPathComponent("adobergb.jpg")
        let profile = try #require(try ImageDecoder().decode(fileAt: input.path).iccProfile)
        for keep in [true, false] {
            let out = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: out) }
            let result = try await CLI.run(
                ["thumbnail", input.path, "--size", "100", "--format", format, "--out", out.path] + (keep ? ["--keep-profile"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let name = try #require(CLI.files(in: out).first)
            let output = try ImageDecoder().decode(fileAt: out.appendingPathComponent(name).path)
            #expect(output.width == 100 && output.height == 75)
            #expect(output.iccProfile == (keep ? profile : nil), "--keep-profile \(keep), \(format)")
        }
    }

    /// Landscape_9.jpg has a 2428-byte profile and a 256x197 EXIF thumbnail, which a 100-px box
    /// takes: the thumbnail is read with the main image's profile. That route once ended in a
    /// freed image's progress signal (a segfault in vips_sink_disc), in every output format.
    @Test("an EXIF thumbnail read with the main image's profile: every format, converted or kept, never a signal",
          .corpus, arguments: ["jpeg", "png", "webp"])
    func embeddedThumbnailWithInheritedProfile(format: String) async throws {
        let input = CLI.corpus.appendingPathComponent("Landscape_9.jpg")
        let profile = try #require(try ImageDecoder().decode(fileAt: input.path).iccProfile)
        for keep in [false, true] {
            let out = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: out) }
            let result = try await CLI.run(
                ["thumbnail", input.path, "--size", "100", "--format", format, "--out", out.path, "--json"] + (keep ? ["--keep-profile"] : []))
            #expect(!result.killedBySignal && result.status == 0, "status \(result.status): \(result.stderr)")
            let name = try #require(CLI.files(in: out).first)
            let output = try ImageDecoder().decode(fileAt: out.appendingPathComponent(name).path)
            #expect(output.width == 100 && output.height == 77)
            #expect(output.iccProfile == (keep ? profile : nil), "--keep-profile \(keep), \(format)")
        }
    }

    @Test("--keep-profile is part of the --cache key: a cached sRGB thumbnail is not served for it")
    func cacheKey() async throws {
        let input = CLI.fixtures.appendingPathComponent("adobergb.jpg").path
        let cache = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        for keep in [false, true] {
            let out = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: out) }
            let result = try await CLI.run(
                ["thumbnail", input, "--size", "100", "--cache", cache.path, "--out", out.path] + (keep ? ["--keep-profile"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let output = try ImageDecoder().decode(fileAt: out.appendingPathComponent("adobergb.jpg").path)
            #expect((output.iccProfile != nil) == keep)
        }
    }
}
