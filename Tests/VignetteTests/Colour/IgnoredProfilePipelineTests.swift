import ChildProcess
import Foundation
import Logging
import Testing
import VignetteSupport
@testable import Vignette

/// Issue 53, item 1, through the pipeline: a greyscale JPEG carrying an RGB profile (written into
/// it by ExifTool) makes its result on every path the pipeline takes — the one-pass thumbnail, the
/// image node with processors, the whole decode of a trim — and each request logs the ignored
/// profile once, as a warning with the reason.
@Suite("A greyscale JPEG with an RGB profile through the pipeline")
struct IgnoredProfilePipelineTests {
    /// Fixtures/baseline.jpg made grey by `vips`, with Fixtures/adobergb.jpg's profile written in by ExifTool.
    static func greyWithRGBProfile(in folder: String) async throws -> String {
        let grey = folder + "/grey.jpg", profile = folder + "/adobergb.icc"
        try await SourcePictureTests.run("/usr/bin/vips", ["colourspace", Files.fixture("baseline.jpg"), grey, "b-w"])
        let exiftool = try #require(SourcePictureTests.tool("exiftool"))
        let extraction = await (try ChildProcess(exiftool, ["-icc_profile", "-b", Files.fixture("adobergb.jpg")], killAfter: .seconds(60))).result()
        try #require(extraction.termination == .exited(0) && extraction.output.count > 128, "exiftool read no profile")
        try Data(extraction.output).write(to: URL(fileURLWithPath: profile))
        try await SourcePictureTests.run(exiftool, ["-q", "-overwrite_original", "-icc_profile<=\(profile)", grey])
        return grey
    }

    @Test(
        "thumbnail, processors and a trim each succeed and warn once",
        .enabled(if: SourcePictureTests.tool("exiftool") != nil && SourcePictureTests.tool("vips") != nil))
    func everyPath() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try await Self.greyWithRGBProfile(in: folder)
        var recipes: [(String, ImageRecipe)] = []
        recipes.append(("one-pass thumbnail", ImageRecipe(width: 100, height: 100, resizingType: .fit)))
        var sharpened = ImageRecipe(width: 100, height: 100, resizingType: .fit)
        sharpened.sharpen = 1
        recipes.append(("processors", sharpened))
        var trimmed = ImageRecipe(width: 100, height: 100, resizingType: .fit)
        trimmed.trim = ImageRecipe.Trim(threshold: 10)
        recipes.append(("trim (whole decode)", trimmed))
        for (label, recipe) in recipes {
            let messages = Locked<[String]>([])
            let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
                $0.logger = Logger(label: "test") { _ in CapturingLogHandler(messages: messages) }
            }
            let encoded = try await pipeline.encodedImage(for: recipe.request(for: .file(path)), as: recipe.encoding()).image
            // The trim may take an edge off: the longer side meets the box.
            #expect(max(encoded.width, encoded.height) == 100, "\(label): \(encoded.width)x\(encoded.height)")
            // The reason travels with the result (the server's Vignette-Ignored-Profile, the CLI's --json).
            #expect(encoded.ignoredProfile?.contains("does not fit an image of 1 colour band") == true, "\(label): \(encoded.ignoredProfile ?? "none")")
            let warnings = messages.withLock { $0 }.filter { $0.hasPrefix("warning ICC profile ignored") }
            #expect(warnings.count == 1, "\(label): \(messages.withLock { $0 })")
        }
    }
}
