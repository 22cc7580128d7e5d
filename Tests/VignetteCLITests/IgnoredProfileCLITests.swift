import Foundation
import Testing
@testable import VignetteCodecs

/// `vignette thumbnail --json` names an ICC profile it ignored: a greyscale JPEG carrying libvips'
/// sRGB profile is thumbnailed as if it had none, its entry has `"ignoredProfile"` with the reason
/// and the log a warning; a file whose profile fits has no such field.
@Suite("vignette thumbnail --json: an ignored ICC profile")
struct IgnoredProfileCLITests {
    @Test("the entry of a grey JPEG with an RGB profile says why it was ignored; a fitting one says nothing")
    func ignoredProfile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let grey = try ImageDecoder().decode(fileAt: CLI.fixtures.appendingPathComponent("baseline.jpg").path).converted(to: .blackAndWhite)
        let source = folder.appendingPathComponent("grey-rgb.jpg")
        try ProfileEmbedding.jpeg(try ImageEncoder.encode(grey, as: .jpeg(JPEGOptions(quality: 90))), profile: BuiltInProfile.sRGB.data())
            .write(to: source)
        let baseline = CLI.fixtures.appendingPathComponent("baseline.jpg").path
        let result = try await CLI.run(["thumbnail", source.path, baseline, "--out", folder.appendingPathComponent("out").path, "--size", "40", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["results"] as? [[String: Any]])
        #expect(entries.count == 2)
        let reason = entries.first?["ignoredProfile"] as? String
        #expect(reason?.contains("does not fit an image of 1 colour band") == true, "\(entries)")
        #expect(entries.last?["ignoredProfile"] == nil && entries.last?["error"] is NSNull)
        #expect(result.stderr.contains("ICC profile ignored"), "\(result.stderr)")
    }
}
