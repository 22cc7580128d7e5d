import Foundation
import Testing
import Vignette
@testable import VignetteCodecs

/// A source whose embedded ICC profile cannot describe its pixels (a greyscale JPEG carrying
/// libvips' sRGB profile) is made as if it had none, and the answer says why in
/// `Vignette-Ignored-Profile`: on the one-pass thumbnail route and through processors; a source
/// whose profile fits has no such header.
@Suite("Server: an ignored ICC profile is named in Vignette-Ignored-Profile")
struct IgnoredProfileServerTests {
    /// A folder holding `grey-rgb.jpg` (baseline.jpg made grey, with an RGB profile) and `baseline.jpg`.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let grey = try ImageDecoder().decode(fileAt: Fixtures.folder + "/baseline.jpg").converted(to: .blackAndWhite)
        let jpeg = try ImageEncoder.encode(grey, as: .jpeg(JPEGOptions(quality: 90)))
        try ProfileEmbedding.jpeg(jpeg, profile: BuiltInProfile.sRGB.data()).write(to: folder.appendingPathComponent("grey-rgb.jpg"))
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg"), to: folder.appendingPathComponent("baseline.jpg"))
        return folder
    }

    @Test("the one-pass thumbnail and a processed result say why; a fitting profile says nothing")
    func header() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await RunningServer.with({ $0.localRoot = folder.path }) { running in
            for options in ["rs:fit:60:60", "rs:fit:60:60/sh:1", "rs:fit:60:60/t:5"] {
                let reply = try await running.get("/insecure/\(options)/plain/local:///grey-rgb.jpg@png")
                #expect(reply.status == 200, "\(options)")
                let reason = reply.header("Vignette-Ignored-Profile")
                #expect(reason?.contains("RGB") == true && reason?.contains("1 colour band") == true, "\(options): \(reason ?? "none")")
            }
            let fitting = try await running.get("/insecure/rs:fit:60:60/plain/local:///baseline.jpg@png")
            #expect(fitting.status == 200 && fitting.header("Vignette-Ignored-Profile") == nil)
        }
    }
}
