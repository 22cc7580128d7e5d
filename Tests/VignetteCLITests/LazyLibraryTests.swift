import Foundation
import Testing
import VignetteCodecs

/// libheif (with the decoders it links) and FFmpeg are opened when a file needs them, not at
/// process start: glibc's loader (`LD_DEBUG=libs`) reports every library a process initialises, so
/// a photo's run must name none of them, a HEIC's must initialise libheif, a video's FFmpeg.
@Suite("Libraries opened when needed: libheif for HEIF, FFmpeg for video")
struct LazyLibraryTests {
    static let heif = ["libheif", "libde265", "libx265", "libaom", "libdav1d"]
    static let ffmpeg = ["libavformat", "libavcodec", "libavutil", "libswscale"]

    static func initialised(_ result: CLIResult, _ library: String) -> Bool {
        result.stderrLines.contains { $0.contains("calling init:") && $0.contains("/\(library).so") }
    }

    /// Whether libvips itself links `library` (`ldd` of the libvips the trace loaded): then every
    /// process that uses libvips opens it, and it says nothing of Vignette's lazy loading (Debian
    /// 13's librsvg, which libvips links, links libdav1d).
    static func linkedByLibvips(_ result: CLIResult, _ library: String) async throws -> Bool {
        let loaded = result.stderrLines.first { $0.contains("calling init:") && $0.contains("/libvips.so") }
        guard let path = loaded?.split(separator: " ").last.map(String.init) else { return false }
        let ldd = try CLI.start("/usr/bin/ldd", [path])
        return await CLI.finish(ldd).stdout.contains("/\(library).so")
    }

    /// A thumbnail of `input` with the loader's trace on, and `VIPSHOME` as a parent that uses
    /// libvips (which sets it when it starts) passes it on: it must not bring libvips' modules.
    static func thumbnail(_ input: URL, into out: URL) async throws -> CLIResult {
        let result = try await CLI.run(
            ["thumbnail", input.path, "--size", "64", "--out", out.path], environment: ["LD_DEBUG": "libs", "VIPSHOME": "/usr"])
        #expect(result.status == 0, "\(input.lastPathComponent): \(result.stderr.suffix(2000))")
        return result
    }

    @Test("a JPEG's process opens neither libheif nor FFmpeg; a HEIC's opens libheif, and its thumbnail decodes")
    func heifOnlyForHEIF() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let photo = try await Self.thumbnail(CLI.fixtures.appendingPathComponent("baseline.jpg"), into: out)
        // The run is traced: glibc's loader did report the libraries it initialised.
        #expect(Self.initialised(photo, "libvips"))
        for library in Self.heif + Self.ffmpeg + ["libMagickCore-6.Q16", "libpoppler"] {
            if try await Self.linkedByLibvips(photo, library) { continue }
            #expect(!Self.initialised(photo, library), "\(library) opened for a JPEG")
        }
        #expect(try await !Self.linkedByLibvips(photo, "libheif"), "libvips itself links libheif")
        let heic = try await Self.thumbnail(CLI.fixtures.appendingPathComponent("thumbnail.heic"), into: out)
        #expect(Self.initialised(heic, "libheif"), "libheif not opened for a HEIC")
        let made = try ImageDecoder().probe(fileAt: out.appendingPathComponent("thumbnail.jpg").path)
        #expect(max(made.width, made.height) == 64)
    }

    #if Video
    @Test("a video's process opens FFmpeg's four libraries, and its poster decodes")
    func ffmpegOnlyForVideo() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let clip = out.appendingPathComponent("clip.mp4")
        let ffmpeg = try CLI.start(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-pix_fmt", "yuv420p", clip.path])
        let encoded = await CLI.finish(ffmpeg)
        try #require(encoded.status == 0, "ffmpeg: \(encoded.stderr)")
        let video = try await Self.thumbnail(clip, into: out)
        for library in Self.ffmpeg {
            #expect(Self.initialised(video, library), "\(library) not opened for a video")
        }
        let poster = try ImageDecoder().probe(fileAt: out.appendingPathComponent("clip.jpg").path)
        #expect(poster.width == 64 && poster.height == 48)
    }
    #endif
}
