import AsyncHTTPClient
import ChildProcess
import Foundation
import S3TestServer
import Testing
import VignetteCodecs

/// `vignette thumbnail` with s3:// inputs, against moto's S3 server on 127.0.0.1 (which checks
/// every signature): a prefix listed and made, a single object, the failures and their lines.
@Suite("vignette with s3:// inputs", .enabled(if: S3TestServer.python != nil, Comment(rawValue: S3TestServer.skipReason)))
struct S3InputTests {
    @Test("a prefix is listed (every page) and each image under it made; an object is one input; failures name S3's status, never a secret")
    func thumbnailsFromS3() async throws {
        let jpeg = try Data(contentsOf: CLI.fixtures.appendingPathComponent("baseline.jpg"))
        let png = try Data(contentsOf: CLI.fixtures.appendingPathComponent("alpha.png"))
        let server = try await S3TestServer.start(buckets: [
            .init("photos", objects: [
                ("album/", Data()), ("album/1.jpg", jpeg), ("album/sub/2 two.png", png), ("album/notes.txt", Data("x".utf8)),
                ("albumen/3.jpg", jpeg), ("other/4.jpg", jpeg),
            ]),
        ])
        defer { server.stop() }
        let environment = S3TestServer.environment(server.credentials)

        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let listed = try await CLI.run(
            ["thumbnail", "s3://photos/album/", "--size", "32", "--out", out.path, "--s3-endpoint", server.endpoint, "--json"],
            environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(CLI.files(in: out).sorted() == ["1.jpg", "2 two.png"])
        let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent("1.jpg").path)
        #expect(max(info.width, info.height) == 32)

        // A key ending in * is a prefix too; a prefix with no image is a failure of its own.
        let starred = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: starred) }
        let star = try await CLI.run(
            ["thumbnail", "s3://photos/album*", "s3://photos/nothing/", "--size", "32", "--out", starred.path, "--s3-endpoint", server.endpoint],
            environment: environment)
        #expect(star.status == 1)
        #expect(CLI.files(in: starred) == ["1.jpg", "2 two.png", "3.jpg"])
        #expect(star.stderr.contains("s3://photos/nothing/") && star.stderr.contains("no image under this prefix"), "\(star.stderr)")

        // One object, the endpoint from the environment, temporary credentials.
        let single = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: single) }
        let one = try await CLI.run(
            ["thumbnail", "s3://photos/other/4.jpg", "--size", "32", "--out", single.path],
            environment: S3TestServer.environment(server.temporaryCredentials).merging(["VIGNETTE_S3_ENDPOINT": server.endpoint]) { _, new in new })
        #expect(one.status == 0, "\(one.stderr)")
        #expect(CLI.files(in: single) == ["4.jpg"])

        // Failures: a missing object (404), a wrong secret (403 on the listing), no credentials.
        let secret = "not-the-secret-W4zR8"
        let failed = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: failed) }
        let missing = try await CLI.run(
            ["thumbnail", "s3://photos/absent.jpg", "--size", "32", "--out", failed.path, "--s3-endpoint", server.endpoint],
            environment: environment)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("404") && missing.stderr.contains("NoSuchKey"), "\(missing.stderr)")
        var wrong = environment
        wrong["AWS_SECRET_ACCESS_KEY"] = secret
        let forged = try await CLI.run(
            ["thumbnail", "s3://photos/album/", "s3://photos/other/4.jpg", "--size", "32", "--out", failed.path, "--s3-endpoint", server.endpoint],
            environment: wrong)
        #expect(forged.status == 1)
        #expect(forged.stderr.contains("cannot list") && forged.stderr.contains("SignatureDoesNotMatch"), "\(forged.stderr)")
        #expect(forged.stderr.contains("s3://photos/other/4.jpg") && forged.stderr.contains("403"), "\(forged.stderr)")
        #expect(!forged.stderr.contains(secret) && !forged.stdout.contains(secret))
        let anonymous = try await CLI.run(
            ["thumbnail", "s3://photos/other/4.jpg", "--size", "32", "--out", failed.path],
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""])
        #expect(anonymous.status == 1)
        #expect(anonymous.stderr.contains("AWS_ACCESS_KEY_ID"), "\(anonymous.stderr)")
        #expect(CLI.files(in: failed).isEmpty)
    }

    @Test("vignette serve --s3-endpoint serves s3 sources with the environment's credentials; --s3 without them is a usage error")
    func serveFromS3() async throws {
        let png = try Data(contentsOf: CLI.fixtures.appendingPathComponent("alpha.png"))
        let server = try await S3TestServer.start(buckets: [.init("photos", objects: [("a b.png", png)])])
        defer { server.stop() }
        let process = try CLI.start(
            ["serve", "--bind", "127.0.0.1:0", "--s3-endpoint", server.endpoint], environment: S3TestServer.environment(server.credentials))
        defer { process.send(SIGKILL) }
        let listening = try #require(await process.line(inStandardErrorStartingWith: "vignette: listening on http://127.0.0.1:"))
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:40:40/plain/s3://photos/a%20b.png@png"), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 24)
            #expect(response.status.code == 200)
            let info = try ImageDecoder().probe(Data(body.readableBytesView))
            #expect(info.format == .png && max(info.width, info.height) == 40)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        process.send(SIGTERM)
        let (result, _) = await CLI.finish(process, killAfter: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(server.credentials.secretAccessKey))

        let refused = try await CLI.run(["serve", "--bind", "127.0.0.1:0", "--s3"], environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("AWS_ACCESS_KEY_ID"))
    }
}
