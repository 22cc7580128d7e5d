import Vignette
import VignetteSupport

/// Percent-encoding as AWS Signature Version 4 defines it ("URI-encode"): the unreserved
/// characters A–Z a–z 0–9 `-` `_` `.` `~` are kept, every other byte of the UTF-8 form becomes
/// `%XX` with upper-case hex; `/` is kept only where a path allows it.
enum S3PercentEncoding {
    /// `text` encoded; `/` kept when `keepingSlash` (object keys in a path), else `%2F`.
    static func encode(_ text: String, keepingSlash: Bool = false) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
            }
        }
        return encoded
    }

    /// `text` with its `%XX` sequences decoded (`PercentEncoding`, the library's one decoder); nil
    /// when one is malformed or the bytes are not UTF-8. `+` stays `+` (S3 URLs are not form-encoded).
    static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        PercentEncoding.decoded(String(text))
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
