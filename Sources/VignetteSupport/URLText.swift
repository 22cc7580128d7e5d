/// URL-safe base64 (RFC 4648 §5) and percent-decoding, for imgproxy URLs: their sources, file
/// names and options.
/// URL-safe base64: `-` and `_` for `+` and `/`; padding optional when decoding.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` encoded, without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<(chunk.count + 1) { out.append(alphabet[Int(value >> (18 - 6 * position) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes (URL-safe alphabet, or the standard one; padding optional); nil
    /// for any other character or an impossible length.
    package static func decode(_ text: Substring) -> [UInt8]? {
        var digits: [UInt8] = []
        digits.reserveCapacity(text.utf8.count)
        var padding = 0
        for character in text.utf8 {
            if character == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(character) else { return nil }
            digits.append(value)
        }
        guard digits.count % 4 != 1, padding <= 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count * 3 / 4)
        var index = 0
        while index < digits.count {
            let chunk = digits[index..<min(index + 4, digits.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (18 - 6 * $1.offset) }
            for position in 0..<(chunk.count - 1) { bytes.append(UInt8(value >> (16 - 8 * position) & 0xFF)) }
            index += 4
        }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }
}

/// `%XX` escapes.
package enum PercentEncoding {
    /// `text` with `%XX` escapes decoded (as UTF-8); nil for a bad escape or bytes that are not UTF-8.
    package static func decoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hex digit; nil for any other byte.
    package static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The URL-text decoders above for the fuzz target (a package of its own, which cannot reach
/// `package` declarations): whatever `text` is, they return a value or nil, never trap.
package enum URLTextDecoding {
    /// Runs `Base64URL.decode` and `PercentEncoding.decoded` over `text`.
    public static func decodeAll(_ text: String) {
        _ = Base64URL.decode(text[...])
        _ = PercentEncoding.decoded(text)
    }
}
