import Foundation
import Hummingbird
import LoopbackHTTPClient
import MetricsTestKit
import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("request.vignette.thumbnail in a Hummingbird application of one's own, over loopback")
struct HummingbirdThumbnailTests {
    /// An application whose /thumbs/NAME answers NAME under Fixtures/ in a 100-px box, and
    /// /bad/NAME with a width out of range; /any/NAME reads the path as given (no root).
    static func with(_ body: (LoopbackHTTPClient, TestMetrics) async throws -> Void) async throws {
        let metrics = TestMetrics()
        var configuration = ImagePipeline.Configuration()
        configuration.metricsFactory = metrics
        let pipeline = ImagePipeline(configuration: configuration)
        let responder = try ImageResponder(pipeline: pipeline, root: Fixtures.folder)
        let router = Router(context: BasicRequestContext.self)
        router.get("thumbs/:name") { request, context in
            await request.vignette.thumbnail(
                path: context.parameters.get("name") ?? "", recipe: ImageRecipe(width: 100, height: 100), responder: responder,
                logger: context.logger)
        }
        router.get("bad/:name") { request, context in
            await request.vignette.thumbnail(
                path: context.parameters.get("name") ?? "", recipe: ImageRecipe(width: -5, height: 100), responder: responder)
        }
        router.get("any/:name") { request, context in
            await request.vignette.thumbnail(
                path: Fixtures.folder + "/" + (context.parameters.get("name") ?? ""), recipe: ImageRecipe(width: 100, height: 100),
                pipeline: pipeline)
        }
        try await LoopbackApplication.with(router: router) { client in try await body(client, metrics) }
    }

    @Test("a JPEG answered as WebP when Accept names it: the size, Content-Type, Vary, a strong ETag, Cache-Control; If-None-Match gives 304")
    func thumbnail() async throws {
        try await Self.with { app, _ in
            let reply = try await app.get("/thumbs/baseline.jpg", headers: [("Accept", "image/avif;q=0,image/webp")])
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.header("Content-Type") == "image/webp" && reply.header("Vary") == "Accept")
            #expect(reply.header("Content-Length") == String(reply.body.count))
            #expect(reply.header("Cache-Control") == "public, max-age=31536000")
            let image = try ImageDecoder().decode(reply.body)
            #expect(image.width == 100 && image.height == 75)
            let tag = try #require(reply.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
            let again = try await app.get("/thumbs/baseline.jpg", headers: [("Accept", "image/webp"), ("If-None-Match", "\"other\", " + tag)])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == tag)
            let plain = try await app.get("/any/baseline.jpg", headers: [("Accept", "image/webp")])
            #expect(plain.status == 200 && plain.header("ETag") == tag && plain.body == reply.body)
        }
    }

    @Test("a missing file is 404, a bad recipe 400, a broken file 422, a path out of the root 403: one-line bodies that name no path")
    func failures() async throws {
        try await Self.with { app, _ in
            let missing = try await app.get("/thumbs/missing.jpg")
            let missingAsGiven = try await app.get("/any/missing.jpg")
            let bad = try await app.get("/bad/baseline.jpg")
            let broken = try await app.get("/thumbs/cut-short.jpg")
            let outside = try await app.get("/thumbs/..")
            #expect(missing.status == 404 && missingAsGiven.status == 404 && bad.status == 400 && broken.status == 422)
            #expect(outside.status == 403)
            for reply in [missing, missingAsGiven, bad, broken, outside] {
                let text = String(decoding: reply.body, as: UTF8.self)
                #expect(text.hasSuffix("\n") && !text.contains("/") && !text.contains("Fixtures") && !text.contains(".jpg"), "\(text)")
                #expect(reply.header("Content-Type") == "text/plain; charset=utf-8")
            }
        }
    }

    @Test("50 concurrent equal requests make one decode")
    func coalesced() async throws {
        try await Self.with { app, metrics in
            let statuses = try await app.statuses(ofConcurrent: 50, "/thumbs/baseline.jpg", headers: [("Accept", "image/webp")])
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(try metrics.expectCounter("vignette_decodes_total").totalValue == 1)
        }
    }
}
