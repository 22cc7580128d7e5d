import Foundation
import Testing
import Vignette
import VignetteCodecs

@Suite("vignette info and convert")
struct InfoAndConvertTests {
    @Test("info prints one JSON object a line with the contract's keys, in order")
    func info() async throws {
        let files = ["thumbnail.heic", "orientation-6.jpg", "alpha.png"].map { CLI.fixtures.appendingPathComponent($0).path }
        let result = try await CLI.run(["info"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count == 3)
        let keys = ["file", "format", "width", "height", "bands", "hasAlpha", "orientation", "pages", "embeddedThumbnail"]
        for line in result.stdoutLines {
            var position = line.startIndex
            for key in keys {
                let range = try #require(line.range(of: "\"\(key)\":", range: position..<line.endIndex), "\(key) in order in \(line)")
                position = range.upperBound
            }
        }
        let heic = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutLines[0].utf8)) as? [String: Any])
        #expect(heic["format"] as? String == "heic")
        #expect((heic["embeddedThumbnail"] as? [String: Int]) == ["width": 320, "height": 240])
        let jpeg = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutLines[1].utf8)) as? [String: Any])
        #expect(jpeg["orientation"] as? Int == 6)
        #expect(jpeg["embeddedThumbnail"] is NSNull)
    }

    @Test("info --placeholder adds the ThumbHash or BlurHash of the image to its line; equal files, equal strings")
    func placeholders() async throws {
        let files = ["baseline.jpg", "alpha.png"].map { CLI.fixtures.appendingPathComponent($0).path }
        let thumb = try await CLI.run(["info", "--placeholder", "thumbhash"] + files + [files[0]])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let lines = try thumb.stdoutLines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let hashes = try lines.map { try #require($0["thumbhash"] as? String) }
        #expect(hashes.count == 3 && hashes[0] == hashes[2] && hashes[0] != hashes[1])
        let decoded = try ThumbHash.decode(Array(try #require(Data(base64Encoded: hashes[0]))))
        #expect(decoded.width == 32 && decoded.height == 23)  // 4:3, as ThumbHash approximates it (7:5)
        let blur = try await CLI.run(["info", "--placeholder", "blurhash", files[0]])
        let blurLine = try #require(JSONSerialization.jsonObject(with: Data(blur.stdout.utf8)) as? [String: Any])
        #expect((blurLine["blurhash"] as? String)?.count == 28)
        #expect(try await CLI.run(["info", "--placeholder", "nonsense", files[0]]).status == 2)
    }

    @Test("info on a missing and a corrupt file: exit 1, a line each, the good file still printed")
    func infoFailures() async throws {
        let result = try await CLI.run(["info", "/nonexistent.jpg", CLI.fixtures.appendingPathComponent("corrupt.png").path,
                                  CLI.fixtures.appendingPathComponent("baseline.jpg").path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 2)
        #expect(result.stderrLines[0].hasPrefix("vignette: /nonexistent.jpg: "))
        #expect(result.stdoutLines.count == 1)
    }

    @Test("convert picks the format from the extension and applies the orientation", arguments: ["png", "webp", "heic", "avif", "jpg"])
    func convert(ext: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let target = out.appendingPathComponent("converted.\(ext)").path
        let result = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("orientation-6.jpg").path, target, "--quality", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try ImageDecoder().probe(fileAt: target)
        #expect(info.width == 640 && info.height == 480)
        #expect(info.format.fileExtension == ext)
    }

    @Test("convert writes the bytes the library's pipeline makes of a request without a thumbnail, at the recipe's default quality",
          arguments: [("jpg", ImageFormat.jpeg), ("webp", .webp), ("png", .png)])
    func convertIsThePipelines(ext: String, format: ImageFormat) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let source = CLI.fixtures.appendingPathComponent("orientation-6.jpg").path
        let target = out.appendingPathComponent("converted.\(ext)").path
        let result = try await CLI.run(["convert", source, target])
        #expect(result.status == 0, "\(result.stderr)")
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(imageCache: nil))
        let expected = try await pipeline.encodedImage(for: ImageRequest(path: source), as: .fixed(ImageRecipe().encodingFormat(format)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected.image.data)
    }

    @Test("convert --lossless WebP is pixel-exact")
    func lossless() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let source = CLI.fixtures.appendingPathComponent("rgb8.png").path
        let target = out.appendingPathComponent("exact.webp").path
        #expect(try await CLI.run(["convert", source, target, "--lossless"]).status == 0)
        #expect(try ImageDecoder().decode(fileAt: target).pixels() == ImageDecoder().decode(fileAt: source).pixels())
    }

    @Test("convert: a broken input exits 1 and leaves no output; an unknown extension exits 2")
    func convertFailures() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let target = out.appendingPathComponent("x.png").path
        let broken = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("cut-short.jpg").path, target])
        #expect(broken.status == 1)
        #expect(broken.stderrLines.count == 1)
        #expect(CLI.files(in: out).isEmpty)
        let unknown = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("baseline.jpg").path, out.appendingPathComponent("x.xyz").path])
        #expect(unknown.status == 2)
        let lossyJPEG = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("baseline.jpg").path, target + ".jpg", "--lossless"])
        #expect(lossyJPEG.status == 2)
    }
}
