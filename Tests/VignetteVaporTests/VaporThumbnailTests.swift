import Foundation
import LoopbackHTTPClient
import MetricsTestKit
import NIOCore
import Testing
import Vapor
import Vignette
import VignetteServer
import VignetteVapor

/// A Vapor application of the test's own on 127.0.0.1 (a port from the kernel), with
/// `req.vignette.thumbnail` routes over the repository's Fixtures/, and a client.
enum RunningVaporApp {
    /// Runs `body` against the application: /thumbs/NAME answers NAME in a 100-px box, /bad/NAME
    /// with a width out of range. The pipeline's metrics go to the `TestMetrics`.
    static func with(_ body: (LoopbackHTTPClient, TestMetrics) async throws -> Void) async throws {
        let app = try await Application.make(.testing)
        let metrics = TestMetrics()
        var configuration = ImagePipeline.Configuration()
        configuration.metricsFactory = metrics
        try app.vignette.configure(pipeline: ImagePipeline(configuration: configuration), root: Fixtures.folder)
        app.get("thumbs", ":name") { req in
            await req.vignette.thumbnail(path: req.parameters.get("name") ?? "", recipe: ImageRecipe(width: 100, height: 100))
        }
        app.get("bad", ":name") { req in
            await req.vignette.thumbnail(path: req.parameters.get("name") ?? "", recipe: ImageRecipe(width: -5, height: 100))
        }
        try await serve(app) { client in try await body(client, metrics) }
    }

    /// Boots `app` on 127.0.0.1 (a port from the kernel), runs `body` with a client of it, then
    /// shuts it down, whether `body` threw or not.
    static func serve(_ app: Application, _ body: (LoopbackHTTPClient) async throws -> Void) async throws {
        var client: LoopbackHTTPClient?
        do {
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let started = LoopbackHTTPClient(port: try #require(app.http.server.shared.localAddress?.port))
            client = started
            try await body(started)
        } catch {
            try? await client?.shutdown()
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
        try await client?.shutdown()
        await app.server.shutdown()
        try await app.asyncShutdown()
    }
}

enum Fixtures {
    /// The repository's Fixtures/ folder.
    static var folder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }
}

@Suite("VignetteVapor: req.vignette.thumbnail in a Vapor application over loopback")
struct VaporThumbnailTests {
    @Test("a JPEG answered as WebP when Accept names it: the size, Content-Type, Vary, a strong ETag, Cache-Control; If-None-Match gives 304")
    func thumbnail() async throws {
        try await RunningVaporApp.with { app, _ in
            let reply = try await app.get("/thumbs/baseline.jpg", headers: [("Accept", "image/webp,*/*;q=0.8")])
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.header("Content-Type") == "image/webp")
            #expect(reply.header("Vary") == "Accept")
            #expect(reply.header("Content-Length") == String(reply.body.count))
            #expect(reply.header("Cache-Control") == "public, max-age=31536000")
            #expect(reply.header("Last-Modified") != nil)
            let image = try ImageDecoder().decode(reply.body)
            #expect(image.width == 100 && image.height == 75)
            let tag = try #require(reply.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
            let again = try await app.get("/thumbs/baseline.jpg", headers: [("Accept", "image/webp,*/*;q=0.8"), ("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == tag)
            let jpeg = try await app.get("/thumbs/baseline.jpg", headers: [("Accept", "*/*")])
            #expect(jpeg.status == 200 && jpeg.header("Content-Type") == "image/jpeg" && jpeg.header("ETag") != tag)
        }
    }

    @Test("a missing file is 404, a bad recipe 400, a broken file 422, a path out of the root 403: one-line bodies that name no path")
    func failures() async throws {
        try await RunningVaporApp.with { app, _ in
            let missing = try await app.get("/thumbs/missing.jpg")
            #expect(missing.status == 404 && missing.text == "source not found\n")
            #expect(missing.header("Cache-Control") == "max-age=10")
            let bad = try await app.get("/bad/baseline.jpg")
            #expect(bad.status == 400 && bad.text.contains("width"), "\(bad.text)")
            let broken = try await app.get("/thumbs/cut-short.jpg")
            #expect(broken.status == 422, "\(broken.text)")
            let outside = try await app.get("/thumbs/..")
            #expect([403, 404].contains(outside.status), "\(outside.status) \(outside.text)")
            for reply in [missing, bad, broken, outside] {
                #expect(!reply.text.contains("/") && !reply.text.contains("Fixtures") && !reply.text.contains(".jpg"), "\(reply.text)")
            }
        }
    }

    @Test("50 concurrent equal requests make one decode")
    func coalesced() async throws {
        try await RunningVaporApp.with { app, metrics in
            let statuses = try await app.statuses(ofConcurrent: 50, "/thumbs/baseline.jpg", headers: [("Accept", "image/webp")])
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(try metrics.expectCounter("vignette_decodes_total").totalValue == 1)
        }
    }

    @Test("before configure the helper answers 500; a root that is not a folder is refused")
    func unconfigured() async throws {
        let app = try await Application.make(.testing)
        #expect(app.vignette.pipeline == nil)
        #expect(throws: ImagingError.self) { try app.vignette.configure(root: Fixtures.folder + "/baseline.jpg") }
        app.get("x") { req in await req.vignette.thumbnail(path: "baseline.jpg", recipe: ImageRecipe()) }
        let response = try await app.responder.respond(to: Request(application: app, method: .GET, url: "/x", on: app.eventLoopGroup.any())).get()
        #expect(response.status == .internalServerError)
        try await app.asyncShutdown()
    }
}
