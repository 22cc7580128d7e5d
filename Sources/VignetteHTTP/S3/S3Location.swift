import VignetteSupport

/// An object or a prefix in a bucket, as an `s3://BUCKET/KEY` URL names it (or `gs://BUCKET/KEY`,
/// Google Cloud Storage's form, through its S3-compatible XML API).
///
/// The key is percent-decoded, as in any URL: `s3://photos/a%20b.jpg` is the key `a b.jpg`, and a
/// key with `%`, `?` or `#` in it is written `%25`, `%3F`, `%23`. The one query parameter read is
/// `versionId` (a version of the object); any other is refused, so a typo is not silently ignored.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    /// `s3` or `gs`.
    public var scheme: String
    /// The bucket.
    public var bucket: String
    /// The object's key, or a prefix (empty for the whole bucket).
    public var key: String
    /// The object's version (`?versionId=`), nil for the current one.
    public var versionID: String?

    /// A location from its parts.
    public init(scheme: String = "s3", bucket: String, key: String, versionID: String? = nil) {
        self.scheme = scheme
        self.bucket = bucket
        self.key = key
        self.versionID = versionID
    }

    /// Why a URL is not a valid S3 location.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with it.
        public let description: String
    }

    /// Whether `text` starts with `s3://` or `gs://` (in any case): a URL this type reads.
    public static func hasScheme(_ text: String) -> Bool {
        let lowered = text.prefix(5).lowercased()
        return lowered == "s3://" || lowered == "gs://"
    }

    /// The location `text` names.
    /// - Throws: `Problem` when it is not `s3://` or `gs://`, the bucket is missing or not a valid
    ///   bucket name (letters, digits, `.`, `-`, `_`; 3–222 characters), the key's percent-encoding
    ///   is broken, or the query has anything but `versionId`.
    public init(parsing text: String) throws(Problem) {
        guard Self.hasScheme(text) else { throw Problem(description: "not an s3:// or gs:// URL") }
        scheme = text.prefix(2).lowercased()
        var rest = Substring(text.dropFirst(5))
        if rest.contains("#") { throw Problem(description: "an S3 URL has no fragment (write # in a key as %23)") }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        bucket = String(rest[..<slash])
        guard Self.isValidBucket(bucket) else {
            throw Problem(description: bucket.isEmpty ? "the URL names no bucket" : "the bucket name is not valid")
        }
        let encodedKey = slash == rest.endIndex ? "" : rest[rest.index(after: slash)...]
        guard let key = S3PercentEncoding.decode(encodedKey) else { throw Problem(description: "the key's percent-encoding is not valid") }
        self.key = key
        versionID = nil
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "versionId", parts.count == 2, let version = S3PercentEncoding.decode(parts[1]), !version.isEmpty else {
                throw Problem(description: "the only query parameter an S3 URL takes is versionId=VERSION")
            }
            versionID = version
        }
    }

    /// Whether the location is a prefix to list rather than one object: no key, or one ending in `/`.
    public var isPrefix: Bool { key.isEmpty || key.hasSuffix("/") }

    /// The location of the object `key` in the same bucket, with the same scheme.
    public func object(_ key: String) -> S3Location { S3Location(scheme: scheme, bucket: bucket, key: key) }

    /// `s3://BUCKET/KEY[?versionId=…]`, the key URI-encoded (`/` kept): it reads back as the same location.
    public var description: String {
        "\(scheme)://\(bucket)/\(S3PercentEncoding.encode(key, keepingSlash: true))"
            + (versionID.map { "?versionId=" + S3PercentEncoding.encode($0) } ?? "")
    }

    /// Letters, digits, `.`, `-` and `_`, 3–222 characters: what AWS (including its legacy
    /// us-east-1 names) and Google accept, and nothing that could change a URL's host or path.
    static func isValidBucket(_ name: String) -> Bool {
        (3...222).contains(name.utf8.count)
            && name.utf8.allSatisfy { S3PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }
}
