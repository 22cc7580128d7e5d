import Foundation
import Testing
import Vignette
import LoopbackHTTPServer
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("vignette serve: health, metrics, images over loopback")
struct ServerTests {
    @Test("/health and /ready answer; /metrics is Prometheus text with the server's and the pipeline's names")
    func operations() async throws {
        try await RunningServer.with { running in
            let health = try await running.get("/health")
            #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "ok\n")
            #expect(try await running.get("/ready").status == 200)
            _ = try await running.get("/insecure/rs:fit:64:64/plain/local:///baseline.jpg@png")
            let metrics = String(decoding: try await running.get("/metrics").body, as: UTF8.self)
            for name in ["vignette_http_requests_total{status=\"200\"}", "vignette_http_request_duration_seconds_bucket",
                         "vignette_in_flight", "vignette_source_fetches_total", "vignette_decodes_total",
                         "vignette_encodes_total", "vignette_requests_total"] {
                #expect(metrics.contains(name), "\(name) missing from:\n\(metrics)")
            }
        }
    }

    @Test("/metrics parses as Prometheus text, with the names the issue asks for")
    func metricsParse() async throws {
        try await RunningServer.with { running in
            let path = "/insecure/rs:fit:64:64/plain/local:///baseline.jpg@png"
            #expect(try await running.get(path).status == 200)
            #expect(try await running.get(path).status == 200)
            #expect(try await running.get("/insecure/plain/local:///absent.jpg@png").status == 404)
            let text = String(decoding: try await running.get("/metrics").body, as: UTF8.self)
            let metrics = try PrometheusText(text)
            #expect(metrics.types["vignette_http_requests_total"] == "counter")
            #expect(metrics.values("vignette_http_requests_total", ["status": "200"]) == [2])
            #expect(metrics.values("vignette_http_requests_total", ["status": "404"]) == [1])
            #expect(metrics.types["vignette_http_request_duration_seconds"] == "histogram")
            #expect(metrics.values("vignette_http_request_duration_seconds_count") == [3])
            #expect(metrics.values("vignette_source_fetches_total") == [1])
            #expect(metrics.values("vignette_decodes_total") == [1])
            #expect(metrics.values("vignette_encodes_total") == [1])
            #expect(metrics.values("vignette_cache_hits_total", ["layer": "encoded_memory"]) == [1])
            #expect(metrics.types["vignette_in_flight"] == "gauge")
            // The reader is strict: it refuses what is not the format.
            #expect(throws: PrometheusText.Failure.self) { try PrometheusText("# TYPE x counter\nx{a=\"1} 2\n") }
            #expect(throws: PrometheusText.Failure.self) { try PrometheusText("y 1\n") }
        }
    }

    @Test("an image URL gives the thumbnail: status, type, length, a strong ETag, Cache-Control; If-None-Match gives 304")
    func image() async throws {
        try await RunningServer.with { running in
            let reply = try await running.get("/insecure/rs:fit:100:100/plain/local:///baseline.jpg@webp")
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.header("Content-Type") == "image/webp")
            #expect(reply.header("Content-Length") == String(reply.body.count))
            let info = try ImageDecoder().probe(reply.body)
            #expect(info.format == .webp && info.width == 100 && info.height == 75)
            let tag = try #require(reply.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
            #expect(reply.header("Cache-Control")?.contains("max-age=") == true)
            #expect(reply.header("Vary") == nil)
            #expect(reply.header("Last-Modified") != nil)
            let again = try await running.get("/insecure/rs:fit:100:100/plain/local:///baseline.jpg@webp", headers: [("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty)
        }
    }

    @Test("a cache buster makes a new result: another ETag and another decode; the same one is a memory hit")
    func cacheBuster() async throws {
        try await RunningServer.with { running in
            let first = try await running.get("/insecure/rs:fit:64:64/cb:1/plain/local:///baseline.jpg@jpg")
            let again = try await running.get("/insecure/rs:fit:64:64/cb:1/plain/local:///baseline.jpg@jpg")
            let busted = try await running.get("/insecure/rs:fit:64:64/cb:2/plain/local:///baseline.jpg@jpg")
            #expect(first.status == 200 && again.status == 200 && busted.status == 200)
            #expect(first.body == again.body && first.body == busted.body)
            let tag = try #require(first.header("ETag"))
            #expect(again.header("ETag") == tag && busted.header("ETag") != tag)
            let metrics = try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
            #expect(metrics.values("vignette_decodes_total") == [2])
            #expect(metrics.values("vignette_cache_hits_total", ["layer": "encoded_memory"]) == [1])
        }
    }

    @Test("rotate, sharpen and extend: exact geometry, the padding in the background colour")
    func operations2() async throws {
        try await RunningServer.with { running in
            let turned = try await running.get("/_/rs:fit:100:100/rot:90/plain/local:///baseline.jpg@png")
            let turnedInfo = try ImageDecoder().probe(turned.body)
            #expect(turned.status == 200 && turnedInfo.width == 75 && turnedInfo.height == 100)
            let padded = try await running.get("/_/rs:fit:100:100/ex:1/bg:255:0:0/plain/local:///baseline.jpg@png")
            let image = try ImageDecoder().decode(padded.body)
            #expect(image.width == 100 && image.height == 100)
            let pixels = try image.pixels()
            // The top row is padding (the 100×75 thumbnail sits in the middle): pure red.
            #expect(Array(pixels.bytes.prefix(3)) == [255, 0, 0])
            let sharp = try await running.get("/_/rs:fit:100:100/sh:1/plain/local:///baseline.jpg@png")
            let soft = try await running.get("/_/rs:fit:100:100/plain/local:///baseline.jpg@png")
            #expect(sharp.status == 200 && sharp.body != soft.body)
            let sharpHash = try ImageDecoder().decode(sharp.body).perceptualHash()
            #expect(sharpHash.distance(to: try ImageDecoder().decode(soft.body).perceptualHash()) <= 5)
        }
    }

    @Test("/placeholder/thumbhash|blurhash/<URL> answers the source's placeholder as JSON; a bad kind is 400, a missing source 404")
    func placeholders() async throws {
        try await RunningServer.with { running in
            let thumb = try await running.get("/placeholder/thumbhash/insecure/plain/local:///baseline.jpg")
            #expect(thumb.status == 200 && thumb.header("Content-Type") == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: thumb.body) as? [String: String])
            let hash = try #require(json["thumbhash"])
            let bytes = try #require(Data(base64Encoded: hash))
            let decoded = try ThumbHash.decode(Array(bytes))
            #expect(decoded.width == 32 && decoded.height == 23)
            let blur = try await running.get("/placeholder/blurhash/_/rs:fit:10:10/plain/local:///baseline.jpg")
            let blurJSON = try #require(try JSONSerialization.jsonObject(with: blur.body) as? [String: String])
            #expect(blurJSON["blurhash"]?.count == 28)
            #expect(try await running.get("/placeholder/nope/_/plain/local:///baseline.jpg").status == 400)
            #expect(try await running.get("/placeholder/thumbhash/_/plain/local:///absent.jpg").status == 404)
        }
    }

    @Test("without an extension the format comes from Accept, with Vary: Accept")
    func negotiated() async throws {
        try await RunningServer.with { running in
            let avif = try await running.get("/_/rs:fit:64:64/plain/local:///baseline.jpg", headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(avif.status == 200 && avif.header("Content-Type") == "image/avif" && avif.header("Vary") == "Accept")
            let webp = try await running.get("/_/rs:fit:64:64/plain/local:///baseline.jpg", headers: [("Accept", "image/webp,*/*")])
            #expect(webp.header("Content-Type") == "image/webp")
            let jpeg = try await running.get("/_/rs:fit:64:64/plain/local:///baseline.jpg", headers: [("Accept", "*/*")])
            #expect(jpeg.header("Content-Type") == "image/jpeg")
            let png = try await running.get("/_/rs:fit:64:64/plain/local:///alpha.png", headers: [("Accept", "*/*")])
            #expect(png.header("Content-Type") == "image/png")
            #expect(Set([avif, webp, jpeg].compactMap { $0.header("ETag") }).count == 3)
        }
    }

    @Test("statuses: 400 bad options, 403 outside the root and local networks, 404 missing, 413 too large, 415 not an image, 422 broken; short bodies without paths")
    func statuses() async throws {
        try await RunningServer.with { running in
            let cases: [(String, Int)] = [
                ("/insecure/nonsense:1/plain/local:///baseline.jpg@png", 400),
                ("/insecure/w:-5/plain/local:///baseline.jpg@png", 400),
                ("/insecure/rs:fit:-5:100/plain/local:///baseline.jpg@png", 400),
                ("/insecure/rs:fit:200000:100/plain/local:///baseline.jpg@png", 400),
                ("/insecure/rs:fit:64:64/plain/local:///cut-short.jpg@png", 422),
                ("/insecure/rs:fit:64:64/plain/local:///corrupt.jpg@png", 422),
                ("/insecure/rs:fit:64:64/plain/local:///huge-declared.png@png", 413),
                ("/insecure/rs:fit:64:64/msfs:100/plain/local:///baseline.jpg@png", 413),
                ("/insecure/rs:fit:64:64/plain/local:///Fixtures-that-are-not-here/missing.jpg@png", 404),
                ("/insecure/rs:fit:64:64/plain/local:///../Package.swift@png", 403),
                ("/insecure/rs:fit:64:64/plain/local:///missing.jpg@png", 404),
                ("/insecure/rs:fit:64:64/plain/local:///not-an-image.txt@png", 415),
                ("/insecure/rs:fit:64:64/plain/local:///corrupt.png@png", 422),
                ("/insecure/rs:fit:64:64/plain/http://127.0.0.1:9/a.jpg@png", 403),
                ("/insecure/rs:fit:64:64/plain/http://169.254.169.254/latest/meta-data@png", 403),
            ]
            for (path, status) in cases {
                let reply = try await running.get(path)
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(reply.status == status, "\(path): \(reply.status) \(body)")
                #expect(body.count < 120 && !body.contains(Fixtures.folder) && !body.contains(".jpg") && !body.contains(".png"), "\(path): \(body)")
            }
        }
    }

    @Test("past the slots and the queue: 503 with Retry-After at once, not a hang; a source that stalls ends in 504 at the request timeout")
    func overloaded() async throws {
        try await RunningServer.withSlotHeld({ $0.maxWaitingRequests = 0 }) { running in
            #expect(try await running.becomesUnready())
            let refused = try await running.get("/insecure/rs:fit:32:32/plain/local:///orientation-3.jpg@png")
            #expect(refused.status == 503 && (Int(refused.header("Retry-After") ?? "") ?? 0) >= 1)
        }
    }

    /// A counter's value in Prometheus text (0 when absent).
    static func value(of metric: String, in text: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(metric + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }

    @Test("50 concurrent equal requests: one source fetch, one decode, one encode (read from /metrics)")
    func coalesced() async throws {
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg")))
        try await RunningServer.withOrigin { origin in
            origin.setRoute("/photo.jpg", Route(body: photo, contentType: "image/jpeg", delivery: .dribble(chunkSize: 4096, interval: .milliseconds(20))))
            try await RunningServer.with({ $0.allowsLocalNetworks = true }) { running in
                let path = "/insecure/rs:fit:80:80/plain/\(origin.url("/photo.jpg"))@webp"
                let replies = try await running.burst(50) { _ in path }
                #expect(replies.allSatisfy { $0.status == 200 })
                #expect(Set(replies.map(\.body)).count == 1)
                #expect(origin.requests(for: "/photo.jpg").count == 1)
                let metrics = String(decoding: try await running.get("/metrics").body, as: UTF8.self)
                #expect(Self.value(of: "vignette_source_fetches_total", in: metrics) == 1, "\(metrics)")
                #expect(Self.value(of: "vignette_decodes_total", in: metrics) == 1)
                #expect(Self.value(of: "vignette_encodes_total", in: metrics) == 1)
                #expect(Self.value(of: "vignette_http_requests_total{status=\"200\"}", in: metrics) == 50)
            }
        }
    }

    @Test("a redirect from the source is not followed (its target could be anywhere): 502, the target never asked")
    func redirectRefused() async throws {
        let origin = try await LoopbackHTTPServer.start()
        origin.setRoute("/moved.jpg", .redirect(to: origin.url("/target.jpg")))
        origin.setRoute("/target.jpg", Route(body: Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg")))))
        do {
            try await RunningServer.with({ $0.allowsLocalNetworks = true }) { running in
                let reply = try await running.get("/insecure/w:50/plain/\(origin.url("/moved.jpg"))@png")
                #expect(reply.status == 502)
                #expect(origin.requests(for: "/target.jpg").isEmpty)
            }
        } catch {
            await origin.stop()
            throw error
        }
        await origin.stop()
    }

    @Test("every hostile fixture gets an error status, and the server stays up")
    func hostileInputs() async throws {
        let hostile = try FileManager.default.contentsOfDirectory(atPath: Fixtures.folder)
            .filter { $0.hasPrefix("hostile-") || ["corrupt.jpg", "corrupt.png", "cut-short.jpg", "empty.jpg", "huge-declared.png", "not-an-image.txt"].contains($0) }
        #expect(hostile.count >= 8)
        try await RunningServer.with { running in
            for name in hostile.sorted() {
                let reply = try await running.get("/insecure/rs:fit:200:200/plain/local:///\(name)@png")
                #expect((400..<500).contains(reply.status), "\(name): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            }
            #expect(try await running.get("/health").status == 200)
            #expect(try await running.get("/insecure/rs:fit:20:20/plain/local:///baseline.jpg@png").status == 200)
        }
    }

    @Test("mounted under a prefix in another Hummingbird application, signatures cover the path after the prefix")
    func embedded() async throws {
        // The server's own application mounts at the root; here the routes go under /img of a router we build.
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, localRoot: Fixtures.folder)
        configuration.signatureKey = "0123456789abcdef"
        configuration.signatureSalt = "00"
        let server = try ThumbnailServer(configuration: configuration)
        let signer = try #require(URLSignature(keyHex: "0123456789abcdef", saltHex: "00"))
        let path = "/rs:fit:30:30/plain/local:///baseline.jpg@png"
        let reply = try await EmbeddedApplication.get(server: server, prefix: "img", path: "/img/" + signer.signature(of: path[...]) + path)
        #expect(reply.status == 200)
        #expect(try ImageDecoder().probe(reply.body).width == 30)
        #expect(try await EmbeddedApplication.get(server: server, prefix: "img", path: "/img/health").status == 200)
        #expect(try await EmbeddedApplication.get(server: server, prefix: "img", path: "/img/_" + path).status == 403)
    }
}
