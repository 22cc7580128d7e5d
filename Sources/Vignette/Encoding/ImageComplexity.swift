/// How detailed an image is, for `f:best` (`BestFormat.complexityThreshold`): the mean absolute
/// difference, in 8-bit levels, between the luma of each pixel and of its right and lower
/// neighbours, over the image's 8-bit sRGB pixels (`Image.pixels()`, alpha premultiplied so that
/// transparent areas count as flat). Flat graphics, screenshots and logos score about 0–5
/// (most neighbours equal); photographs score from about 5 up (noise and texture everywhere),
/// so imgproxy's default threshold of 5.5 falls between them. Large images are sampled: at most
/// about 512 × 512 pixels, every `step`-th row and column, the neighbours taken at full resolution.
enum ImageComplexity {
    /// The score of `image`, 0 (flat) and up.
    static func score(_ image: Image) throws(ImagingError) -> Double {
        try score(image.pixels())
    }

    /// The score of `pixels`.
    static func score(_ pixels: PixelBuffer) -> Double {
        let (width, height, bands) = (pixels.width, pixels.height, pixels.bands)
        guard width > 1, height > 1, bands >= 1 else { return 0 }
        let step = max(1, max(width, height) / 512)
        var total = 0, count = 0
        pixels.bytes.withUnsafeBufferPointer { bytes in
            // Luma (0–255 × 8) of the pixel at x, y, alpha-weighted.
            func luma(_ x: Int, _ y: Int) -> Int {
                let index = (y * width + x) * bands
                let value: Int
                if bands >= 3 {
                    value = 2 * Int(bytes[index]) + 5 * Int(bytes[index + 1]) + Int(bytes[index + 2])
                } else {
                    value = 8 * Int(bytes[index])
                }
                guard bands == 2 || bands == 4 else { return value }
                return value * Int(bytes[index + bands - 1]) / 255
            }
            var y = 0
            while y < height - 1 {
                var x = 0
                while x < width - 1 {
                    let here = luma(x, y)
                    total += abs(here - luma(x + 1, y)) + abs(here - luma(x, y + 1))
                    count += 2
                    x += step
                }
                y += step
            }
        }
        return count == 0 ? 0 : Double(total) / Double(count) / 8
    }
}
