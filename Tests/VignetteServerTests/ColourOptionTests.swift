import Foundation
import Testing
import VignetteCodecs
import Vignette
import VignetteHummingbird
@testable import VignetteImgproxy
@testable import VignetteServer

/// imgproxy's `strip_color_profile` (`scp`): on by default (converted to sRGB, no profile); `scp:0`
/// keeps the source's profile (`ThumbnailOptions.keepProfile`).
@Suite("imgproxy strip_color_profile")
struct ColourOptionTests {
    func order(_ options: String) throws -> RecipePlan {
        try ImageURLReader(signatureKey: nil, signatureSalt: nil, presets: [:], limits: .untrusted).order(for: "/_/\(options)/plain/local:///a.jpg").recipe.plan()
    }

    @Test("scp:0 and strip_color_profile:false keep the profile; the default and scp:1 convert")
    func option() throws {
        #expect(try order("rs:fit:100:100").thumbnail.keepProfile == false)
        #expect(try order("rs:fit:100:100/scp:1").thumbnail.keepProfile == false)
        #expect(try order("rs:fit:100:100/scp:0").thumbnail.keepProfile == true)
        #expect(try order("rs:fit:100:100/strip_color_profile:false").thumbnail.keepProfile == true)
        #expect(try order("scp:0").thumbnail.keepProfile == true)
        #expect(throws: ImageFailure.self) { try order("scp:maybe") }
    }

    @Test("over loopback: the Adobe RGB fixture comes back as sRGB without a profile, and with its profile under scp:0 (JPEG, PNG, WebP)")
    func served() async throws {
        let profile = try #require(try ImageDecoder().decode(fileAt: Fixtures.folder + "/adobergb.jpg").iccProfile)
        try await RunningServer.with { running in
            for format in ["jpg", "png", "webp"] {
                for keep in [false, true] {
                    let reply = try await running.get("/insecure/rs:fit:64:64\(keep ? "/scp:0" : "")/plain/local:///adobergb.jpg@\(format)")
                    #expect(reply.status == 200)
                    let image = try ImageDecoder().decode(reply.body)
                    #expect(image.width == 64 && image.height == 48)
                    #expect(image.iccProfile == (keep ? profile : nil), "\(format), scp:0 \(keep)")
                }
            }
        }
    }
}
