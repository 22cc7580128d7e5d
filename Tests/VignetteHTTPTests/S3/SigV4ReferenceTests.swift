import ChildProcess
import Foundation
import S3TestServer
import Testing
@testable import VignetteHTTP

/// Vignette's Signature Version 4 against botocore's, the reference implementation: for each case
/// a real botocore S3 client (`sigv4_reference.py`, run with .venv-test's Python) makes the same
/// request with the same credentials at the same moment, and the URL, `x-amz-date`,
/// `x-amz-content-sha256`, `x-amz-security-token` and `Authorization` must be equal, byte for byte.
@Suite(.enabled(if: S3TestServer.python != nil, Comment(rawValue: S3TestServer.skipReason)))
struct SigV4ReferenceTests {
    struct Case: Encodable {
        var name: String
        var operation = "GetObject"
        var bucket: String
        var key: String?
        var versionId: String?
        var prefix: String?
        var continuationToken: String?
        var region = "us-east-1"
        var endpoint: String?
        var accessKeyID = "AKIDEXAMPLE"
        var secretAccessKey = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
        var sessionToken: String?
        var time = 1_369_353_600  // 2013-05-24T00:00:00Z, the date of AWS's own examples
    }

    static let cases: [Case] = [
        Case(name: "virtual-hosted, plain key", bucket: "examplebucket", key: "test.txt"),
        Case(name: "virtual-hosted, spaces and unicode", bucket: "photos-2024", key: "été 2024/naïve café 日本.jpg", region: "eu-west-1"),
        Case(name: "session token and versionId", bucket: "examplebucket", key: "a/b.jpg", versionId: "3/L4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY+MTRCxf3vjVBH40Nr8X8gdRQBpUMLUo",
             sessionToken: "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ+token="),
        Case(name: "path-style endpoint on loopback, reserved characters", bucket: "bucket", key: "a+b=c&d/(1)!*'@:,;$[].jpg",
             endpoint: "http://127.0.0.1:9000"),
        Case(name: "path-style, leading and double slashes, tilde", bucket: "bucket", key: "/leading//double/~t.jpg",
             endpoint: "http://127.0.0.1:9000", time: 1_709_251_199),
        Case(name: "endpoint with a path prefix and a port over https", bucket: "bucket", key: "x y.png", region: "auto",
             endpoint: "https://minio.example:9443/s3/"),
        Case(name: "https endpoint on its default port", bucket: "bucket", key: "k.jpg", endpoint: "https://storage.example:443"),
        Case(name: "Google Cloud Storage's XML API", bucket: "my-gcs-bucket", key: "dir/photo.webp", region: "auto",
             endpoint: "https://storage.googleapis.com", accessKeyID: "GOOG1EXAMPLEHMACKEY", secretAccessKey: "bGoa+V7g/yqDXvKRqq+JTFn4uQZbPiQJo4pf9RzJ"),
        Case(name: "a dotted bucket is path-style on AWS", bucket: "my.dotted.bucket", key: "k.jpg", region: "ap-southeast-2"),
        Case(name: "a legacy bucket name is path-style on AWS", bucket: "Legacy_Bucket", key: "k.jpg"),
        Case(name: "a year's last second in a leap year", bucket: "examplebucket", key: "k.jpg", time: 1_735_689_599),
        Case(name: "list, virtual-hosted, no prefix", operation: "ListObjectsV2", bucket: "examplebucket"),
        Case(name: "list, path-style, prefix and continuation token", operation: "ListObjectsV2", bucket: "photos",
             prefix: "albums/été 2024/", continuationToken: "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=", endpoint: "http://127.0.0.1:9000",
             sessionToken: "FwoGZXIvYXdzE/token+=="),
    ]

    @Test("the URL and signature headers equal botocore's for every case")
    func equalsBotocore() async throws {
        let reference = try await Self.botocore(Self.cases)
        #expect(reference.count == Self.cases.count)
        for (testCase, expected) in zip(Self.cases, reference) {
            let configuration = try S3Configuration(
                credentials: S3Credentials(accessKeyID: testCase.accessKeyID, secretAccessKey: testCase.secretAccessKey, sessionToken: testCase.sessionToken),
                region: testCase.region, endpoint: testCase.endpoint)
            let request: S3HTTPRequest
            if testCase.operation == "GetObject" {
                request = try configuration.objectRequest(S3Location(bucket: testCase.bucket, key: testCase.key ?? "", versionID: testCase.versionId))
            } else {
                request = configuration.listRequest(bucket: testCase.bucket, prefix: testCase.prefix ?? "", continuationToken: testCase.continuationToken)
            }
            let headers = Dictionary(
                configuration.signer.headers(for: request, date: Date(timeIntervalSince1970: TimeInterval(testCase.time))).map { ($0.0.lowercased(), $0.1) },
                uniquingKeysWith: { first, _ in first })
            let comment = Comment(rawValue: testCase.name)
            #expect(request.url == expected.url, comment)
            for name in ["authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"] {
                #expect(headers[name] == expected.headers[name], Comment(rawValue: "\(testCase.name): \(name)"))
            }
            // botocore signs exactly the headers Vignette signs, and sends the same Host.
            #expect(expected.headers["authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date"
                + (testCase.sessionToken == nil ? "," : ";x-amz-security-token,")) == true, comment)
        }
    }

    @Test("a signature over a s3:// URL read back equals botocore's for the key it names")
    func urlRoundTrip() async throws {
        let location = try S3Location(parsing: "s3://photos-2024/%C3%A9t%C3%A9%202024/na%C3%AFve%20caf%C3%A9.jpg?versionId=v%2B1")
        #expect(location.key == "été 2024/naïve café.jpg")
        #expect(location.versionID == "v+1")
        let reference = try await Self.botocore([Case(name: "round trip", bucket: "photos-2024", key: location.key, versionId: location.versionID)])
        let configuration = try S3Configuration(credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"))
        let request = try configuration.objectRequest(location)
        let authorization = configuration.signer.headers(for: request, date: Date(timeIntervalSince1970: 1_369_353_600))
            .first { $0.0 == "Authorization" }?.1
        #expect(request.url == reference.first?.url)
        #expect(authorization == reference.first?.headers["authorization"])
    }

    struct Reference: Decodable {
        let name: String
        let url: String
        let headers: [String: String]
    }

    /// What botocore sent for `cases`.
    static func botocore(_ cases: [Case]) async throws -> [Reference] {
        let python = try #require(S3TestServer.python)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sigv4-cases-\(UUID().uuidString).json")
        try JSONEncoder().encode(cases).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sigv4_reference.py").path
        // No AWS_* variable or config file of the machine's may change what botocore does
        // (AWS_ENDPOINT_URL, a profile's addressing style).
        let environment = ["PATH": "/usr/bin:/bin", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"]
        let process = try ChildProcess(python, [script, file.path], environment: environment, killAfter: .seconds(120))
        let result = await process.result()
        try #require(result.termination == .exited(0), Comment(rawValue: "sigv4_reference.py failed: \(result.standardError.suffix(2000))"))
        return try JSONDecoder().decode([Reference].self, from: Data(result.output))
    }
}
