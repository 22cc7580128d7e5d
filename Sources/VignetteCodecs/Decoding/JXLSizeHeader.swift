#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The image size a JPEG XL file claims, read by Vignette from the codestream's `SizeHeader`
/// (ISO/IEC 18181-1, the first bits after the 0xFF0A signature), bare or inside the ISO BMFF
/// container's `jxlc` or first `jxlp` box, so that the decoding budget is checked before libjxl
/// reads the file: libjxl 0.11 refuses some huge headers as corrupt data itself, which would make
/// the verdict depend on the libjxl version rather than on the budget. Nil when the bytes hold no
/// readable size header (libjxl then has the last word).
struct JXLSizeHeader: Equatable {
    var width: Int
    var height: Int
    /// Whether the image metadata after the size is `all_default` (8-bit sRGB, three channels,
    /// no alpha or other extra channel, upright).
    var defaultMetadata: Bool

    /// What a probe says of a file with default metadata; nil for others (libvips reads those).
    var info: ImageInfo? {
        guard defaultMetadata else { return nil }
        return ImageInfo(format: .jxl, width: width, height: height, bands: 3, hasAlpha: false, orientation: 1, pages: 1, embeddedThumbnail: nil)
    }

    init?(_ data: Data) {
        guard let codestream = Self.codestream(data), codestream.count >= 3,
              codestream[codestream.startIndex] == 0xFF, codestream[codestream.startIndex + 1] == 0x0A
        else { return nil }
        var bits = BitReader(Array(codestream.dropFirst(2).prefix(64)), order: .leastSignificantFirst)
        guard let small = bits.read(1), let height = bits.jxlSize(small: small == 1), let ratio = bits.read(3) else { return nil }
        let width: Int
        if ratio == 0 {
            guard let value = bits.jxlSize(small: small == 1) else { return nil }
            width = value
        } else {
            // The fixed aspect ratios, in the order the standard lists them (1 is 1:1).
            let ratios = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
            let (numerator, denominator) = ratios[ratio - 1]
            width = height * numerator / denominator
        }
        self.width = width
        self.height = height
        defaultMetadata = bits.read(1) == 1
    }

    /// The codestream's first bytes: the data itself when it starts with the codestream signature,
    /// else the payload of the container's `jxlc` box, or of its first `jxlp` box (after that box's
    /// 4-byte index).
    private static func codestream(_ data: Data) -> Data? {
        let bytes = Data(data.prefix(65536))
        if bytes.starts(with: [0xFF, 0x0A]) { return bytes }
        let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        guard bytes.starts(with: signature) else { return nil }
        var offset = signature.count
        while offset + 8 <= bytes.count {
            let start = bytes.startIndex + offset
            var size = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[start + 4..<start + 8], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard offset + 16 <= bytes.count else { return nil }
                let large = bytes[start + 8..<start + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= header else { return nil }
            if type == "jxlc" { return Data(bytes[(start + header)...].prefix(size - header)) }
            if type == "jxlp" { return Data(bytes[(start + header)...].prefix(size - header).dropFirst(4)) }
            // A box reaching past the bytes read (a size up to 2^63 from a hostile file) ends the walk.
            guard size <= bytes.count - offset else { return nil }
            offset += size
        }
        return nil
    }
}

extension BitReader {
    /// A JPEG XL size: for a small image 8 × (1 + u(5)); else coded as U32(1 + u(9), 1 + u(13),
    /// 1 + u(18), 1 + u(30)), a 2-bit selector, then the bits it names.
    fileprivate mutating func jxlSize(small: Bool) -> Int? {
        if small { return read(5).map { ($0 + 1) * 8 } }
        guard let selector = bits(2), let value = bits([9, 13, 18, 30][Int(selector)]) else { return nil }
        return Int(value) + 1
    }

    fileprivate mutating func read(_ count: Int) -> Int? { bits(count).map { Int($0) } }
}
