import Foundation
import Testing
import Vignette
import VignetteImgproxy
import VignetteSupport

/// Quarter turns stay what they were before rotation took any angle (issue 53): the SHA-256 of
/// each result below was made by main's release `vignette thumbnail --options` at 0fe5a6d, the
/// commit before the change; -90 and 450 are the same turns as 270 and 90.
@Suite("Quarter turns byte for byte")
struct QuarterTurnBytesTests {
    @Test("each quarter turn gives the bytes it gave before", arguments: [
        ("baseline.jpg", ["rot:90/rs:fit:100:100/f:png", "rot:450/rs:fit:100:100/f:png"], "a0da55285428c5c39a275417e61f4c7ecce3a1df9a25021c1d974b757a797a68"),
        ("baseline.jpg", ["rot:270/rs:fill:90:60/f:jpg", "rot:-90/rs:fill:90:60/f:jpg"], "b3e3dffabff91113d7b4fc36150c546c311bdd9c0dc6bf3dba39419a3fcc8be6"),
        ("alpha.png", ["rot:180/f:png", "rot:-180/f:png"], "8afc823f67177706053d5922943932a87765f22956e2d7f1b0d761ae743cbfa6"),
        ("animated-loop3.gif", ["rot:90/rs:fit:80:80/f:gif"], "a3022ea1d7439662308fbdaba86169179ddbb05977cc85266f1bcacfa386738b"),
        ("animated-loop3.webp", ["rot:270/f:webp"], "eacb39a9028f41f71e5d2c9e85f96b56459c18f2a076179193c09a45e760a11e"),
        ("orientation-6.jpg", ["rot:90/c:50:40/f:png"], "d82fb917a6febd2a051dcb56203cab97a4ded2b8abaaab0ef3a86d990a28b1c1"),
    ])
    func sameBytes(file: String, options: [String], sha: String) async throws {
        let pipeline = ImagePipeline.testing(loader: FileDataLoader(limits: .untrusted)) { $0.encodedImageCache = nil }
        // The digests are libvips 8.14's (Debian 12); 8.16's GIF saver (cgif) writes other bytes.
        if file.hasSuffix(".gif"), AnimatedOperationsTests.gifSaverMergesFrames { return }
        for option in options {
            let recipe = try ImgproxyOptions().recipe(option)
            let made = try await pipeline.encodedImage(for: try recipe.request(for: .file(Files.fixture(file))), as: try recipe.encoding())
            #expect(Digests.sha256Hex(made.image.data) == sha, "\(option) of \(file)")
        }
    }
}
