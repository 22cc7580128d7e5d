internal import CVignetteGLib

/// SHA-256 and HMAC-SHA256 through GLib's `GChecksum` and `GHmac` (GLib comes with libvips), for
/// cache file names, URL signatures and AWS Signature Version 4.
package enum Digests {
    /// The lowercase hex SHA-256 of `bytes` (`g_checksum_get_string`).
    package static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        hex(sha256(bytes))
    }

    /// The SHA-256 of `bytes` (`g_checksum_update`, `g_checksum_get_digest`).
    package static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)
        defer { g_checksum_free(checksum) }
        let array = Array(bytes)
        array.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        digest.withUnsafeMutableBufferPointer { g_checksum_get_digest(checksum, $0.baseAddress, &length) }
        return digest
    }

    /// HMAC-SHA256 of `parts`, one after the other, under `key` (`g_hmac_new`, `g_hmac_update`).
    package static func hmacSHA256(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        let hmac = key.withUnsafeBufferPointer { g_hmac_new(G_CHECKSUM_SHA256, $0.baseAddress, gsize($0.count)) }
        defer { g_hmac_unref(hmac) }
        for part in parts {
            part.withUnsafeBufferPointer { g_hmac_update(hmac, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        digest.withUnsafeMutableBufferPointer { g_hmac_get_digest(hmac, $0.baseAddress, &length) }
        return digest
    }

    /// The lowercase hex digest of `bytes` by `kind` ("md5", "sha1", "sha256" or "sha512",
    /// `g_compute_checksum_for_data`); nil for another kind.
    package static func hex(of bytes: UnsafeRawBufferPointer, kind: String) -> String? {
        let types = ["md5": G_CHECKSUM_MD5, "sha1": G_CHECKSUM_SHA1, "sha256": G_CHECKSUM_SHA256, "sha512": G_CHECKSUM_SHA512]
        guard let type = types[kind] else { return nil }
        let checksum = g_checksum_new(type)
        defer { g_checksum_free(checksum) }
        g_checksum_update(checksum, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        return g_checksum_get_string(checksum).map { String(cString: $0) }
    }

    /// `bytes` as lowercase hex.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
