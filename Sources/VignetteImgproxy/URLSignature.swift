import Vignette
import VignetteSupport

/// imgproxy's URL signature: `base64url(HMAC-SHA256(key, salt + path))` without padding, where
/// `path` is everything after the signature segment, leading `/` included; key and salt are given
/// hex-encoded. GLib's GHmac computes it (`Digests`).
public struct URLSignature: Sendable {
    private let key: [UInt8]
    private let salt: [UInt8]

    /// A signer for hex `key` and `salt`; nil when either is not hex (an odd length, a non-hex
    /// character) or the key is empty.
    public init?(keyHex: String, saltHex: String) {
        guard let key = URLSignature.bytes(hex: keyHex), !key.isEmpty, let salt = URLSignature.bytes(hex: saltHex) else { return nil }
        self.key = key
        self.salt = salt
    }

    /// The signature of `path` (base64url, no padding).
    public func signature(of path: Substring) -> String {
        let digest = hmac(Array(path.utf8))
        return Base64URL.encode(digest)
    }

    /// Whether `signature` is `path`'s (its canonical base64url, padding optional), compared in
    /// constant time. Non-canonical spellings of the same bytes (other unused low bits in the
    /// last character) are refused.
    public func isValid(_ signature: Substring, for path: Substring) -> Bool {
        var trimmed = signature
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        let given = Array(trimmed.utf8)
        let expected = Array(Base64URL.encode(hmac(Array(path.utf8))).utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }

    private func hmac(_ message: [UInt8]) -> [UInt8] {
        Digests.hmacSHA256(key: key, salt, message)
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
