/// A 64-bit difference hash (dHash): similar images have hashes a small Hamming distance apart.
public struct PerceptualHash: Sendable, Hashable, CustomStringConvertible {
    /// The 64 bits: one per comparison of horizontally adjacent pixels of a 9×8 grey reduction.
    public let value: UInt64

    /// A hash from its bits.
    public init(value: UInt64) { self.value = value }

    /// The number of differing bits: 0 is identical, ≤ 5 is "looks the same".
    public func distance(to other: PerceptualHash) -> Int {
        (value ^ other.value).nonzeroBitCount
    }

    /// The 16 hex digits.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Image {
    /// The image's dHash: flattened onto white, greyed, resized to 9×8 by libvips (`vips_resize`),
    /// and one bit per horizontally adjacent pair set when the left pixel is brighter.
    public func perceptualHash() throws(ImagingError) -> PerceptualHash {
        var image = try standardizedToSRGB8()
        if image.hasAlpha { image = try image.flattened() }
        image = try image.converted(to: .blackAndWhite)
        image = try image.resized(toWidth: 9, height: 8, kernel: .linear)
        let pixels = try image.pixels()
        var value: UInt64 = 0
        for y in 0..<8 {
            for x in 0..<8 {
                let left = pixels.bytes[(y * 9 + x) * pixels.bands]
                let right = pixels.bytes[(y * 9 + x + 1) * pixels.bands]
                value = (value << 1) | (left > right ? 1 : 0)
            }
        }
        return PerceptualHash(value: value)
    }
}
