/// JPEG XL settings for libvips' `vips_jxlsave_buffer` (libjxl's encoder). Metadata are stripped
/// but for an ICC profile the image carries, which is always written.
public struct JXLOptions: Sendable, Hashable, Codable {
    /// 1–100, libvips' `Q`, which it turns into libjxl's butteraugli distance (90 is about
    /// distance 1, "visually lossless"). Ignored when `lossless`.
    public var quality: Int
    /// Whether the encode is lossless (libjxl's modular mode).
    public var lossless: Bool
    /// libjxl's effort, 3 (fastest) to 9 (slowest), libvips' `effort`. The default, 4, was chosen
    /// by measurement (docs/performance.md): about as small as libvips' default 7 at a ninth of
    /// its time. 8 and 9 take minutes on a photo and hundreds of bytes of memory a pixel (see
    /// `workingBytesPerPixel`).
    public var effort: Int

    /// JPEG XL settings: quality 80, lossy, effort 4, by default.
    public init(quality: Int = 80, lossless: Bool = false, effort: Int = 4) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
    }

    /// libjxl's working memory a pixel beyond the image, by effort and mode (the figures behind
    /// these values are in docs/performance.md).
    var workingBytesPerPixel: Int {
        if effort >= 8 { return 280 }
        return effort == 7 || lossless ? 90 : 45
    }
}
