#if Video
import Foundation
import Testing
@testable import VignetteCodecs

/// Video posters (FFmpeg through the Video trait) against Debian's `ffmpeg` on clips it makes
/// here: the frame at 0 s and at a given second equal to `ffmpeg -ss T -i FILE -frames:v 1`
/// (autorotated), and damaged, lying and endless streams refused with a typed error.
@Suite(.serialized) struct VideoPosterTests {
    /// A 3-second 320×240 clip whose picture turns as it plays, so that frames a second apart differ.
    static let source = "testsrc2=s=320x240:r=25:d=3,rotate=a=t*0.8"

    struct Clip: Sendable, CustomStringConvertible {
        let name: String
        let arguments: [String]
        var description: String { name }
    }

    static let clips: [Clip] = [
        Clip(name: "h264.mp4", arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25"]),
        Clip(name: "hevc.mp4", arguments: ["-c:v", "libx265", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p", "-g", "25"]),
        Clip(name: "hevc10.mkv", arguments: ["-c:v", "libx265", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p10le", "-g", "25"]),
        Clip(name: "vp9.webm", arguments: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k", "-g", "25"]),
        Clip(name: "av1.mp4", arguments: ["-c:v", "libaom-av1", "-cpu-used", "8", "-b:v", "300k", "-g", "25"]),
        Clip(name: "mjpeg.avi", arguments: ["-c:v", "mjpeg", "-q:v", "4"]),
    ]

    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-video-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// `clip` made by ffmpeg once per run.
    static func make(_ clip: Clip) async throws -> URL {
        let url = folder.appendingPathComponent(clip.name)
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = try await ColourReference.run(
                "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source] + clip.arguments + [url.path])
        }
        return url
    }

    /// ffmpeg's own frame at `second` (autorotated), as PNG bytes.
    static func reference(_ url: URL, at second: Double) async throws -> Image {
        let png = try await ColourReference.run(
            "ffmpeg", ["-v", "error", "-ss", String(second), "-i", url.path, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"])
        return try ImageDecoder(limits: .unlimited).decode(png)
    }

    @Test(arguments: clips)
    func posterMatchesFFmpeg(clip: Clip) async throws {
        let url = try await Self.make(clip)
        let data = try Data(contentsOf: url)
        let info = try ImageDecoder().probe(data)
        #expect(info.width == 320 && info.height == 240)
        #expect(info.video?.codec == ["h264.mp4": "h264", "hevc.mp4": "hevc", "hevc10.mkv": "hevc", "vp9.webm": "vp9", "av1.mp4": "av1", "mjpeg.avi": "mjpeg"][clip.name])
        let duration = try #require(info.video?.duration)
        #expect(abs(duration - 3) < 0.2)

        let first = try ImageDecoder().decode(data)
        #expect(first.width == 320 && first.height == 240)
        let firstReference = try await Self.reference(url, at: 0)
        #expect(try first.perceptualHash().distance(to: firstReference.perceptualHash()) <= 2)

        var options = ThumbnailOptions(width: 320, height: 240)
        options.videoSecond = 1.5
        let later = try Thumbnailer(options: options).thumbnail(data).image
        let laterReference = try await Self.reference(url, at: 1.5)
        #expect(later.width == 320 && later.height == 240)
        #expect(try later.perceptualHash().distance(to: laterReference.perceptualHash()) <= 2)
        // The clip turns: the frame at 1.5 s is not the first one.
        #expect(try later.perceptualHash().distance(to: first.perceptualHash()) > 8)
    }

    @Test func rotationFromTheDisplayMatrix() async throws {
        let plain = try await Self.make(Self.clips[0])
        let url = Self.folder.appendingPathComponent("rotated.mov")
        let script = TestFiles.repository.appendingPathComponent("Scripts/rotate-clip.sh").path
        _ = try await ColourReference.run(script, [plain.path, url.path])
        let data = try Data(contentsOf: url)
        let info = try ImageDecoder().probe(data)
        #expect(info.width == 240 && info.height == 320)
        #expect(info.video?.rotation != 0)
        for second in [0, 2.0] {
            var options = ThumbnailOptions(width: 120, height: 160)
            options.videoSecond = second
            let poster = try Thumbnailer(options: options).thumbnail(data).image
            #expect(poster.width == 120 && poster.height == 160)
            let reference = try await Self.reference(url, at: second)
            #expect(reference.width == 240 && reference.height == 320)
            #expect(try poster.perceptualHash().distance(to: reference.perceptualHash()) <= 2)
        }
    }

    @Test
    func clipCutShort() async throws {
        let data = try Data(contentsOf: try await Self.make(Self.clips[0]))
        // ffmpeg writes the index (moov) last: half a file has none.
        let half = data.prefix(data.count / 2)
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder().decode(Data(half)) }
        #expect(error?.kind == .corruptData || error?.kind == .truncatedData)

        // With the index first, the packets after the cut are missing.
        let faststart = Self.folder.appendingPathComponent("faststart.mp4")
        _ = try await ColourReference.run(
            "ffmpeg", ["-v", "error", "-y", "-i", Self.folder.appendingPathComponent("h264.mp4").path, "-c", "copy", "-movflags", "+faststart", faststart.path])
        let whole = try Data(contentsOf: faststart)
        var options = ThumbnailOptions(size: 64)
        options.videoSecond = 2.5
        let cut = expectImagingError { () throws(ImagingError) in try Thumbnailer(options: options).thumbnail(Data(whole.prefix(whole.count / 3))) }
        #expect(cut?.kind == .truncatedData, "\(cut?.message ?? "")")
    }

    @Test func lyingHeader() async throws {
        let data = try Data(contentsOf: try await Self.make(Self.clips[0]))
        // The sample description (avc1) says 60000×60000: refused from the header, before any frame.
        var lying = data
        let stsd = try #require(lying.firstRange(of: Data("stsd".utf8)))
        let avc1 = try #require(lying[stsd.upperBound...].firstRange(of: Data("avc1".utf8)))
        let sizeAt = avc1.upperBound + 24
        lying.replaceSubrange(sizeAt..<(sizeAt + 4), with: [0xEA, 0x60, 0xEA, 0x60])
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder().decode(lying) }
        #expect(error?.kind == .limitExceeded)
    }

    @Test
    func endlessStream() async throws {
        // A transport stream: no index, no duration to trust, one keyframe; the frame asked for
        // lies beyond every frame the budget lets the decoder go through.
        let url = Self.folder.appendingPathComponent("endless.ts")
        _ = try await ColourReference.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=50:d=40", "-c:v", "libx264", "-g", "100000", url.path])
        let data = try Data(contentsOf: url)
        var options = ThumbnailOptions(size: 32)
        options.videoSecond = 30
        var limits = DecodingLimits.untrusted
        limits.maxFrames = 500
        let frames = expectImagingError { () throws(ImagingError) in try Thumbnailer(options: options, limits: limits).thumbnail(data) }
        #expect(frames?.kind == .limitExceeded, "\(frames?.message ?? "")")
        #expect(frames?.message.contains("frame") == true)
        // The time limit stops it as well (0 s: at once, through the interrupt callback).
        limits.maxFrames = .max
        limits.maxRenderSeconds = 0
        let time = expectImagingError { () throws(ImagingError) in try Thumbnailer(options: options, limits: limits).thumbnail(data) }
        #expect(time?.kind == .limitExceeded, "\(time?.message ?? "")")
        #expect(time?.message.contains("longer than") == true)
    }

    @Test func lyingSampleCount() async throws {
        // A constant sample size and 60 million samples in the video track's stsz: FFmpeg would
        // size its index from the count (1.4 GB for FuzzVideo's 1 KB finding); refused first.
        var lying = try Data(contentsOf: try await Self.make(Self.clips[0]))
        let stsz = try #require(lying.firstRange(of: Data("stsz".utf8)))
        lying.replaceSubrange((stsz.upperBound + 4)..<(stsz.upperBound + 12), with: [0, 0, 0, 1, 0x03, 0x93, 0x87, 0x00])
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder().decode(lying) }
        #expect(error?.kind == .corruptData)
        #expect(error?.message.contains("60000000 samples") == true, "\(error?.message ?? "")")
        // The fuzzer's file itself, kept in Fuzz/regressions.
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/FuzzVideo/oom-3ec57e086bd0b1c529ec25a2427688d43d74dcf8")
        let found = try Data(contentsOf: finding).dropFirst()  // the fuzzer's first byte picks the second
        let refused = expectImagingError { () throws(ImagingError) in try ImageDecoder().probe(Data(found)) }
        #expect(refused?.kind == .corruptData || refused?.kind == .limitExceeded, "\(refused?.message ?? "")")
    }

    @Test func notAllowed() async throws {
        let data = try Data(contentsOf: try await Self.make(Self.clips[0]))
        var limits = DecodingLimits.untrusted
        limits.allowedInputs.remove(.video)
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder(limits: limits).probe(data) }
        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.code == .inputNotAllowed(.video))
    }

    @Test func sniffing() throws {
        #expect(VideoContainer.sniff(Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0])) == .mp4)
        #expect(VideoContainer.sniff(Data([0, 0, 0, 0x18] + Array("ftypqt  ".utf8) + [0, 0, 0, 0])) == .mov)
        #expect(VideoContainer.sniff(Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0])) == nil)
        #expect(VideoContainer.sniff(Data([0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0])) == nil)
        #expect(VideoContainer.sniff(Data([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + Array("webm".utf8))) == .webm)
        #expect(VideoContainer.sniff(Data(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI LIST".utf8))) == .avi)
        #expect(try VideoContainer.sniff(TestFiles.data(TestFiles.fixture("baseline.jpg"))) == nil)
    }
}
#endif
