#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// AWS Signature Version 4 for S3 requests with headers (not presigned URLs), as botocore makes it
/// (the tests compare the two): the canonical request (method, URI-encoded path, sorted encoded
/// query, the signed headers lower-cased and sorted, the payload's SHA-256), the string to sign
/// over its SHA-256 and the credential scope, and the key derived by HMAC-SHA256 from the secret
/// through the date, region, service and `aws4_request`.
///
/// The signed headers are `host`, `x-amz-content-sha256`, `x-amz-date` and, with temporary
/// credentials, `x-amz-security-token`; other headers (`User-Agent`, `Range`, `If-None-Match`) go
/// unsigned, which S3 allows.
package struct SigV4Signer: Sendable {
    /// Whose requests these are.
    package let credentials: S3Credentials
    /// The region in the credential scope (`us-east-1`; `auto` for Google Cloud Storage and R2).
    package let region: String
    /// The service in the credential scope (`s3`).
    package let service: String

    /// The SHA-256 of an empty body, hex: the `x-amz-content-sha256` of a GET, as botocore sends it
    /// (it signs the payload unless the request carries a checksum over https).
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A signer for `credentials` in `region`.
    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers that sign `request` at `date`: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` (temporary credentials only) and `Authorization`. The request must
    /// also be sent with `Host: request.hostHeader`.
    package func headers(for request: S3HTTPRequest, payloadHash: String = emptyPayloadHash, date: Date) -> [(String, String)] {
        let stamp = Self.timestamp(date)
        let signed = signedHeaders(for: request, payloadHash: payloadHash, timestamp: stamp)
        let names = signed.map(\.0).joined(separator: ";")
        let canonical = canonicalRequest(request, signed: signed, payloadHash: payloadHash)
        let scope = "\(stamp.prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Digests.sha256Hex(canonical.utf8))"
        let signature = Digests.hex(Digests.hmacSHA256(key: signingKey(day: String(stamp.prefix(8))), Array(toSign.utf8)))
        var headers = signed.filter { $0.0 != "host" }
        headers.append((
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(names), Signature=\(signature)"))
        return headers
    }

    /// The signed headers, lower-case names in order, values trimmed.
    func signedHeaders(for request: S3HTTPRequest, payloadHash: String, timestamp: String) -> [(String, String)] {
        var headers = [("host", request.hostHeader), ("x-amz-content-sha256", payloadHash), ("x-amz-date", timestamp)]
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        return headers.map { ($0.0, Self.trimmed($0.1)) }.sorted { $0.0 < $1.0 }
    }

    /// The canonical request: method, path, query, headers, signed header names, payload hash.
    func canonicalRequest(_ request: S3HTTPRequest, signed: [(String, String)], payloadHash: String) -> String {
        let encoded: [(name: String, value: String)] = request.query.map {
            (S3PercentEncoding.encode($0.name), S3PercentEncoding.encode($0.value))
        }
        let sorted = encoded.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query: String = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let headers: String = signed.map { $0.0 + ":" + $0.1 + "\n" }.joined()
        let names: String = signed.map(\.0).joined(separator: ";")
        let lines: [String] = [request.method, request.path, query, headers, names, payloadHash]
        return lines.joined(separator: "\n")
    }

    /// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request").
    func signingKey(day: String) -> [UInt8] {
        var key = Array(("AWS4" + credentials.secretAccessKey).utf8)
        for part in [day, region, service, "aws4_request"] {
            key = Digests.hmacSHA256(key: key, Array(part.utf8))
        }
        return key
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC (the proleptic Gregorian calendar, from the days since 1970).
    static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(paddedYear)\(two(month))\(two(day))T\(two(time / 3600))\(two(time / 60 % 60))\(two(time % 60))Z"
    }

    /// Leading and trailing spaces removed, runs of spaces inside made one (SigV4's header values).
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
