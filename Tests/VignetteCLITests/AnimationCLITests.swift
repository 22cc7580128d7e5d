import Foundation
import LoopbackHTTPServer
import Testing
import VignetteCodecs

/// `vignette thumbnail` and `vignette info` on animated GIF and WebP inputs.
@Suite("vignette and animations")
struct AnimationCLITests {
    static let inputs = ["animated-loop3.gif", "animated-loop3.webp"]

    /// The source's frames, delays and loop count, decoded by libvips.
    func source(_ name: String) throws -> Animation {
        try ImageDecoder(limits: .unlimited).decodeAnimation(Data(contentsOf: CLI.fixtures.appendingPathComponent(name)))
    }

    /// Checks an animated output against its source: format, frames, delays, loop, sizes, content.
    func expectAnimated(_ output: URL, format: ImageFormat, like source: Animation, size: (Int, Int)) throws {
        let data = try Data(contentsOf: output)
        #expect(try ImageDecoder().probe(data).format == format)
        let written = try ImageDecoder(limits: .unlimited).decodeAnimation(data)
        #expect(written.frameCount == source.frameCount)
        #expect(written.loopCount == source.loopCount)
        #expect(written.delays == source.delays)
        for (index, frame) in written.frames.enumerated() {
            #expect(frame.width == size.0 && frame.height == size.1, "frame \(index) is \(frame.width)x\(frame.height)")
            let reference = try source.frames[index].resized(toWidth: size.0, height: size.1)
            #expect(try frame.perceptualHash().distance(to: reference.perceptualHash()) <= 5, "frame \(index)")
        }
    }

    @Test("--format auto keeps an animated input animated, as WebP", arguments: inputs)
    func autoKeepsAnimation(name: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent(name).path, "--size", "80", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = (name as NSString).deletingPathExtension
        try expectAnimated(out.appendingPathComponent(stem + ".webp"), format: .webp, like: source(name), size: (80, 60))
    }

    @Test("--format gif writes an animated GIF", arguments: inputs)
    func gif(name: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent(name).path, "--size", "100x50",
                                        "--format", "gif", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = (name as NSString).deletingPathExtension
        try expectAnimated(out.appendingPathComponent(stem + ".gif"), format: .gif, like: source(name), size: (67, 50))
    }

    @Test("--frames first writes a still of the first frame", arguments: inputs)
    func firstFrame(name: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent(name).path, "--size", "80",
                                        "--frames", "first", "--format", "webp", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = (name as NSString).deletingPathExtension
        let data = try Data(contentsOf: out.appendingPathComponent(stem + ".webp"))
        let written = try ImageDecoder().decodeAnimation(data)
        #expect(written.frameCount == 1)
        let reference = try source(name).frames[0].resized(toWidth: 80, height: 60)
        #expect(try written.frames[0].perceptualHash().distance(to: reference.perceptualHash()) <= 5)
    }

    @Test("an animated GIF given by URL is fetched once and written animated")
    func url() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let server = try await LoopbackHTTPServer.start()
        do {
            let bytes = Array(try Data(contentsOf: CLI.fixtures.appendingPathComponent("animated-loop3.gif")))
            server.setRoute("/a/party.gif", Route(body: bytes, contentType: "image/gif"))
            let result = try await CLI.run(["thumbnail", server.url("/a/party.gif"), "--size", "80", "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests(for: "/a/party.gif").count == 1)
            try expectAnimated(out.appendingPathComponent("party.webp"), format: .webp, like: source("animated-loop3.gif"), size: (80, 60))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("--cache keeps animations as it keeps stills: a second run over a folder with animations makes nothing again, with or without operations",
          arguments: [[], ["--rotate", "90", "--flop"]])
    func cacheKeepsAnimations(operations: [String]) async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory(), cache = try CLI.temporaryDirectory()
        defer { for url in [folder, out, cache] { try? FileManager.default.removeItem(at: url) } }
        let names = ["animated-loop3.gif", "animated-loop3.webp", "animated.gif", "animated.webp", "baseline.jpg", "still.gif"]
        for name in names {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let arguments = ["thumbnail", folder.path, "--size", "80", "--out", out.path, "--cache", cache.path, "--json"] + operations
        var cachedCounts: [Int] = []
        for _ in 0..<2 {
            let result = try await CLI.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let totals = try #require(report["totals"] as? [String: Any])
            #expect(totals["inputs"] as? Int == names.count)
            cachedCounts.append(try #require(totals["cached"] as? Int))
        }
        #expect(cachedCounts == [0, names.count], "cached on the first and the second run")
        // What the second run wrote from the cache is still every frame.
        let (width, height) = operations.isEmpty ? (80, 60) : (60, 80)
        let written = try ImageDecoder(limits: .unlimited).decodeAnimation(Data(contentsOf: out.appendingPathComponent("animated-loop3.gif.webp")))
        #expect(written.frameCount == 5 && written.width == width && written.height == height)
    }

    @Test("a still input with --format auto is still a still JPEG")
    func stillUnchanged() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("still.gif").path, "--size", "80", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("still.jpg").path))
    }

    @Test("info reports frames, loop and durationMs")
    func info() async throws {
        let files = ["animated-loop3.gif", "animated-loop3.webp", "animated.gif", "baseline.jpg"].map { CLI.fixtures.appendingPathComponent($0).path }
        let result = try await CLI.run(["info"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdoutLines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.count == 4)
        for line in lines.prefix(2) {
            #expect(line["frames"] as? Int == 5)
            #expect(line["loop"] as? Int == 3)
            #expect(line["durationMs"] as? Int == 1500)
        }
        #expect(lines[2]["frames"] as? Int == 4)
        #expect(lines[2]["loop"] as? Int == 0)
        #expect(lines[2]["durationMs"] as? Int == 1000)
        #expect(lines[3]["frames"] as? Int == 1)
        #expect(lines[3]["loop"] is NSNull)
        #expect(lines[3]["durationMs"] is NSNull)
    }
}
