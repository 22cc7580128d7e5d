import Foundation
import Logging
import S3TestServer
import Testing
import Vignette
import VignetteHTTP
import VignetteSupport
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// `s3://` sources in imgproxy URLs, read from moto's S3 server on 127.0.0.1 (which checks every
/// signature): served, versions, statuses, the SSRF rule's one exemption, and no secret in any
/// log line or answer.
@Suite(.enabled(if: S3TestServer.python != nil, Comment(rawValue: S3TestServer.skipReason)))
struct S3SourceTests {
    static func configuration(_ credentials: S3TestServer.Credentials, endpoint: String) throws -> S3Configuration {
        try S3Configuration(
            credentials: S3Credentials(
                accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken),
            endpoint: endpoint)
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test("plain and base64 s3 sources are served, a version by versionId; missing → 404; gs:// and http:// to the endpoint refused")
    func servesObjects() async throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg"))
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/alpha.png"))
        let s3 = try await S3TestServer.start(buckets: [
            .init("photos", versioned: true, objects: [("albums/a b.jpg", png), ("albums/a b.jpg", jpeg)]),
        ])
        defer { s3.stop() }
        let configuration = try Self.configuration(s3.credentials, endpoint: s3.endpoint)
        try await RunningServer.with({ $0.s3 = configuration }) { running in
            let plain = try await running.get("/insecure/rs:fit:64:64/plain/s3://photos/albums/a%20b.jpg@png")
            #expect(plain.status == 200)
            #expect(plain.header("Content-Type") == "image/png")
            let current = try ImageDecoder().probe(plain.body)
            #expect(max(current.width, current.height) == 64 && !current.hasAlpha)

            let first = try #require(s3.versions["photos/albums/a b.jpg"]?.first ?? nil)
            let source = "s3://photos/albums/a%20b.jpg?versionId=" + (first.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? first)
            let old = try await running.get("/insecure/rs:fit:64:64/\(Self.base64URL(source)).png")
            #expect(old.status == 200)
            #expect(try ImageDecoder().probe(old.body).hasAlpha)

            let missing = try await running.get("/insecure/rs:fit:64:64/plain/s3://photos/absent.jpg@png")
            #expect(missing.status == 404)
            let noBucket = try await running.get("/insecure/rs:fit:64:64/plain/s3://nobucket/a.jpg@png")
            #expect(noBucket.status == 404)
            let badVersion = try await running.get("/insecure/plain/s3://photos/a.jpg%3Fx%3D1@png")
            #expect(badVersion.status == 400)
            let google = try await running.get("/insecure/plain/gs://photos/albums/a%20b.jpg@png")
            #expect(google.status == 403)
            // The endpoint is exempt from the local-network rule only as the S3 endpoint.
            let direct = try await running.get("/insecure/plain/\(s3.endpoint)/photos/albums/a%20b.jpg@png")
            #expect(direct.status == 403)
            #expect(String(decoding: direct.body, as: UTF8.self).contains("local network"))
        }
        try await RunningServer.with { running in
            let refused = try await running.get("/insecure/plain/s3://photos/albums/a%20b.jpg@png")
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self) == "s3 sources are not enabled\n")
        }
        try await RunningServer.with({ $0.s3 = configuration; $0.allowedSourcePrefixes = ["s3://other/"] }) { running in
            let outside = try await running.get("/insecure/plain/s3://photos/albums/a%20b.jpg@png")
            #expect(outside.status == 403)
        }
    }

    @Test("wrong credentials: 502 to the client, S3's code in the log, no secret in any log line or answer")
    func badCredentialsKeepSecrets() async throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/alpha.png"))
        let s3 = try await S3TestServer.start(buckets: [.init("photos", objects: [("a.png", png)])])
        defer { s3.stop() }
        let secret = "wrong-secret-Q7vX9"
        let token = "session-token-T3kP"
        let lines = Locked<[String]>([])
        let logger = Logger(label: "test.s3") { _ in LineCollector(lines: lines) }
        for credentials in [
            S3TestServer.Credentials(accessKeyID: s3.credentials.accessKeyID, secretAccessKey: secret, sessionToken: nil),
            S3TestServer.Credentials(accessKeyID: s3.temporaryCredentials.accessKeyID, secretAccessKey: secret, sessionToken: token),
        ] {
            let configuration = try Self.configuration(credentials, endpoint: s3.endpoint)
            try await RunningServer.with({ $0.s3 = configuration }, logger: logger) { running in
                let reply = try await running.get("/insecure/rs:fit:64:64/plain/s3://photos/a.png@png")
                #expect(reply.status == 502)
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(body == "the source could not be fetched\n")
            }
        }
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.contains("s3://photos/a.png") && $0.contains("403") && $0.contains("SignatureDoesNotMatch") })
        #expect(logged.contains { $0.contains("InvalidAccessKeyId") || $0.contains("InvalidToken") || $0.contains("SignatureDoesNotMatch") })
        for line in logged {
            #expect(!line.contains(secret) && !line.contains(token) && !line.contains("Signature="), Comment(rawValue: line))
        }
    }
}

/// Every log line, with its metadata, for the tests to read.
struct LineCollector: LogHandler {
    let lines: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
    }
}
