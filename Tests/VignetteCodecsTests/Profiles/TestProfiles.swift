import Foundation
@testable import VignetteCodecs

/// ICC profiles for the mismatched-profile tests: libvips' built-in sRGB
/// and CMYK profiles, a grey one written here (ICC.1 header, `wtpt` and a gamma 2.2 `kTRC`), and
/// damaged ones. `ProfileEmbedding.jpeg` puts them into JPEGs.
enum TestProfiles {
    static func sRGB() throws -> Data { try BuiltInProfile.sRGB.data() }
    static func cmyk() throws -> Data { try BuiltInProfile.cmyk.data() }

    /// A grey display profile: D50 white point, gamma 2.2.
    static func grey() -> Data {
        var tags: [(String, [UInt8])] = []
        // XYZType: 'XYZ ', reserved, X Y Z as s15Fixed16 (D50: 0.9642, 1.0, 0.8249).
        tags.append(("wtpt", Array("XYZ ".utf8) + [0, 0, 0, 0] + be32(0x0000_F6D6) + be32(0x0001_0000) + be32(0x0000_D32D)))
        // curveType with one entry, a gamma as u8Fixed8 (2.2 ≈ 0x0233), padded to 4 bytes.
        tags.append(("kTRC", Array("curv".utf8) + [0, 0, 0, 0] + be32(1) + [0x02, 0x33, 0, 0]))
        return profile(space: "GRAY", tags: tags)
    }

    /// `base` with the size of its first tag set to 0 in the tag table.
    static func zeroSizedTag(of base: Data) -> Data {
        var bytes = [UInt8](base)
        // Tag count at 128, then 12-byte entries: signature, offset, size.
        bytes.replaceSubrange(128 + 4 + 8..<128 + 4 + 12, with: [0, 0, 0, 0])
        return Data(bytes)
    }

    /// `base` cut to its first `count` bytes, the header still claiming the whole size.
    static func truncated(_ base: Data, to count: Int) -> Data { base.prefix(count) }

    /// 600 bytes of a pseudo-random pattern: no ICC header at all.
    static func junk() -> Data {
        var state: UInt32 = 0x1234_5678
        return Data((0..<600).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
    }

    /// A profile of `space` (four characters) with `tags`, PCS XYZ, version 2.1, class display.
    static func profile(space: String, tags: [(String, [UInt8])]) -> Data {
        let tableSize = 4 + 12 * tags.count
        var body: [UInt8] = []
        var table = be32(UInt32(tags.count))
        for (signature, content) in tags {
            table += Array(signature.utf8) + be32(UInt32(128 + tableSize + body.count)) + be32(UInt32(content.count))
            body += content
        }
        let size = 128 + tableSize + body.count
        var header = be32(UInt32(size)) + [0, 0, 0, 0] + [0x02, 0x10, 0, 0] + Array("mntr".utf8) + Array(space.utf8)
            + Array("XYZ ".utf8) + [UInt8](repeating: 0, count: 12) + Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 68 - header.count)  // platform … rendering intent
        header += be32(0x0000_F6D6) + be32(0x0001_0000) + be32(0x0000_D32D)  // illuminant D50
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return Data(header + table + body)
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
