internal import Crypto

/// SHA-256 and HMAC-SHA256 (swift-crypto), for cache file names and URL signatures.
package enum Digests {
    /// The lowercase hex SHA-256 of `bytes`.
    package static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        SHA256.hash(data: Array(bytes)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// HMAC-SHA256 of `parts`, one after the other, under `key`.
    package static func hmacSHA256(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key))
        for part in parts { hmac.update(data: part) }
        return Array(hmac.finalize())
    }
}
