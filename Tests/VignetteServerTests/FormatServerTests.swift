import Foundation
import Testing
import VignetteCodecs

@Suite("Server: JPEG XL, TIFF, BMP and ICO by name")
struct FormatServerTests {
    @Test("f:jxl, f:tiff, f:tif, f:bmp and f:ico answer 200 with their Content-Type and the box's size",
          arguments: [("jxl", "image/jxl"), ("tiff", "image/tiff"), ("tif", "image/tiff"), ("bmp", "image/bmp"), ("ico", "image/x-icon")])
    func format(name: String, mediaType: String) async throws {
        try await RunningServer.with { running in
            let reply = try await running.get("/insecure/rs:fit:80:80/f:\(name)/plain/local:///baseline.jpg")
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.header("Content-Type") == mediaType)
            switch name {
            case "bmp":
                #expect(reply.body.prefix(2) == Data("BM".utf8))
                #expect(reply.body[18] == 80 && reply.body[22] == 60)  // width and height, little-endian
            case "ico":
                #expect(reply.body.prefix(6) == Data([0, 0, 1, 0, 1, 0]))
                #expect(reply.body[6] == 80 && reply.body[7] == 60)
            default:
                let info = try ImageDecoder().probe(reply.body)
                #expect(info.format == (name == "jxl" ? .jxl : .tiff) && info.width == 80 && info.height == 60)
            }
        }
    }

    @Test("a JXL source is served; Accept: image/jxl alone does not pick JXL; f:ico of a 640×480 image is a 400")
    func negotiation() async throws {
        try await RunningServer.with { running in
            let fromJXL = try await running.get("/insecure/rs:fit:64:64/f:png/plain/local:///rgb.jxl")
            #expect(fromJXL.status == 200, "\(String(decoding: fromJXL.body, as: UTF8.self))")
            #expect(try ImageDecoder().probe(fromJXL.body).width == 64)
            let accepted = try await running.get("/insecure/rs:fit:64:64/plain/local:///baseline.jpg", headers: [("Accept", "image/jxl,*/*")])
            #expect(accepted.status == 200 && accepted.header("Content-Type") == "image/jpeg")
            let tooBig = try await running.get("/insecure/f:ico/plain/local:///baseline.jpg")
            #expect(tooBig.status == 400, "\(tooBig.status): \(String(decoding: tooBig.body, as: UTF8.self))")
        }
    }
}
