import Testing
import VignetteCodecs
import Vignette
@testable import VignetteServer

/// imgproxy's `strip_color_profile` (`scp`): on by default (converted to sRGB, no profile); `scp:0`
/// keeps the source's profile (`ThumbnailOptions.keepProfile`).
@Suite("imgproxy strip_color_profile")
struct ColourOptionTests {
    func order(_ options: String) throws -> ImageOrder {
        var configuration = ServerConfiguration()
        configuration.localRoot = nil
        return try ImageURLReader(configuration: configuration).order(for: "/_/\(options)/plain/local:///a.jpg")
    }

    @Test("scp:0 and strip_color_profile:false keep the profile; the default and scp:1 convert")
    func option() throws {
        #expect(try order("rs:fit:100:100").thumbnail?.keepProfile == false)
        #expect(try order("rs:fit:100:100/scp:1").thumbnail?.keepProfile == false)
        #expect(try order("rs:fit:100:100/scp:0").thumbnail?.keepProfile == true)
        #expect(try order("rs:fit:100:100/strip_color_profile:false").thumbnail?.keepProfile == true)
        #expect(try order("scp:0").thumbnail?.keepProfile == true)
        #expect(throws: ServerFailure.self) { try order("scp:maybe") }
    }
}
