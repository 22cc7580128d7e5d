import Foundation
import Testing
import VignetteCodecs

/// The server keeps animated GIF and WebP sources animated when the URL asks for WebP or GIF.
@Suite("Server: animations")
struct AnimationServerTests {
    @Test("f:webp and f:gif of an animated source: every frame at the box's size, delays and loop count kept; f:jpg a still",
          arguments: ["animated-loop3.gif", "animated-loop3.webp"])
    func animated(name: String) async throws {
        try await RunningServer.with { running in
            for format in ["webp", "gif"] {
                let reply = try await running.get("/insecure/rs:fit:80:80/f:\(format)/plain/local:///\(name)")
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                #expect(reply.header("Content-Type") == "image/\(format)")
                let back = try ImageDecoder().decodeAnimation(reply.body)
                #expect(back.frameCount == 5, "\(name) as \(format)")
                #expect(back.loopCount == 3)
                #expect(back.delays == [100, 200, 300, 400, 500])
                #expect(back.frames.allSatisfy { $0.width == 80 && $0.height == 60 })
            }
            let still = try await running.get("/insecure/rs:fit:80:80/f:jpg/plain/local:///\(name)")
            #expect(still.status == 200)
            #expect(try ImageDecoder().probe(still.body).pages == 1)
        }
    }

    @Test("steps after the resize and crops before it run on every frame (as vignette thumbnail's do), a turn by any angle too",
          arguments: ["animated-loop3.gif", "animated-loop3.webp"])
    func stepsOnEveryFrame(name: String) async throws {
        try await RunningServer.with { running in
            let turned = try await running.get("/insecure/rs:fit:80:80/rot:90/fl:1/f:webp/plain/local:///\(name)")
            #expect(turned.status == 200)
            let back = try ImageDecoder().decodeAnimation(turned.body)
            #expect(back.frameCount == 5 && back.delays == [100, 200, 300, 400, 500])
            #expect(back.frames.allSatisfy { $0.width == 60 && $0.height == 80 })
            // A crop (the source decoded whole) keeps every frame too, one window for all.
            for crop in ["c:100:100", "c:100:100:sm", "t:10/c:100:100"] {
                let cropped = try await running.get("/insecure/\(crop)/rs:fit:80:80/f:webp/plain/local:///\(name)")
                #expect(cropped.status == 200)
                let frames = try ImageDecoder().decodeAnimation(cropped.body)
                #expect(frames.frameCount == 5 && frames.delays == [100, 200, 300, 400, 500] && frames.loopCount == 3, "\(crop)")
                #expect(frames.width == 80 && frames.height == 80, "\(crop)")
            }
            let turned30 = try await running.get("/insecure/rs:fit:80:80/rot:30/f:gif/plain/local:///\(name)")
            #expect(turned30.status == 200)
            let back30 = try ImageDecoder().decodeAnimation(turned30.body)
            #expect(back30.frameCount == 5 && back30.width == 99 && back30.height == 92)
            let nan = try await running.get("/insecure/rot:nan/f:gif/plain/local:///\(name)")
            #expect(nan.status == 400)
        }
    }
}
