import AsyncHTTPClient
import NIOCore
import VignetteSupport

/// The `<Code>` of an S3 error response (`NoSuchKey`, `AccessDenied`, `SignatureDoesNotMatch`,
/// `InvalidAccessKeyId`), read from at most the body's first 16 KiB. Nothing else of the body is
/// kept: S3 echoes the canonical request and the access key id in some errors.
enum S3ErrorCode {
    static let limit = 16 << 10

    /// The code in `body`, or nil when there is none (or it is not a plain word).
    static func read(from body: HTTPClientResponse.Body) async -> String? {
        var bytes: [UInt8] = []
        do {
            for try await buffer in body {
                bytes += buffer.readableBytesView.prefix(limit - bytes.count)
                if bytes.count >= limit { break }
            }
        } catch {
            return nil
        }
        return code(in: bytes)
    }

    /// The text of the first `<Code>` element when it is 1–64 letters, digits and dots.
    static func code(in bytes: [UInt8]) -> String? {
        guard let text = S3XML.firstElement("Code", in: bytes), (1...64).contains(text.utf8.count),
            text.utf8.allSatisfy({ S3PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: "-") })
        else { return nil }
        return text
    }
}
