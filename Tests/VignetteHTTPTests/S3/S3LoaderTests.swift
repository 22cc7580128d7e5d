import Foundation
import S3TestServer
import Testing
import Vignette
@testable import VignetteHTTP

/// `s3://` sources through the HTTP loader against moto's S3 server on 127.0.0.1, which checks
/// every request's Signature Version 4 against the keys it issued.
@Suite(.enabled(if: S3TestServer.python != nil, Comment(rawValue: S3TestServer.skipReason)))
struct S3LoaderTests {
    static func loader(_ credentials: S3TestServer.Credentials, endpoint: String) throws -> HTTPDataLoader {
        let s3 = try S3Configuration(
            credentials: S3Credentials(
                accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken),
            endpoint: endpoint)
        return HTTPDataLoader(configuration: HTTPDataLoader.Configuration(requestTimeout: .seconds(60), rateLimiter: nil, s3: s3))
    }

    @Test("objects by key (spaces, unicode) and by version; missing → 404; wrong secret, unknown key → 403, no secret in the error")
    func loadsObjects() async throws {
        let jpeg = Data(try Files.fixture("baseline.jpg")), png = Data(try Files.fixture("alpha.png"))
        let server = try await S3TestServer.start(buckets: [
            .init("photos", versioned: true, objects: [("albums/été 2024/a b.jpg", png), ("albums/été 2024/a b.jpg", jpeg), ("x.png", png)]),
        ])
        defer { server.stop() }
        let loader = try Self.loader(server.credentials, endpoint: server.endpoint)

        #expect(try await loader.load("s3://photos/albums/%C3%A9t%C3%A9%202024/a%20b.jpg").data == jpeg)
        let first = try #require(server.versions["photos/albums/été 2024/a b.jpg"]?.first ?? nil)
        let versioned = "s3://photos/albums/%C3%A9t%C3%A9%202024/a%20b.jpg?versionId=" + S3PercentEncoding.encode(first)
        #expect(try await loader.load(versioned).data == png)

        let missing = await httpError { _ = try await loader.load("s3://photos/nothing-here.jpg") }
        #expect(missing?.kind == .badStatus && missing?.statusCode == 404)
        #expect(missing?.message.contains("NoSuchKey") == true)

        let wrongSecret = S3TestServer.Credentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: "not-the-secret-Zq9", sessionToken: nil)
        let forged = await httpError { _ = try await Self.loader(wrongSecret, endpoint: server.endpoint).load("s3://photos/x.png") }
        #expect(forged?.statusCode == 403)
        #expect(forged?.message.contains("SignatureDoesNotMatch") == true)
        let unknown = S3TestServer.Credentials(accessKeyID: "AKIAUNKNOWN0000000", secretAccessKey: "whatever-Zq9", sessionToken: nil)
        let stranger = await httpError { _ = try await Self.loader(unknown, endpoint: server.endpoint).load("s3://photos/x.png") }
        #expect(stranger?.statusCode == 403)
        #expect(stranger?.message.contains("InvalidAccessKeyId") == true)
        for error in [forged, stranger, missing].compactMap({ $0 }) {
            let text = "\(error) \(String(reflecting: error))"
            #expect(!text.contains("Zq9") && !text.contains(server.credentials.secretAccessKey))
            #expect(!text.contains("AKIA"))
        }
    }

    @Test("temporary credentials: the session token is sent and signed (x-amz-security-token)")
    func loadsWithSessionToken() async throws {
        let png = Data(try Files.fixture("alpha.png"))
        let server = try await S3TestServer.start(buckets: [.init("photos", objects: [("x.png", png)])])
        defer { server.stop() }
        #expect(try await Self.loader(server.temporaryCredentials, endpoint: server.endpoint).load("s3://photos/x.png").data == png)
        var wrongToken = server.temporaryCredentials
        wrongToken = .init(accessKeyID: wrongToken.accessKeyID, secretAccessKey: wrongToken.secretAccessKey, sessionToken: "not-the-token")
        let error = await httpError { _ = try await Self.loader(wrongToken, endpoint: server.endpoint).load("s3://photos/x.png") }
        // AWS (and moto) answer 400 InvalidToken for a token that is not theirs.
        #expect(error?.statusCode == 400 || error?.statusCode == 403, "\(String(describing: error))")
        #expect(error?.message.contains("InvalidToken") == true, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("not-the-token") == false)
    }

    @Test("a prefix is listed over pages (continuation tokens), folder markers and other prefixes left out; the pipeline loads the objects")
    func listsPrefixes() async throws {
        let png = Data(try Files.fixture("alpha.png"))
        let keys = ["album/1.png", "album/2 two.png", "album/é/3.png", "album/4.txt", "album/5.png", "album/", "albumen.png", "other/6.png"]
        let server = try await S3TestServer.start(buckets: [.init("photos", objects: keys.map { ($0, png) })])
        defer { server.stop() }
        let loader = try Self.loader(server.credentials, endpoint: server.endpoint)
        let listed = try await loader.listS3Objects(under: S3Location(parsing: "s3://photos/album/"), pageSize: 2)
        #expect(listed.map(\.key) == ["album/", "album/1.png", "album/2 two.png", "album/4.txt", "album/5.png", "album/é/3.png"])
        #expect(listed.allSatisfy { $0.bucket == "photos" && $0.scheme == "s3" })
        let whole = try await loader.listS3Objects(under: S3Location(parsing: "s3://photos"))
        #expect(whole.count == keys.count)

        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, imageCache: nil))
        let url = try #require(URL(string: listed[2].description))
        let image = try await pipeline.image(for: ImageRequest(url: url, thumbnail: ThumbnailOptions(width: 16, height: 16)))
        #expect(max(image.width, image.height) == 16)

        let unlisted = await httpError {
            _ = try await Self.loader(.init(accessKeyID: "AKIAUNKNOWN0000000", secretAccessKey: "x", sessionToken: nil), endpoint: server.endpoint)
                .listS3Objects(under: S3Location(parsing: "s3://photos/album/"))
        }
        #expect(unlisted?.statusCode == 403)
    }

    @Test("without S3 configured, and gs:// without Google's endpoint, s3 URLs are refused before any request")
    func refusesUnconfigured() async throws {
        let plain = HTTPDataLoader(configuration: HTTPDataLoader.Configuration(rateLimiter: nil))
        let error = await httpError { _ = try await plain.load("s3://photos/x.png") }
        #expect(error?.kind == .invalidURL)
        #expect(error?.message.contains("AWS_ACCESS_KEY_ID") == true)
        let minio = try Self.loader(.init(accessKeyID: "a", secretAccessKey: "b", sessionToken: nil), endpoint: "http://127.0.0.1:9")
        let google = await httpError { _ = try await minio.load("gs://photos/x.png") }
        #expect(google?.kind == .invalidURL)
        #expect(google?.message.contains("storage.googleapis.com") == true)
    }
}
