import Vignette
import VignetteSupport

/// imgproxy's URL signature: `base64url(HMAC-SHA256(key, salt + path))` without padding, where
/// `path` is everything after the signature segment, leading `/` included; key and salt are given
/// hex-encoded. With a `size` below 32 only the digest's first `size` bytes are encoded
/// (imgproxy's `IMGPROXY_SIGNATURE_SIZE`). GLib's GHmac computes it (`Digests`).
public struct URLSignature: Sendable {
    private let key: [UInt8]
    private let salt: [UInt8]
    /// The digest's bytes a signature encodes: 1–32 (`sizes`), 32 by default.
    public let size: Int

    /// The signature sizes imgproxy allows, in bytes of the digest: 1–32 (SHA-256's 32 is the default).
    public static let sizes = 1...32

    /// A signer for hex `key` and `salt`, encoding `size` bytes of the digest; nil when either is
    /// not hex (an odd length, a non-hex character), the key is empty or `size` is outside `sizes`.
    public init?(keyHex: String, saltHex: String, size: Int = 32) {
        guard let key = URLSignature.bytes(hex: keyHex), !key.isEmpty, let salt = URLSignature.bytes(hex: saltHex),
            URLSignature.sizes.contains(size)
        else { return nil }
        self.key = key
        self.salt = salt
        self.size = size
    }

    /// The signature of `path` (base64url, no padding).
    public func signature(of path: Substring) -> String {
        Base64URL.encode(hmac(Array(path.utf8)))
    }

    /// Whether `signature` is `path`'s (its canonical base64url, padding optional), compared in
    /// constant time. Non-canonical spellings of the same bytes (other unused low bits in the
    /// last character) are refused.
    public func isValid(_ signature: Substring, for path: Substring) -> Bool {
        var trimmed = signature
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        let given = Array(trimmed.utf8)
        let expected = Array(self.signature(of: path).utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// The digest of `message`, cut to `size` bytes.
    private func hmac(_ message: [UInt8]) -> [UInt8] {
        Array(Digests.hmacSHA256(key: key, salt, message).prefix(size))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = PercentEncoding.hexValue(digits[index]), let low = PercentEncoding.hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
