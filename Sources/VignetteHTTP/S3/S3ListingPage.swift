import VignetteSupport

/// One page of a ListObjectsV2 answer (asked for with `encoding-type=url`): the keys, and the
/// token of the next page when the listing is truncated.
struct S3ListingPage: Sendable, Equatable {
    /// The keys of the page's objects, decoded, in S3's order.
    var keys: [String]
    /// `NextContinuationToken` when `IsTruncated` is true; nil on the last page.
    var nextContinuationToken: String?

    /// Why a page cannot be read.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The page in `bytes`.
    /// - Throws: `Malformed` when it is not a `ListBucketResult`, a key is not validly encoded, or
    ///   it says it is truncated without a token.
    init(xml bytes: [UInt8]) throws(Malformed) {
        guard Self.contains("<ListBucketResult", bytes) else {
            throw Malformed(description: "the listing is not a ListBucketResult")
        }
        keys = []
        for encoded in S3XML.elements("Key", in: bytes) {
            // encoding-type=url: S3 writes a space as +, as botocore reads it (unquote_plus).
            guard let key = S3PercentEncoding.decode(encoded.replacingPlusWithSpace) else {
                throw Malformed(description: "a key in the listing is not validly URL-encoded")
            }
            keys.append(key)
        }
        if S3XML.firstElement("IsTruncated", in: bytes) == "true" {
            guard let token = S3XML.firstElement("NextContinuationToken", in: bytes), !token.isEmpty else {
                throw Malformed(description: "the listing is truncated but has no NextContinuationToken")
            }
            nextContinuationToken = token
        } else {
            nextContinuationToken = nil
        }
    }

    private static func contains(_ text: String, _ bytes: [UInt8]) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

extension String {
    fileprivate var replacingPlusWithSpace: String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
