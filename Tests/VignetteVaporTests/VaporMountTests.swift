import Foundation
import LoopbackHTTPClient
import Logging
import Testing
import Vapor
import Vignette
import VignetteImgproxy
import VignetteServer
import VignetteVapor

@Suite("VignetteVapor: the imgproxy-compatible server mounted under a prefix of a Vapor application")
struct VaporMountTests {
    static let key = "0123456789abcdef"
    static let salt = "00"

    static func configuration(signed: Bool) -> ServerConfiguration {
        ServerConfiguration(localRoot: Fixtures.folder, signatureKey: signed ? key : nil, signatureSalt: signed ? salt : nil)
    }

    /// `path` signed with the test's key: "/SIGNATURE/path".
    static func signed(_ path: String) throws -> String {
        let signer = try #require(URLSignature(keyHex: key, saltHex: salt))
        return "/" + signer.signature(of: path[...]) + path
    }

    @Test("health, ready and metrics; an image with the bytes and headers ThumbnailServer answers, then 304; a placeholder as JSON")
    func routes() async throws {
        let app = try await Application.make(.testing)
        try app.vignette.mount(at: "/img/", configuration: Self.configuration(signed: false))
        try await RunningVaporApp.serve(app) { client in
            let health = try await client.get("/img/health")
            #expect(health.status == 200 && health.text == "ok\n")
            #expect(try await client.get("/img/ready").status == 200)

            let path = "/insecure/rs:fit:64:64/plain/local:///baseline.jpg@png"
            let reply = try await client.get("/img" + path)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.header("Content-Type") == "image/png")
            let image = try ImageDecoder().decode(reply.body)
            #expect(image.width == 64 && image.height == 48)
            let direct = await (try ThumbnailServer(configuration: Self.configuration(signed: false)))
                .answer(path: path, accept: nil, ifNoneMatch: nil, logger: Logger(label: "test"))
            #expect(direct.status == 200 && reply.body == direct.body)
            for name in ["ETag", "Cache-Control", "Last-Modified", "Content-Length"] {
                #expect(reply.header(name) == direct[header: name], "\(name)")
            }
            let tag = try #require(reply.header("ETag"))
            let again = try await client.get("/img" + path, headers: [("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty)

            let placeholder = try await client.get("/img/placeholder/thumbhash/insecure/plain/local:///baseline.jpg")
            #expect(placeholder.status == 200 && placeholder.header("Content-Type") == "application/json")
            #expect(placeholder.text.hasPrefix("{\"thumbhash\":\""), "\(placeholder.text)")

            let metrics = try await client.get("/img/metrics")
            #expect(metrics.status == 200 && metrics.text.contains("vignette_admission_queue_length"))
        }
    }

    @Test("refusals as vignette serve gives them: a bad signature 403, a bad option 400, a missing file 404, a path out of the root 403; one-line bodies naming no path")
    func refusals() async throws {
        let app = try await Application.make(.testing)
        try app.vignette.mount(at: "img", configuration: Self.configuration(signed: true))
        try await RunningVaporApp.serve(app) { client in
            let good = try await client.get("/img" + Self.signed("/rs:fit:30:30/plain/local:///baseline.jpg@png"))
            #expect(good.status == 200 && (try? ImageDecoder().probe(good.body).width) == 30)
            let unsigned = try await client.get("/img/insecure/rs:fit:30:30/plain/local:///baseline.jpg@png")
            #expect(unsigned.status == 403)
            let badOption = try await client.get("/img" + Self.signed("/rs:fit:-5:30/plain/local:///baseline.jpg"))
            #expect(badOption.status == 400, "\(badOption.text)")
            let missing = try await client.get("/img" + Self.signed("/w:30/plain/local:///missing.jpg"))
            #expect(missing.status == 404)
            let outside = try await client.get("/img" + Self.signed("/w:30/plain/local:///../Package.swift"))
            #expect(outside.status == 403, "\(outside.text)")
            for reply in [unsigned, badOption, missing, outside] {
                #expect(reply.text.split(separator: "\n").count == 1 && !reply.text.contains("Fixtures"), "\(reply.text)")
            }
        }
    }
}
