#if Faces
import Foundation
import Testing
import VignetteCodecs

/// `--gravity face` from the command line: with `--face-model` (or VIGNETTE_FACE_MODEL) the JSON
/// report says the faces each crop kept, without one `attention`; a model that does not load is one
/// line naming the flag and the file, exit 1 or 2, and no output.
@Suite("vignette thumbnail --gravity face", .enabled(if: FileManager.default.fileExists(atPath: FaceModelFile.path), "../shared/models is absent beside the checkout"))
struct FaceCLITests {
    static let model = FaceModelFile.path
    static func photo(_ name: String) -> String { CLI.repository.appendingPathComponent("Tests/Photos/\(name)").path }

    func crops(_ result: CLIResult) throws -> [String?] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        return results.map { $0["crop"] as? String }
    }

    @Test("the report names the faces kept, by flag or environment; attention without a model")
    func report() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-faces-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let inputs = ["thumbnail", Self.photo("pair.jpg"), CLI.fixtures.appendingPathComponent("baseline.jpg").path]
        let common = inputs + ["--size", "300x300", "--fit", "cover", "--gravity", "face", "--json", "--jobs", "1"]
        let flagged = try await CLI.run(common + ["--face-model", Self.model, "--out", out + "/a"])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(try crops(flagged) == ["faces; n=2", "attention"])
        var environment = ProcessInfo.processInfo.environment
        environment["VIGNETTE_FACE_MODEL"] = Self.model
        let byEnvironment = try await CLI.run(common + ["--out", out + "/b"], environment: environment)
        #expect(try crops(byEnvironment) == ["faces; n=2", "attention"])
        environment["VIGNETTE_FACE_MODEL"] = nil
        let without = try await CLI.run(common + ["--out", out + "/c"], environment: environment)
        #expect(try crops(without) == ["attention", "attention"])
    }

    @Test("a model that is not one: one line naming --face-model and the file, no output")
    func badModel() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-faces-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let notAModel = CLI.fixtures.appendingPathComponent("alpha.png").path
        let result = try await CLI.run(["thumbnail", Self.photo("pair.jpg"), "--size", "100", "--gravity", "face", "--face-model", notAModel, "--out", out])
        #expect(result.status != 0)
        #expect(result.stderrLines.contains { $0.contains("--face-model") && $0.contains(notAModel) }, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/pair.jpg"))
    }
}

/// The YuNet model beside the checkout.
enum FaceModelFile {
    static let path = CLI.repository.deletingLastPathComponent().appendingPathComponent("shared/models/\(FaceDetector.modelFileName ?? "")").path
}
#endif
