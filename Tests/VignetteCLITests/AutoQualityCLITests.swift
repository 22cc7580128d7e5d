import Foundation
import Testing
import VignetteCodecs

/// `vignette thumbnail --quality auto[:TARGET]` and `--format best --accept …`: the server's search
/// engine from the command line, checked with `vignette compare`'s library.
@Suite("vignette thumbnail --quality auto, --format best")
struct AutoQualityCLITests {
    static let photo = CLI.repository.appendingPathComponent("Tests/Photos/astronaut.jpg").path

    func thumbnail(_ flags: [String]) async throws -> (status: Int32, encoding: [String: Any]?, output: String?, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)").path
        let result = try await CLI.run(["thumbnail", Self.photo, "--out", folder, "--size", "256", "--json"] + flags)
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let entry = (object?["entries"] as? [[String: Any]])?.first ?? (object?["results"] as? [[String: Any]])?.first
        return (result.status, entry?["encoding"] as? [String: Any], entry?["output"] as? String, result.stderr)
    }

    @Test("--quality auto:85 writes a JPEG scoring at least 84 against the same thumbnail as PNG; --json says the quality and score")
    func autoQuality() async throws {
        let made = try await thumbnail(["--format", "jpeg", "--quality", "auto:85"])
        #expect(made.status == 0, "\(made.stderr)")
        let encoding = try #require(made.encoding)
        #expect(encoding["format"] as? String == "jpeg" && (encoding["quality"] as? Int).map { (30...95).contains($0) } == true)
        let encodes = try #require(encoding["encodes"] as? Int)
        #expect(encodes >= 1 && encodes <= 6)
        let reference = try await thumbnail(["--format", "png"])
        let decoder = ImageDecoder()
        let score = try SSIMULACRA2Reference(image: decoder.decode(fileAt: try #require(reference.output)))
            .score(decoder.decode(fileAt: try #require(made.output)))
        #expect(score >= 84)
        #expect(abs(score - (encoding["score"] as? Double ?? 0)) < 0.01)
    }

    @Test("--format best --accept jpeg,webp,avif writes the smallest of the three")
    func best() async throws {
        let best = try await thumbnail(["--format", "best", "--accept", "jpeg,webp,avif"])
        #expect(best.status == 0, "\(best.stderr)")
        let output = try #require(best.output)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output)).count
        for format in ["jpeg", "webp", "avif"] {
            let single = try #require(try await thumbnail(["--format", format]).output)
            #expect(bytes <= (try Data(contentsOf: URL(fileURLWithPath: single)).count), "\(format)")
        }
        #expect((best.encoding?["formats"] as? Int) == 3)
    }

    @Test("--quality auto:150 and --accept without --format best are refused with one line")
    func refused() async throws {
        let target = try await thumbnail(["--quality", "auto:150"])
        #expect(target.status != 0 && target.stderr.contains("autoquality"))
        let accept = try await thumbnail(["--accept", "webp"])
        #expect(accept.status != 0 && accept.stderr.contains("--accept"))
        let png = try await thumbnail(["--format", "png", "--quality", "auto"])
        #expect(png.status != 0 && png.stderr.contains("png"))
    }
}
