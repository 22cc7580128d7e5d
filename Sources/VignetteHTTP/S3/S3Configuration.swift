#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteSupport

/// Where `s3://` sources are read from and with which credentials: AWS itself (virtual-hosted
/// `https://BUCKET.s3.REGION.amazonaws.com/KEY`, path-style `https://s3.REGION.amazonaws.com/BUCKET/KEY`
/// for bucket names that cannot be a host name) or an S3-compatible endpoint (MinIO, Ceph, R2,
/// Google Cloud Storage's XML API), always path-style: `ENDPOINT/BUCKET/KEY`.
///
/// With Google's endpoint (`https://storage.googleapis.com`, HMAC keys as the credentials) `gs://`
/// URLs are read too, as aliases of `s3://` ones.
public struct S3Configuration: Sendable, CustomStringConvertible {
    /// An S3-compatible endpoint: scheme, host, port and a path prefix (URI-encoded, no trailing `/`).
    public struct Endpoint: Sendable, Equatable {
        /// `http` or `https`.
        public let scheme: String
        /// The host as in a URL (an IPv6 address in brackets), lower-cased.
        public let host: String
        /// The port when one was given.
        public let port: Int?
        /// What comes before `/BUCKET/KEY` (usually empty).
        public let path: String

        /// The endpoint at `url` (`http(s)://HOST[:PORT][/PATH]`, no user, query or fragment).
        public init(url text: String) throws(ImagingError) {
            guard let components = URLComponents(string: text),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = components.percentEncodedHost, !host.isEmpty
            else { throw ImagingError(.invalidArgument, "the S3 endpoint must be an http:// or https:// URL with a host, got \(text)") }
            guard components.user == nil, components.password == nil, components.query == nil, components.fragment == nil else {
                throw ImagingError(.invalidArgument, "the S3 endpoint URL takes no user, password, query or fragment")
            }
            self.scheme = scheme
            let bare = host.hasPrefix("[") ? host : (host.contains(":") ? "[\(host)]" : host)
            self.host = bare.lowercased()
            port = components.port
            var path = components.percentEncodedPath
            while path.hasSuffix("/") { path.removeLast() }
            self.path = path
        }

        /// The endpoint's URL as configured.
        public var url: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") + path }
    }

    /// The credentials requests are signed with.
    public var credentials: S3Credentials
    /// The region (`AWS_REGION`; default `us-east-1`; `auto` for Google Cloud Storage and R2).
    public let region: String
    /// The S3-compatible endpoint; nil for AWS's own.
    public let endpoint: Endpoint?

    /// A configuration; `endpoint` is an `http(s)://` URL, nil for AWS.
    /// - Throws: `ImagingError` (`.invalidArgument`) for an endpoint that is not an http(s) URL, or a region that is not
    ///   letters, digits and `-`.
    public init(credentials: S3Credentials, region: String = "us-east-1", endpoint: String? = nil) throws(ImagingError) {
        guard (1...64).contains(region.utf8.count),
            region.utf8.allSatisfy({ S3PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") })
        else { throw ImagingError(.invalidArgument, "the S3 region must be letters, digits and -, got \(region)") }
        self.credentials = credentials
        self.region = region
        self.endpoint = try endpoint.map { (text) throws(ImagingError) in try Endpoint(url: text) }
    }

    /// The configuration the environment gives: credentials from `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, the region from `AWS_REGION` (or
    /// `AWS_DEFAULT_REGION`; default `us-east-1`), and `endpoint` (a flag's value) or else
    /// `VIGNETTE_S3_ENDPOINT`. Nil when the credentials are not set.
    public static func fromEnvironment(endpoint: String?, _ environment: (String) -> String?) throws(ImagingError) -> S3Configuration? {
        guard let credentials = S3Credentials.fromEnvironment(environment) else { return nil }
        let region = environment("AWS_REGION") ?? environment("AWS_DEFAULT_REGION") ?? "us-east-1"
        return try S3Configuration(
            credentials: credentials, region: region.isEmpty ? "us-east-1" : region,
            endpoint: endpoint ?? environment("VIGNETTE_S3_ENDPOINT").flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether `gs://` URLs are read: the endpoint is Google Cloud Storage's XML API.
    public var readsGoogleStorage: Bool { endpoint?.host == "storage.googleapis.com" }

    /// The signer of this configuration's requests.
    package var signer: SigV4Signer { SigV4Signer(credentials: credentials, region: region) }

    /// The GET of the object at `location` (and of its version when it names one).
    /// - Throws: `S3Location.Problem` when the location names no object, or is a `gs://` one and the
    ///   endpoint is not Google's.
    package func objectRequest(_ location: S3Location) throws(S3Location.Problem) -> S3HTTPRequest {
        try check(location.scheme)
        guard !location.key.isEmpty else { throw S3Location.Problem(description: "the URL names a bucket but no object") }
        let query = location.versionID.map { [S3HTTPRequest.QueryItem("versionId", $0)] } ?? []
        return request(bucket: location.bucket, path: "/" + S3PercentEncoding.encode(location.key, keepingSlash: true), query: query)
    }

    /// A ListObjectsV2 page of the keys under `prefix` in `bucket` (after `continuationToken`; at
    /// most `maxKeys`, else S3's 1000), with keys URL-encoded in the answer (`encoding-type=url`: a
    /// key may hold characters XML cannot).
    package func listRequest(bucket: String, prefix: String, continuationToken: String? = nil, maxKeys: Int? = nil) -> S3HTTPRequest {
        var query = [S3HTTPRequest.QueryItem("list-type", "2")]
        if !prefix.isEmpty { query.append(.init("prefix", prefix)) }
        if let maxKeys { query.append(.init("max-keys", String(maxKeys))) }
        if let continuationToken { query.append(.init("continuation-token", continuationToken)) }
        query.append(.init("encoding-type", "url"))
        return request(bucket: bucket, path: "", query: query)
    }

    /// Checks that URLs with `scheme` are read here.
    func check(_ scheme: String) throws(S3Location.Problem) {
        if scheme == "gs" && !readsGoogleStorage {
            throw S3Location.Problem(description: "gs:// sources need the S3 endpoint https://storage.googleapis.com")
        }
    }

    /// `path` (`/KEY`, or empty for the bucket itself) in `bucket`, virtual-hosted on AWS when the
    /// bucket can be a host name, path-style otherwise.
    private func request(bucket: String, path: String, query: [S3HTTPRequest.QueryItem]) -> S3HTTPRequest {
        let encodedBucket = S3PercentEncoding.encode(bucket)
        if let endpoint {
            return S3HTTPRequest(
                scheme: endpoint.scheme, host: endpoint.host, port: endpoint.port,
                path: endpoint.path + "/" + encodedBucket + path, query: query)
        }
        if Self.isVirtualHostable(bucket) {
            return S3HTTPRequest(
                scheme: "https", host: "\(bucket).s3.\(region).amazonaws.com", port: nil, path: path.isEmpty ? "/" : path, query: query)
        }
        return S3HTTPRequest(scheme: "https", host: "s3.\(region).amazonaws.com", port: nil, path: "/" + encodedBucket + path, query: query)
    }

    /// A bucket name that is a valid host label over TLS: 3–63 lower-case letters, digits and
    /// hyphens, starting and ending with a letter or digit (a dot would break the certificate's
    /// wildcard, as botocore knows too).
    static func isVirtualHostable(_ bucket: String) -> Bool {
        let bytes = Array(bucket.utf8)
        func alphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            alphanumeric(first), alphanumeric(last)
        else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    /// The region and the endpoint; never the credentials.
    public var description: String {
        "S3Configuration(region: \(region), endpoint: \(endpoint?.url ?? "AWS"), credentials: \(credentials))"
    }
}
