import Foundation
import Testing
import Vignette
import VignetteServer

/// imgproxy's `autoquality`/`aq` and `f:best` through a real server, over loopback.
@Suite("Autoquality and best format through vignette serve")
struct AutoQualityServerTests {
    static let path = "/plain/local:///baseline.jpg"

    @Test("aq:ssimulacra2 answers a result that scores at least target − error, says what it chose, and counts its encodes on /metrics")
    func ssimulacra2() async throws {
        try await RunningServer.with { running in
            let reply = try await running.get("/insecure/rs:fit:320:320/aq:ssimulacra2:80:30:95:1\(Self.path)@jpg")
            #expect(reply.status == 200 && reply.header("Content-Type") == "image/jpeg")
            let header = try #require(reply.header("Vignette-Encoding"))
            #expect(header.hasPrefix("jpeg; q=") && header.contains("score="))
            let reference = try await running.get("/insecure/rs:fit:320:320\(Self.path)@png")
            let score = try SSIMULACRA2Reference(image: ImageDecoder().decode(reference.body)).score(ImageDecoder().decode(reply.body))
            #expect(score >= 79, "\(header): \(score)")
            let metrics = try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
            let formats = metrics.values("vignette_autoquality_formats_total").first ?? 0
            let encodes = metrics.values("vignette_autoquality_encodes_total").first ?? 0
            let scorings = metrics.values("vignette_autoquality_scorings_total").first ?? 0
            #expect(formats == 1 && encodes >= 1 && encodes <= 6 && scorings == encodes)
            // The same URL again: the cached result, no new search.
            let again = try await running.get("/insecure/rs:fit:320:320/aq:ssimulacra2:80:30:95:1\(Self.path)@jpg")
            #expect(again.body == reply.body)
            let after = try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
            #expect(after.values("vignette_autoquality_encodes_total").first == encodes)
        }
    }

    @Test("f:best and @best answer the smallest of the accepted formats, with Vary: Accept")
    func best() async throws {
        try await RunningServer.with({ $0.bestFormat.passesSourceThrough = false }) { running in
            let accept = [("Accept", "image/avif,image/webp,*/*")]
            let best = try await running.get("/insecure/rs:fit:320:320/f:best\(Self.path)", headers: accept)
            let extensionBest = try await running.get("/insecure/rs:fit:320:320\(Self.path)@best", headers: accept)
            #expect(best.status == 200 && best.body == extensionBest.body)
            #expect(best.header("Vignette-Encoding") != nil)
            for format in ["jpg", "webp", "avif"] {
                let single = try await running.get("/insecure/rs:fit:320:320\(Self.path)@\(format)")
                #expect(best.body.count <= single.body.count, "best \(best.body.count) vs \(format) \(single.body.count)")
            }
            // Without AVIF and WebP in Accept: JPEG (or PNG) only.
            let plain = try await running.get("/insecure/rs:fit:320:320/f:best\(Self.path)")
            #expect(["image/jpeg", "image/png"].contains(plain.header("Content-Type") ?? ""))
        }
    }

    @Test("bad autoquality arguments are 400s naming them, and nothing is made or cached", arguments: [
        ("/aq:ssimulacra2:120", "120"), ("/aq:ssimulacra2:80:90:80", "min"), ("/aq:dssim:0.02", "ssimulacra2"),
        ("/aq:ml", "size"), ("/aq:ssimulacra2/f:png", "png"), ("/aq:size:1000/f:gif", "gif"),
    ])
    func refused(options: String, named: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await RunningServer.with({
            $0.cacheFolder = folder
            $0.detailedErrors = true
        }) { running in
            let reply = try await running.get("/insecure/rs:fit:100:100\(options)\(Self.path)")
            #expect(reply.status == 400)
            #expect(String(decoding: reply.body, as: UTF8.self).contains(named))
            let metrics = try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
            #expect((metrics.values("vignette_encodes_total").first ?? 0) == 0)
            #expect(metrics.values("vignette_memory_cache_entries", ["cache": "encoded"]) == [0])
        }
    }
}
