import Foundation
import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// `/info/%signature/%info_options/%source` on a loopback server: imgproxy's URL shapes, signing,
/// statuses, caching headers, and the same answer as the pipeline's.
@Suite("/info on vignette serve: URL shapes, signing, statuses, ETag, limits")
struct InfoServerTests {
    func json(_ reply: RunningServer.Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    @Test("plain and base64 sources give the same JSON, header facts by default; ETag and 304; application/json")
    func shapes() async throws {
        try await RunningServer.with { running in
            let plain = try await running.get("/info/insecure/plain/local:///baseline.jpg")
            #expect(plain.status == 200 && plain.header("Content-Type") == "application/json")
            let object = try json(plain)
            #expect(object["format"] as? String == "jpeg" && object["width"] as? Int == 640 && object["height"] as? Int == 480)
            #expect(object["exif"] != nil && object["iptc"] != nil && object["xmp"] != nil && object["average"] == nil)
            let encoded = Data("local:///baseline.jpg".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let base64 = try await running.get("/info/_/s:1/" + encoded.prefix(8) + "/" + encoded.dropFirst(8))
            #expect(base64.body == plain.body)
            let tag = try #require(plain.header("ETag"))
            #expect(try await running.get("/info/_/plain/local:///baseline.jpg", headers: [("If-None-Match", tag)]).status == 304)
            let other = try await running.get("/info/_/avg:1/plain/local:///baseline.jpg")
            let otherJSON = try json(other)
            #expect(other.header("ETag") != tag && otherJSON["average"] != nil)
        }
    }

    @Test("pixel facts: blurhash and thumbhash equal the /placeholder route's; average, dominant colours, palette, crop")
    func pixelFacts() async throws {
        try await RunningServer.with { running in
            let reply = try await running.get("/info/_/bh:4:3/th:1/avg:1:0/dc:1:1/p:3/c:320:240:nowe/plain/local:///baseline.jpg")
            #expect(reply.status == 200)
            let object = try json(reply)
            let thumb = try json(try await running.get("/placeholder/thumbhash/_/plain/local:///baseline.jpg"))
            let blur = try json(try await running.get("/placeholder/blurhash/_/plain/local:///baseline.jpg"))
            #expect(object["thumbhash"] as? String == thumb["thumbhash"] as? String)
            #expect(object["blurhash"] as? String == blur["blurhash"] as? String)
            #expect((object["palette"] as? [Any])?.count == 3)
            #expect((object["dominant_colors"] as? [String: Any])?.count == 6)
            let crop = try #require(object["crop"] as? [String: Double])
            #expect(crop == ["left": 0, "top": 0, "width": 0.5, "height": 0.5])
        }
    }

    @Test("statuses as image requests: 400 unknown option and detect_objects, 404 missing, 403 outside the root and private addresses, 413 over the limits, 415 not an image")
    func statuses() async throws {
        try await RunningServer.with { running in
            let cases: [(String, Int)] = [
                ("/info/_/nonsense:1/plain/local:///baseline.jpg", 400),
                ("/info/_/do:1/plain/local:///baseline.jpg", 400),
                ("/info/_/bh:10:3/plain/local:///baseline.jpg", 400),
                ("/info/_/chs:crc32/plain/local:///baseline.jpg", 400),
                ("/info/_/do:0/plain/local:///baseline.jpg", 200),
                ("/info/_/plain/local:///missing.jpg", 404),
                ("/info/_/plain/local:///../Package.swift", 403),
                ("/info/_/plain/http://127.0.0.1:9/a.jpg", 403),
                ("/info/_/msfs:100/plain/local:///baseline.jpg", 413),
                ("/info/_/msfs:100/chs:sha256/plain/local:///baseline.jpg", 413),
                ("/info/_/plain/local:///huge-declared.png", 413),
                ("/info/_/avg:1/plain/local:///huge-declared.png", 413),
                ("/info/_/plain/local:///not-an-image.txt", 415),
                ("/info/_/exp:1/plain/local:///baseline.jpg", 404),
            ]
            for (path, status) in cases {
                let reply = try await running.get(path)
                #expect(reply.status == status, "\(path): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            }
        }
    }

    @Test("signed: the signature covers what follows it; a wrong one is 403")
    func signed() async throws {
        try await RunningServer.with({
            $0.signatureKey = "0123456789abcdef"
            $0.signatureSalt = "00"
        }) { running in
            let signer = try #require(URLSignature(keyHex: "0123456789abcdef", saltHex: "00"))
            let path = "/pn:1/plain/local:///animated.gif"
            let reply = try await running.get("/info/" + signer.signature(of: path[...]) + path)
            #expect(reply.status == 200)
            #expect(try json(reply)["pages_number"] as? Int == 4)
            #expect(try await running.get("/info/_" + path).status == 403)
        }
    }

    @Test("the answer is the pipeline's: equal to ImagePipeline.info for the same options")
    func sameAsPipeline() async throws {
        try await RunningServer.with { running in
            let options = "exif:1/cs:1/sf:1/a:1/chs:sha1"
            let reply = try await running.get("/info/_/" + options + "/plain/local:///alpha.png")
            var parsed = ImageInfoOptions()
            var delivery = ImgproxyOptions.Delivery()
        for segment in options.split(separator: "/") { try parsed.apply(segment, delivery: &delivery) }
            let request = try parsed.recipe.request(for: .file(Fixtures.folder + "/alpha.png"))
            let text = try await ImagePipeline().info(for: request, options: parsed)
            #expect(String(decoding: reply.body, as: UTF8.self) == text)
        }
    }
}
