import Foundation
import Testing
import VignetteCodecs
@testable import VignetteHTTP
import VignetteSupport

/// The parts of S3 support that need no server: URLs, the little XML, timestamps, and what is
/// never printed.
@Suite struct S3ParsingTests {
    @Test("s3:// URLs: bucket, percent-decoded key, versionId; gs:// too")
    func parsesLocations() throws {
        let plain = try S3Location(parsing: "s3://photos/albums/a%20b/%C3%A9t%C3%A9.jpg")
        #expect(plain == S3Location(bucket: "photos", key: "albums/a b/été.jpg"))
        #expect(!plain.isPrefix)
        let versioned = try S3Location(parsing: "S3://photos/k.jpg?versionId=3%2FL4kq%2B0")
        #expect(versioned.versionID == "3/L4kq+0")
        #expect(versioned.scheme == "s3")
        #expect(try S3Location(parsing: "s3://photos").isPrefix)
        #expect(try S3Location(parsing: "s3://photos/albums/").isPrefix)
        #expect(try S3Location(parsing: "gs://my_bucket/x").scheme == "gs")
        // description reads back as the same location.
        let odd = S3Location(bucket: "b-1", key: "a?b#c%d/é f+g", versionID: "v/1")
        #expect(try S3Location(parsing: odd.description) == odd)
    }

    @Test("refused: no bucket, a bucket that could change the host, broken encoding, other query parameters, a fragment",
          arguments: ["s3:///key", "s3://ab/k", "s3://user@host/k", "s3://a:b/k", "s3://bu cket/k", "s3://b%2Fc/k",
                      "s3://bucket/%zz", "s3://bucket/k?x=1", "s3://bucket/k?versionId=", "s3://bucket/k#f", "http://bucket/k"])
    func refusesBadLocations(url: String) {
        #expect(throws: S3Location.Problem.self) { try S3Location(parsing: url) }
    }

    @Test("an endpoint must be an http(s) URL without credentials; the region letters, digits and -")
    func checksConfiguration() throws {
        let credentials = S3Credentials(accessKeyID: "AKID", secretAccessKey: "secret")
        #expect(throws: ImagingError.self) { try S3Configuration(credentials: credentials, endpoint: "ftp://x") }
        #expect(throws: ImagingError.self) { try S3Configuration(credentials: credentials, endpoint: "http://u:p@x") }
        #expect(throws: ImagingError.self) { try S3Configuration(credentials: credentials, region: "evil.com/x") }
        let google = try S3Configuration(credentials: credentials, region: "auto", endpoint: "https://storage.googleapis.com/")
        #expect(google.readsGoogleStorage)
        #expect(try google.objectRequest(S3Location(parsing: "gs://bucket/k.jpg")).url == "https://storage.googleapis.com/bucket/k.jpg")
        let minio = try S3Configuration(credentials: credentials, endpoint: "http://127.0.0.1:9000")
        #expect(throws: S3Location.Problem.self) { try minio.objectRequest(S3Location(parsing: "gs://bucket/k.jpg")) }
        #expect(throws: S3Location.Problem.self) { try minio.objectRequest(S3Location(parsing: "s3://bucket/")) }
        let v6 = try S3Configuration(credentials: credentials, endpoint: "http://[::1]:9000")
        #expect(try v6.objectRequest(S3Location(parsing: "s3://bucket/k")).url == "http://[::1]:9000/bucket/k")
    }

    @Test("the environment gives the credentials, the region (default us-east-1) and the endpoint")
    func readsEnvironment() throws {
        let variables = ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "tok",
                         "VIGNETTE_S3_ENDPOINT": "http://127.0.0.1:9000"]
        let configuration = try #require(try S3Configuration.fromEnvironment(endpoint: nil) { variables[$0] })
        #expect(configuration.region == "us-east-1")
        #expect(configuration.credentials.sessionToken == "tok")
        #expect(configuration.endpoint?.url == "http://127.0.0.1:9000")
        #expect(try S3Configuration.fromEnvironment(endpoint: nil) { ["AWS_ACCESS_KEY_ID": "AKID"][$0] } == nil)
        let flagged = try #require(try S3Configuration.fromEnvironment(endpoint: "https://s3.example") { (variables + ["AWS_REGION": "eu-west-3"])[$0] })
        #expect(flagged.endpoint?.host == "s3.example")
        #expect(flagged.region == "eu-west-3")
    }

    @Test("no secret or session token in any description, debug description or dump")
    func keepsSecretsOut() throws {
        let credentials = S3Credentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "SECRET-wJalrXUtnFEMI", sessionToken: "TOKEN-IQoJb3")
        let configuration = try S3Configuration(credentials: credentials, endpoint: "http://127.0.0.1:9000")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: credentials), String(reflecting: credentials), String(describing: configuration),
                     String(reflecting: configuration), dumped] {
            #expect(!text.contains("SECRET"))
            #expect(!text.contains("TOKEN"))
            #expect(!text.contains("AKIAEXAMPLE"))
        }
    }

    @Test("SigV4 timestamps in UTC across the calendar")
    func formatsTimestamps() {
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 951_825_600)) == "20000229T120000Z")
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_735_689_599.9)) == "20241231T235959Z")
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 4_102_444_800)) == "21000101T000000Z")
    }

    @Test("the signing key of AWS's documented example")
    func derivesSigningKey() {
        // docs.aws.amazon.com, "Examples of how to derive a signing key for Signature Version 4".
        let signer = SigV4Signer(
            credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "iam")
        let key = Digests.hex(signer.signingKey(day: "20120215"))
        #expect(key == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test("URI-encoding keeps only the unreserved characters (and / in paths)")
    func encodes() {
        #expect(S3PercentEncoding.encode("a b/é~_.-+*") == "a%20b%2F%C3%A9~_.-%2B%2A")
        #expect(S3PercentEncoding.encode("a b/é", keepingSlash: true) == "a%20b/%C3%A9")
        #expect(S3PercentEncoding.decode("a%2fb+c") == "a/b+c")
        #expect(S3PercentEncoding.decode("%C3") == nil)
        #expect(S3PercentEncoding.decode("%4") == nil)
    }

    @Test("a ListObjectsV2 page: URL-encoded keys decoded, the continuation token when truncated")
    func readsListingPages() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>photos</Name><Prefix>a%2F</Prefix>
            <KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>
            <Contents><Key>a/one+two%C3%A9.jpg</Key><Size>3</Size></Contents>
            <Contents><Key>a/x%2By%26z.png</Key></Contents>
            <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYL&amp;g==</NextContinuationToken></ListBucketResult>
            """
        let page = try S3ListingPage(xml: Array(xml.utf8))
        #expect(page.keys == ["a/one twoé.jpg", "a/x+y&z.png"])
        #expect(page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYL&g==")
        let last = try S3ListingPage(xml: Array("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>".utf8))
        #expect(last.keys.isEmpty && last.nextContinuationToken == nil)
        #expect(throws: S3ListingPage.Malformed.self) {
            try S3ListingPage(xml: Array("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>".utf8))
        }
        #expect(throws: S3ListingPage.Malformed.self) { try S3ListingPage(xml: Array("<html>no</html>".utf8)) }
        #expect(throws: S3ListingPage.Malformed.self) {
            try S3ListingPage(xml: Array("<ListBucketResult><Key>%zz</Key></ListBucketResult>".utf8))
        }
    }

    @Test("an S3 error's code is read, nothing else of its body")
    func readsErrorCodes() {
        let body = "<Error><Code>SignatureDoesNotMatch</Code><AWSAccessKeyId>AKIA</AWSAccessKeyId><StringToSign>x</StringToSign></Error>"
        #expect(S3ErrorCode.code(in: Array(body.utf8)) == "SignatureDoesNotMatch")
        #expect(S3ErrorCode.code(in: Array("<Error><Code>a b&lt;</Code></Error>".utf8)) == nil)
        #expect(S3ErrorCode.code(in: Array("not xml".utf8)) == nil)
        #expect(S3XML.decodeEntities(Array("&#233;&#xE9;&amp;".utf8)[...]) == "éé&")
        #expect(S3XML.decodeEntities(Array("&bogus;".utf8)[...]) == nil)
    }
}

private func + (left: [String: String], right: [String: String]) -> [String: String] {
    left.merging(right) { _, new in new }
}
