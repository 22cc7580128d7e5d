import Foundation
import Testing
import Vignette
import VignetteCodecs

/// Video sources through the server: refused (415) unless `--allow-video` (`allowedInputs`
/// holds `.video`); allowed, a poster at the box's size, the frame `vts` asks for, a second
/// request from the cache, and `/info`'s `video_meta` equal to ffprobe's container tags.
@Suite("Server: video sources")
struct VideoSourceServerTests {
    static let ffmpeg = "/usr/bin/ffmpeg", ffprobe = "/usr/bin/ffprobe"
    static let tools = FileManager.default.isExecutableFile(atPath: ffmpeg) && FileManager.default.isExecutableFile(atPath: ffprobe)

    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(executable) \(arguments.joined(separator: " ")) failed")
        return data
    }

    /// A folder holding `clip.mp4`: 160×120, red for 1 s then blue for 1 s, with a title tag.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try run(ffmpeg, [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=160x120:r=25:d=1", "-f", "lavfi", "-i", "color=c=blue:s=160x120:r=25:d=1",
            "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-metadata", "title=Vignette \"test\" clip",
            folder.appendingPathComponent("clip.mp4").path,
        ])
        return folder
    }

    @Test("video is 415 unless allowed; allowed, the poster at the box, vts picks the frame, cached; /info video_meta equals ffprobe's tags",
          .enabled(if: tools, "ffmpeg and ffprobe are not installed"))
    func videoSources() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await RunningServer.with({ $0.localRoot = folder.path }) { running in
            let refused = try await running.get("/insecure/rs:fit:80:80/plain/local:///clip.mp4@png")
            #expect(refused.status == 415)
            #expect(refused.text.lowercased().contains("not allowed on this server"), "\(refused.text)")
            let info = try await running.get("/info/insecure/plain/local:///clip.mp4")
            #expect(info.status == 415, "\(info.status): \(info.text)")
        }
        try await RunningServer.with({ $0.localRoot = folder.path; $0.allowedInputs = [.video] }) { running in
            let first = try await running.get("/insecure/rs:fit:80:80/plain/local:///clip.mp4@png")
            #expect(first.status == 200, "\(first.text)")
            let poster = try ImageDecoder().decode(first.body)
            #expect(poster.width == 80 && poster.height == 60, "\(poster.width)x\(poster.height)")
            let again = try await running.get("/insecure/rs:fit:80:80/plain/local:///clip.mp4@png")
            #expect(again.status == 200 && again.body == first.body && again.header("ETag") == first.header("ETag"))
            let later = try await running.get("/insecure/rs:fit:80:80/vts:1.5/plain/local:///clip.mp4@png")
            #expect(later.status == 200, "\(later.text)")
            for (answer, blue) in [(first, false), (later, true)] {
                let pixels = try ImageDecoder().decode(answer.body).pixels()
                let middle = (pixels.height / 2 * pixels.width + pixels.width / 2) * pixels.bands
                let (red, blueValue) = (pixels.bytes[middle], pixels.bytes[middle + 2])
                #expect(blue ? blueValue > 200 && red < 60 : red > 200 && blueValue < 60, "red \(red), blue \(blueValue)")
            }
            let info = try await running.get("/info/insecure/vm:1/plain/local:///clip.mp4")
            #expect(info.status == 200, "\(info.text)")
            let answer = try #require(try JSONSerialization.jsonObject(with: info.body) as? [String: Any])
            #expect(answer["width"] as? Int == 160 && answer["height"] as? Int == 120)
            let tags = try #require(answer["video_meta"] as? [String: String], "\(info.text)")
            let probed = try JSONSerialization.jsonObject(
                with: Self.run(Self.ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "json", folder.appendingPathComponent("clip.mp4").path]))
            let reference = try #require(((probed as? [String: Any])?["format"] as? [String: Any])?["tags"] as? [String: String])
            #expect(tags == reference)
            #expect(tags["title"] == "Vignette \"test\" clip")
        }
    }
}
